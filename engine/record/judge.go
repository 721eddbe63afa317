package record

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kinrow/kinrow/engine"
)

// ErrInvalid is wrapped by every error of Judge: a record whose result,
// reason and winner do not follow from its moves under its rules (a forged
// or corrupted record), or that is not a finished game.
var ErrInvalid = errors.New("invalid game record")

// knownForfeits is the set of forfeit kinds the referee writes.
var knownForfeits = map[Forfeit]bool{
	ForfeitTimeout: true, ForfeitIllegalMove: true, ForfeitCrash: true, ForfeitProtocolError: true,
	ForfeitStartFailure: true, ForfeitForbidden: true, ForfeitMemory: true,
}

// Judge replays the record's moves under its rules and checks that its
// result, reason, forfeit kind and winner follow from them. It is the one
// judge of a finished game: record.Reader runs it on every record of a
// records file, so every reader (kinrow match --resume, merge, ratings,
// export, view, the summary) refuses what it refuses.
//
//   - Every move parses, is legal when it is played (renju's fouls
//     included) and is marked with the colour of the side to move; no move
//     follows the end of the game.
//   - Both players have a name; the result is X+, O+ or 0 (an open game,
//     result "", is refused: a records file holds finished games); the
//     winner is the name of the side the result names, null for a draw.
//   - "win": the last move made a winning line of the rules, and it was the
//     winner's (so the result is the one the replay reaches).
//   - "draw": the moves end the game drawn: a full board, or renju's black
//     to move with every empty cell forbidden.
//   - "adjudication": a draw the referee decided (kinrow match --max-plies)
//     while the moves leave the game open.
//   - "forfeit": a winner, a forfeit kind of the known set (the loser is
//     the other side), and the moves leave the game open; "resignation"
//     the same without a forfeit kind.
//
// Its errors wrap ErrInvalid and say why, e.g. "X+ by a win, but the 3
// moves make no line of 3 (the game is still open)".
func (r *Record) Judge() error {
	_, err := r.judge()
	return err
}

// judge is Judge, returning the position the moves reach.
func (r *Record) judge() (*engine.Position, error) {
	rules, p, err := r.replay(func(i int, p *engine.Position) error {
		if c := p.ToMove().Other().String(); r.Moves[i].Color != c {
			return r.invalid("move %d (%s) is marked as %q's, but it is %s's turn", i+1, r.Moves[i].Move, r.Moves[i].Color, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, r.judgeEnd(rules, p)
}

// invalidError is an error of Judge: it matches ErrInvalid.
type invalidError struct{ msg string }

func (e *invalidError) Error() string        { return e.msg }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

// invalid says why r is refused, after the game's round and number when
// it has them ("round 1 game 3: ..."), else after "game record: ".
func (r *Record) invalid(format string, a ...any) error {
	where := "game record: "
	if r.Round != 0 || r.Game != 0 {
		where = fmt.Sprintf("round %d game %d: ", r.Round, r.Game)
	}
	return &invalidError{where + fmt.Sprintf(format, a...)}
}

// judgeEnd checks the result, reason, forfeit and winner against p, the
// position the moves reach.
func (r *Record) judgeEnd(rules engine.Rules, p *engine.Position) error {
	var res engine.Result
	switch r.Result {
	case "X+":
		res = engine.XWins
	case "O+":
		res = engine.OWins
	case "0":
		res = engine.Draw
	case "":
		what := "game record: not a finished game"
		if r.Round != 0 || r.Game != 0 {
			what = fmt.Sprintf("round %d game %d is not a finished game", r.Round, r.Game)
		}
		return &invalidError{what + ` (result "", an open game): a records file holds finished games`}
	default:
		return r.invalid("result %q: want X+, O+ or 0", r.Result)
	}
	if r.Players.X == "" || r.Players.O == "" {
		return r.invalid("a player has no name (x %q, o %q)", r.Players.X, r.Players.O)
	}
	switch w := res.Winner(); w {
	case engine.X, engine.O:
		name := r.Players.X
		if w == engine.O {
			name = r.Players.O
		}
		if r.Winner == nil || *r.Winner != name {
			return r.invalid("result %s names %s (%s) the winner, but the record's winner is %s", r.Result, w, name, quoteName(r.Winner))
		}
	default:
		if r.Winner != nil {
			return r.invalid("result 0 is a draw, but the record names a winner, %q", *r.Winner)
		}
	}
	if r.Forfeit != "" && r.Reason != ReasonForfeit {
		return r.invalid("forfeit %q with reason %q: a forfeit kind goes with reason forfeit only", r.Forfeit, r.Reason)
	}
	end := p.Result()
	n := len(r.Moves)
	switch r.Reason {
	case ReasonWin:
		if res == engine.Draw {
			return r.invalid("reason win with result 0: a win has a winner")
		}
		if end == res {
			return nil
		}
		switch end {
		case engine.Open:
			verb := "make"
			if n == 1 {
				verb = "makes"
			}
			return r.invalid("%s by a win, but the %s %s no line of %d (the game is still open)", r.Result, moves(n), verb, rules.K)
		case engine.Draw:
			return r.invalid("%s by a win, but the %s end in a draw", r.Result, moves(n))
		}
		return r.invalid("%s by a win, but the last move (%d, %s) makes %s's line: the result is %s",
			r.Result, n, r.Moves[n-1].Move, end.Winner(), end)
	case ReasonDraw:
		if res != engine.Draw {
			return r.invalid("reason draw with result %s: a draw has result 0", r.Result)
		}
		switch end {
		case engine.Draw:
			return nil
		case engine.Open:
			return r.invalid("a draw by the rules needs a full board (or renju's black without a legal move): %d of %d cells are filled and the game is open", n, rules.Cells())
		}
		return r.invalid("a draw, but the last move (%d, %s) makes %s's line: the result is %s", n, r.Moves[n-1].Move, end.Winner(), end)
	case ReasonAdjudicated:
		if res != engine.Draw {
			return r.invalid("adjudication with result %s: the referee adjudicates draws only (the move limit)", r.Result)
		}
		return stillOpen(r, end)
	case ReasonForfeit:
		if res == engine.Draw {
			return r.invalid("a forfeit with result 0: a forfeit names the loser, and the other side wins")
		}
		if r.Forfeit == "" {
			return r.invalid("a forfeit without its kind (forfeit field): want one of %s", forfeitList())
		}
		if !knownForfeits[r.Forfeit] {
			return r.invalid("forfeit %q: want one of %s", r.Forfeit, forfeitList())
		}
		return stillOpen(r, end)
	case ReasonResignation:
		if res == engine.Draw {
			return r.invalid("a resignation with result 0: the side that did not resign wins")
		}
		return stillOpen(r, end)
	case ReasonNone:
		return r.invalid("result %s without a reason", r.Result)
	}
	return r.invalid("reason %q: want win, draw, adjudication, forfeit or resignation", r.Reason)
}

// stillOpen checks that a game the referee ended (adjudication, forfeit,
// resignation) was still open after its moves.
func stillOpen(r *Record, end engine.Result) error {
	if end == engine.Open {
		return nil
	}
	n := len(r.Moves)
	return r.invalid("%s %s, but the game ended on its last move (%d, %s) with result %s",
		r.Result, r.Reason, n, r.Moves[n-1].Move, end)
}

// moves says "1 move" or "N moves".
func moves(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}

func forfeitList() string {
	return fmt.Sprintf("%q, %q, %q, %q, %q, %q or %q", ForfeitTimeout, ForfeitIllegalMove, ForfeitCrash,
		ForfeitProtocolError, ForfeitStartFailure, ForfeitForbidden, ForfeitMemory)
}

func quoteName(s *string) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *s)
}

// ParseJudged reads one record from a JSON line and judges it (Judge),
// replaying its moves once, as Reader does with every line (after its
// signature) when it is given no parse function.
func ParseJudged(line []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, fmt.Errorf("decode game record: %w", err)
	}
	if _, err := r.judge(); err != nil {
		return nil, err
	}
	return &r, nil
}
