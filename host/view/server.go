package view

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/recordfmt"
)

//go:embed assets
var assets embed.FS

// DefaultAddr is where the viewer listens unless told otherwise: loopback.
const DefaultAddr = "127.0.0.1:8080"

// Config configures a Server.
type Config struct {
	// Hub, when set, feeds the live page (kinrow match --view); its ended
	// games join the replay list after the files' games.
	Hub    *Hub
	Logger hclog.Logger
	// Hosts are host names the page may be asked for besides the address
	// it listens on and localhost (e.g. the name given to --listen). See
	// checkHost.
	Hosts []string
	// Verifier, when set, makes the verifier of each read of a records
	// file (a file is read again when it changes): the records must be
	// signed by a trusted key, each game id once in the file. A file with
	// a record that fails (or a line over record.MaxLineBytes) is refused
	// as a whole unless SkipInvalid, which leaves such records out and
	// lists them among the page's problems, as other bad lines are.
	Verifier    func() *record.Verifier
	SkipInvalid bool
}

// Server serves the viewer: the page and its assets, the replay API over
// the loaded records and, with a Hub, the live event stream.
type Server struct {
	hub   *Hub
	log   hclog.Logger
	hosts []string

	verifier    func() *record.Verifier
	skipInvalid bool

	mu       sync.Mutex
	sources  []*source
	problems []string // not tied to a source
}

// source is one records file of the replay list. A file added by path is
// read again when its size or time changes (a match still writing it).
type source struct {
	path     string // "" for records read once
	size     int64
	mod      time.Time
	games    []*replayGame
	problems []string
	// verifier and skip are the server's Config.Verifier and SkipInvalid;
	// unsigned counts the unsigned records the last read accepted.
	verifier func() *record.Verifier
	skip     bool
	unsigned int
}

// replayGame is one game of the replay list.
type replayGame struct {
	file string
	rec  *record.Record
	game *recordfmt.Game
}

// New returns a server with no records loaded.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	s := &Server{hub: cfg.Hub, log: cfg.Logger, verifier: cfg.Verifier, skipInvalid: cfg.SkipInvalid}
	for _, h := range cfg.Hosts {
		s.hosts = append(s.hosts, strings.ToLower(strings.TrimSuffix(h, ".")))
	}
	if s.hub != nil {
		s.hub.setReplayBase(func() int {
			s.mu.Lock()
			defer s.mu.Unlock()
			n := 0
			for _, src := range s.sources {
				n += len(src.games)
			}
			return n
		})
	}
	return s
}

// maxBadLines bounds the bad lines of one file listed on the page (the
// rest are counted).
const maxBadLines = 20

// load reads a source's records, replacing its games and problems: every
// good game of the file is listed, and each bad line (anywhere but a torn
// last one, which keeps its policy: left out with a warning) is a problem
// naming file:line and why (recordfmt.ReadEveryRecord). A file with no good
// line at all (not records) has one problem, the reader's. With a
// verifier, a record no trusted referee vouches for (record.Unvouched)
// refuses the whole file (*RefusedError) unless src.skip.
func (src *source) load(name string, r io.Reader) error {
	src.games, src.problems, src.unsigned = nil, nil, 0
	var v *record.Verifier
	if src.verifier != nil {
		v = src.verifier()
	}
	recs, warns, bad, badErrs, err := recordfmt.ReadEveryRecord(name, r, v)
	if err != nil {
		src.problems = []string{err.Error()}
		return err
	}
	if !src.skip {
		for _, e := range badErrs {
			if record.Unvouched(e) {
				err := &RefusedError{e}
				src.problems = []string{err.Error()}
				return err
			}
		}
	}
	if v != nil {
		src.unsigned = v.Unsigned
	}
	switch {
	case len(recs) == 0 && len(bad) > 0:
		err = errors.New(bad[0])
	case len(recs) == 0:
		err = fmt.Errorf("%s: no game records in the file", name)
	case len(bad) > 0:
		err = fmt.Errorf("%s: %d bad lines left out, %d games loaded: %s", name, len(bad), len(recs), bad[0])
		if len(bad) > maxBadLines {
			bad = append(bad[:maxBadLines], fmt.Sprintf("%s: %d more bad lines left out", name, len(bad)-maxBadLines))
		}
		src.problems = append(src.problems, bad...)
	}
	if len(recs) == 0 {
		src.problems = append(src.problems, err.Error())
		return err
	}
	src.problems = append(src.problems, warns...)
	for i, rec := range recs {
		g, ferr := recordfmt.FromRecord(rec)
		if ferr != nil { // the reader replayed it already
			src.problems = append(src.problems, fmt.Sprintf("%s game %d: %v", name, i+1, ferr))
			continue
		}
		src.games = append(src.games, &replayGame{file: name, rec: rec, game: g})
	}
	return err
}

// RefusedError is the error of a records file refused as a whole: a
// record in it no trusted referee vouches for (see Config.Verifier).
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%v (the file is refused; --skip-invalid leaves such records out)", e.Err)
}

// Unwrap returns why.
func (e *RefusedError) Unwrap() error { return e.Err }

// Unsigned counts the unsigned records accepted in the files loaded (by
// their last read).
func (s *Server) Unsigned() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, src := range s.sources {
		n += src.unsigned
	}
	return n
}

// loadPath (re)reads a source from its file.
func (src *source) loadPath() error {
	f, err := os.Open(src.path)
	if err != nil {
		src.games, src.problems = nil, []string{err.Error()}
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil {
		src.size, src.mod = st.Size(), st.ModTime()
	}
	return src.load(src.path, f)
}

// AddRecords loads records into the replay list, once. Records that cannot
// be read or are not kinrow's are returned as an error and also listed
// among the page's problems; a torn last line is a problem only (the other
// games load). The server serves whatever loaded.
func (s *Server) AddRecords(name string, r io.Reader) error {
	src := &source{verifier: s.verifier, skip: s.skipInvalid}
	err := src.load(name, r)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sources = append(s.sources, src)
	return err
}

// AddFile loads the records file at path, as AddRecords does, and reads it
// again whenever it has changed when the page asks (a match writing it).
// A file that does not open is listed among the page's problems too.
func (s *Server) AddFile(path string) error {
	src := &source{path: path, verifier: s.verifier, skip: s.skipInvalid}
	err := src.loadPath()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sources = append(s.sources, src)
	return err
}

// AddProblem lists a problem on the page (e.g. a file that does not open).
func (s *Server) AddProblem(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.problems = append(s.problems, msg)
}

// allGames returns the replay list, files read again if they changed: the
// files' games, then the hub's ended ones.
func (s *Server) allGames() []*replayGame {
	var games []*replayGame
	s.mu.Lock()
	for _, src := range s.sources {
		if src.path != "" {
			st, err := os.Stat(src.path)
			if err != nil || st.Size() != src.size || !st.ModTime().Equal(src.mod) {
				if err := src.loadPath(); err != nil {
					s.log.Warn("records not reloaded", "error", err)
				}
			}
		}
		games = append(games, src.games...)
	}
	s.mu.Unlock()
	if s.hub != nil {
		for _, rec := range s.hub.finishedRecords() {
			g, err := recordfmt.FromRecord(rec)
			if err != nil {
				continue
			}
			games = append(games, &replayGame{file: "live", rec: rec, game: g})
		}
	}
	return games
}

// allProblems lists what the page reports in red.
func (s *Server) allProblems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]string{}, s.problems...)
	for _, src := range s.sources {
		out = append(out, src.problems...)
	}
	return out
}

// Handler returns the HTTP handler of the viewer.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		page, _ := assets.ReadFile("assets/index.html")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux.HandleFunc("GET /api/games", s.handleGames)
	mux.HandleFunc("GET /api/games/{n}", s.handleGame)
	mux.HandleFunc("GET /api/games/{n}/svg", s.handleGameSVG)
	mux.HandleFunc("GET /api/live/{id}/svg", s.handleLiveSVG)
	mux.HandleFunc("GET /api/events", s.handleEvents)
	return s.checkHost(mux)
}

// checkHost refuses, with 421 Misdirected Request, a request whose Host
// header names neither the address the connection came in on nor this
// machine: a web page that rebinds its own DNS name to 127.0.0.1 (DNS
// rebinding) would otherwise read the viewer's pages and events as its
// own. Accepted: the address listened on (an IP literal, "127.0.0.1:8080",
// "[::1]:8080"), any loopback IP literal when that address is loopback,
// "localhost" (with or without a port), and the names in Config.Hosts;
// each with the port listened on or without a port (port 80).
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if ok, listen := s.hostAllowed(r.Host, local); !ok {
			s.log.Warn("refused a request for another host (DNS rebinding?)", "host", r.Host, "path", r.URL.Path, "remote", r.RemoteAddr)
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusMisdirectedRequest)
			fmt.Fprintf(w, "kinrow view: refused: the Host header %q is not this viewer's address; open http://%s/ (requests for other names are refused against DNS rebinding)\n", r.Host, listen)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed tells whether host (a Host header) names the viewer reached
// on the connection's local address local; listen is that address, for
// the refusal.
func (s *Server) hostAllowed(host string, local net.Addr) (bool, string) {
	lap, err := netip.ParseAddrPort(fmt.Sprint(local))
	if err != nil { // not TCP: nothing to compare with
		return false, fmt.Sprint(local)
	}
	lip := lap.Addr().Unmap()
	listen := netip.AddrPortFrom(lip.WithZone(""), lap.Port()).String()
	name, port := host, ""
	if h, p, err := net.SplitHostPort(host); err == nil {
		name, port = h, p
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		name = host[1 : len(host)-1]
	}
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	if name == "localhost" && port == "" {
		return true, listen // no DNS name of another site: any port
	}
	if port == "" {
		port = "80"
	}
	if port != strconv.Itoa(int(lap.Port())) {
		return false, listen
	}
	if ip, err := netip.ParseAddr(name); err == nil {
		ip = ip.Unmap().WithZone("")
		return ip == lip.WithZone("") || lip.IsLoopback() && ip.IsLoopback(), listen
	}
	if name == "localhost" {
		return true, listen
	}
	for _, h := range s.hosts {
		if name == h {
			return true, listen
		}
	}
	return false, listen
}

// Reasons are the choices of the page's Reason filter, as /api/games
// lists them: every reason a game ends for (record.Reason) and every kind
// of forfeit (record.Forfeit). A test holds it to engine/record's
// constants.
var Reasons = []string{
	string(record.ReasonWin), string(record.ReasonDraw), string(record.ReasonForfeit),
	string(record.ForfeitTimeout), string(record.ForfeitCrash), string(record.ForfeitIllegalMove),
	string(record.ForfeitProtocolError), string(record.ForfeitStartFailure), string(record.ForfeitMemory),
	string(record.ForfeitForbidden), string(record.ReasonResignation), string(record.ReasonAdjudicated),
}

// gameSummary is a game of the list.
type gameSummary struct {
	N       int            `json:"n"`
	File    string         `json:"file"`
	Round   int            `json:"round,omitempty"`
	Game    int            `json:"game,omitempty"`
	Rules   string         `json:"rules"`
	Players record.Players `json:"players"`
	Result  string         `json:"result"`
	Reason  string         `json:"reason"`
	Forfeit string         `json:"forfeit,omitempty"`
	Detail  string         `json:"detail,omitempty"`
	Plies   int            `json:"plies"`
}

func summarize(n int, g *replayGame) gameSummary {
	return gameSummary{N: n, File: g.file, Round: g.rec.Round, Game: g.rec.Game, Rules: g.rec.Rules,
		Players: g.rec.Players, Result: g.rec.Result, Reason: string(g.rec.Reason), Forfeit: string(g.rec.Forfeit),
		Detail: g.rec.Detail, Plies: len(g.game.Moves)}
}

// handleGames lists the games, filtered by ?bot= (either side, exact
// name), ?result= (X+, O+, 0, or "open") and ?reason= (win, draw, forfeit,
// resignation, adjudication, or a forfeit kind such as timeout).
func (s *Server) handleGames(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	bot, result, reason := q.Get("bot"), q.Get("result"), q.Get("reason")
	if result == "open" {
		result = ""
	}
	out := struct {
		Games    []gameSummary `json:"games"`
		Total    int           `json:"total"`
		Bots     []string      `json:"bots"`
		Problems []string      `json:"problems"`
		Live     bool          `json:"live"`
		Reasons  []string      `json:"reasons"`
	}{Games: []gameSummary{}, Bots: []string{}, Problems: []string{}, Live: s.hub != nil, Reasons: Reasons}
	seen := map[string]bool{}
	games := s.allGames()
	out.Total = len(games)
	for i, g := range games {
		for _, name := range []string{g.rec.Players.X, g.rec.Players.O} {
			if !seen[name] {
				seen[name] = true
				out.Bots = append(out.Bots, name)
			}
		}
		if bot != "" && g.rec.Players.X != bot && g.rec.Players.O != bot {
			continue
		}
		if q.Has("result") && g.rec.Result != result {
			continue
		}
		if reason != "" && string(g.rec.Reason) != reason && string(g.rec.Forfeit) != reason {
			continue
		}
		out.Games = append(out.Games, summarize(i+1, g))
	}
	out.Problems = s.allProblems()
	writeJSON(w, http.StatusOK, out)
}

// gameAt returns game n (from 1) or writes a 404 that says which exist.
func (s *Server) gameAt(w http.ResponseWriter, r *http.Request) (*replayGame, int, bool) {
	games := s.allGames()
	text := r.PathValue("n")
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > len(games) {
		msg := fmt.Sprintf("game %s does not exist: the records hold %d games", text, len(games))
		if len(games) > 0 {
			msg += fmt.Sprintf(" (1 to %d)", len(games))
		}
		writeJSON(w, http.StatusNotFound, map[string]string{"error": msg})
		return nil, 0, false
	}
	return games[n-1], n, true
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	g, n, ok := s.gameAt(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, struct {
		gameSummary
		Title string        `json:"title"`
		Moves []record.Move `json:"moves"`
		Cols  int           `json:"cols"`
		Rows  int           `json:"rows"`
		Kind  string        `json:"kind"`
		Start time.Time     `json:"start"`
	}{gameSummary: summarize(n, g), Title: g.game.Title(), Moves: g.rec.Moves, Cols: g.game.Rules.Cols,
		Rows: g.game.Rules.Rows, Kind: g.game.Rules.Game().String(), Start: g.rec.Start})
}

// plyParam reads ?ply= (default: the end).
func plyParam(w http.ResponseWriter, r *http.Request, plies int) (int, bool) {
	text := r.URL.Query().Get("ply")
	if text == "" {
		return plies, true
	}
	p, err := strconv.Atoi(text)
	if err != nil || p < 0 || p > plies {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("ply %q: the game has plies 0 to %d", text, plies)})
		return 0, false
	}
	return p, true
}

func (s *Server) handleGameSVG(w http.ResponseWriter, r *http.Request) {
	g, _, ok := s.gameAt(w, r)
	if !ok {
		return
	}
	ply, ok := plyParam(w, r, len(g.game.Moves))
	if !ok {
		return
	}
	writeSVG(w, g.game, ply)
}

func (s *Server) handleLiveSVG(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	var g *recordfmt.Game
	ok := false
	if err == nil && s.hub != nil {
		g, ok = s.hub.liveGame(id)
	}
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("no live game %q", r.PathValue("id"))})
		return
	}
	ply, ok := plyParam(w, r, len(g.Moves))
	if !ok {
		return
	}
	writeSVG(w, g, ply)
}

func writeSVG(w http.ResponseWriter, g *recordfmt.Game, ply int) {
	svg, err := g.SVG(ply)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(svg)
}

// handleEvents streams the hub's events as server-sent events: first a
// "snapshot" of every live game and the summary, then "start", "move",
// "end", "summary" and, once, "matchend" as they happen, and a comment every 15 s to keep
// the connection open. Without a hub it answers 404.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	if s.hub == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no live match here: kinrow match --view serves one"})
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "streaming unsupported"})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	events, cancel := s.hub.Subscribe()
	defer cancel()
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	write := func(ev Event) error {
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Kind, ev.Data); err != nil {
			return err
		}
		flusher.Flush()
		return nil
	}
	for {
		select {
		case <-r.Context().Done():
			// The server stops: pass on what is already queued (the
			// "matchend" event Serve sends on the way out).
			for {
				select {
				case ev, ok := <-events:
					if !ok || write(ev) != nil {
						return
					}
				default:
					return
				}
			}
		case <-tick.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return
			}
			flusher.Flush()
		case ev, ok := <-events:
			if !ok {
				return // fell behind: the browser reconnects for a fresh snapshot
			}
			if write(ev) != nil {
				return
			}
		}
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.Encode(v)
}

// Listen opens addr for the viewer. The error for a port in use says so
// and how to choose another. A non-loopback address is logged as a
// warning: the page has no authentication.
func Listen(ctx context.Context, addr string, log hclog.Logger) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: want HOST:PORT, e.g. %s: %w", addr, DefaultAddr, err)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("listen on %s: the port is in use (another kinrow view?): choose another with --listen, e.g. 127.0.0.1:0 for any free port: %w", addr, err)
		}
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	if !IsLoopback(host) && log != nil {
		log.Warn("the viewer listens beyond this machine: anyone who reaches the address sees the games (no authentication)", "address", ln.Addr().String())
	}
	return ln, nil
}

// IsLoopback reports whether host names only this machine.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve serves the handler on ln until ctx ends, then shuts down
// (streams closed, at most 2 s for requests in flight).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	// Requests end when base does: after ctx, once the hub has queued its
	// "matchend" event for the streams to pass on.
	base, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return base }}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("viewer: %w", err)
	case <-ctx.Done():
		if s.hub != nil {
			s.hub.MatchEnded("the match was stopped") // unless it had ended
		}
		stop()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
		return nil
	}
}
