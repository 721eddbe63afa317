package gtp

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
)

// ErrUnsignedAnswer is wrapped, beside ErrUnexpectedAnswer, by the error of
// a Client's call when the client takes signed answers (see
// Client.Authenticate) and the answer read does not carry the signature of
// the command and of its own text: output that the engine's signer did not
// write for this command, such as bytes another party wrote on the
// engine's output.
var ErrUnsignedAnswer = errors.New("gtp: answer not signed with the engine's key")

// AnswerKey is a key an engine signs its answers with. An engine that holds
// one (kinrow's Java bridge, given it with kinrow-key) answers with, in
// place of the echoed command id, the answer's tag (AnswerKey.Tag): a
// SipHash-2-4 MAC of the command's id, the command, the answer's status and
// its text, so that whoever can write on the engine's output but does not
// hold the key cannot produce an answer the controller accepts, even after
// reading every command and every answer.
type AnswerKey [16]byte

// NewAnswerKey returns a random key.
func NewAnswerKey() (AnswerKey, error) {
	var k AnswerKey
	if _, err := rand.Read(k[:]); err != nil {
		return k, fmt.Errorf("gtp: answer key: %w", err)
	}
	return k, nil
}

// ParseAnswerKey reads a key written by AnswerKey.String: 32 hex digits.
func ParseAnswerKey(s string) (AnswerKey, error) {
	var k AnswerKey
	if len(s) != 2*len(k) {
		return k, fmt.Errorf("gtp: answer key: want %d hex digits, got %d characters", 2*len(k), len(s))
	}
	if _, err := hex.Decode(k[:], []byte(s)); err != nil {
		return k, fmt.Errorf("gtp: answer key: %w", err)
	}
	return k, nil
}

// String returns the key as 32 lower-case hex digits, as kinrow-key sends
// it.
func (k AnswerKey) String() string { return hex.EncodeToString(k[:]) }

// MaxTag bounds the tags: a tag is at most MaxTag, so that it reads back
// as an int on every platform and as an int32 in any engine.
const MaxTag = 1<<31 - 1

// Tag is the id of the answer to the command "id command" (command: the
// name and arguments as sent, single spaces, without the id; id: the
// command's id in decimal as sent, "" for none) whose status is ok ('=')
// or not ('?') and whose text is text, under key k: the low 31 bits of
// SipHash-2-4 with the key's first 8 bytes as k0 and the last 8 as k1
// (little-endian, as in the reference), over the bytes
//
//	id "\n" command "\n" ("=" | "?") "\n" text
//
// (text as the controller reads it: the answer without its "=tag " prefix,
// lines joined with "\n"). Every field but the last holds no "\n", so the
// message is unambiguous.
func (k AnswerKey) Tag(id, command string, ok bool, text string) int {
	m := make([]byte, 0, len(id)+len(command)+len(text)+5)
	m = append(m, id...)
	m = append(m, '\n')
	m = append(m, command...)
	m = append(m, '\n')
	if ok {
		m = append(m, '=')
	} else {
		m = append(m, '?')
	}
	m = append(m, '\n')
	m = append(m, text...)
	return int(SipHash24(k, m) & MaxTag)
}

// tagOf is Tag for a Command sent by a Client (with its id).
func (k AnswerKey) tagOf(c Command, r Response) int {
	line := Command{Name: c.Name, Args: c.Args}.String()
	return k.Tag(strconv.Itoa(c.ID), line, r.OK, r.Text)
}

// SipHash24 returns SipHash-2-4 of m under the 128-bit key k (Aumasson and
// Bernstein, "SipHash: a fast short-input PRF", 2012), the output as the
// reference's little-endian 64-bit value.
func SipHash24(k AnswerKey, m []byte) uint64 {
	k0 := binary.LittleEndian.Uint64(k[0:8])
	k1 := binary.LittleEndian.Uint64(k[8:16])
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13)
		v1 ^= v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17)
		v1 ^= v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	n := len(m)
	for len(m) >= 8 {
		w := binary.LittleEndian.Uint64(m)
		v3 ^= w
		round()
		round()
		v0 ^= w
		m = m[8:]
	}
	b := uint64(n) << 56
	for i, c := range m {
		b |= uint64(c) << (8 * i)
	}
	v3 ^= b
	round()
	round()
	v0 ^= b
	v2 ^= 0xff
	round()
	round()
	round()
	round()
	return v0 ^ v1 ^ v2 ^ v3
}

// randomStart returns a random first command id in [1, 2^30], so that a
// client's ids stay below 2^31 for 2^30 commands.
func randomStart() (int, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("gtp: random command ids: %w", err)
	}
	return int(binary.LittleEndian.Uint32(b[:])&(1<<30-1)) + 1, nil
}
