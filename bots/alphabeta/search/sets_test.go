package search

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/c4set"
	"github.com/kinrow/kinrow/engine"
)

// checkSet solves the first n lines of a set; with analyze, all 8 fields.
func checkSet(t *testing.T, name string, n int, analyze bool) {
	r := engine.Connect4()
	s, err := New(r, Options{TTMiB: 64})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, f := range c4set.Read(t, name, n, nil) {
		moves, err := r.ParseMoveList(f[0])
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		pos := engine.NewPosition(r)
		if err := pos.PlayMoveList(moves); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		v, err := s.Value(ctx, pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := strconv.Itoa(Score(pos, v)); got != f[1] {
			t.Errorf("%s line %d (%s): score %s, want %s", name, i+1, f[0], got, f[1])
		}
		if !analyze {
			continue
		}
		for col := 0; col < r.Cols; col++ {
			want := f[2+col]
			if !pos.Legal(engine.Move(col)) {
				if want != "-" {
					t.Errorf("%s line %d column %d: full, want %s", name, i+1, col+1, want)
				}
				continue
			}
			pos.Play(engine.Move(col))
			var got int
			switch pos.Result() {
			case engine.Open:
				cv, err := s.Value(ctx, pos)
				if err != nil {
					t.Fatal(err)
				}
				got = -Score(pos, cv)
			case engine.Draw:
				got = 0
			default:
				pos.Undo()
				got = Score(pos, Win-1)
				pos.Play(engine.Move(col))
			}
			pos.Undo()
			if strconv.Itoa(got) != want {
				t.Errorf("%s line %d (%s) column %d: %d, want %s", name, i+1, f[0], col+1, got, want)
			}
		}
	}
}

func long(t *testing.T) {
	if os.Getenv("KINROW_LONG") == "" {
		t.Skip("set KINROW_LONG=1 (make test-long) for whole sets")
	}
}

func TestSetsQuick(t *testing.T) {
	checkSet(t, "Test_L3_R1.txt", 50, true)
	checkSet(t, "Test_L2_R1.txt", 10, false)
}

func TestSetL3R1Long(t *testing.T) { long(t); checkSet(t, "Test_L3_R1.txt", 0, true) }
func TestSetL2R1Long(t *testing.T) { long(t); checkSet(t, "Test_L2_R1.txt", 0, true) }

// testingLong reports whether long checks are on (KINROW_LONG=1).
func testingLong() bool { return os.Getenv("KINROW_LONG") != "" }
