package termsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns s with every character a terminal would act on
// written out as an escape: C0 and C1 control characters and DEL as
// \xNN (\t, \n and \r as themselves escaped), format characters such as
// the direction overrides as \uNNNN, and bytes that are not UTF-8 as
// \xNN. A backslash stays a backslash. It allocates only when s holds
// something to escape.
func Printable(s string) string {
	if !needs(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Line is Printable(s) cut to at most max bytes (at a character
// boundary), followed by "… (N bytes)" when cut, N being len(s); max ≤ 0
// means no cut.
func Line(s string, max int) string {
	p := Printable(s)
	if max <= 0 || len(p) <= max {
		return p
	}
	p = p[:max]
	for len(p) > 0 && !utf8.ValidString(p) {
		p = p[:len(p)-1] // a character cut in two
	}
	return fmt.Sprintf("%s… (%d bytes)", p, len(s))
}

// needs reports whether s holds anything Printable escapes.
func needs(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n <= 1) || (r >= 0x80 && r < 0xa0) || unsafeRune(r) {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune reports the characters past Latin-1's controls that change
// how a terminal shows what follows: format characters (direction
// overrides and isolates, zero-width joiners), line and paragraph
// separators, and private or unassigned code points.
func unsafeRune(r rune) bool {
	return unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' || !unicode.IsPrint(r) && r != ' ' && !unicode.IsSpace(r)
}
