package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"random", "random"},
		{"alpha beta", "alpha beta"},
		{"évian ♟ 五目", "évian ♟ 五目"},
		{"evil\x1b[2J\x1b[Hwins", `evil\x1b[2J\x1b[Hwins`},
		{"a\rb\nc\td", `a\rb\nc\td`},
		{"del\x7f", `del\x7f`},
		{"c1\u009b31m", `c1\x9b31m`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{"bad\xff\xfeutf8", `bad\xff\xfeutf8`},
		{`back\slash`, `back\slash`},
		{"", ""},
	} {
		if got := Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLine(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes
	got := Line(long, 51)
	if !strings.HasSuffix(got, "… (200 bytes)") || !utf8.ValidString(got) {
		t.Fatalf("Line cut = %q", got)
	}
	if head := strings.TrimSuffix(got, "… (200 bytes)"); len(head) != 50 {
		t.Errorf("cut to %d bytes, want 50 (the whole characters within 51)", len(head))
	}
	if got := Line("short", 51); got != "short" {
		t.Errorf("Line(short) = %q", got)
	}
	if got := Line("x\x1by", 0); got != `x\x1by` {
		t.Errorf("Line with no cut = %q", got)
	}
}

func TestPrintableAllocatesNothingForPlainText(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = Printable("alphabeta#2 vs random") }); n != 0 {
		t.Errorf("Printable of plain text allocated %v times", n)
	}
}

// FuzzPrintable checks that nothing a terminal acts on survives: the
// output is valid UTF-8 with no control or format character.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"random", "evil\x1b[2J", "\xff", "\u202e", "a\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := Printable(s)
		if !utf8.ValidString(p) {
			t.Fatalf("Printable(%q) = %q: not UTF-8", s, p)
		}
		for _, r := range p {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unsafeRune(r) {
				t.Fatalf("Printable(%q) = %q keeps %U", s, p, r)
			}
		}
		if !needs(s) && p != s {
			t.Fatalf("Printable changed plain %q", s)
		}
	})
}
