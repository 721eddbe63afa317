package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	"github.com/kinrow/kinrow/host/refkey"
)

// hostKey is the referee's key of the kinrow the tests run (TestMain
// points KINROW_CONFIG_DIR at the build directory).
func hostKey(t *testing.T) *refkey.Key {
	t.Helper()
	k, err := refkey.Load(os.Getenv(refkey.EnvDir))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// signWith returns the record m as a line signed by priv, as
// record.SignedLine writes it (its key set, its sig member last).
func signWith(t *testing.T, priv ed25519.PrivateKey, m map[string]any) string {
	t.Helper()
	delete(m, "sig")
	m["key"] = base64.StdEncoding.EncodeToString(priv.Public().(ed25519.PublicKey))
	body, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, body))
	return string(body[:len(body)-1]) + `,"sig":"` + sig + `"}`
}

// signAsHost signs m with the host's own key: what a user holding the key
// file can do.
func signAsHost(t *testing.T, m map[string]any) string {
	t.Helper()
	return signWith(t, hostKey(t).Private, m)
}
