package record

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The one policy of ReadLines: blank lines skipped, a torn last line
// reported (never an error, never a record), any other bad line an error
// naming the file and the line. A last line without its newline that is
// not the start of a record (garbage, or a whole JSON record that does not
// parse) is an error, not torn: --resume used to cut such a line away,
// and export and view left out any bad last line.
func TestReadLines(t *testing.T) {
	for _, tc := range []struct {
		file        string
		recs        []int // line numbers of the records
		torn        int   // line number of the torn line, 0 for none
		needNewline bool
		wantErr     string
	}{
		{"good.jsonl", []int{1, 3}, 0, false, ""},
		{"nonewline.jsonl", []int{1, 2}, 0, true, ""},
		{"torn.jsonl", []int{1}, 2, false, ""},
		{"empty.jsonl", nil, 0, false, ""},
		{"garbage.jsonl", nil, 0, false, "garbage.jsonl:2: decode game record"},
		{"garbagelast.jsonl", nil, 0, false, "garbagelast.jsonl:2: decode game record"},
		{"badmovelast.jsonl", nil, 0, false, "badmovelast.jsonl:2: game record move 1"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "lines", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			ls, err := ReadLines(tc.file, data, nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ReadLines = %+v, %v; want an error with %q", ls, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, l := range ls.Records {
				got = append(got, l.N)
				if l.Rec == nil || string(l.Raw) != strings.TrimSpace(strings.Split(string(data), "\n")[l.N-1]) {
					t.Errorf("line %d: record %v, raw %q", l.N, l.Rec, l.Raw)
				}
			}
			if len(got) != len(tc.recs) || !slices.Equal(got, tc.recs) {
				t.Errorf("records on lines %v, want %v", got, tc.recs)
			}
			if ls.NeedNewline != tc.needNewline {
				t.Errorf("NeedNewline %v, want %v", ls.NeedNewline, tc.needNewline)
			}
			switch {
			case tc.torn == 0 && ls.Torn != nil:
				t.Errorf("torn %v, want none", ls.Torn)
			case tc.torn != 0 && (ls.Torn == nil || ls.Torn.N != tc.torn):
				t.Errorf("torn %v, want line %d", ls.Torn, tc.torn)
			case tc.torn != 0:
				if !strings.HasPrefix(ls.Torn.String(), tc.file+":2: torn last line") {
					t.Errorf("torn says %q", ls.Torn)
				}
				if !strings.HasSuffix(string(data[:ls.Torn.Offset]), "\n") {
					t.Errorf("torn offset %d does not start a line", ls.Torn.Offset)
				}
			}
		})
	}
}

func FuzzReadLines(f *testing.F) {
	for _, name := range []string{"good.jsonl", "nonewline.jsonl", "torn.jsonl", "garbage.jsonl", "badmovelast.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", "lines", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"ru`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ls, err := ReadLines("f", data, nil)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		last := 0
		for _, l := range ls.Records {
			if l.N <= last {
				t.Fatalf("line %d after %d", l.N, last)
			}
			last = l.N
		}
		if ls.Torn != nil {
			if ls.NeedNewline || ls.Torn.N <= last || ls.Torn.Offset > int64(len(data)) {
				t.Fatalf("torn %+v after line %d, needNewline %v", ls.Torn, last, ls.NeedNewline)
			}
			// What stays after the cut reads back to the same records.
			again, err := ReadLines("f", data[:ls.Torn.Offset], nil)
			if err != nil || again.Torn != nil || len(again.Records) != len(ls.Records) {
				t.Fatalf("after the cut: %+v, %v", again, err)
			}
		}
	})
}
