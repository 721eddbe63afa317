package c4set

import "testing"

// TestRead: the lines read are the set's own (nine fields each), as many as
// asked, and only those keep accepts.
func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		keep func([]string) bool
	}{
		{"first 5", 5, nil},
		{"short move lists", 3, func(f []string) bool { return len(f[0]) <= 6 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := Read(t, "Test_L1_R3.txt", tc.n, tc.keep)
			if len(lines) != tc.n {
				t.Fatalf("%d lines, want %d", len(lines), tc.n)
			}
			for _, l := range lines {
				if len(l) != 9 {
					t.Errorf("line %q: %d fields, want 9", l, len(l))
				}
				if tc.keep != nil && !tc.keep(l) {
					t.Errorf("line %q kept though keep refuses it", l)
				}
			}
		})
	}
}
