// Command c4solve reads positions, one per line in the test-file format
// (the first field, 1-based column digits from the empty board, is used;
// the rest is ignored) and prints `MOVES SCORE`, or with -a
// `MOVES SCORE S1 .. SC` ("-" for a full column), as the connect4 test
// files do. It exists to time the solver as a whole process:
//
//	go build -o /tmp/c4solve ./bots/alphabeta/solver/cmd/c4solve
//	time /tmp/c4solve < ../shared/testdata/connect4/Test_L2_R1.txt
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
)

func main() {
	rows := flag.Int("rows", 6, "board rows")
	cols := flag.Int("cols", 7, "board columns")
	k := flag.Int("k", 4, "stones in a row to win")
	tt := flag.Int("tt", solver.DefaultTTMiB, "transposition table size in MiB")
	analyze := flag.Bool("a", false, "analyze: print the score of every column")
	weak := flag.Bool("w", false, "weak: print only the sign of scores")
	stats := flag.Bool("v", false, "print nodes and time per line to stderr")
	flag.Parse()

	s, err := solver.New(*rows, *cols, *k, *tt)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx := context.Background()
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	status := 0
	for line := 1; in.Scan(); line++ {
		f := strings.Fields(in.Text())
		seq := ""
		if len(f) > 0 {
			seq = f[0]
		}
		p := s.NewPosition()
		if _, err := s.PlaySequence(&p, seq); err != nil {
			fmt.Fprintf(os.Stderr, "line %d: %v\n", line, err)
			status = 1
			continue
		}
		t0 := time.Now()
		var b strings.Builder
		b.WriteString(seq)
		if *analyze {
			sc, err := s.Analyze(ctx, p, *weak)
			if err != nil {
				out.Flush()
				fmt.Fprintf(os.Stderr, "line %d: %v\n", line, err)
				os.Exit(1)
			}
			best := solver.Invalid
			for _, v := range sc {
				best = max(best, v)
			}
			b.WriteString(" " + strconv.Itoa(best))
			for _, v := range sc {
				if v == solver.Invalid {
					b.WriteString(" -")
				} else {
					b.WriteString(" " + strconv.Itoa(v))
				}
			}
		} else {
			v, err := s.Solve(ctx, p, *weak)
			if err != nil {
				out.Flush()
				fmt.Fprintf(os.Stderr, "line %d: %v\n", line, err)
				os.Exit(1)
			}
			b.WriteString(" " + strconv.Itoa(v))
		}
		if *stats {
			fmt.Fprintf(os.Stderr, "%d nodes %d time %v\n", line, s.Nodes(), time.Since(t0))
		}
		b.WriteByte('\n')
		out.WriteString(b.String())
	}
	out.Flush()
	os.Exit(status)
}
