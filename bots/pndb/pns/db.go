package pns

import (
	"context"

	"github.com/kinrow/kinrow/bots/pndb/dbsearch"
	"github.com/kinrow/kinrow/engine"
)

// hiNumber is the proof (or disproof) number given to children the
// implicit-threat heuristic finds useless: far above any heuristic leaf,
// never Inf (the hint is not a proof).
const hiNumber = 1 << 12

// dbHint is what DB-search says of the node being expanded.
type dbHint struct {
	win      engine.Move // the side to move's first threat of a winning sequence, or NoMove
	restrict bool        // the opponent would win if the side to move passed: see inCells
}

// dbProbe runs DB-search at the leaf being expanded (the path's end) for
// the attacker's threats only: where the attacker moves, its own winning
// sequence; where the defender moves, the attacker's sequence as if the
// defender passed (the implicit threat), marking the cells it uses. (The
// defender's sequences cost as much and did not pay: mnk:6x5x4 took 5.0 s
// with both sides, 3.7 s with the attacker's alone.) DB-search answers
// are hints only: they set numbers, never decide a node.
func (s *Searcher) dbProbe(ctx context.Context) dbHint {
	h := dbHint{win: engine.NoMove}
	me := s.pos.ToMove()
	s.work += checkWork / 8 // a DB-search costs like hundreds of children: look at ctx soon
	r, err := s.db.Search(ctx, s.pos, s.attacker)
	s.stats.DBSearches++
	if me == s.attacker {
		if err == nil && r.Win && r.First >= 0 {
			if m := s.pos.MoveOfCell(r.First); s.pos.Legal(m) {
				s.stats.DBWins++
				h.win = m
			}
		}
		return h
	}
	if err != nil || !r.Win {
		return h
	}
	s.stats.DBThreats++
	s.stamp++
	if s.stamp == 0 {
		clear(s.cellMark)
		s.stamp = 1
	}
	if len(s.cellMark) != s.rules.Cells() {
		s.cellMark = make([]uint32, s.rules.Cells())
	}
	for _, c := range r.Cells {
		if c >= 0 && c < len(s.cellMark) {
			s.cellMark[c] = s.stamp
		}
	}
	h.restrict = true
	return h
}

// inCells tells whether the move m (of the working position) is on a cell
// of the opponent's threat sequence found by the last dbProbe.
func (s *Searcher) inCells(m engine.Move) bool {
	return s.cellMark[s.pos.Cell(m)] == s.stamp
}

// hint sets the numbers of the new child c of the move m from the DB-search
// hint; false when the hint says nothing of m.
func (s *Searcher) hint(h *dbHint, c *entry, m engine.Move, mover bool) bool {
	switch {
	case m == h.win:
		// The mover's own winning sequence starts here: a tiny number to
		// prove, the PN search checks it.
		if mover {
			c.pn, c.dn = 1, hiNumber
		} else {
			c.pn, c.dn = hiNumber, 1
		}
	case h.restrict && !s.inCells(m):
		// The opponent's threat goes on after this move.
		if mover {
			c.pn, c.dn = hiNumber, 1
		} else {
			c.pn, c.dn = 1, hiNumber
		}
	default:
		return false
	}
	return true
}

// newDB returns the DB-searcher of opt, or nil when DB-search is off.
func newDB(r engine.Rules, opt Options) (*dbsearch.Searcher, error) {
	if opt.DBNodes <= 0 {
		return nil, nil
	}
	return dbsearch.New(r, dbsearch.Options{MaxNodes: opt.DBNodes})
}
