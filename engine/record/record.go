package record

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kinrow/kinrow/engine"
)

// Reason says why a game ended.
type Reason string

// The reasons a game ends.
const (
	ReasonNone        Reason = ""             // the game is still open
	ReasonWin         Reason = "win"          // a line of K was made
	ReasonDraw        Reason = "draw"         // the board filled, or renju's black has no legal move
	ReasonForfeit     Reason = "forfeit"      // a player broke a rule; see Forfeit
	ReasonResignation Reason = "resignation"  // a player resigned
	ReasonAdjudicated Reason = "adjudication" // the referee ended the game (e.g. move limit)
)

// Forfeit says which rule a forfeiting player broke.
type Forfeit string

// The kinds of forfeit.
const (
	ForfeitTimeout       Forfeit = "timeout"        // no answer by the deadline (the bot stalled)
	ForfeitIllegalMove   Forfeit = "illegal move"   // the move was unparsable or not legal
	ForfeitCrash         Forfeit = "crash"          // the bot exited or closed the connection
	ForfeitProtocolError Forfeit = "protocol error" // the bot answered something else than a move
	ForfeitStartFailure  Forfeit = "start failure"  // the bot did not start or refused the game
	ForfeitForbidden     Forfeit = "forbidden"      // a move the line rule forbids (renju: black's double three, double four, overline)
	ForfeitMemory        Forfeit = "memory"         // the bot went over its memory cap and was killed
)

// Players names the two sides by the names of the bots (or "human").
type Players struct {
	X string `json:"x"`
	O string `json:"o"`
}

// Move is one move of a record: its notation, the side that played it and
// the time it took in milliseconds (0 for moves sent by the controller).
type Move struct {
	Move  string `json:"move"`
	Color string `json:"color"`
	MS    int64  `json:"ms"`
	// CPUMS is the CPU time the player's processes used since its previous
	// move, where the host can account it (a cgroup's cpu.stat): more
	// than MS shows threads, and any at all while it should be suspended
	// shows up here. Omitted when unknown.
	CPUMS int64 `json:"cpu_ms,omitempty"`
	// Search is the bot's last search report before it answered the move
	// (as fastchess's extended PGN keeps), absent when it reported none.
	Search *Search `json:"search,omitempty"`
}

// Search is a bot's search report: the depth reached, the score in the
// bot's own units, from the mover's side, the nodes searched, the time
// searched and the principal variation in notation.
type Search struct {
	Depth int      `json:"depth"`
	Score int      `json:"score"`
	Nodes int64    `json:"nodes"`
	MS    int64    `json:"ms"`
	PV    []string `json:"pv,omitempty"`
}

// Record is one game. Result is "X+", "O+", "0" or "" while the game is open;
// Winner is the winner's name, or null for a draw or an open game.
type Record struct {
	Rules   string  `json:"rules"`
	Players Players `json:"players"`
	Moves   []Move  `json:"moves"`
	Result  string  `json:"result"`
	Reason  Reason  `json:"reason"`
	Forfeit Forfeit `json:"forfeit,omitempty"`
	Detail  string  `json:"detail,omitempty"`
	Winner  *string `json:"winner"`
	// Digits is the Connect-X move list as a plain digit string (e.g. "4453"),
	// for boards of at most 9 columns.
	Digits  string    `json:"digits,omitempty"`
	Opening int       `json:"opening_plies,omitempty"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end,omitzero"`
	Round   int       `json:"round,omitempty"`
	Game    int       `json:"game,omitempty"`
	// Schedule identifies the schedule of the match that played the game
	// (kinrow match: a hash of its settings and its shape), so that records
	// of different schedules are never merged or resumed together.
	Schedule string `json:"schedule,omitempty"`
	// ID is the game's unique id (NewID: 128 random bits in hex), given
	// when the record is signed.
	ID string `json:"id,omitempty"`
	// Key is the public key of the referee that signed the record
	// (EncodeKey), and Sig the signature, always the line's last member:
	// see SignedLine and docs/MATCHES.md.
	Key string `json:"key,omitempty"`
	Sig string `json:"sig,omitempty"`
}

// New starts the record of a game under rules between two named players.
func New(rules engine.Rules, players Players, start time.Time) *Record {
	return &Record{Rules: rules.String(), Players: players, Moves: []Move{}, Start: start.UTC()}
}

// Add appends a move played by colour c that took d.
func (r *Record) Add(rules engine.Rules, m engine.Move, c engine.Color, d time.Duration) {
	r.Moves = append(r.Moves, Move{Move: rules.FormatMove(m), Color: c.String(), MS: d.Milliseconds()})
	r.updateDigits(rules)
}

// Undo removes the last move, if any.
func (r *Record) Undo(rules engine.Rules) {
	if len(r.Moves) > 0 {
		r.Moves = r.Moves[:len(r.Moves)-1]
	}
	r.updateDigits(rules)
}

func (r *Record) updateDigits(rules engine.Rules) {
	if !rules.DigitMoveList() {
		return
	}
	b := make([]byte, 0, len(r.Moves))
	for _, m := range r.Moves {
		b = append(b, m.Move...)
	}
	r.Digits = string(b)
}

// Finish sets the result, the reason and the winner's name.
func (r *Record) Finish(res engine.Result, reason Reason, forfeit Forfeit, detail string, end time.Time) {
	r.Result = res.String()
	r.Reason = reason
	r.Forfeit = forfeit
	r.Detail = detail
	r.End = end.UTC()
	r.Winner = nil
	switch res.Winner() {
	case engine.X:
		name := r.Players.X
		r.Winner = &name
	case engine.O:
		name := r.Players.O
		r.Winner = &name
	}
}

// Reopen clears the result, e.g. after an undo of the winning move.
func (r *Record) Reopen() {
	r.Result, r.Reason, r.Forfeit, r.Detail, r.Winner, r.End = "", ReasonNone, "", "", nil, time.Time{}
}

// Summary says the result and its reason in words, e.g.
// "O+ forfeit: x (random) timed out after 1000 ms" or "X+ win".
func (r *Record) Summary() string {
	if r.Result == "" {
		return "open"
	}
	s := r.Result + " " + string(r.Reason)
	if r.Detail != "" {
		s += ": " + r.Detail
	}
	return s
}

// MarshalLine returns the record as one JSON line without the newline and
// without a signature (a record kinrow serve's controller asks for, which
// the host did not referee alone): SignedLine writes the records a
// referee vouches for. Search reports are cut as SignedLine cuts them.
func (r *Record) MarshalLine() ([]byte, error) {
	c := *r
	c.Sig = ""
	c.Moves = clampSearch(c.Moves)
	b, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("encode game record: %w", err)
	}
	return b, nil
}

// Parse reads one record from a JSON line and checks that its rules and moves
// replay to a legal game; it does not judge the result (an open game is
// fine): ParseJudged and Record.Judge do, and Reader judges every record
// it reads.
func Parse(line []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, fmt.Errorf("decode game record: %w", err)
	}
	if _, _, err := r.replay(nil); err != nil {
		return nil, err
	}
	return &r, nil
}

// replay plays the record's moves from the empty board under its rules,
// each checked legal, calling each (when set) after move i is played; it
// returns the rules and the position reached.
func (r *Record) replay(each func(i int, p *engine.Position) error) (engine.Rules, *engine.Position, error) {
	rules, err := engine.ParseRules(r.Rules)
	if err != nil {
		return engine.Rules{}, nil, fmt.Errorf("game record: %w", err)
	}
	p := engine.NewPosition(rules)
	for i, m := range r.Moves {
		mv, err := rules.ParseMove(m.Move)
		if err != nil {
			return rules, nil, fmt.Errorf("game record move %d: %w", i+1, err)
		}
		if err := p.Apply(mv); err != nil {
			return rules, nil, fmt.Errorf("game record move %d: %w", i+1, err)
		}
		if each != nil {
			if err := each(i, p); err != nil {
				return rules, nil, err
			}
		}
	}
	return rules, p, nil
}
