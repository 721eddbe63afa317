package gtpfront

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// FormatSolve prints a solve answer as `kinrow solve` does: "MOVES SCORE",
// with analyze "MOVES SCORE S1 ... SC" ('-' for a move that cannot be
// played), with weak only the signs, or "MOVES ? REASON". moves may be ""
// (the protocol's kinrow-solve leaves it out).
func FormatSolve(moves string, r botapi.SolveReply, analyze, weak bool) string {
	return string(AppendSolve(nil, moves, r, analyze, weak))
}

// AppendSolve appends FormatSolve's line to b: kinrow solve's printer, one
// buffer for every line.
func AppendSolve(b []byte, moves string, r botapi.SolveReply, analyze, weak bool) []byte {
	if moves != "" {
		b = append(append(b, moves...), ' ')
	}
	switch {
	case r.Error != "":
		return append(append(b, "? "...), r.Error...)
	case !r.Known:
		return append(b, "? unknown: not solved within the time limit"...)
	}
	score := r.Score
	if weak {
		score = sign(score)
	}
	b = strconv.AppendInt(b, int64(score), 10)
	if analyze {
		for i, s := range r.Scores {
			b = append(b, ' ')
			switch {
			case i < len(r.Valid) && !r.Valid[i]:
				b = append(b, '-')
			case weak:
				b = strconv.AppendInt(b, int64(sign(s)), 10)
			default:
				b = strconv.AppendInt(b, int64(s), 10)
			}
		}
	}
	return b
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// cmdSolve answers kinrow-solve [analyze] [weak] for the current position
// with the bot of the side to move (or the default bot).
func (s *Server) cmdSolve(ctx context.Context, a []string) (string, error) {
	var analyze, weak bool
	for _, w := range a {
		switch strings.ToLower(w) {
		case "analyze":
			analyze = true
		case "weak":
			weak = true
		default:
			return "", fmt.Errorf("%w: want kinrow-solve [analyze] [weak], got %q", errSyntax, w)
		}
	}
	c := s.game.Position().ToMove()
	if err := s.ensure(ctx, c); err != nil {
		return "", err
	}
	p := s.sides[c].player
	s.game.Settle(ctx) // the bot's calls stay sequential: its notifications first
	moves := s.game.Position().Moves(nil)
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = s.game.Rules().FormatMove(m)
	}
	r, err := referee.SolveOne(ctx, p, botapi.SolveRequest{ID: 1, Rules: s.game.Rules().String(), Moves: texts, Analyze: analyze, Weak: weak})
	if errors.Is(err, referee.ErrUnsupported) {
		return "", fmt.Errorf("%s (%s) cannot solve positions", c, p.Name())
	}
	if err != nil {
		return "", fmt.Errorf("%s (%s) failed to solve: %w", c, p.Name(), err)
	}
	out := FormatSolve("", r, analyze, weak)
	if strings.HasPrefix(out, "? ") {
		return "", fmt.Errorf("%s", strings.TrimPrefix(out, "? "))
	}
	return out, nil
}
