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
// characters become spaces, bytes that are not UTF-8 become U+FFFD), and,
// when that is longer than MaxQuote bytes, cut at a character boundary and
// followed by "… (N bytes)", N being the length of s as the bot sent it.
func Quote(s string) string {
	n := len(s)
	q := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if len(q) <= MaxQuote {
		return q
	}
	q = q[:MaxQuote]
	if i := lastStart(q); !utf8.FullRuneInString(q[i:]) {
		q = q[:i] // a character cut in two
	}
	return q + fmt.Sprintf("… (%d bytes)", n)
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
