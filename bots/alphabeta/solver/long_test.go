package solver

import (
	"cmp"
	"context"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/internal/testcpu"
)

// TestOpenings solves the 6x7 positions listed in KINROW_SOLVE (move
// sequences separated by spaces or commas, "-" for the empty board), exact
// and weak, each from a cleared table, logging score, nodes and time: the
// measurement behind docs/PERFORMANCE.md's empty-board figures. With
// KINROW_LONG=1 and no KINROW_SOLVE it solves the empty board. It checks
// that weak agrees with the sign of the exact score. KINROW_TT (MiB) and
// KINROW_THREADS set the solver; the experiments of docs/PERFORMANCE.md
// move its constants: KINROW_NEAR (empty cells from which positions go to
// the small table), KINROW_SYM (stones below which mirror images are
// folded), KINROW_ETC (empty cells above which a node looks up its
// children) and KINROW_NEARKIB (the small table's size in KiB, a power of
// two).
func TestOpenings(t *testing.T) {
	list := os.Getenv("KINROW_SOLVE")
	if list == "" {
		if os.Getenv("KINROW_LONG") == "" {
			t.Skip("set KINROW_SOLVE=seq,... or KINROW_LONG=1 (the empty board, minutes)")
		}
		list = "-"
	}
	modes := os.Getenv("KINROW_SOLVE_MODES") // "exact", "weak" or both (default)
	for _, seq := range strings.FieldsFunc(list, func(r rune) bool { return r == ' ' || r == ',' }) {
		if seq == "-" {
			seq = ""
		}
		tt := DefaultTTMiB
		if v, err := strconv.Atoi(os.Getenv("KINROW_TT")); err == nil {
			tt = v
		}
		s, err := New(6, 7, 4, tt)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := strconv.Atoi(os.Getenv("KINROW_THREADS")); err == nil {
			s.SetThreads(v)
		}
		if v, err := strconv.Atoi(os.Getenv("KINROW_NEAR")); err == nil { // experiment
			s.w.nearFrom = s.g.cells - v
		}
		if v, err := strconv.Atoi(os.Getenv("KINROW_SYM")); err == nil { // experiment
			s.w.symTo = v
		}
		if v, err := strconv.Atoi(os.Getenv("KINROW_ETC")); err == nil { // experiment
			s.w.etcFrom = s.g.cells - v
		}
		p := s.NewPosition()
		if _, err := s.PlaySequence(&p, seq); err != nil {
			t.Fatal(err)
		}
		exact := 99
		for _, weak := range []bool{false, true} {
			if modes != "" && !strings.Contains(modes, map[bool]string{false: "exact", true: "weak"}[weak]) {
				continue
			}
			s.Reset()
			if v, err := strconv.Atoi(os.Getenv("KINROW_NEARKIB")); err == nil && v > 0 { // experiment
				s.w.near.reset(s.g.h*s.g.cols, bits.Len(uint(v)*1024/8)-1)
			}
			start := time.Now()
			cpu0 := testcpu.Self(t)
			v, err := s.Solve(context.Background(), p, weak)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%q weak=%v threads=%d: score %d, %d nodes, %v (cpu %v; main %d)", seq, weak, s.Threads(), v, s.Nodes(),
				time.Since(start).Round(time.Millisecond), (testcpu.Self(t) - cpu0).Round(time.Millisecond), s.w.nodes)
			if !weak {
				exact = v
			} else if exact != 99 && v != cmp.Compare(exact, 0) {
				t.Fatalf("%q: weak %d, exact %d", seq, v, exact)
			}
		}
	}
}
