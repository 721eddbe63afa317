package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// game builds a record of rules with players a (x) and b (o), the moves
// (space-separated notation, colours alternating from x) and the result,
// reason and forfeit; the winner follows the result.
func game(rules, moves, result string, reason Reason, forfeit Forfeit) *Record {
	r := &Record{Rules: rules, Players: Players{X: "a", O: "b"}, Moves: []Move{}, Result: result, Reason: reason, Forfeit: forfeit}
	for i, m := range strings.Fields(moves) {
		r.Moves = append(r.Moves, Move{Move: m, Color: engine.Color(i & 1).String()})
	}
	switch result {
	case "X+":
		r.Winner = &r.Players.X
	case "O+":
		r.Winner = &r.Players.O
	}
	return r
}

func with(r *Record, f func(*Record)) *Record { f(r); return r }

// The one judge over wins (rows, columns, diagonals, gravity, exact
// lines), draws, adjudications, forfeits of every kind, resignations, and
// the forgeries and inconsistencies it refuses.
func TestJudge(t *testing.T) {
	const ttt, c4 = "tictactoe", "connect4"
	b := "b"
	for _, tc := range []struct {
		name string
		rec  *Record
		want string // "" accepted, else a part of the error
	}{
		// Wins by the last move, by the winner.
		{"ttt row", game(ttt, "a1 a2 b1 b2 c1", "X+", ReasonWin, ""), ""},
		{"ttt column", game(ttt, "a1 b1 a2 b2 a3", "X+", ReasonWin, ""), ""},
		{"ttt diagonal", game(ttt, "a1 b1 b2 c1 c3", "X+", ReasonWin, ""), ""},
		{"ttt anti-diagonal by o", game(ttt, "a1 c1 a2 b2 c3 a3", "O+", ReasonWin, ""), ""},
		{"connect4 vertical", game(c4, "4 3 4 3 4 3 4", "X+", ReasonWin, ""), ""},
		{"connect4 horizontal", game(c4, "1 1 2 2 3 3 4", "X+", ReasonWin, ""), ""},
		{"connect4 diagonal under gravity", game(c4, "1 2 2 3 4 3 3 4 5 4 4", "X+", ReasonWin, ""), ""},
		{"connect4 o's vertical", game(c4, "1 4 2 4 1 4 2 4", "O+", ReasonWin, ""), ""},
		{"freestyle overline wins", game("mnk:3x7x3", "a1 a3 b1 b3 d1 d3 e1 e3 c1", "X+", ReasonWin, ""), ""},
		{"exact: an overline is no win", game("mnk:3x7x3:exact", "a1 a3 b1 b3 d1 d3 e1 e3 c1", "X+", ReasonWin, ""), "no line of 3"},
		{"exact: exactly K wins", game("mnk:3x7x3:exact", "a1 a3 b1 b3 c1", "X+", ReasonWin, ""), ""},
		// Forged and wrong wins.
		{"forged win after 3 moves", game(ttt, "a1 b2 c3", "X+", ReasonWin, ""), "X+ by a win, but the 3 moves make no line of 3"},
		{"forged win after 1 move", game(ttt, "b2", "X+", ReasonWin, ""), "X+ by a win, but the 1 move makes no line of 3"},
		{"forged win with no move", game(ttt, "", "O+", ReasonWin, ""), "no line"},
		{"win given to the loser", game(ttt, "a1 a2 b1 b2 c1", "O+", ReasonWin, ""), "the last move (5, c1) makes x's line: the result is X+"},
		{"moves after the win", game(ttt, "a1 a2 b1 b2 c1 c2", "X+", ReasonWin, ""), "move 6: game is over"},
		{"winner is the loser's name", with(game(ttt, "a1 a2 b1 b2 c1", "X+", ReasonWin, ""), func(r *Record) { r.Winner = &b }), `winner is "b"`},
		{"win without a winner", with(game(ttt, "a1 a2 b1 b2 c1", "X+", ReasonWin, ""), func(r *Record) { r.Winner = nil }), "winner is null"},
		{"win with result 0", game(ttt, "a1 a2 b1 b2 c1", "0", ReasonWin, ""), "a win has a winner"},
		{"connect4 forged win", game(c4, "4 4 4 4", "X+", ReasonWin, ""), "no line of 4"},
		{"wrong colour", with(game(ttt, "a1 a2 b1 b2 c1", "X+", ReasonWin, ""), func(r *Record) { r.Moves[1].Color = "x" }), `move 2 (a2) is marked as "x"'s`},
		{"illegal move", game(ttt, "a1 a1", "X+", ReasonForfeit, ForfeitTimeout), "move 2"},
		// Draws.
		{"full board draw", game(ttt, "a3 b3 c3 b2 a2 c2 b1 a1 c1", "0", ReasonDraw, ""), ""},
		{"draw on an open board", game(ttt, "a1 b2 c3 a2", "0", ReasonDraw, ""), "4 of 9 cells are filled and the game is open"},
		{"draw on a won board", game(ttt, "a1 a2 b1 b2 c1", "0", ReasonDraw, ""), "makes x's line"},
		{"draw with a winner", game(ttt, "a3 b3 c3 b2 a2 c2 b1 a1 c1", "X+", ReasonDraw, ""), "a draw has result 0"},
		{"draw naming a winner", with(game(ttt, "a3 b3 c3 b2 a2 c2 b1 a1 c1", "0", ReasonDraw, ""), func(r *Record) { r.Winner = &b }), "names a winner"},
		// Adjudications (kinrow match --max-plies).
		{"move limit", game(c4, "4 4 3 3", "0", ReasonAdjudicated, ""), ""},
		{"move limit after a win", game(c4, "4 3 4 3 4 3 4", "0", ReasonAdjudicated, ""), "ended on its last move"},
		{"adjudicated win", game(c4, "4 4 3 3", "X+", ReasonAdjudicated, ""), "adjudicates draws only"},
		// Forfeits: a named loser, the other side wins, a known kind.
		{"timeout of o", game(c4, "4 4 3", "X+", ReasonForfeit, ForfeitTimeout), ""},
		{"timeout of x out of turn", game(c4, "4 4 3", "O+", ReasonForfeit, ForfeitTimeout), ""},
		{"illegal move", game(ttt, "b2", "X+", ReasonForfeit, ForfeitIllegalMove), ""},
		{"crash", game(ttt, "b2 a1", "O+", ReasonForfeit, ForfeitCrash), ""},
		{"protocol error", game(ttt, "", "X+", ReasonForfeit, ForfeitProtocolError), ""},
		{"start failure", game(ttt, "", "O+", ReasonForfeit, ForfeitStartFailure), ""},
		{"forbidden", game("renju", "h8 h9", "O+", ReasonForfeit, ForfeitForbidden), ""},
		{"memory", game("gomoku", "h8", "X+", ReasonForfeit, ForfeitMemory), ""},
		{"unknown forfeit", game(ttt, "b2", "X+", ReasonForfeit, "bored"), `forfeit "bored": want one of`},
		{"forfeit without its kind", game(ttt, "b2", "X+", ReasonForfeit, ""), "without its kind"},
		{"forfeit drawn", game(ttt, "b2", "0", ReasonForfeit, ForfeitTimeout), "forfeit with result 0"},
		{"forfeit after the end", game(ttt, "a1 a2 b1 b2 c1", "X+", ReasonForfeit, ForfeitTimeout), "ended on its last move"},
		{"forfeit winner mismatch", with(game(ttt, "b2", "X+", ReasonForfeit, ForfeitCrash), func(r *Record) { r.Winner = &b }), "winner"},
		{"forfeit kind on a win", game(ttt, "a1 a2 b1 b2 c1", "X+", ReasonWin, ForfeitTimeout), "goes with reason forfeit only"},
		// Resignations.
		{"resignation", game(ttt, "b2", "O+", ReasonResignation, ""), ""},
		{"drawn resignation", game(ttt, "b2", "0", ReasonResignation, ""), "did not resign wins"},
		// Not finished, or not a result.
		{"open game", game(ttt, "b2", "", ReasonNone, ""), "game record: not a finished game (result \"\", an open game)"},
		{"open game of a match", with(game(ttt, "b2", "", ReasonNone, ""), func(r *Record) { r.Round, r.Game = 2, 7 }), "round 2 game 7 is not a finished game"},
		{"forged win in a match", with(game(ttt, "b2", "X+", ReasonWin, ""), func(r *Record) { r.Round, r.Game = 2, 7 }), "round 2 game 7: X+ by a win"},
		{"unknown result", game(ttt, "b2", "1-0", ReasonWin, ""), `result "1-0"`},
		{"no reason", game(ttt, "b2", "X+", ReasonNone, ""), "without a reason"},
		{"unknown reason", game(ttt, "b2", "X+", "agreement", ""), `reason "agreement"`},
		{"nameless player", with(game(ttt, "b2", "X+", ReasonResignation, ""), func(r *Record) { r.Players.O = "" }), "has no name"},
		{"bad rules", game("chess", "", "X+", ReasonResignation, ""), "game record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.rec.Judge()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Judge refused a valid record: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Judge = %v; want an error with %q", err, tc.want)
			}
			// Through the reader too: refused with the file and line.
			line, _ := tc.rec.MarshalLine()
			data := append(append([]byte(good+"\n"), line...), '\n')
			_, err = ReadLines("f.jsonl", data, nil)
			if err == nil || !strings.HasPrefix(err.Error(), "f.jsonl:2: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ReadLines = %v; want f.jsonl:2: ... %q", err, tc.want)
			}
			if _, err := ReadLines("f.jsonl", data, Parse); err == nil {
				t.Fatalf("ReadLines with Parse accepted it")
			}
		})
	}
}

// good is a valid record line.
const good = `{"rules":"mnk:3x3x3","players":{"x":"a","o":"b"},"moves":[{"move":"a1","color":"x","ms":0}],"result":"O+","reason":"resignation","winner":"b"}`

// The forged tic-tac-toe wins of issue 24: X+ by a win after 3 moves with
// no line, and after 1 move, among real records: the file is refused at
// the forged line; ReadEveryLine keeps the real ones and lists it.
func TestReadLinesRefusesForgedWins(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "matches.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	real := bytes.Count(data, []byte("\n"))
	for _, forged := range []string{
		`{"rules":"mnk:3x3x3","players":{"x":"a","o":"b"},"moves":[{"move":"a1","color":"x","ms":1},{"move":"b3","color":"o","ms":1},{"move":"c2","color":"x","ms":1}],"result":"X+","reason":"win","winner":"a"}`,
		`{"rules":"mnk:3x3x3","players":{"x":"a","o":"b"},"moves":[{"move":"b2","color":"x","ms":1}],"result":"X+","reason":"win","winner":"a"}`,
	} {
		lines := bytes.SplitAfter(data, []byte("\n"))
		file := bytes.Join([][]byte{bytes.Join(lines[:5], nil), []byte(forged + "\n"), bytes.Join(lines[5:], nil)}, nil)
		_, err := ReadLines("m.jsonl", file, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "m.jsonl:6: game record: X+ by a win, but the ") || !errors.Is(err, ErrInvalid) {
			t.Errorf("ReadLines = %v; want m.jsonl:6 refused", err)
		}
		var bad *Bad
		if !errors.As(err, &bad) || bad.N != 6 {
			t.Errorf("error %v is not a *Bad of line 6", err)
		}
		ls := ReadEveryLine("m.jsonl", file, nil)
		if len(ls.Records) != real || len(ls.Bad) != 1 || ls.Bad[0].N != 6 {
			t.Errorf("ReadEveryLine: %d records, bad %v; want %d and line 6", len(ls.Records), ls.Bad, real)
		}
	}
}

// A game (schedule, round, game) recorded twice in one file is refused
// at its second line, whoever reads the file; the same round and game of
// another schedule, or records without numbers, are not duplicates.
func TestReadLinesRefusesDuplicates(t *testing.T) {
	rec := func(schedule string, round, g int) string {
		r := game("tictactoe", "b2", "O+", ReasonResignation, "")
		r.Schedule, r.Round, r.Game = schedule, round, g
		line, _ := r.MarshalLine()
		return string(line) + "\n"
	}
	ok := rec("s1", 1, 1) + rec("s1", 1, 2) + rec("s2", 1, 1) + rec("", 1, 1) + rec("", 0, 0) + rec("", 0, 0)
	if ls, err := ReadLines("f", []byte(ok), nil); err != nil || len(ls.Records) != 6 {
		t.Fatalf("ReadLines = %d records, %v", len(ls.Records), err)
	}
	dup := ok + rec("s1", 1, 2)
	_, err := ReadLines("f", []byte(dup), nil)
	if err == nil || err.Error() != "f:7: round 1 game 2 is already recorded on line 2; a game is played and counted once" || !errors.Is(err, ErrDuplicate) {
		t.Fatalf("ReadLines = %v", err)
	}
	for _, parse := range []func([]byte) (*Record, error){Parse, ParseJudged} {
		if _, err := ReadLines("f", []byte(dup), parse); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("ReadLines with a parse function = %v", err)
		}
	}
	ls := ReadEveryLine("f", []byte(dup+rec("s1", 1, 1)), nil)
	if len(ls.Records) != 6 || len(ls.Bad) != 2 || ls.Bad[0].N != 7 || ls.Bad[1].N != 8 {
		t.Fatalf("ReadEveryLine: %d records, bad %v", len(ls.Records), ls.Bad)
	}
}

// FuzzJudge: records of real matches with their results, reasons,
// forfeits, winners and moves mutated. Whatever the judge accepts replays
// to the same result: a win is the win the moves make, a draw by the rules
// a drawn board, anything else an open board with a known reason.
func FuzzJudge(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "matches.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if i%3 != 0 && i < 40 {
			continue // a sample of the games, every forfeit at the end
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			f.Fatal(err)
		}
		moves := make([]string, len(r.Moves))
		for j, m := range r.Moves {
			moves[j] = m.Move
		}
		f.Add(r.Rules, strings.Join(moves, " "), r.Result, string(r.Reason), string(r.Forfeit), uint8(0), uint8(0))
		// Mutated: the result flipped, the last move dropped, a move
		// swapped, the reason changed.
		f.Add(r.Rules, strings.Join(moves, " "), map[string]string{"X+": "O+", "O+": "X+", "0": "X+"}[r.Result], string(r.Reason), string(r.Forfeit), uint8(1), uint8(0))
		if len(moves) > 1 {
			f.Add(r.Rules, strings.Join(moves[:len(moves)-1], " "), r.Result, string(r.Reason), string(r.Forfeit), uint8(0), uint8(1))
		}
		f.Add(r.Rules, strings.Join(moves, " "), r.Result, "draw", "", uint8(2), uint8(len(moves)/2))
	}
	f.Add("tictactoe", "a1 b3 c2", "X+", "win", "", uint8(0), uint8(0))
	f.Add("tictactoe", "b2", "X+", "win", "", uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, rules, moves, result, reason, forfeit string, winner, swap uint8) {
		rec := game(rules, moves, result, Reason(reason), Forfeit(forfeit))
		switch winner % 4 { // the winner as written, or another
		case 1:
			rec.Winner = nil
		case 2:
			rec.Winner = &rec.Players.O
		case 3:
			rec.Winner = &rec.Players.X
		}
		if n := len(rec.Moves); n > 1 && swap > 0 { // two moves exchanged
			i := int(swap) % n
			rec.Moves[i].Move, rec.Moves[n-1].Move = rec.Moves[n-1].Move, rec.Moves[i].Move
		}
		if err := rec.Judge(); err != nil {
			return
		}
		r, err := engine.ParseRules(rec.Rules)
		if err != nil {
			t.Fatalf("accepted rules %q: %v", rec.Rules, err)
		}
		p := engine.NewPosition(r)
		for _, m := range rec.Moves {
			mv, err := r.ParseMove(m.Move)
			if err == nil {
				err = p.Apply(mv)
			}
			if err != nil {
				t.Fatalf("accepted an illegal game: %v", err)
			}
		}
		end := p.Result()
		switch rec.Reason {
		case ReasonWin, ReasonDraw:
			if end.String() != rec.Result {
				t.Fatalf("accepted %s %s; the moves make %q", rec.Result, rec.Reason, end)
			}
		case ReasonForfeit, ReasonResignation, ReasonAdjudicated:
			if end != engine.Open || rec.Result == "" {
				t.Fatalf("accepted %s %s on a board that ended %q", rec.Result, rec.Reason, end)
			}
		default:
			t.Fatalf("accepted reason %q", rec.Reason)
		}
		var want *string
		switch rec.Result {
		case "X+":
			want = &rec.Players.X
		case "O+":
			want = &rec.Players.O
		}
		if (want == nil) != (rec.Winner == nil) || (want != nil && *want != *rec.Winner) {
			t.Fatalf("accepted result %s with winner %v", rec.Result, rec.Winner)
		}
		// What it accepts reads back through the reader.
		line, _ := rec.MarshalLine()
		if _, err := ReadLines("f", append(line, '\n'), nil); err != nil {
			t.Fatalf("judged valid, read back refused: %v", err)
		}
	})
}

func TestJudgeAcceptsRealMatches(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "matches.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ls, err := ReadLines("matches.jsonl", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]int{}
	for _, l := range ls.Records {
		reasons[fmt.Sprintf("%s %s", l.Rec.Reason, l.Rec.Forfeit)]++
	}
	if len(ls.Records) != 60 || len(reasons) < 6 {
		t.Fatalf("%d records, reasons %v", len(ls.Records), reasons)
	}
}
