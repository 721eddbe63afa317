package procrun

import (
	"strconv"
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
		{"48M", 48 << 20, ""},
		{" 8 t ", 8 << 40, ""},
		{"1P", 1 << 50, ""},
		{"1.5G", 3 << 29, ""},
		{"0.5K", 512, ""},
		{"100b", 100, ""},
		{"350000000", 350000000, ""},
		{"9007199254740991", 1<<53 - 1, ""},
		{"8191.999T", 8191999 << 40 / 1000, ""},
		{"0", 0, "more than 0"},
		{"0.0001K", 0, "more than 0"},
		{"-5M", 0, "more than 0"},
		{"-0", 0, "more than 0"},
		{"+5M", 0, "want a positive number"},
		{"lots", 0, "want a positive number"},
		{"", 0, "want a positive number"},
		{"M", 0, "want a positive number"},
		{"1e3", 0, "want a positive number"},
		{"0x10", 0, "want a positive number"},
		{".5G", 0, "want a positive number"},
		{"5 MiBs", 0, "want a positive number"},
		{"5iB", 0, "unit"},
		{"5 X", 0, "want a positive number"},
		{"99999999999T", 0, "too large"},
		{"8P", 0, "too large"},
		{"9007199254740992", 0, "too large"},
		{"9223372036854775807", 0, "too large"},
		{"99999999999999999999999", 0, "too large"},
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
	for _, s := range []string{"350M", "2GiB", "0", "-1", "1.5G", "9223372036854775807", "8T", "0.5 kib", "7.9999P"} {
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
		if n >= maxSize {
			t.Fatalf("ParseSize(%q) = %d, over the cap %d", s, n, int64(maxSize))
		}
		if exact, err := ParseSize(strconv.FormatInt(n, 10)); err != nil || exact != n {
			t.Fatalf("%d bytes read back as %d, %v", n, exact, err)
		}
		back, err := ParseSize(strings.ReplaceAll(FormatSize(n), " ", ""))
		if err == nil && back != n && n%(1<<20) == 0 {
			t.Fatalf("FormatSize(%d) = %q reads back as %d", n, FormatSize(n), back)
		}
	})
}
