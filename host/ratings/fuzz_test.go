package ratings

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
)

func FuzzParseAnchor(f *testing.F) {
	for _, s := range []string{"alphabeta", "random=-200", "x=1e400", "=5", "a=b=c", " pndb = 12.5 ", "x=NaN", "x=0x1p3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, elo, err := ParseAnchor(s)
		if err != nil {
			if !strings.Contains(err.Error(), "anchor") {
				t.Errorf("error %q does not name the anchor", err)
			}
			return
		}
		if name == "" || math.IsNaN(elo) || math.IsInf(elo, 0) {
			t.Fatalf("ParseAnchor(%q) = %q, %v", s, name, elo)
		}
		// What was read reads back the same.
		if !strings.Contains(name, "=") {
			n2, e2, err := ParseAnchor(name + "=" + strconv.FormatFloat(elo, 'g', -1, 64))
			if err != nil || n2 != name || e2 != elo {
				t.Errorf("round trip of %q=%v: %q, %v, %v", name, elo, n2, e2, err)
			}
		}
	})
}

func FuzzRead(f *testing.F) {
	line := `{"rules":"connect4","players":{"x":"a","o":"b"},"moves":[{"move":"4","color":"x","ms":3}],"result":"X+","reason":"win","winner":"a","start":"2026-11-22T10:00:00Z"}`
	f.Add([]byte(line + "\n" + strings.Replace(line, `"X+"`, `"O+"`, 1) + "\n"))
	f.Add([]byte(line + "\n" + strings.NewReplacer(`"x":"a","o":"b"`, `"x":"b","o":"a"`, `"X+"`, `"0"`).Replace(line) + "\n" + line[:30]))
	f.Add([]byte("\n\n{}\n"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := Read(bytes.NewReader(data), "f.jsonl", nil)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.jsonl:") {
				t.Fatalf("error %q does not name the file and line", err)
			}
			return
		}
		rep, err := Fit(recs, Options{FallbackPrior: DefaultPrior})
		if err != nil {
			return
		}
		for _, g := range rep.Groups {
			for _, b := range g.Bots {
				for _, v := range []float64{b.Elo, b.PlusMinus, b.Score} {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("non-finite rating %+v", b)
					}
				}
			}
		}
	})
}
