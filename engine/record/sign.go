package record

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// The signature of a record line (docs/MATCHES.md, "Records a referee
// vouches for"): the writer marshals the record without its sig member,
// signs exactly those bytes with its ed25519 key, and writes them with
// `,"sig":"SIG"}` in place of the final `}`, SIG the signature in standard
// base64 (88 characters). A verifier cuts that suffix, puts the `}` back and
// checks the signature of those bytes with the key the record names, so
// verifying never depends on marshalling the record again.
const (
	sigMember = `,"sig":"`
	sigLen    = 88 // base64.StdEncoding.EncodedLen(ed25519.SignatureSize)
	// sigSuffixLen is the length of `,"sig":"SIG"}`.
	sigSuffixLen = len(sigMember) + sigLen + len(`"}`)
)

// MaxPVMoves and MaxPVMove bound the principal variation a record keeps of
// each move's search report: its first MaxPVMoves moves, and none from the
// first one longer than MaxPVMove bytes or with a byte outside printable
// ASCII (no notation has one). They keep the largest record line below
// MaxLineBytes.
const (
	MaxPVMoves = 32
	MaxPVMove  = 16
)

// The ways a record fails verification; the reader's error wraps one.
var (
	// ErrUnsigned: the record carries no signature (written by another
	// program, by hand, or by kinrow before records were signed).
	ErrUnsigned = errors.New("unsigned record")
	// ErrBadSignature: the signature does not verify with the key the
	// record names (the line was changed after it was signed), or the
	// signature, the key or the game id is malformed.
	ErrBadSignature = errors.New("bad signature")
	// ErrUntrustedKey: the signature verifies, but with a key that is
	// neither this host's nor one given with --trust.
	ErrUntrustedKey = errors.New("untrusted key")
	// ErrDuplicateID: a record with this game id was read before.
	ErrDuplicateID = errors.New("duplicate game id")
)

// Unvouched tells whether err refuses a record for what a verifier checks
// (unsigned, a bad signature, an untrusted key, a game id seen before) or
// for a line over the bound: what --skip-invalid leaves out rather than
// refusing the file.
func Unvouched(err error) bool {
	for _, e := range []error{ErrUnsigned, ErrBadSignature, ErrUntrustedKey, ErrDuplicateID, ErrLineTooLong} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// NewID returns a new game id: 128 random bits in lower-case hex.
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// validID tells whether id is a game id as NewID makes them.
func validID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// EncodeKey returns a public key as records name it: its 32 bytes in
// standard base64 (44 characters).
func EncodeKey(pub ed25519.PublicKey) string {
	return base64.StdEncoding.EncodeToString(pub)
}

// ParseKey reads a public key as EncodeKey writes it.
func ParseKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("key %q is not an ed25519 public key (want %d bytes in standard base64)", cut(s), ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// cut shortens s for an error message.
func cut(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// SignedLine returns the record as one signed JSON line without the
// newline: a game id (NewID) when it has none, the public key of priv in
// Key, then the signature of the line without its sig member, spliced in
// as the last member. It sets r's ID, Key and Sig as written. The search
// reports' principal variations are cut as MaxPVMoves says; a line over
// MaxLineBytes is refused, since no reader would read it.
func (r *Record) SignedLine(priv ed25519.PrivateKey) ([]byte, error) {
	c := *r
	c.Sig = ""
	c.Key = EncodeKey(priv.Public().(ed25519.PublicKey))
	if c.ID == "" {
		c.ID = NewID()
	}
	c.Moves = clampSearch(c.Moves)
	body, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("encode game record: %w", err)
	}
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, body))
	line := make([]byte, 0, len(body)+sigSuffixLen)
	line = append(line, body[:len(body)-1]...)
	line = append(line, sigMember...)
	line = append(line, sig...)
	line = append(line, `"}`...)
	if len(line) > MaxLineBytes {
		return nil, fmt.Errorf("encode game record: %d bytes, over the %s a record line may hold", len(line), sizeText(MaxLineBytes))
	}
	r.ID, r.Key, r.Sig = c.ID, c.Key, sig
	return line, nil
}

// clampSearch returns moves with every search report's principal variation
// cut as MaxPVMoves says (a copy where any is cut).
func clampSearch(moves []Move) []Move {
	out := moves
	for i, m := range moves {
		if m.Search == nil {
			continue
		}
		n := pvKeep(m.Search.PV)
		if n == len(m.Search.PV) {
			continue
		}
		if &out[0] == &moves[0] {
			out = append([]Move(nil), moves...)
		}
		s := *m.Search
		s.PV = s.PV[:n:n]
		out[i].Search = &s
	}
	return out
}

// pvKeep is how many moves of pv a record keeps.
func pvKeep(pv []string) int {
	for i, m := range pv {
		if i == MaxPVMoves || len(m) > MaxPVMove {
			return i
		}
		for j := 0; j < len(m); j++ {
			if m[j] < 0x21 || m[j] > 0x7e {
				return i
			}
		}
	}
	return len(pv)
}

// SplitSigned splits a signed record line into the bytes that were signed
// (the line without its last member `,"sig":"SIG"`) and the signature. ok
// is false when the line does not end with such a member.
func SplitSigned(line []byte) (body, sig []byte, ok bool) {
	n := len(line)
	if n < sigSuffixLen+1 || !bytes.HasSuffix(line, []byte(`"}`)) ||
		string(line[n-sigSuffixLen:n-sigSuffixLen+len(sigMember)]) != sigMember {
		return nil, nil, false
	}
	sig = make([]byte, ed25519.SignatureSize+2)
	m, err := base64.StdEncoding.Strict().Decode(sig, line[n-2-sigLen:n-2])
	if err != nil || m != ed25519.SignatureSize {
		return nil, nil, false
	}
	body = make([]byte, 0, n-sigSuffixLen+1)
	body = append(body, line[:n-sigSuffixLen]...)
	body = append(body, '}')
	return body, sig[:m], true
}

// Verifier checks, across every file one command reads, that each record
// is signed by a trusted key and that no game id comes twice. It is not
// safe for concurrent use.
type Verifier struct {
	trusted       map[string]bool
	allowUnsigned bool
	seen          map[string]string // game id → "file:line" of its first record
	// Unsigned counts the unsigned records accepted (allowUnsigned).
	Unsigned int
}

// NewVerifier returns a verifier trusting the records signed by one of
// trusted; allowUnsigned accepts unsigned records too (counted in
// Unsigned), for files written before records were signed.
func NewVerifier(trusted []ed25519.PublicKey, allowUnsigned bool) *Verifier {
	v := &Verifier{trusted: map[string]bool{}, allowUnsigned: allowUnsigned, seen: map[string]string{}}
	for _, k := range trusted {
		v.trusted[EncodeKey(k)] = true
	}
	return v
}

// check verifies the signature of line, whose record is rec (decoded from
// line), and the trust of its key. An unsigned record is accepted when
// the verifier allows them (unsigned says so; claim counts it).
func (v *Verifier) check(line []byte, rec *Record) (unsigned bool, err error) {
	body, sig, ok := SplitSigned(line)
	if !ok {
		if rec.Sig != "" {
			return false, fmt.Errorf("%w: the sig member is not written as the line's last one, `,\"sig\":\"<88 base64 characters>\"}` (the line was rewritten)", ErrBadSignature)
		}
		if v.allowUnsigned {
			return true, nil
		}
		return false, fmt.Errorf("%w: no signature of the referee that played it (give --allow-unsigned to read records written before kinrow signed them)", ErrUnsigned)
	}
	pub, err := ParseKey(rec.Key)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	if !ed25519.Verify(pub, body, sig) {
		return false, fmt.Errorf("%w: the line was changed after key %s signed it", ErrBadSignature, rec.Key)
	}
	if !validID(rec.ID) {
		return false, fmt.Errorf("%w: game id %q is not 32 lower-case hex digits", ErrBadSignature, cut(rec.ID))
	}
	if !v.trusted[rec.Key] {
		return false, fmt.Errorf("%w: signed by key %s, which is not this host's key nor one given with --trust KEYFILE", ErrUntrustedKey, rec.Key)
	}
	return false, nil
}

// claim records the game id of a record read at where ("file:line") that
// passed every other check, and counts it when it is unsigned; a game id
// read before is refused.
func (v *Verifier) claim(id, where string, unsigned bool) error {
	if id != "" {
		if first, dup := v.seen[id]; dup {
			return fmt.Errorf("%w: game id %s is already recorded at %s; a game is played and counted once", ErrDuplicateID, id, first)
		}
		v.seen[id] = where
	}
	if unsigned {
		v.Unsigned++
	}
	return nil
}

// sizeText writes a byte count in MiB when it is a whole number of them.
func sizeText(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
