package match

import (
	"crypto/ed25519"
	"encoding/base64"

	"github.com/kinrow/kinrow/engine/record"
)

// testKey is the referee's key of the tests (a fixed seed), testPub its
// public key.
var (
	testKey = ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	testPub = testKey.Public().(ed25519.PublicKey)
)

// testMerge merges records signed by testKey.
var testMerge = MergeOptions{Trusted: []ed25519.PublicKey{testPub}}

// testVerifier trusts testKey.
func testVerifier() *record.Verifier { return record.NewVerifier([]ed25519.PublicKey{testPub}, false) }

// signBody signs a record line without its sig member with testKey, as
// record.SignedLine does.
func signBody(body []byte) string {
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(testKey, body))
	return string(body[:len(body)-1]) + `,"sig":"` + sig + `"}`
}
