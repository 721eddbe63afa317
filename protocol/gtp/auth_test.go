package gtp

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
)

// The reference vectors of SipHash-2-4 (veorq/SipHash, vectors.h): key
// 00 01 … 0f, message 00 01 … (n-1), output little-endian.
func TestSipHash24Vectors(t *testing.T) {
	var k AnswerKey
	for i := range k {
		k[i] = byte(i)
	}
	for n, want := range map[int][8]byte{
		0:  {0x31, 0x0e, 0x0e, 0xdd, 0x47, 0xdb, 0x6f, 0x72},
		1:  {0xfd, 0x67, 0xdc, 0x93, 0xc5, 0x39, 0xf8, 0x74},
		2:  {0x5a, 0x4f, 0xa9, 0xd9, 0x09, 0x80, 0x6c, 0x0d},
		3:  {0x2d, 0x7e, 0xfb, 0xd7, 0x96, 0x66, 0x67, 0x85},
		7:  {0x37, 0xd1, 0x01, 0x8b, 0xf5, 0x00, 0x02, 0xab},
		8:  {0x62, 0x24, 0x93, 0x9a, 0x79, 0xf5, 0xf5, 0x93},
		9:  {0xb0, 0xe4, 0xa9, 0x0b, 0xdf, 0x82, 0x00, 0x9e},
		15: {0xe5, 0x45, 0xbe, 0x49, 0x61, 0xca, 0x29, 0xa1},
	} {
		m := make([]byte, n)
		for i := range m {
			m[i] = byte(i)
		}
		if got := SipHash24(k, m); got != binary.LittleEndian.Uint64(want[:]) {
			t.Errorf("SipHash24(%d bytes) = %#x, want %#x", n, got, binary.LittleEndian.Uint64(want[:]))
		}
	}
}

// A tag is bound to every part of the answer and of the command, and to
// the key; keys print and parse back.
func TestAnswerTag(t *testing.T) {
	k, err := NewAnswerKey()
	if err != nil {
		t.Fatal(err)
	}
	if back, err := ParseAnswerKey(k.String()); err != nil || back != k {
		t.Fatalf("ParseAnswerKey(%s) = %v, %v", k, back, err)
	}
	for _, bad := range []string{"", "00", strings.Repeat("g", 32), strings.Repeat("0", 33)} {
		if _, err := ParseAnswerKey(bad); err == nil {
			t.Errorf("ParseAnswerKey(%q) accepted", bad)
		}
	}
	other, _ := NewAnswerKey()
	base := k.Tag("12", "genmove x", true, "4")
	if base < 0 || base > MaxTag {
		t.Fatalf("tag %d out of range", base)
	}
	for name, tag := range map[string]int{
		"id":      k.Tag("13", "genmove x", true, "4"),
		"command": k.Tag("12", "genmove o", true, "4"),
		"status":  k.Tag("12", "genmove x", false, "4"),
		"text":    k.Tag("12", "genmove x", true, "5"),
		"fields":  k.Tag("12\ngenmove", "x", true, "4"),
		"key":     other.Tag("12", "genmove x", true, "4"),
	} {
		if tag == base {
			t.Errorf("changing the %s leaves the tag %d", name, tag)
		}
	}
	if k.Tag("12", "genmove x", true, "4") != base {
		t.Error("the tag is not a function of its inputs")
	}
	// The Java bridge's Signer gives the same tag for the same inputs.
	var ref AnswerKey
	for i := range ref {
		ref[i] = byte(i)
	}
	if got := ref.Tag("12", "genmove x", true, "4"); got != 1821945488 {
		t.Errorf("tag under the reference key = %d, want 1821945488 (kinrow.bridge.Signer's)", got)
	}
}

// signingEngine answers commands read from in on out, as kinrow's Java
// bridge does: "kinrow-key KEY" as the first command makes it sign every
// answer from then on, its own included. "echo" repeats its arguments;
// the others misbehave as a player writing on the bridge's output would:
// "forge" writes an answer of its own without an id, "forgeid" one with
// the command's id, "wrongtext" signs one text and writes another,
// "replay" writes the previous answer again, "stray" signs its answer and
// then writes a second one.
func signingEngine(in io.Reader, out io.Writer) {
	r := NewReader(in)
	var key *AnswerKey
	first := true
	var last string
	answer := func(c Command, ok bool, text, written string) {
		mark, id := "=", ""
		if !ok {
			mark = "?"
		}
		if c.HasID {
			id = strconv.Itoa(c.ID)
		}
		tag := id
		if key != nil {
			tag = strconv.Itoa(key.Tag(id, Command{Name: c.Name, Args: c.Args}.String(), ok, text))
		}
		last = strings.TrimRight(mark+tag+" "+written, " ") + "\n\n"
		io.WriteString(out, last)
	}
	for {
		c, err := r.Next()
		if err != nil {
			return
		}
		switch c.Name {
		case "kinrow-key":
			if !first || len(c.Args) != 1 {
				answer(c, false, "kinrow-key must be the first command", "kinrow-key must be the first command")
				break
			}
			k, err := ParseAnswerKey(c.Args[0])
			if err != nil {
				answer(c, false, err.Error(), err.Error())
				break
			}
			key = &k
			answer(c, true, "", "")
		case "echo":
			text := strings.Join(c.Args, " ")
			answer(c, true, text, text)
		case "forge":
			io.WriteString(out, "= 1\n\n")
		case "forgeid":
			fmt.Fprintf(out, "=%d 1\n\n", c.ID)
		case "wrongtext":
			answer(c, true, "4", "1")
		case "replay":
			io.WriteString(out, last)
		case "stray":
			answer(c, true, "4", "4")
			answer(c, true, "4", "4")
		default:
			answer(c, false, "unknown command", "unknown command")
		}
		first = false
	}
}

func newSigningClient(t *testing.T, engine func(io.Reader, io.Writer)) *Client {
	t.Helper()
	cmdR, cmdW := io.Pipe()
	ansR, ansW := io.Pipe()
	go func() {
		engine(cmdR, ansW)
		ansW.Close()
	}()
	t.Cleanup(func() {
		cmdW.Close()
		ansR.Close()
	})
	return NewClient(cmdW, ansR)
}

// An engine that takes the key signs every answer, and the client takes
// nothing else: an answer without an id, with the command's id, a signed
// text swapped for another, a replayed answer or a second answer all fail
// the call as unsigned (and unexpected) answers.
func TestClientSignedAnswers(t *testing.T) {
	ctx := context.Background()
	for _, bad := range []string{"forge", "forgeid", "wrongtext", "replay", "stray"} {
		t.Run(bad, func(t *testing.T) {
			c := newSigningClient(t, signingEngine)
			if err := c.RequireIDs(); err != nil {
				t.Fatal(err)
			}
			key, err := NewAnswerKey()
			if err != nil {
				t.Fatal(err)
			}
			resp, signed, err := c.Authenticate(ctx, key, "kinrow-key", key.String())
			if err != nil || !signed || !resp.OK {
				t.Fatalf("Authenticate = %+v, %v, %v; want a signed success", resp, signed, err)
			}
			if resp, err := c.Do(ctx, "echo", "a", "b"); err != nil || resp.Text != "a b" {
				t.Fatalf("echo = %+v, %v", resp, err)
			}
			if resp, err := c.Do(ctx, "nope"); err != nil || resp.OK || resp.Text != "unknown command" {
				t.Fatalf("a signed failure answer = %+v, %v", resp, err)
			}
			// A second key is refused, signed with the first.
			if resp, _, err := c.Authenticate(ctx, key, "kinrow-key", key.String()); err != nil || resp.OK {
				t.Fatalf("second kinrow-key = %+v, %v; want a signed refusal", resp, err)
			}
			resp, err = c.Do(ctx, bad)
			if bad == "stray" {
				if err != nil || resp.Text != "4" {
					t.Fatalf("stray: the first answer = %+v, %v", resp, err)
				}
				resp, err = c.Do(ctx, "echo", "x")
			}
			// The second answer is refused as unsigned when it comes while
			// the next command waits, as stray when it came before.
			if !errors.Is(err, ErrUnexpectedAnswer) || (bad != "stray" && !errors.Is(err, ErrUnsignedAnswer)) {
				t.Fatalf("%s: %+v, %v; want an unsigned answer refused", bad, resp, err)
			}
			if _, err := c.Do(ctx, "echo", "x"); err == nil {
				t.Error("the client is still usable after an unsigned answer")
			}
		})
	}
}

// An engine that does not know kinrow-key refuses it with the command's
// id: the client goes on unsigned; with RequireIDs it numbers its
// commands from a random start and refuses answers without the id.
func TestClientUnsignedEngine(t *testing.T) {
	ctx := context.Background()
	c := newSigningClient(t, fakeEngine)
	if err := c.RequireIDs(); err != nil {
		t.Fatal(err)
	}
	key, _ := NewAnswerKey()
	resp, signed, err := c.Authenticate(ctx, key, "kinrow-key", key.String())
	if err != nil || signed || resp.OK || !resp.HasID || resp.ID < 1 || resp.ID > 1<<30 {
		t.Fatalf("Authenticate on an engine without keys = %+v, %v, %v", resp, signed, err)
	}
	first := resp.ID
	resp, err = c.Do(ctx, "echo", "hi")
	if err != nil || resp.ID != first+1 || resp.Text != "hi" {
		t.Fatalf("echo = %+v, %v; want id %d", resp, err, first+1)
	}
	if _, err := c.Do(ctx, "wrongid"); !errors.Is(err, ErrUnexpectedAnswer) || errors.Is(err, ErrUnsignedAnswer) {
		t.Fatalf("wrong id: %v", err)
	}

	// Random starts differ (two equal starts in a row: one chance in 2^30).
	c2 := newSigningClient(t, fakeEngine)
	c2.RequireIDs()
	if resp, err := c2.Do(ctx, "echo"); err != nil || resp.ID == first {
		t.Errorf("second client's first id %d, %v (first client's %d)", resp.ID, err, first)
	}

	// An answer without an id: taken by default, refused under RequireIDs.
	noID := func(in io.Reader, out io.Writer) {
		r := NewReader(in)
		for {
			if _, err := r.Next(); err != nil {
				return
			}
			io.WriteString(out, "= 1\n\n")
		}
	}
	lenient := newSigningClient(t, noID)
	if resp, err := lenient.Do(ctx, "echo"); err != nil || resp.Text != "1" {
		t.Fatalf("lenient client: %+v, %v", resp, err)
	}
	strict := newSigningClient(t, noID)
	strict.RequireIDs()
	if _, err := strict.Do(ctx, "echo"); !errors.Is(err, ErrUnexpectedAnswer) || !strings.Contains(err.Error(), "without an id") {
		t.Fatalf("strict client: %v", err)
	}
}
