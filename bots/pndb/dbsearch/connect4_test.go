package dbsearch

import (
	"context"
	"strconv"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/c4set"
	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// c4Case is one line of a shared set: the moves (columns from 1), the exact
// score for the side to move, and the score of each column (ok false for a
// full one).
type c4Case struct {
	moves  string
	score  int
	column [7]int
	ok     [7]bool
}

// readC4 reads up to n lines of a shared set; it skips the test when the
// data is absent.
func readC4(tb testing.TB, name string, n int) []c4Case {
	tb.Helper()
	var out []c4Case
	for _, fields := range c4set.Read(tb, name, n, nil) {
		if len(fields) != 9 {
			tb.Fatalf("%s: line %q: want moves, score and 7 column scores", name, fields)
		}
		var err error
		c := c4Case{moves: fields[0]}
		if c.score, err = strconv.Atoi(fields[1]); err != nil {
			tb.Fatalf("%s: score %q", name, fields[1])
		}
		for i, v := range fields[2:] {
			if v == "-" {
				continue
			}
			if c.column[i], err = strconv.Atoi(v); err != nil {
				tb.Fatalf("%s: column score %q", name, v)
			}
			c.ok[i] = true
		}
		out = append(out, c)
	}
	return out
}

// TestConnect4Sets checks every Win for the side to move against the
// shared sets' exact scores (an independent solver's): the position must
// be won and the column of First must win too.
func TestConnect4Sets(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	s, err := New(engine.Connect4(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Test_L3_R1.txt", "Test_L2_R1.txt", "Test_L1_R1.txt"} {
		wins, winning := 0, 0
		for _, c := range readC4(t, name, n) {
			pos := testpos.Of(t, "connect4", c.moves)
			if c.score > 0 {
				winning++
			}
			res, err := s.Search(context.Background(), pos, pos.ToMove())
			if err != nil {
				t.Fatal(err)
			}
			if !res.Win {
				continue
			}
			wins++
			col := res.First % 7
			if c.score <= 0 || !c.ok[col] || c.column[col] <= 0 {
				t.Errorf("%s %s: Win by column %d, but the score is %d and that column's %d", name, c.moves, col+1, c.score, c.column[col])
			}
		}
		t.Logf("%s: %d positions won for the side to move, DB-search proves %d", name, winning, wins)
	}
}

// BenchmarkSearchConnect4: Search calls on the middle-game set (both sides
// as attacker in turn). go test -bench SearchConnect4 -benchmem -count 5
func BenchmarkSearchConnect4(b *testing.B) {
	cases := readC4(b, "Test_L2_R1.txt", 200)
	positions := make([]*engine.Position, len(cases))
	for i, c := range cases {
		positions[i] = testpos.Of(b, "connect4", c.moves)
	}
	s, err := New(engine.Connect4(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for i := range positions {
		if _, err := s.Search(ctx, positions[i], engine.X); err != nil {
			b.Fatal(err)
		}
	}
	st0 := s.Stats()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % (2 * len(positions))
		if _, err := s.Search(ctx, positions[j/2], engine.Color(j&1)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(s.Stats().Nodes-st0.Nodes)/float64(b.N), "nodes/op")
}
