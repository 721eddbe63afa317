package dbsearch

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// stones builds an m,n,k position from stone lists in vertex notation,
// "x: b5 c5" and "o: a5".
func stones(t testing.TB, r engine.Rules, lists ...string) *engine.Position {
	t.Helper()
	cells := make([]engine.Color, r.Cells())
	for i := range cells {
		cells[i] = engine.Empty
	}
	for _, l := range lists {
		side, vs, ok := strings.Cut(l, ":")
		if !ok {
			t.Fatalf("stone list %q: want \"x: a1 b2\"", l)
		}
		c, err := engine.ParseColor(strings.TrimSpace(side))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range strings.Fields(vs) {
			m, err := r.ParseMove(v)
			if err != nil {
				t.Fatalf("vertex %q: %v", v, err)
			}
			cells[m] = c
		}
	}
	return build(t, r, cells)
}

// TestSearchPositions: unit positions whose answer was derived by hand; a
// claimed win is replayed by the brute force from its first move, a
// refuted one is checked to have no win by the brute force at its depth.
func TestSearchPositions(t *testing.T) {
	gomoku9 := "mnk:9x9x5"
	tests := []struct {
		name     string
		rules    string
		mnk      []string // stone lists (m,n,k)
		diagram  []string // or a diagram, top row first
		attacker engine.Color
		win      bool
		first    string // the expected first move (vertex), "" if any
		plies    int    // brute-force depth that confirms the answer
		refuted  bool   // a candidate sequence was found and refuted
	}{
		{
			name: "double four", rules: gomoku9, attacker: engine.X, win: true, first: "e5", plies: 3,
			mnk: []string{"x: b5 c5 d5 e2 e3 e4", "o: a5 e1 a9 c9 h9 j9"},
		},
		{
			name: "four-three", rules: gomoku9, attacker: engine.X, win: true, first: "e5", plies: 5,
			mnk: []string{"x: b5 c5 d5 e3 e4", "o: a5 a9 c9 h9 j9"},
		},
		{
			name: "three-three", rules: gomoku9, attacker: engine.X, win: true, first: "e5", plies: 5,
			mnk: []string{"x: c5 d5 e3 e4", "o: a9 c9 h9 j9"},
		},
		{
			name: "two fours whose gains make a three", rules: gomoku9, attacker: engine.X, win: true, plies: 7,
			mnk: []string{"x: d5 e6 e7 e8 f2 f3 f4", "o: e9 f1 a1 a9 j1 j9 b9"},
		},
		{
			// d5 (three on d) then e5 (three on e and c5-d5-e5 on row 5), or
			// e5 then d5: each three forces a reply off row 5. The brute
			// force is too slow for two full-width replies: plies 0 skips it.
			name: "two threes whose union makes a double three", rules: gomoku9, attacker: engine.X, win: true,
			mnk: []string{"x: c5 d6 d7 e3 e4", "o: a9 c9 h9 j9 j1"},
		},
		{
			name: "null move: o to move passes", rules: gomoku9, attacker: engine.X, win: true, first: "e5", plies: 3,
			mnk: []string{"x: b5 c5 d5 e2 e3 e4 a8", "o: a5 e1 a9 c9 h9 j9"},
		},
		{
			name: "global defence: counter four-three refutes a three-three", rules: gomoku9, attacker: engine.X,
			win: false, plies: 5, refuted: true,
			mnk: []string{"x: c5 d5 e3 e4 h2", "o: h3 h4 h5 f6 g6"},
		},
		{
			name: "connect-x stacked pair", rules: "connectx:6x7x4", attacker: engine.X, win: true, first: "4", plies: 5,
			diagram: []string{
				". . . . . . .",
				". . . . . . .",
				"x x x . . . .",
				"o x o . x x x",
				"o o x . o x o",
				"x o o o x o o",
			},
		},
		{
			name: "connect-x block hands the defender a line", rules: "connectx:6x7x4", attacker: engine.X, win: false, plies: 9,
			diagram: []string{
				". . . . . . .",
				". . . . . . .",
				"o o o . . . .",
				"x x x . . . .",
				"o o x . o x x",
				"o x o x x o x",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := testpos.Rules(t, tc.rules)
			var pos *engine.Position
			if tc.mnk != nil {
				pos = stones(t, r, tc.mnk...)
			} else {
				pos = build(t, r, diagram(t, r, tc.diagram...))
			}
			s, err := New(r, Options{})
			if err != nil {
				t.Fatal(err)
			}
			before := pos.Hash()
			res, err := s.Search(context.Background(), pos, tc.attacker)
			if err != nil {
				t.Fatal(err)
			}
			if pos.Hash() != before {
				t.Fatal("Search changed the position")
			}
			if res.Win != tc.win {
				t.Fatalf("Win = %v, want %v (stats %+v)\n%s", res.Win, tc.win, s.Stats(), pos.Diagram())
			}
			if tc.refuted && s.Stats().Sequences == 0 {
				t.Errorf("no candidate sequence was tried: the refutation is not exercised")
			}
			if res.Win && (res.Threats < 1 || len(res.Cells) == 0) {
				t.Errorf("win with %d threats and cells %v", res.Threats, res.Cells)
			}
			if tc.plies == 0 {
				return
			}
			bf := newBruteForce(pos, tc.attacker, 20_000_000)
			if !res.Win {
				if res.First != -1 || res.Threats != 0 {
					t.Errorf("no win but First %d, Threats %d", res.First, res.Threats)
				}
				won, err := bf.wins(0, tc.plies)
				if err != nil {
					t.Fatal(err)
				}
				if won {
					t.Errorf("the brute force finds a win in %d plies", tc.plies)
				}
				return
			}
			if tc.first != "" {
				m, err := r.ParseMove(tc.first)
				if err != nil {
					t.Fatal(err)
				}
				if got := r.FormatMove(pos.MoveOfCell(res.First)); got != tc.first {
					if r.Kind == engine.MNK || pos.Cell(m) != res.First {
						t.Errorf("First = %s, want %s", got, tc.first)
					}
				}
			}
			// The brute force confirms: after First the defender loses.
			bf.set(res.First, 0)
			lost, err := bf.loses(1, tc.plies-1)
			if err != nil {
				t.Fatal(err)
			}
			if !lost {
				t.Errorf("the brute force finds a defence to %s within %d plies", r.FormatMove(pos.MoveOfCell(res.First)), tc.plies)
			}
		})
	}
}

func TestSearchErrors(t *testing.T) {
	r := engine.Connect4()
	s, err := New(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(engine.Rules{Kind: engine.MNK, Rows: 3, Cols: 3, K: 9}, Options{}); err == nil {
		t.Error("New accepted k 9 on 3x3")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Search(ctx, engine.NewPosition(r), engine.X); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err %v", err)
	}
	if _, err := s.Search(context.Background(), engine.NewPosition(testpos.Rules(t, "gomoku")), engine.X); err == nil {
		t.Error("Search accepted a position of other rules")
	}
	res, err := s.Search(context.Background(), engine.NewPosition(r), engine.X)
	if err != nil || res.Win || res.First != -1 {
		t.Errorf("empty board: %+v, %v", res, err)
	}
}

// TestCombine: two independent fours combine once; a four whose gain is the
// other's cost conflicts.
func TestCombine(t *testing.T) {
	r := testpos.Rules(t, "mnk:9x9x5")
	pos := stones(t, r, "x: d5 e6 e7 e8 f2 f3 f4", "o: e9 f1 a1 a9 j1 j9 b9")
	s, err := New(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.load(pos, engine.X)
	s.resetTree()
	s.expand(0)
	child := func(gain string) int {
		m, err := r.ParseMove(gain)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(s.tree); i++ {
			n := s.tree[i]
			if s.threats[s.lists[n.list0+n.listN-1]].gain == int32(m) {
				return i
			}
		}
		t.Fatalf("no root threat with gain %s", gain)
		return -1
	}
	e5, f5, e4 := child("e5"), child("f5"), child("e4")
	n := len(s.tree)
	if !s.combine(min(e5, f5), max(e5, f5)) {
		t.Fatal("e5 and f5 do not combine")
	}
	if got := s.tree[n]; got.listN != 2 || !got.combo || got.focusN != 1 {
		t.Errorf("combination node %+v", got)
	}
	if s.combine(min(e5, f5), max(e5, f5)) {
		t.Error("the same combination was made twice")
	}
	if s.combine(min(e5, e4), max(e5, e4)) {
		t.Error("e5 (cost e4) combined with e4 (cost e5)")
	}
}

// TestLargeBoards: the largest boards build and search without touching the
// position, on clustered random games.
func TestLargeBoards(t *testing.T) {
	for _, rs := range []string{"mnk:70x70x10", "connectx:128x128x4", "mnk:128x128x128", "mnk:3x3x3", "mnk:5x5x2"} {
		t.Run(rs, func(t *testing.T) {
			r, s, rng := defaultSearcher(t, rs, 3)
			for i := 0; i < 4; i++ {
				pos := randomPosition(r, rng, min(r.Cells()-1, 2+rng.IntN(40)))
				if pos == nil {
					continue
				}
				h := pos.Hash()
				for _, a := range []engine.Color{engine.X, engine.O} {
					res, err := s.Search(context.Background(), pos, a)
					if err != nil {
						t.Fatal(err)
					}
					if res.Win && (res.First < 0 || res.First >= r.Cells()) {
						t.Errorf("First %d", res.First)
					}
				}
				if pos.Hash() != h {
					t.Fatal("Search changed the position")
				}
			}
		})
	}
}
