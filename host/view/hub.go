package view

import (
	"encoding/json"
	"math"
	"sync"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/recordfmt"
)

// GameInfo describes a game as it starts.
type GameInfo struct {
	// ID names the game in every later call; unique within the run (the
	// runner's game number across the run, from 1, is a good one).
	ID int `json:"id"`
	// Round and Game place it in the match (the pairing and the game
	// within it, both from 1), as in the record; 0 if unknown.
	Round   int            `json:"round,omitempty"`
	Game    int            `json:"game,omitempty"`
	Rules   engine.Rules   `json:"-"`
	Players record.Players `json:"players"`
}

// SearchInfo is what a bot last reported about its search for a move;
// every field may be zero (the bot reported nothing).
type SearchInfo struct {
	Depth int    `json:"depth,omitempty"`
	Score string `json:"score,omitempty"` // as the bot wrote it, e.g. "+3" or "win in 7"
	Nodes int64  `json:"nodes,omitempty"`
	PV    string `json:"pv,omitempty"` // moves in kinrow's notation, separated by spaces
}

// SummaryRow is one pairing of the match summary, from bot A's view.
type SummaryRow struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Elo    float64 `json:"elo"`
	EloErr float64 `json:"elo_err"` // the half-width of the 95% interval
	// LLR is the SPRT's log-likelihood ratio with its bounds, when a SPRT runs.
	LLR      *float64 `json:"llr,omitempty"`
	LLRLower float64  `json:"llr_lower,omitempty"`
	LLRUpper float64  `json:"llr_upper,omitempty"`
}

// eloLimit is the bound past which an Elo difference or its error is
// unbounded: the runner clamps infinities to ±9999 (JSON has none).
const eloLimit = 9999

// MarshalJSON writes Elo and EloErr as numbers, or as the strings "inf"
// and "-inf" when they are unbounded (infinite, or at the runner's clamp
// of ±9999: all wins or all losses, too few games), which the page shows
// as ∞; NaN is "nan".
func (r SummaryRow) MarshalJSON() ([]byte, error) {
	type row SummaryRow // without this method
	return json.Marshal(struct {
		row
		Elo    any `json:"elo"`
		EloErr any `json:"elo_err"`
	}{row(r), eloJSON(r.Elo), eloJSON(r.EloErr)})
}

func eloJSON(f float64) any {
	switch {
	case math.IsNaN(f):
		return "nan"
	case f >= eloLimit:
		return "inf"
	case f <= -eloLimit:
		return "-inf"
	}
	return f
}

// Summary is the state of the match as a whole.
type Summary struct {
	Done  int          `json:"done"`  // games finished
	Total int          `json:"total"` // games scheduled
	Rows  []SummaryRow `json:"rows"`
	// Decision is the SPRT's decision so far ("" while it runs or without one).
	Decision string `json:"decision,omitempty"`
}

// LiveMove is one move of a live game.
type LiveMove struct {
	Move   string      `json:"move"`
	Color  string      `json:"color"`
	MS     int64       `json:"ms"`
	Search *SearchInfo `json:"search,omitempty"`
}

// LiveGame is a game of the match as the page sees it.
type LiveGame struct {
	GameInfo
	RulesText string     `json:"rules"`
	Moves     []LiveMove `json:"moves"`
	Result    string     `json:"result"`
	Reason    string     `json:"reason,omitempty"`
	Detail    string     `json:"detail,omitempty"`
	// Replay is the game's number in the server's replay list (/?game=N)
	// once it has ended.
	Replay  int       `json:"replay,omitempty"`
	Started time.Time `json:"started"`
	pos     *engine.Position
	moves   []engine.Move
}

// Event is one message of the event stream: its kind ("snapshot", "start",
// "move", "end" (a game's), "summary", "matchend") and its JSON data.
type Event struct {
	Kind string
	Data json.RawMessage
}

// maxFinished bounds the ended games the hub keeps for the live page (their
// records stay in the replay list).
const maxFinished = 64

// subscriberBuffer is how many events a slow page may fall behind before
// the hub drops it (its EventSource reconnects and gets a fresh snapshot).
const subscriberBuffer = 1024

// Hub collects a running match's events and fans them out to the pages
// watching it. The match runner calls GameStarted, Move, GameEnded and
// Summary, from any goroutine; none of them blocks on a slow page. The zero
// Hub is not usable: call NewHub.
type Hub struct {
	mu       sync.Mutex
	games    map[int]*LiveGame
	order    []int // ids, in start order
	finished []*record.Record
	summary  *Summary
	ended    *matchEnd // set by MatchEnded
	subs     map[chan Event]struct{}
	// replayBase counts the replay list's games before the hub's (the
	// server's files); nil for none.
	replayBase func() int
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{games: map[int]*LiveGame{}, subs: map[chan Event]struct{}{}}
}

// GameStarted announces a game; the moves of its opening, if any, follow
// through Move like the others (with 0 ms). Invalid rules are ignored.
func (h *Hub) GameStarted(info GameInfo) {
	if info.Rules.Validate() != nil {
		return
	}
	g := &LiveGame{GameInfo: info, RulesText: info.Rules.String(), Moves: []LiveMove{}, Started: time.Now().UTC(),
		pos: engine.NewPosition(info.Rules)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.games[info.ID]; !ok {
		h.order = append(h.order, info.ID)
	}
	h.games[info.ID] = g
	h.publish("start", g)
}

// Move reports a move played in game id, the milliseconds it took and the
// bot's last search report (nil when there is none). Moves of unknown
// games, or that are not legal, are ignored.
func (h *Hub) Move(id int, m engine.Move, ms int64, search *SearchInfo) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil || g.Result != "" {
		return
	}
	if g.pos == nil || g.pos.Check(m) != nil {
		return
	}
	color := g.pos.ToMove().String()
	g.pos.Play(m)
	lm := LiveMove{Move: g.Rules.FormatMove(m), Color: color, MS: ms, Search: search}
	g.moves = append(g.moves, m)
	g.Moves = append(g.Moves, lm)
	h.publish("move", struct {
		ID  int `json:"id"`
		Ply int `json:"ply"`
		LiveMove
	}{id, len(g.moves), lm})
}

// GameEnded reports the end of game id with its finished record, which is
// authoritative: its moves replace those reported, its result, reason and
// detail are shown, and it joins the replay list.
func (h *Hub) GameEnded(id int, rec *record.Record) {
	g, err := recordfmt.FromRecord(rec)
	h.mu.Lock()
	defer h.mu.Unlock()
	lg := h.games[id]
	if lg == nil {
		lg = &LiveGame{GameInfo: GameInfo{ID: id, Round: rec.Round, Game: rec.Game, Players: rec.Players}, RulesText: rec.Rules}
		if err == nil {
			lg.Rules = g.Rules
		}
		h.games[id] = lg
		h.order = append(h.order, id)
	}
	if err == nil {
		lg.moves = g.Moves
		lg.Moves = lg.Moves[:0]
		for _, m := range rec.Moves {
			lg.Moves = append(lg.Moves, LiveMove{Move: m.Move, Color: m.Color, MS: m.MS})
		}
	}
	lg.Result, lg.Reason, lg.Detail, lg.pos = rec.Result, string(rec.Reason), rec.Detail, nil
	if lg.Result == "" {
		lg.Result = "*" // ended without a result: abandoned
	}
	h.finished = append(h.finished, rec)
	lg.Replay = len(h.finished)
	if h.replayBase != nil {
		lg.Replay += h.replayBase()
	}
	h.trim()
	h.publish("end", lg)
}

// trim forgets the oldest ended games past maxFinished.
func (h *Hub) trim() {
	ended := 0
	for _, id := range h.order {
		if h.games[id].Result != "" {
			ended++
		}
	}
	for i := 0; ended > maxFinished && i < len(h.order); {
		id := h.order[i]
		if h.games[id].Result != "" {
			delete(h.games, id)
			h.order = append(h.order[:i], h.order[i+1:]...)
			ended--
			continue
		}
		i++
	}
}

// Summary replaces the summary table.
func (h *Hub) Summary(s Summary) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.summary = &s
	h.publish("summary", s)
}

// publish sends an event to every subscriber; h.mu is held. A subscriber
// whose buffer is full is dropped (its channel closed).
func (h *Hub) publish(kind string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	ev := Event{Kind: kind, Data: data}
	for ch := range h.subs {
		select {
		case ch <- ev:
		default:
			delete(h.subs, ch)
			close(ch)
		}
	}
}

// MatchEnded reports that the match is over (every game played, a SPRT
// decided, or stopped), with a short message for the page ("all 20 games
// played"). Pages get a "matchend" event, then no more, and say the match
// ended instead of waiting for it: the server may go away. Later calls
// are ignored.
func (h *Hub) MatchEnded(message string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ended != nil {
		return
	}
	h.ended = &matchEnd{Message: message}
	h.publish("matchend", h.ended)
}

// matchEnd is the data of the "matchend" event.
type matchEnd struct {
	Message string `json:"message"`
}

// snapshot is the whole live state: the games in start order, the
// summary, and whether the match has ended.
type snapshot struct {
	Games   []*LiveGame `json:"games"`
	Summary *Summary    `json:"summary"`
	Ended   *matchEnd   `json:"ended,omitempty"`
}

func (h *Hub) snapshotLocked() snapshot {
	s := snapshot{Games: []*LiveGame{}, Summary: h.summary, Ended: h.ended}
	for _, id := range h.order {
		s.Games = append(s.Games, h.games[id])
	}
	return s
}

// Subscribe returns a channel of events, the first a "snapshot" of the
// whole state, and a function that ends the subscription. The channel is
// closed when the subscriber falls too far behind.
func (h *Hub) Subscribe() (<-chan Event, func()) {
	ch := make(chan Event, subscriberBuffer)
	h.mu.Lock()
	data, _ := json.Marshal(h.snapshotLocked())
	ch <- Event{Kind: "snapshot", Data: data}
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if _, ok := h.subs[ch]; ok {
			delete(h.subs, ch)
			close(ch)
		}
	}
}

// liveGame returns a copy of game id's rules and moves.
func (h *Hub) liveGame(id int) (*recordfmt.Game, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil {
		return nil, false
	}
	return &recordfmt.Game{Rules: g.Rules, Players: g.Players, Moves: append([]engine.Move(nil), g.moves...), Result: g.Result}, true
}

// setReplayBase tells the hub how many games precede its own in the
// replay list.
func (h *Hub) setReplayBase(f func() int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.replayBase = f
}

// finishedRecords returns the records of the ended games, in end order.
func (h *Hub) finishedRecords() []*record.Record {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*record.Record(nil), h.finished...)
}
