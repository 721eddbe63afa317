package recordfmt

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/gomocup"
)

// psqMaxSide bounds the board sides ReadPSQ accepts (kinrow's own limit).
const psqMaxSide = engine.MaxSide

// WritePSQ writes g as Piskvork saves a game: the header "Piskvork WxH,
// 11:11, 0" (width and height; the last two fields are Piskvork's usual
// ones and mean nothing to kinrow), one line "X,Y,MS" per move with
// 1-based Gomocup coordinates (X the column from the left, Y the row from
// the top) and the move's time in milliseconds, then the names of the
// first and the second player and "-1". Connect-X games have no PSQ form.
func WritePSQ(w io.Writer, g *Game) error {
	if g.Rules.Kind != engine.MNK {
		return fmt.Errorf("psq: %s is not an m,n,k game: PSQ holds m,n,k boards only (use --format text or svg)", g.Rules)
	}
	width, height := gomocup.BoardSize(g.Rules)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Piskvork %dx%d, 11:11, 0\r\n", width, height)
	for i, m := range g.Moves {
		p, err := gomocup.FromMove(g.Rules, m)
		if err != nil {
			return fmt.Errorf("psq: move %d: %w", i+1, err)
		}
		fmt.Fprintf(bw, "%d,%d,%d\r\n", p.X+1, p.Y+1, g.MoveTime(i))
	}
	fmt.Fprintf(bw, "%s\r\n%s\r\n-1\r\n", psqName(g.Players.X), psqName(g.Players.O))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("psq: %w", err)
	}
	return nil
}

// psqName keeps a player's name on one line.
func psqName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' {
			return ' '
		}
		return r
	}, s)
	if _, _, _, move := psqMove(s); move {
		s = strings.ReplaceAll(s, ",", ";") // a name must not read as a move
	}
	if strings.TrimSpace(s) == "" {
		return "?"
	}
	return s
}

// ReadPSQ reads a PSQ game: the header's board size (mnk:HxWx5 unless k
// is from 2 up: freestyle gomoku, as Gomocup plays it), the move lines
// "X,Y[,MS]" (1-based) up to the first other line, then the first two
// other lines name the players (Piskvork's closing "-1" is ignored). Every move is replayed; the error names the line.
func ReadPSQ(r io.Reader, k int) (*Game, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	n := 0
	next := func() (string, bool) {
		for sc.Scan() {
			n++
			if t := strings.TrimSpace(sc.Text()); t != "" {
				return t, true
			}
		}
		return "", false
	}
	header, ok := next()
	if !ok {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("psq: %w", err)
		}
		return nil, fmt.Errorf("psq: empty file")
	}
	width, height, err := psqHeader(header)
	if err != nil {
		return nil, fmt.Errorf("psq line %d: %w", n, err)
	}
	if k == 0 {
		k = 5
	}
	rules, err := engine.NewRules(engine.MNK, height, width, k)
	if err != nil {
		return nil, fmt.Errorf("psq line %d: board %dx%d: %w", n, width, height, err)
	}
	g := &Game{Rules: rules}
	pos := engine.NewPosition(rules)
	var names []string
	movesDone := false
	for {
		line, ok := next()
		if !ok {
			break
		}
		x, y, ms, isMove := psqMove(line)
		if !isMove || movesDone {
			movesDone = true
			if !isMove && len(names) < 2 {
				names = append(names, line)
			}
			continue
		}
		m, err := gomocup.ToMove(rules, gomocup.Point{X: x - 1, Y: y - 1})
		if err != nil || x < 1 || y < 1 {
			return nil, fmt.Errorf("psq line %d: %q: point off the %dx%d board (1-based X,Y)", n, line, width, height)
		}
		if err := pos.Apply(m); err != nil {
			return nil, fmt.Errorf("psq line %d: %q (%s): %w", n, line, rules.FormatMove(m), err)
		}
		g.Moves = append(g.Moves, m)
		g.MS = append(g.MS, ms)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("psq line %d: %w", n+1, err)
	}
	if len(names) > 0 {
		g.Players.X = names[0]
	}
	if len(names) > 1 {
		g.Players.O = names[1]
	}
	g.Result = pos.Result().String()
	return g, nil
}

// psqHeader reads "Piskvork WxH, ..." (any first word; WxH is what counts).
func psqHeader(line string) (width, height int, err error) {
	fields := strings.Fields(strings.ReplaceAll(line, ",", " "))
	for _, f := range fields {
		ws, hs, ok := strings.Cut(strings.ToLower(f), "x")
		if !ok {
			continue
		}
		w, err1 := strconv.Atoi(ws)
		h, err2 := strconv.Atoi(hs)
		if err1 != nil || err2 != nil {
			continue
		}
		if w < 1 || h < 1 || w > psqMaxSide || h > psqMaxSide {
			return 0, 0, fmt.Errorf("board %dx%d: sides from 1 to %d are supported", w, h, psqMaxSide)
		}
		return w, h, nil
	}
	return 0, 0, fmt.Errorf("header %q has no board size WxH (want e.g. \"Piskvork 20x20, 11:11, 0\")", line)
}

// psqMove reads "X,Y" or "X,Y,MS" with non-negative numbers.
func psqMove(line string) (x, y int, ms int64, ok bool) {
	parts := strings.Split(line, ",")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, 0, 0, false
	}
	var v [3]int64
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || len(p) > 9 {
			return 0, 0, 0, false
		}
		for j := 0; j < len(p); j++ {
			if p[j] < '0' || p[j] > '9' {
				return 0, 0, 0, false
			}
		}
		v[i], _ = strconv.ParseInt(p, 10, 64)
	}
	return int(v[0]), int(v[1]), v[2], true
}
