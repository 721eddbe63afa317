package recordfmt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// Game is one game in the form every format shares: the rules, the
// players, the moves in kinrow's numbering with the milliseconds each took
// (0 when unknown), and the result as kinrow writes it ("X+", "O+", "0" or
// "" for an open game) with its reason and detail.
type Game struct {
	Rules   engine.Rules
	Players record.Players
	Moves   []engine.Move
	MS      []int64
	Result  string
	Reason  record.Reason
	Forfeit record.Forfeit
	Detail  string
}

// FromRecord converts a record, replaying its moves to check them.
func FromRecord(rec *record.Record) (*Game, error) {
	rules, err := engine.ParseRules(rec.Rules)
	if err != nil {
		return nil, fmt.Errorf("game record: %w", err)
	}
	g := &Game{Rules: rules, Players: rec.Players, Result: rec.Result, Reason: rec.Reason,
		Forfeit: rec.Forfeit, Detail: rec.Detail}
	pos := engine.NewPosition(rules)
	for i, m := range rec.Moves {
		mv, err := rules.ParseMove(m.Move)
		if err != nil {
			return nil, fmt.Errorf("game record move %d: %w", i+1, err)
		}
		if err := pos.Apply(mv); err != nil {
			return nil, fmt.Errorf("game record move %d: %w", i+1, err)
		}
		g.Moves = append(g.Moves, mv)
		g.MS = append(g.MS, m.MS)
	}
	return g, nil
}

// Position replays the first ply moves of g (all of them if ply is negative
// or past the end) and returns the position.
func (g *Game) Position(ply int) (*engine.Position, error) {
	if ply < 0 || ply > len(g.Moves) {
		ply = len(g.Moves)
	}
	pos := engine.NewPosition(g.Rules)
	if err := pos.PlayMoveList(g.Moves[:ply]); err != nil {
		return nil, err
	}
	return pos, nil
}

// MoveTime returns the milliseconds move i took, 0 if unknown.
func (g *Game) MoveTime(i int) int64 {
	if i < len(g.MS) {
		return g.MS[i]
	}
	return 0
}

// ErrNotRecords is wrapped by LoadRecords' error for input that is not
// kinrow's JSON game records.
var ErrNotRecords = errors.New("not kinrow game records (want the JSON lines kinrow match --out writes)")

// LoadRecords reads a records file through record.Reader, a line at a
// time: one JSON game record per line, blank lines skipped, no line over
// record.MaxLineBytes. Signatures are not checked: kinrow export writes
// what a file holds in other formats, vouching for nothing. A torn last line (no newline at its
// end, not valid JSON, the start of a record line: a run killed while
// writing) is left out with a warning; any other bad line is an error
// naming the file and the line. A first line that is
// not a JSON object with rules and moves is reported as ErrNotRecords.
func LoadRecords(r io.Reader, name string) (recs []*record.Record, warnings []string, err error) {
	ls, err := record.Reader{Parse: parseRecord}.Read(name, r)
	if err != nil {
		return nil, nil, err
	}
	warnings = tornWarning(ls)
	if len(ls.Records) == 0 {
		return nil, warnings, fmt.Errorf("%s: no game records in the file", name)
	}
	for _, l := range ls.Records {
		recs = append(recs, l.Rec)
	}
	return recs, warnings, nil
}

// ReadEveryRecord reads records as LoadRecords does, each verified by v
// (when not nil: signed by a trusted key, its game id once), but a bad
// line does not refuse the file (record.Reader.ReadEvery): it returns the
// good records, the warnings (a torn last line) and every bad line, each
// naming file:line and why (a game recorded twice says so), and badErrs,
// the same as errors. err is a read error.
func ReadEveryRecord(name string, r io.Reader, v *record.Verifier) (recs []*record.Record, warnings, bad []string, badErrs []error, err error) {
	ls, err := record.Reader{Parse: parseRecord, Verifier: v}.ReadEvery(name, r)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for _, l := range ls.Records {
		recs = append(recs, l.Rec)
	}
	for _, b := range ls.Bad {
		msg := b.Error()
		if errors.Is(b, record.ErrDuplicate) {
			msg = fmt.Sprintf("%s:%d: %v: %v", b.Name, b.N, record.ErrDuplicate, b.Err)
		}
		bad = append(bad, msg)
		badErrs = append(badErrs, b)
	}
	return recs, tornWarning(ls), bad, badErrs, nil
}

// tornWarning is the warning of a torn last line, if ls has one.
func tornWarning(ls record.Lines) []string {
	if ls.Torn == nil {
		return nil
	}
	return []string{fmt.Sprintf("%s:%d: torn last line left out (%v)", ls.Torn.Name, ls.Torn.N, ls.Torn.Err)}
}

// parseRecord reads one line, telling apart what is not a record at all.
func parseRecord(line []byte) (*record.Record, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(line, &probe); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotRecords, err)
	}
	if _, ok := probe["rules"]; !ok {
		return nil, fmt.Errorf("%w: no \"rules\" field", ErrNotRecords)
	}
	if _, ok := probe["moves"]; !ok {
		return nil, fmt.Errorf("%w: no \"moves\" field", ErrNotRecords)
	}
	return record.Parse(line)
}
