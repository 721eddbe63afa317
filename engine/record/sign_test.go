package record

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
)

var (
	keyA = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, ed25519.SeedSize))
	keyB = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{2}, ed25519.SeedSize))
)

func pub(k ed25519.PrivateKey) ed25519.PublicKey { return k.Public().(ed25519.PublicKey) }

// finished is a record of a finished tic-tac-toe game: x wins along a row.
func finished(game int) *Record {
	rules, _ := engine.ParseRules("tictactoe")
	r := New(rules, Players{X: "a", O: "b"}, time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC))
	for i, m := range []string{"a1", "a2", "b1", "b2", "c1"} {
		mv, _ := rules.ParseMove(m)
		r.Add(rules, mv, engine.Color(i%2), time.Millisecond)
	}
	r.Finish(engine.XWins, ReasonWin, "", "", r.Start)
	r.Round, r.Game, r.Schedule = 1, game, "0123456789abcdef:1x9"
	return r
}

func signed(t *testing.T, k ed25519.PrivateKey, r *Record) string {
	t.Helper()
	line, err := r.SignedLine(k)
	if err != nil {
		t.Fatal(err)
	}
	return string(line)
}

// A signed line verifies with the key it names, and SplitSigned gives back
// exactly the bytes that were signed: the record marshalled without sig.
func TestSignedLineVerifies(t *testing.T) {
	r := finished(1)
	line := signed(t, keyA, r)
	if !validID(r.ID) || r.Key != EncodeKey(pub(keyA)) || !strings.HasSuffix(line, `,"sig":"`+r.Sig+`"}`) {
		t.Fatalf("id %q key %q line %s", r.ID, r.Key, line)
	}
	body, sig, ok := SplitSigned([]byte(line))
	if !ok || !ed25519.Verify(pub(keyA), body, sig) {
		t.Fatalf("SplitSigned(%s) = %s, ok %v", line, body, ok)
	}
	c := *r
	c.Sig = ""
	want, _ := json.Marshal(&c)
	if !bytes.Equal(body, want) {
		t.Errorf("signed bytes\n%s\nwant\n%s", body, want)
	}
	again := signed(t, keyA, r) // the id is kept
	var a, b Record
	json.Unmarshal([]byte(line), &a)
	json.Unmarshal([]byte(again), &b)
	if a.ID != b.ID {
		t.Errorf("signing again changed the id: %s, %s", a.ID, b.ID)
	}
}

// What a verifier refuses, and what it accepts, each named.
func TestVerifier(t *testing.T) {
	good := signed(t, keyA, finished(1))
	other := signed(t, keyB, finished(2))
	flipped := strings.Replace(good, `"result":"X+"`, `"result":"O+"`, 1)
	flipped = strings.Replace(flipped, `"winner":"a"`, `"winner":"b"`, 1)
	unsigned, _ := finished(3).MarshalLine()
	var m map[string]any
	json.Unmarshal([]byte(good), &m)
	m["game"] = 7.0 // a copy under a new number, the signature kept
	renumbered, _ := json.Marshal(m)
	sigFirst := strings.Replace(good, `{"rules"`, `{"sig":"x","rules"`, 1)
	sigFirst = sigFirst[:strings.LastIndex(sigFirst, `,"sig"`)] + "}"
	for _, tc := range []struct {
		name          string
		lines         []string
		allowUnsigned bool
		want          error
		wantN         int // the line refused
		unsigned      int
	}{
		{"signed by a trusted key", []string{good}, false, nil, 0, 0},
		{"unsigned", []string{string(unsigned)}, false, ErrUnsigned, 1, 0},
		{"unsigned allowed", []string{good, string(unsigned)}, true, nil, 0, 1},
		{"untrusted key", []string{good, other}, false, ErrUntrustedKey, 2, 0},
		{"result flipped", []string{flipped}, false, ErrBadSignature, 1, 0},
		{"renumbered copy", []string{good, string(renumbered)}, false, ErrBadSignature, 2, 0},
		{"sig not last", []string{sigFirst}, false, ErrBadSignature, 1, 0},
		{"the same game twice", []string{good, strings.Replace(good, `"game":1`, `"game":1 `, 1)}, false, ErrBadSignature, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewVerifier([]ed25519.PublicKey{pub(keyA)}, tc.allowUnsigned)
			ls, err := Reader{Verifier: v}.Read("g.jsonl", strings.NewReader(strings.Join(tc.lines, "\n")+"\n"))
			if tc.want == nil {
				if err != nil || len(ls.Records) != len(tc.lines) || v.Unsigned != tc.unsigned {
					t.Fatalf("%v, %d records, %d unsigned", err, len(ls.Records), v.Unsigned)
				}
				return
			}
			var bad *Bad
			if !errors.Is(err, tc.want) || !errors.As(err, &bad) || bad.N != tc.wantN || !Unvouched(err) {
				t.Fatalf("error %v; want %v on line %d", err, tc.want, tc.wantN)
			}
		})
	}
}

// A game id is refused the second time a verifier reads it, in the same
// file (under another game number: a forger holding the key re-signed it)
// or in a later one (the same shard given twice).
func TestDuplicateGameID(t *testing.T) {
	r := finished(1)
	first := signed(t, keyA, r)
	r.Game = 2 // the copy: same id, a new number, signed again
	copied := signed(t, keyA, r)
	v := NewVerifier([]ed25519.PublicKey{pub(keyA)}, false)
	_, err := Reader{Verifier: v}.Read("a.jsonl", strings.NewReader(first+"\n"+copied+"\n"))
	if !errors.Is(err, ErrDuplicateID) || !strings.Contains(err.Error(), "a.jsonl:2: duplicate game id: game id "+r.ID+" is already recorded at a.jsonl:1") {
		t.Fatalf("same file: %v", err)
	}
	v = NewVerifier([]ed25519.PublicKey{pub(keyA)}, false)
	if _, err := (Reader{Verifier: v}).Read("a.jsonl", strings.NewReader(first+"\n")); err != nil {
		t.Fatal(err)
	}
	_, err = Reader{Verifier: v}.Read("b.jsonl", strings.NewReader(first+"\n"))
	if !errors.Is(err, ErrDuplicateID) || !strings.Contains(err.Error(), "b.jsonl:1:") || !strings.Contains(err.Error(), "a.jsonl:1") {
		t.Fatalf("second file: %v", err)
	}
	ls, err := Reader{Verifier: NewVerifier([]ed25519.PublicKey{pub(keyA)}, false)}.ReadEvery("a.jsonl", strings.NewReader(first+"\n"+copied+"\n"))
	if err != nil || len(ls.Records) != 1 || len(ls.Bad) != 1 {
		t.Fatalf("ReadEvery: %d records, %d bad, %v", len(ls.Records), len(ls.Bad), err)
	}
}

// TestLargestRecord measures the largest record kinrow writes, a full
// board with every move's search report and the longest principal
// variation a record keeps, against MaxLineBytes: 70x70 (the brief's
// largest board in use) and 128x128 (engine.MaxSide).
func TestLargestRecord(t *testing.T) {
	for _, size := range []int{70, engine.MaxSide} {
		rules, err := engine.ParseRules(fmt.Sprintf("mnk:%dx%dx%d", size, size, size))
		if err != nil {
			t.Fatal(err)
		}
		r := New(rules, Players{X: strings.Repeat("x", 64), O: strings.Repeat("o", 64)}, time.Now())
		pv := make([]string, MaxPVMoves+10)
		for i := range pv {
			pv[i] = strings.Repeat("Z", MaxPVMove)
		}
		p := engine.NewPosition(rules)
		for cell := 0; cell < size*size; cell++ {
			m := engine.Move(cell)
			c := p.ToMove()
			r.Moves = append(r.Moves, Move{Move: rules.FormatMove(m), Color: c.String(), MS: 99999999, CPUMS: 99999999,
				Search: &Search{Depth: 999, Score: -999999999, Nodes: 999999999999999, MS: 99999999, PV: pv}})
		}
		r.Finish(engine.Draw, ReasonDraw, "", strings.Repeat("d", 256), time.Now())
		r.Round, r.Game, r.Schedule = 999, 999999, "0123456789abcdef:999x999999"
		line, err := r.SignedLine(keyA)
		if err != nil {
			t.Fatalf("%dx%d: %v", size, size, err)
		}
		t.Logf("%dx%d with every search report: %d bytes (%.1f MiB), bound %d MiB", size, size, len(line), float64(len(line))/(1<<20), MaxLineBytes>>20)
		if len(line) > MaxLineBytes {
			t.Errorf("%dx%d: %d bytes, over the bound", size, size, len(line))
		}
	}
}

// endless is a reader of a record line n bytes long, made as it is read:
// the test holds none of it.
type endless struct{ n, off int }

func (e *endless) Read(p []byte) (int, error) {
	if e.off >= e.n {
		return 0, io.EOF
	}
	k := min(len(p), e.n-e.off)
	for i := range p[:k] {
		switch pos := e.off + i; {
		case pos < 10:
			p[i] = `{"rules":"`[pos]
		case pos == e.n-1:
			p[i] = '\n'
		default:
			p[i] = 'a'
		}
	}
	e.off += k
	return k, nil
}

// A 100 MB line is refused naming the bound and its line, read a block at
// a time: the reader allocates a bounded amount (the bound and its
// buffers), and the lines after it are still read.
func TestReaderBoundsLongLine(t *testing.T) {
	good := signed(t, keyA, finished(1))
	r := io.MultiReader(strings.NewReader(good+"\n"), &endless{n: 100 << 20}, strings.NewReader(signed(t, keyA, finished(2))+"\n"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ls, err := Reader{Verifier: NewVerifier([]ed25519.PublicKey{pub(keyA)}, false)}.ReadEvery("big.jsonl", r)
	runtime.ReadMemStats(&after)
	if err != nil || len(ls.Records) != 2 || len(ls.Bad) != 1 {
		t.Fatalf("%d records, %d bad, %v", len(ls.Records), len(ls.Bad), err)
	}
	if msg := ls.Bad[0].Error(); !errors.Is(ls.Bad[0], ErrLineTooLong) || !strings.Contains(msg, "big.jsonl:2: record line too long: record line 2 is over 16 MiB (104857599 bytes)") {
		t.Errorf("bad line: %v", msg)
	}
	// Wide headroom: the bound is 16 MiB; the line is 100 MiB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("reading a 100 MiB line allocated %d MiB", alloc>>20)
	}
	// Read refuses the file at that line.
	_, err = Reader{}.Read("big.jsonl", &endless{n: 100 << 20})
	if !errors.Is(err, ErrLineTooLong) || !strings.Contains(err.Error(), "big.jsonl:1:") {
		t.Errorf("Read: %v", err)
	}
	// A line of exactly the bound is read (and judged on its content).
	_, err = Reader{MaxLine: 100}.Read("b", &endless{n: 101})
	if errors.Is(err, ErrLineTooLong) {
		t.Errorf("a line of the bound: %v", err)
	}
	_, err = Reader{MaxLine: 100}.Read("b", &endless{n: 102})
	if !errors.Is(err, ErrLineTooLong) {
		t.Errorf("a line one over the bound: %v", err)
	}
}

// FuzzSplitSigned: SplitSigned never panics; when it splits a line, the
// body and the signature make the line again; a signed line verifies, and
// any change to it is refused (or changes nothing the verifier reads).
func FuzzSplitSigned(f *testing.F) {
	good, _ := finished(1).SignedLine(keyA)
	f.Add(good, 0, byte('x'))
	f.Add(good, len(good)-3, byte('A'))
	f.Add([]byte(`{"rules":"x","sig":"`+strings.Repeat("A", 86)+`=="}`), 3, byte('0'))
	f.Add([]byte(`,"sig":"`), 0, byte('}'))
	f.Fuzz(func(t *testing.T, line []byte, at int, b byte) {
		if body, sig, ok := SplitSigned(line); ok {
			if len(sig) != ed25519.SignatureSize || body[len(body)-1] != '}' ||
				!bytes.Equal(append(body[:len(body)-1:len(body)-1], []byte(`,"sig":"`)...), line[:len(body)-1+len(`,"sig":"`)]) {
				t.Fatalf("split %q into %q", line, body)
			}
		}
		if len(good) == 0 || at < 0 {
			return
		}
		mutated := bytes.Clone(good)
		mutated[at%len(mutated)] = b
		v := NewVerifier([]ed25519.PublicKey{pub(keyA)}, false)
		ls, err := Reader{Verifier: v}.Read("f", bytes.NewReader(append(mutated, '\n')))
		if err == nil && !bytes.Equal(mutated, good) {
			// Only a change that leaves the record as read the same may
			// pass: none of the signed bytes, and the signature as decoded.
			var a, c Record
			json.Unmarshal(good, &a)
			json.Unmarshal(mutated, &c)
			if fmt.Sprint(a) != fmt.Sprint(c) || len(ls.Records) != 1 {
				t.Fatalf("a changed line passed: %s", mutated)
			}
		}
	})
}

// BenchmarkRead reads 1000 signed records of a tic-tac-toe game, with and
// without verifying their signatures: what verifying adds to the judge.
func BenchmarkRead(b *testing.B) {
	var buf bytes.Buffer
	for i := range 1000 {
		line, _ := finished(i + 1).SignedLine(keyA)
		buf.Write(line)
		buf.WriteByte('\n')
	}
	data := buf.Bytes()
	for _, verify := range []bool{false, true} {
		b.Run(fmt.Sprintf("verify=%v", verify), func(b *testing.B) {
			for b.Loop() {
				rd := Reader{}
				if verify {
					rd.Verifier = NewVerifier([]ed25519.PublicKey{pub(keyA)}, false)
				}
				if _, err := rd.Read("b", bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
