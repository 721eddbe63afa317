package botapi

import (
	"context"
	"net"
	"strings"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/kinrow/kinrow/engine"
)

// ProtocolVersion is the newest plugin protocol version this package speaks:
// 2, the Session stream. It still speaks version 1 (an RPC per request) with
// bots built before; go-plugin refuses a bot that speaks neither (see
// VersionedPluginSets).
const ProtocolVersion = 2

// The plugin protocol versions.
const (
	// Version1 is an RPC per request (Info, NewGame, Play, Undo, GenMove,
	// Solve): GRPCClient.
	Version1 = 1
	// Version2 is one Session stream per bot carrying every request and
	// answer: SessionClient.
	Version2 = 2
)

// PluginName is the name the bot is dispensed under.
const PluginName = "bot"

// Magic cookie: go-plugin's guard against a bot being run by hand.
const (
	cookieKey   = "KINROW_BOT_PLUGIN"
	cookieValue = "9f1c5e27-kinrow-bot-b04a"
)

// Handshake returns the handshake both the host and the bots use.
func Handshake() plugin.HandshakeConfig {
	return plugin.HandshakeConfig{
		ProtocolVersion:  ProtocolVersion,
		MagicCookieKey:   cookieKey,
		MagicCookieValue: cookieValue,
	}
}

// PluginSet is the plugin set of ProtocolVersion: impl is served by a bot;
// the host passes nil.
func PluginSet(impl Bot) plugin.PluginSet { return VersionPluginSet(ProtocolVersion, impl) }

// VersionPluginSet is the plugin set of plugin protocol version v (Version1
// or Version2). A bot serves the same service for both; the host's client
// differs: a GRPCClient for version 1, a SessionClient for version 2.
func VersionPluginSet(v int, impl Bot) plugin.PluginSet {
	return plugin.PluginSet{PluginName: &Plugin{Impl: impl, Version: v}}
}

// VersionedPluginSets maps each plugin protocol version this package speaks
// (1 and 2) to its plugin set, for ClientConfig and
// ServeConfig.VersionedPlugins: go-plugin's handshake picks the highest
// version both sides speak (Client.NegotiatedVersion). A bot that speaks
// none of them fails the start with go-plugin's error
//
//	incompatible API version with plugin. Plugin version: 0, Client versions: [1 2]
//
// and is killed by go-plugin.
func VersionedPluginSets(impl Bot) map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{Version1: VersionPluginSet(Version1, impl), Version2: VersionPluginSet(Version2, impl)}
}

// HostPluginSets is VersionedPluginSets for a host that checks the socket
// a version-2 bot's session hello names as it dials it (see
// Plugin.SocketDial): a bot must not send the host to any unix socket.
func HostPluginSets(dial func(ctx context.Context, path string) (net.Conn, error)) map[int]plugin.PluginSet {
	sets := VersionedPluginSets(nil)
	sets[Version2] = plugin.PluginSet{PluginName: &Plugin{Version: Version2, SocketDial: dial}}
	return sets
}

// Bot is the wire-level view of a bot, with moves as notation strings. The
// clock reaches it twice, each part once: the time control in NewGame
// (Game.Time) and, with every GenMove, the move's budget and both sides'
// time left (GenMoveRequest). The
// host holds a GRPCClient; a bot serves one through GRPCServer (protocol/sdk
// does that for bot authors). Errors crossing the wire carry a gRPC status:
// InvalidArgument for a refusal the bot explains (bad rules, unknown option,
// illegal move), FailedPrecondition for a call out of order (no game, nothing
// to undo, game over), Unimplemented for a feature the bot lacks,
// DeadlineExceeded and Canceled from the call's context, Unavailable when the
// bot is gone.
type Bot interface {
	// Info describes the bot.
	Info(ctx context.Context) (Info, error)
	// NewGame starts a game, replacing any other.
	NewGame(ctx context.Context, g Game) error
	// Play tells the bot a move was played, by either side.
	Play(ctx context.Context, move string) error
	// Undo takes back the last move.
	Undo(ctx context.Context) error
	// GenMove asks for a move for the side to move and returns it in
	// notation, or "resign". progress, if not nil, receives the search
	// reports the bot sends meanwhile, on the calling goroutine's behalf
	// (never after GenMove returns). Cancelling ctx cancels the search.
	GenMove(ctx context.Context, req GenMoveRequest, progress func(Progress)) (string, error)
	// Solve opens a solving stream, valid until ctx ends. A bot that does
	// not solve fails the stream with Unimplemented: over gRPC the error
	// comes from the first Recv.
	Solve(ctx context.Context) (SolveStream, error)
}

// SolveStream carries solve requests one way and their replies the other.
// Replies may come in any order: match them by ID. Send and Recv may be
// called from different goroutines, but neither concurrently with itself.
type SolveStream interface {
	// Send queues a request.
	Send(SolveRequest) error
	// Recv returns the next reply; io.EOF once every request is answered
	// after CloseSend.
	Recv() (SolveReply, error)
	// CloseSend says no more requests will come.
	CloseSend() error
}

// Resign is the move a bot answers to give up.
const Resign = "resign"

// Info is what a bot says of itself.
type Info struct {
	Name    string
	Version string
	Author  string
	// Strength: higher is stronger. The host's default bot is the strongest
	// installed one that plays the rules (see StrengthFor).
	Strength int
	// KindStrength overrides Strength for one kind of game ("connectx",
	// "mnk"): a bot strong at one game and weak at the other says so here.
	KindStrength map[string]int
	// Kinds played: "connectx", "mnk".
	Kinds []string
	// MaxRows and MaxCols bound the boards played; 0 means no limit.
	MaxRows, MaxCols int
	// Options accepted by NewGame.
	Options []Option
}

// Option types.
const (
	OptionInt    = "int"
	OptionBool   = "bool"
	OptionString = "string"
	OptionChoice = "choice"
)

// Option describes one option a bot accepts in NewGame.
type Option struct {
	Name string
	// Type is OptionInt, OptionBool, OptionString or OptionChoice.
	Type string
	// Default is used when the option is not given; "" means none (the bot
	// decides, e.g. a time-based seed).
	Default string
	// Min and Max bound an int option, inclusive; both 0 means unbounded.
	Min, Max int64
	// Choices are the accepted values of a choice option.
	Choices []string
	// Help is one line for --help and the host's bot listing.
	Help string
}

// Game starts a game.
type Game struct {
	// Rules in the engine's syntax, e.g. "connectx:6x7x4".
	Rules string
	// Color is "x" or "o": the side the bot will be asked to play
	// (informational; the bot may be asked to move for either side).
	Color string
	// Options for this game, checked against Info.Options by the bot.
	Options map[string]string
	Time    TimeControl
	// Moves already played, in notation.
	Moves []string
}

// TimeControl is the clock of a game as the user set it (kinrow match's
// --tc 10s+0.1s is Main 10 s, Increment 100 ms); all zero means untimed.
type TimeControl struct {
	// MoveTime is a fixed time per move; it applies when Main and Byo are
	// both zero.
	MoveTime time.Duration
	// Main time, then Canadian byo-yomi: ByoStones moves in each Byo period.
	Main      time.Duration
	Byo       time.Duration
	ByoStones int
	// Increment is added to the main time after each move (Fischer).
	Increment time.Duration
}

// Timed reports whether a game clock runs (Main or Byo set), rather than a
// fixed time per move.
func (t TimeControl) Timed() bool { return t.Main > 0 || t.Byo > 0 }

// GenMoveRequest asks for a move.
type GenMoveRequest struct {
	// Deadline is when the answer is due; zero means none.
	Deadline time.Time
	// Budget is the time allotted to this move: from the request to the
	// deadline (the host's referee adds its grace on top before it
	// forfeits). Zero when there is no deadline.
	Budget time.Duration
	// XLeft and OLeft are what each side may use for its next move as the
	// clocks stand: under a game clock its main time (plus a byo-yomi
	// period when one follows) or what is left of its byo-yomi period; with
	// a fixed time per move, that time. The mover's equals Budget.
	XLeft, OLeft time.Duration
	// Play asks the bot to play the move it answers on its own board (as
	// GTP's genmove does), so the host does not send it back with Play.
	Play bool
}

// Progress is a search report while thinking.
type Progress struct {
	Depth    int
	Score    int
	BestMove string
	Nodes    int64
	// PV is the principal variation, in notation.
	PV []string
	// Time is the time searched so far (protocol/sdk fills it in when the
	// bot leaves it zero).
	Time time.Duration
}

// SolveRequest asks for the value of a position.
type SolveRequest struct {
	// ID is echoed in the reply.
	ID    uint64
	Rules string
	// Moves lead from the empty board to the position, in notation.
	Moves []string
	// MoveList, when Moves is empty, is the same as one move list in the
	// rules' syntax (engine.Rules.ParseMoveList), e.g. "4453".
	MoveList string
	// Analyze asks for a score per move: per column for Connect-X, per
	// legal move in increasing order for m,n,k.
	Analyze bool
	// Weak asks only for win / draw / loss.
	Weak bool
	// Timeout bounds the work on this request; 0 means no limit.
	Timeout time.Duration
	// Options are the bot's options (as NewGame gets them), e.g. a table
	// size; the SDK checks them against the bot's Info before Solve.
	Options map[string]string
}

// SolveReply answers a SolveRequest.
type SolveReply struct {
	ID uint64
	// Known is false when the bot could not solve the position (timeout).
	Known bool
	Score int
	// Scores and Valid are filled for Analyze: Valid is false for moves
	// that cannot be played (full columns).
	Scores []int
	Valid  []bool
	Nodes  int64
	// Error is set when the request was wrong (bad rules, illegal moves).
	Error string
	// Time is the bot's own time on the position (protocol/sdk measures it
	// around Solver.Solve): kinrow solve --stats subtracts it from the
	// whole to tell the boundary's share.
	Time time.Duration
}

// Declares reports whether the bot says, in its Info, that it plays r: its
// Kinds hold r's variant (engine.Rules.Variant names: "mnk", "mnk:renju",
// ...) and r's board fits MaxRows and MaxCols. An engine's manifest says
// more exactly which rules it plays: see manifest.Manifest.Lists.
func (i Info) Declares(r engine.Rules) bool {
	variant := false
	for _, k := range i.Kinds {
		variant = variant || strings.EqualFold(k, r.Variant())
	}
	return variant && (i.MaxRows == 0 || r.Rows <= i.MaxRows) && (i.MaxCols == 0 || r.Cols <= i.MaxCols)
}

// StrengthFor returns the bot's strength for games of kind (Kind's string,
// "connectx" or "mnk"): its KindStrength entry if any, else Strength.
func (i Info) StrengthFor(kind string) int {
	if v, ok := i.KindStrength[kind]; ok {
		return v
	}
	return i.Strength
}
