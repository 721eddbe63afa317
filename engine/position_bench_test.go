package engine

import (
	"os"
	"strings"
	"testing"
)

// benchPosition returns a middle-game position of rules with about a third of
// the first rows filled, and a legal move to play and undo in it.
func benchPosition(b *testing.B, rules string) (*Position, Move) {
	r, err := ParseRules(rules)
	if err != nil {
		b.Fatal(err)
	}
	p := NewPosition(r)
	seed := uint64(7)
	for p.Ply() < min(r.Cells()/3, 40) {
		legal := p.LegalMoves(nil)
		seed = seed*6364136223846793005 + 1442695040888963407
		m := legal[(seed>>33)%uint64(len(legal))]
		p.Play(m)
		if p.Result() != Open {
			p.Undo()
		}
	}
	return p, p.LegalMoves(nil)[0]
}

var benchRules = []string{"connectx:6x7x4", "mnk:15x15x5", "mnk:15x15x5:exact", "mnk:15x15x5:renju", "mnk:70x70x10", "connectx:38x58x12"}

// BenchmarkFoul judges every empty cell of 15x15 renju middle games (40 to
// 58 stones, black to move) in turn: one op is one cell's judgement.
func BenchmarkFoul(b *testing.B) {
	r, _ := ParseRules("renju")
	var games []*Position
	seed := uint64(11)
	for len(games) < 16 {
		p := NewPosition(r)
		target := 40 + 2*len(games)%20
		for tries := 0; p.Ply() < target && tries < 10000; tries++ {
			// stones in the 11x11 middle, as in real games
			seed = seed*6364136223846793005 + 1442695040888963407
			row, col := 2+int(seed>>33)%11, 2+int(seed>>40)%11
			if m := Move(row*r.Cols + col); p.Legal(m) {
				p.Play(m)
				if p.Result() != Open {
					p.Undo()
				}
			}
		}
		if p.ToMove() == X && p.Ply() == target {
			games = append(games, p)
		}
	}
	var cells [][]Move
	for _, p := range games {
		var empty []Move
		for c := range r.Cells() {
			if p.cells[c] == Empty {
				empty = append(empty, Move(c))
			}
		}
		cells = append(cells, empty)
	}
	b.ReportAllocs()
	i, j := 0, 0
	fouls := 0
	for b.Loop() {
		if games[i].Foul(cells[i][j]) != NoFoul {
			fouls++
		}
		if j++; j == len(cells[i]) {
			i, j = (i+1)%len(games), 0
		}
	}
	_ = fouls
}

func BenchmarkPlayUndo(b *testing.B) {
	for _, rules := range benchRules {
		b.Run(rules, func(b *testing.B) {
			p, m := benchPosition(b, rules)
			b.ReportAllocs()
			for b.Loop() {
				p.Play(m)
				p.Undo()
			}
		})
	}
}

func BenchmarkWinCheck(b *testing.B) {
	for _, rules := range benchRules {
		b.Run(rules, func(b *testing.B) {
			p, m := benchPosition(b, rules)
			cell := p.Cell(m)
			c := p.ToMove()
			b.ReportAllocs()
			for b.Loop() {
				p.WinsAt(cell, c)
			}
		})
	}
}

func BenchmarkParseMove(b *testing.B) {
	r, _ := ParseRules("gomoku")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.ParseMove("h8"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlayUndoRenjuWhite plays and undoes a white move in a renju
// middle game: after it Play asks whether black has a legal move left (one
// judgement of the cell found last time, in nearly every position).
func BenchmarkPlayUndoRenjuWhite(b *testing.B) {
	for _, rules := range []string{"mnk:15x15x5", "mnk:15x15x5:renju"} {
		b.Run(rules, func(b *testing.B) {
			p, _ := benchPosition(b, rules)
			if p.ToMove() == X {
				p.Play(p.LegalMoves(nil)[0])
			}
			m := p.LegalMoves(nil)[0]
			b.ReportAllocs()
			for b.Loop() {
				p.Play(m)
				p.Undo()
			}
		})
	}
}

// BenchmarkReplay replays a Connect-4 position of 25 moves from the empty
// board and rewinds it, as kinrow solve and its bots do for each position.
func BenchmarkReplay(b *testing.B) {
	r := Connect4()
	moves, err := r.ParseMoveList("5554224333234511764415115")
	if err != nil {
		b.Fatal(err)
	}
	p := NewPosition(r)
	b.ReportAllocs()
	for b.Loop() {
		if err := p.PlayMoveList(moves); err != nil {
			b.Fatal(err)
		}
		for p.Ply() > 0 {
			p.Undo()
		}
	}
}

// BenchmarkReplaySet replays, one after the other, the positions of a
// shared Connect-4 set (Test_L3_R1: 1000 positions of 25 to 37 moves), as
// kinrow solve's host and bot do for each line: unlike BenchmarkReplay,
// every position differs, as in a real run. Reported per position.
func BenchmarkReplaySet(b *testing.B) {
	data, err := os.ReadFile("../../shared/testdata/connect4/Test_L3_R1.txt")
	if err != nil {
		b.Skipf("shared set absent: %v", err)
	}
	r := Connect4()
	var lists [][]Move
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		ms, err := r.ParseMoveList(strings.Fields(line)[0])
		if err != nil {
			b.Fatal(err)
		}
		lists = append(lists, ms)
	}
	p := NewPosition(r)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := p.PlayMoveList(lists[i]); err != nil {
			b.Fatal(err)
		}
		for p.Ply() > 0 {
			p.Undo()
		}
		i = (i + 1) % len(lists)
	}
}
