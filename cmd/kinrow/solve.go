package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/gtpfront"
	"github.com/kinrow/kinrow/protocol/botapi"
)

const solveUsage = `Usage: kinrow solve [--bot alphabeta] [--rules RULES] [--analyze] [--weak] [--timeout D]

Reads positions from stdin, one per line: a move list from the empty board
(digits for Connect-X up to 9 columns, as in Connect-4 solvers' test files,
otherwise moves separated by spaces or commas; the move list ends at the
first field that is not a move, and the rest of the line is ignored; an
empty line is the empty board). Prints, as soon as each is known, in input
order:

  MOVES SCORE                  the exact score for the side to move
  MOVES SCORE S1 ... SC        with --analyze: the score of each column ('-': full)
  MOVES 1|0|-1                 with --weak: win, draw or loss only
  MOVES ? REASON               a bad line, or a position not solved in --timeout

Scores: positive, the side to move wins (the earlier the higher: on R×C,
(R·C)/2 + 1 − its stones at the win, 22 − stones on 6×7); 0, draw; negative,
it loses. Positions stream to one bot process over one connection.

Flags:
`

// solveLine is one input line: its echo text, and the request or an error.
type solveLine struct {
	text string
	req  botapi.SolveRequest
	err  string
}

// parsePosition reads the move list at the start of a line.
func parsePosition(rules engine.Rules, line string) (string, []string, error) {
	fields := strings.Fields(strings.ReplaceAll(line, ",", " "))
	if len(fields) == 0 {
		return "", nil, nil
	}
	var moves []engine.Move
	var echo string
	if rules.Kind == engine.ConnectX && rules.Cols <= 9 {
		echo = fields[0]
		list, err := rules.ParseMoveList(fields[0])
		if err != nil {
			return echo, nil, err
		}
		moves = list
	} else {
		var used []string
		for _, f := range fields {
			m, err := rules.ParseMove(f)
			if err != nil {
				break
			}
			moves = append(moves, m)
			used = append(used, f)
		}
		echo = strings.Join(used, " ")
		if len(used) == 0 && !strings.HasPrefix(strings.TrimSpace(line), "-") {
			_, err := rules.ParseMove(fields[0])
			return fields[0], nil, err
		}
	}
	pos := engine.NewPosition(rules)
	if err := pos.PlayMoveList(moves); err != nil {
		return echo, nil, err
	}
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = rules.FormatMove(m)
	}
	return echo, texts, nil
}

func solveCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow solve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, solveUsage); fs.PrintDefaults() }
	var hf hostFlags
	hf.register(fs)
	bot := fs.String("bot", "alphabeta", "the bot that solves")
	rulesText := fs.String("rules", "connect4", "the game: "+engine.RulesSyntax)
	analyze := fs.Bool("analyze", false, "score every move of each position")
	weak := fs.Bool("weak", false, "only win (1), draw (0) or loss (-1)")
	timeout := fs.Duration("timeout", 0, "give up on a position after this long (0: no limit)")
	var opts listFlag
	fs.Var(&opts, "bot-opt", "an option for the bot, KEY=VALUE (repeatable)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinrow solve: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	rules, err := engine.ParseRules(*rulesText)
	if err != nil {
		return bad("--rules: %v", err)
	}
	botOpts := map[string]string{}
	for _, kv := range opts {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return bad("--bot-opt %q: want KEY=VALUE", kv)
		}
		botOpts[k] = v
	}
	log, err := hf.logger(stderr)
	if err != nil {
		return bad("%v", err)
	}
	loader, err := hf.loader(log)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow solve:", err)
		return 1
	}
	defer loader.Close()
	b, err := loader.Start(ctx, *bot, *bot, botOpts)
	if err != nil {
		return bad("--bot: %v", err)
	}
	defer b.Close()
	streamCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := b.API().Solve(streamCtx)
	if err != nil {
		return bad("--bot %s cannot solve: %v", *bot, err)
	}
	w := bufio.NewWriter(stdout)
	lines := make(chan solveLine, 64)
	sendErr := make(chan error, 1)
	go func() { // read stdin and send requests, in order
		defer close(lines)
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		var id uint64
		for sc.Scan() {
			id++
			echo, moves, err := parsePosition(rules, sc.Text())
			l := solveLine{text: echo}
			if err != nil {
				l.err = err.Error()
			} else {
				l.req = botapi.SolveRequest{ID: id, Rules: rules.String(), Moves: moves, Analyze: *analyze, Weak: *weak, Timeout: *timeout, Options: botOpts}
				if err := stream.Send(l.req); err != nil {
					sendErr <- err
					return
				}
			}
			select {
			case lines <- l:
			case <-streamCtx.Done():
				return
			}
		}
		if err := sc.Err(); err != nil {
			sendErr <- fmt.Errorf("read stdin: %w", err)
		}
		stream.CloseSend()
	}()
	replies := map[uint64]botapi.SolveReply{}
	for l := range lines {
		if l.err != "" {
			fmt.Fprintf(w, "%s ? %s\n", l.text, l.err)
			w.Flush()
			continue
		}
		r, ok := replies[l.req.ID]
		for !ok {
			w.Flush()
			got, err := stream.Recv()
			if err != nil {
				fmt.Fprintf(stderr, "kinrow solve: the bot stopped answering: %v\n", err)
				return 1
			}
			replies[got.ID] = got
			r, ok = replies[l.req.ID]
		}
		delete(replies, l.req.ID)
		fmt.Fprintln(w, gtpfront.FormatSolve(l.text, r, *analyze, *weak))
		w.Flush()
	}
	select {
	case err := <-sendErr:
		fmt.Fprintln(stderr, "kinrow solve:", err)
		return 1
	default:
	}
	return 0
}
