package referee

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxQuote is the most of a bot's text (its answer, its error message, how
// its process ended) a forfeit's detail quotes; the rest is cut and its
// length given, so a bot cannot blow up a record or an answer.
const MaxQuote = 256

// Quote returns s as a forfeit's detail quotes it: on one line (control
// characters become spaces, bytes that are not UTF-8 become U+FFFD), and
// past MaxQuote bytes cut at a character boundary and followed by
// "… (N bytes)", N being the length of s.
func Quote(s string) string {
	n := len(s)
	cut := n > MaxQuote
	if cut {
		s = s[:MaxQuote]
		if i := lastStart(s); !utf8.FullRuneInString(s[i:]) {
			s = s[:i] // a character cut in two
		}
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if cut {
		s += fmt.Sprintf("… (%d bytes)", n)
	}
	return s
}

// lastStart is the index of the first byte of the last (possibly partial)
// character of s.
func lastStart(s string) int {
	i := len(s) - 1
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// quoteErr quotes an error's text.
func quoteErr(err error) string { return Quote(err.Error()) }

// quotedError is an error from a bot whose text is quoted (Quote) and that
// still unwraps to it.
type quotedError struct{ err error }

func (q quotedError) Error() string { return quoteErr(q.err) }
func (q quotedError) Unwrap() error { return q.err }

// quoted wraps a bot's error so its text is quoted.
func quoted(err error) error { return quotedError{err} }
