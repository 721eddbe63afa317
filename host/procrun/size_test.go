package procrun

import (
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  string
	}{
		{"350M", 350 << 20, ""},
		{"2GiB", 2 << 30, ""},
		{"512 kib", 512 << 10, ""},
		{"1048576", 1 << 20, ""},
		{"64MB", 64 << 20, ""},
		{"0", 0, "more than 0"},
		{"-5M", 0, "more than 0"},
		{"1.5G", 0, "want a positive whole number"},
		{"lots", 0, "want a positive whole number"},
		{"", 0, "want a positive whole number"},
		{"M", 0, "want a positive whole number"},
		{"99999999999T", 0, "too large"},
	} {
		got, err := ParseSize(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), tc.in) {
				t.Errorf("ParseSize(%q) = %d, %v; want an error with %q naming the value", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"350M", "2GiB", "0", "-1", "1.5G", "9223372036854775807", "8T"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s)
		if err != nil {
			return
		}
		if n <= 0 {
			t.Fatalf("ParseSize(%q) = %d without error", s, n)
		}
		back, err := ParseSize(strings.ReplaceAll(FormatSize(n), " ", ""))
		if err == nil && back != n && n%(1<<20) == 0 {
			t.Fatalf("FormatSize(%d) = %q reads back as %d", n, FormatSize(n), back)
		}
	})
}
