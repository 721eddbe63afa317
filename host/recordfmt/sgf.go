package recordfmt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"

	"github.com/kinrow/kinrow/host/termsafe"
)

// sgfLetters are SGF's coordinate letters: a..z then A..Z.
const sgfLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// SGFMaxSide is the largest board side SGF's letters can name.
const SGFMaxSide = len(sgfLetters)

// maxSGFDepth bounds the nesting of game trees ReadSGF follows.
const maxSGFDepth = 10000

// WriteSGF writes games as one SGF collection: a game tree per game with
// FF[4], GM[4] (Gomoku+Renju), SZ (N, or COLS:ROWS for a rectangle), RU
// holding kinrow's rules string (for K other than 5), PB and PW the
// players, RE the result (B+ for kinrow's x, W+ for o, 0 a draw; +R after a
// resignation, +T after a timeout, +F after another forfeit), then one node
// per move, B[..] or W[..] (column letter from the left, row letter from
// the top) with the move's time as its comment C[123 ms].
func WriteSGF(w io.Writer, games ...*Game) error {
	bw := bufio.NewWriter(w)
	for gi, g := range games {
		if !g.Rules.Game().Holds(engine.FormatSGF) {
			return fmt.Errorf("sgf: game %d: %s is not an m,n,k game: SGF holds m,n,k boards only (use --format text or svg)", gi+1, g.Rules)
		}
		if g.Rules.Rows > SGFMaxSide || g.Rules.Cols > SGFMaxSide {
			return fmt.Errorf("sgf: game %d: board %s is larger than SGF's %d letters", gi+1, g.Rules, SGFMaxSide)
		}
		bw.WriteString("(;FF[4]GM[4]CA[UTF-8]AP[kinrow]")
		if g.Rules.Rows == g.Rules.Cols {
			fmt.Fprintf(bw, "SZ[%d]", g.Rules.Cols)
		} else {
			fmt.Fprintf(bw, "SZ[%d:%d]", g.Rules.Cols, g.Rules.Rows)
		}
		fmt.Fprintf(bw, "RU[%s]", g.Rules)
		if g.Players.X != "" {
			fmt.Fprintf(bw, "PB[%s]", sgfEscape(g.Players.X))
		}
		if g.Players.O != "" {
			fmt.Fprintf(bw, "PW[%s]", sgfEscape(g.Players.O))
		}
		if re := sgfResult(g); re != "" {
			fmt.Fprintf(bw, "RE[%s]", re)
		}
		if g.Detail != "" {
			fmt.Fprintf(bw, "GC[%s]", sgfEscape(g.Detail))
		}
		for i, m := range g.Moves {
			row, col := int(m)/g.Rules.Cols, int(m)%g.Rules.Cols
			side := "B"
			if i%2 == 1 {
				side = "W"
			}
			if i%8 == 0 {
				bw.WriteByte('\n')
			}
			fmt.Fprintf(bw, ";%s[%c%c]C[%d ms]", side, sgfLetters[col], sgfLetters[g.Rules.Rows-1-row], g.MoveTime(i))
		}
		bw.WriteString(")\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sgf: %w", err)
	}
	return nil
}

// sgfResult maps kinrow's result and reason to SGF's RE.
func sgfResult(g *Game) string {
	var s string
	switch g.Result {
	case "X+":
		s = "B+"
	case "O+":
		s = "W+"
	case "0":
		return "0"
	default:
		return ""
	}
	switch {
	case g.Reason == record.ReasonResignation:
		s += "R"
	case g.Reason == record.ReasonForfeit && g.Forfeit == record.ForfeitTimeout:
		s += "T"
	case g.Reason == record.ReasonForfeit:
		s += "F"
	}
	return s
}

// sgfEscape escapes a text value: backslash before ] and \.
func sgfEscape(s string) string {
	// Text from a record is made printable first: an SGF may be printed
	// on a terminal (kinrow export without --out).
	return strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(termsafe.Printable(s))
}

// sgfNode is one node: its properties, each with its values, and the byte
// offset of its ';' in the file (for the line errors name).
type sgfNode struct {
	props map[string][]string
	at    int
}

// sgfParser reads SGF text.
type sgfParser struct {
	s   string
	i   int
	err error
}

func (p *sgfParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\r' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *sgfParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = &LineError{Format: "sgf", Line: lineAt(p.s, p.i), Msg: fmt.Sprintf(format, args...)}
	}
}

// tree reads a game tree at '(' and returns its main line: its own nodes,
// then the main line of its first variation (the others are skipped).
func (p *sgfParser) tree(depth int) []sgfNode {
	if depth > maxSGFDepth {
		p.fail("game trees nested deeper than %d", maxSGFDepth)
		return nil
	}
	p.i++ // '('
	var nodes []sgfNode
	first := true
	for p.err == nil {
		p.skipSpace()
		if p.i >= len(p.s) {
			p.fail("missing ')'")
			return nil
		}
		switch c := p.s[p.i]; c {
		case ';':
			at := p.i
			p.i++
			if !first {
				p.skipTree(depth) // a node after a variation: malformed, but stop here
				continue
			}
			n := p.node()
			n.at = at
			nodes = append(nodes, n)
		case '(':
			if first {
				first = false
				nodes = append(nodes, p.tree(depth+1)...)
			} else {
				p.skipTree(depth + 1)
			}
		case ')':
			p.i++
			return nodes
		default:
			p.fail("unexpected %q", c)
		}
	}
	return nodes
}

// skipTree skips a game tree at '(' (or the rest of one), brackets and all.
func (p *sgfParser) skipTree(depth int) {
	level := 0
	if p.i < len(p.s) && p.s[p.i] == '(' {
		level = 1
		p.i++
	}
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '[':
			p.value()
			continue
		case '(':
			level++
		case ')':
			if level == 0 {
				return
			}
			level--
			if level == 0 {
				p.i++
				return
			}
		}
		p.i++
	}
	p.fail("missing ')'")
}

// node reads the properties after ';'.
func (p *sgfParser) node() sgfNode {
	n := sgfNode{props: map[string][]string{}}
	for p.err == nil {
		p.skipSpace()
		start := p.i
		for p.i < len(p.s) && (p.s[p.i] >= 'A' && p.s[p.i] <= 'Z' || p.s[p.i] >= 'a' && p.s[p.i] <= 'z') {
			p.i++
		}
		if p.i == start {
			return n
		}
		// FF[3] allowed lower-case letters inside identifiers; they do not count.
		var id strings.Builder
		for _, c := range p.s[start:p.i] {
			if c >= 'A' && c <= 'Z' {
				id.WriteRune(c)
			}
		}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '[' {
			p.fail("property %s has no value", p.s[start:p.i])
			return n
		}
		for p.i < len(p.s) && p.s[p.i] == '[' && p.err == nil {
			v := p.value()
			n.props[id.String()] = append(n.props[id.String()], v)
			p.skipSpace()
		}
	}
	return n
}

// value reads "[...]" with its escapes and returns what is inside.
func (p *sgfParser) value() string {
	p.i++ // '['
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			if p.s[p.i] != '\n' && p.s[p.i] != '\r' { // soft line break
				b.WriteByte(p.s[p.i])
			}
		case c == ']':
			p.i++
			return b.String()
		default:
			b.WriteByte(c)
		}
		p.i++
	}
	p.fail("value without its closing ']'")
	return b.String()
}

// ReadSGF reads an SGF collection of gomoku-like games (GM[4], or no GM):
// each game tree's main line, its size from SZ (15 if absent), its rules
// from RU when RU holds a kinrow m,n,k rules string of that size (else K =
// k, or 5 when k is 0), the players, the result, and the moves B[..] and
// W[..] (black, kinrow's x, first, colours alternating), with their times
// from comments "N ms". Setup stones (AB, AW) and passes are refused.
func ReadSGF(r io.Reader, k int) ([]*Game, error) {
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("sgf: %w", err)
	}
	p := &sgfParser{s: string(data)}
	var games []*Game
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			break
		}
		if p.s[p.i] != '(' {
			if len(games) == 0 {
				return nil, &LineError{Format: "sgf", Line: lineAt(p.s, p.i),
					Msg: fmt.Sprintf("not an SGF file: want '(' at the start, found %q", p.s[p.i])}
			}
			break // trailing text after the collection is ignored
		}
		nodes := p.tree(0)
		if p.err != nil {
			return nil, p.err
		}
		g, at, err := sgfGame(nodes, k)
		if err != nil {
			return nil, &LineError{Format: "sgf", Line: lineAt(p.s, at), Msg: fmt.Sprintf("game %d: %v", len(games)+1, err)}
		}
		games = append(games, g)
	}
	if len(games) == 0 {
		return nil, &LineError{Format: "sgf", Msg: "no game in the file"}
	}
	return games, nil
}

// sgfGame builds a game from a main line of nodes.
func sgfGame(nodes []sgfNode, k int) (*Game, int, error) {
	if len(nodes) == 0 {
		return nil, 0, errors.New("no node")
	}
	root := nodes[0]
	if gm := first(root, "GM"); gm != "" && strings.TrimSpace(gm) != "4" {
		return nil, root.at, fmt.Errorf("GM[%s] is not a gomoku-like game (want GM[4])", gm)
	}
	cols, rows := 15, 15
	if sz := first(root, "SZ"); sz != "" {
		cs, rs, rect := strings.Cut(sz, ":")
		c, err1 := strconv.Atoi(strings.TrimSpace(cs))
		rw, err2 := c, error(nil)
		if rect {
			rw, err2 = strconv.Atoi(strings.TrimSpace(rs))
		}
		if err1 != nil || err2 != nil || c < 1 || rw < 1 || c > SGFMaxSide || rw > SGFMaxSide {
			return nil, root.at, fmt.Errorf("SZ[%s]: want a size from 1 to %d, or COLS:ROWS", sz, SGFMaxSide)
		}
		cols, rows = c, rw
	}
	if k == 0 {
		k = 5
	}
	rules, err := sgfRules(root.props["RU"], rows, cols, k)
	if err != nil {
		return nil, root.at, err
	}
	g := &Game{Rules: rules, Players: record.Players{X: first(root, "PB"), O: first(root, "PW")}}
	g.Result, g.Reason, g.Forfeit = sgfParseResult(first(root, "RE"))
	g.Detail = first(root, "GC")
	pos := engine.NewPosition(rules)
	for ni, n := range nodes {
		if _, ok := n.props["AB"]; ok {
			return nil, n.at, fmt.Errorf("node %d: setup stones (AB) are not supported: give the moves as B[] and W[]", ni+1)
		}
		if _, ok := n.props["AW"]; ok {
			return nil, n.at, fmt.Errorf("node %d: setup stones (AW) are not supported: give the moves as B[] and W[]", ni+1)
		}
		b, hasB := n.props["B"]
		w, hasW := n.props["W"]
		if !hasB && !hasW {
			continue
		}
		if hasB && hasW {
			return nil, n.at, fmt.Errorf("node %d: both B and W", ni+1)
		}
		side, vals := "B", b
		if hasW {
			side, vals = "W", w
		}
		want := "B"
		if len(g.Moves)%2 == 1 {
			want = "W"
		}
		if side != want {
			return nil, n.at, fmt.Errorf("node %d: %s moves where %s should (black, kinrow's x, moves first and colours alternate)", ni+1, side, want)
		}
		v := strings.TrimSpace(vals[0])
		if len(v) != 2 {
			return nil, n.at, fmt.Errorf("node %d: %s[%s]: want two letters (a pass is not a move here)", ni+1, side, v)
		}
		col, row := strings.IndexByte(sgfLetters, v[0]), strings.IndexByte(sgfLetters, v[1])
		if col < 0 || row < 0 || col >= cols || row >= rows {
			return nil, n.at, fmt.Errorf("node %d: %s[%s] is off the %dx%d board", ni+1, side, v, cols, rows)
		}
		m := engine.Move((rows-1-row)*cols + col)
		if err := pos.Apply(m); err != nil {
			return nil, n.at, fmt.Errorf("node %d: %s[%s] (%s): %w", ni+1, side, v, rules.FormatMove(m), err)
		}
		g.Moves = append(g.Moves, m)
		var ms int64
		if c := first(n, "C"); strings.HasSuffix(c, " ms") {
			ms, _ = strconv.ParseInt(strings.TrimSuffix(c, " ms"), 10, 64)
		}
		g.MS = append(g.MS, ms)
	}
	return g, 0, nil
}

// sgfParseResult maps RE back to kinrow's result and reason.
func sgfParseResult(re string) (string, record.Reason, record.Forfeit) {
	re = strings.TrimSpace(re)
	switch {
	case re == "0" || strings.EqualFold(re, "draw"):
		return "0", record.ReasonDraw, ""
	case strings.HasPrefix(re, "B+"), strings.HasPrefix(re, "W+"):
		res := "X+"
		if re[0] == 'W' {
			res = "O+"
		}
		switch strings.ToUpper(re[2:]) {
		case "R", "RESIGN":
			return res, record.ReasonResignation, ""
		case "T", "TIME":
			return res, record.ReasonForfeit, record.ForfeitTimeout
		case "F", "FORFEIT":
			return res, record.ReasonForfeit, ""
		}
		return res, record.ReasonWin, ""
	}
	return "", record.ReasonNone, ""
}

func first(n sgfNode, id string) string {
	if v := n.props[id]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// lineAt is the line (from 1) of byte offset i of s.
func lineAt(s string, i int) int {
	if i > len(s) {
		i = len(s)
	}
	return 1 + strings.Count(s[:i], "\n")
}

// SGFRulesAccepted says which RU values ReadSGF reads; its errors quote it.
const SGFRulesAccepted = "kinrow's rules of an m,n,k game on the SZ board (mnk:RxCxK with rows first, " +
	"optionally :freestyle, :exact or :renju; gomoku, gomoku-standard, renju, tictactoe), " +
	"or the name of a five-in-a-row rule: Freestyle or Gomoku (five or more in a row wins), " +
	"Standard or Exact (exactly five), Renju; an empty RU[] or none means five or more in a row " +
	"(K from --rules if given)"

// sgfRules reads the rules of a game on a cols×rows board from its RU
// values: none or empty gives freestyle with K = k (5 when 0); a rule
// kinrow cannot read, or of another game or board, is an error naming it.
func sgfRules(ru []string, rows, cols, k int) (engine.Rules, error) {
	if k == 0 {
		k = 5
	}
	text := ""
	if len(ru) > 1 {
		return engine.Rules{}, fmt.Errorf("RU given %d times (%q): want one rule; accepted are %s", len(ru), ru, SGFRulesAccepted)
	}
	if len(ru) == 1 {
		text = strings.TrimSpace(ru[0])
	}
	five := func(l engine.Line) (engine.Rules, error) {
		r, err := engine.NewRules(engine.MNK, rows, cols, 5)
		if err == nil {
			r, err = r.WithLine(l)
		}
		if err != nil {
			return engine.Rules{}, fmt.Errorf("RU[%s] on a %dx%d board: %w", text, cols, rows, err)
		}
		return r, nil
	}
	switch strings.ToLower(text) {
	case "":
		r, err := engine.NewRules(engine.MNK, rows, cols, k)
		if err != nil {
			return engine.Rules{}, fmt.Errorf("board %dx%d with k %d: %w", cols, rows, k, err)
		}
		return r, nil
	case "freestyle", "gomoku":
		return five(engine.Freestyle)
	case "standard", "exact", "gomoku-standard":
		return five(engine.Exact)
	case "renju":
		return five(engine.Renju)
	}
	r, err := engine.ParseRules(text)
	if err != nil {
		return engine.Rules{}, fmt.Errorf("RU[%s]: kinrow cannot read this rule (it plays no default in its place); accepted are %s", text, SGFRulesAccepted)
	}
	if !r.Game().Holds(engine.FormatSGF) {
		return engine.Rules{}, fmt.Errorf("RU[%s]: %s is not an m,n,k game: SGF GM[4] holds m,n,k games; accepted are %s", text, r, SGFRulesAccepted)
	}
	if r.Rows != rows || r.Cols != cols {
		return engine.Rules{}, fmt.Errorf("RU[%s] is a %dx%d board (columns x rows) but SZ gives %dx%d", text, r.Cols, r.Rows, cols, rows)
	}
	return r, nil
}
