package engine

import "testing"

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

var benchRules = []string{"connectx:6x7x4", "mnk:15x15x5", "mnk:70x70x10", "connectx:38x58x12"}

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
