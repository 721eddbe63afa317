package gtpfront

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// commandHelp says in one line what each command does; `help` lists them
// with their arguments (list_commands lists the names alone, as GTP wants).
func commandHelp() map[string]string {
	return map[string]string{
		"protocol_version": "the protocol's version (2)",
		"name":             "the program's name",
		"version":          "the program's version",
		"known_command":    "true if NAME is a command of this host",
		"list_commands":    "every command's name, one a line",
		"help":             "every command with its arguments and what it does",
		"quit":             "stop the bots and end the session",
		"rules":            "a new game under RULES (connect4, tictactoe, gomoku, connectx:RxCxK, mnk:RxCxK)",
		"boardsize":        "a new N×N game of the same kind and K; answers the board it made",
		"komi":             "accepted and ignored (a finite number)",
		"clear_board":      "a new game under the same rules, with the same bots",
		"play":             "play MOVE for COLOR (x/o, or b/w as GTP colours)",
		"genmove":          "COLOR's bot plays a move and answers it (resign after the game is over)",
		"undo":             "take back the last stone (refused after a forfeit or resignation)",
		"showboard":        "the board, the last move in parentheses, a winning line in capitals",
		"final_score":      "the result: X+, O+ or 0 (B+/W+ when GTP colours were used)",
		"time_settings":    "GTP's clock: main time, then Canadian byo-yomi",
		"time_left":        "the time and stones COLOR has left",
		"kinrow-movetime":  "a fixed time per move, in milliseconds",
		"kinrow-bots":      "the bots installed, in alphabetical order",
		"kinrow-load":      "play COLOR with BOT and its options",
		"kinrow-unload":    "stop COLOR's bot (the default bot plays it again)",
		"kinrow-result":    "the result and its reason (win, draw, forfeit with the reason)",
		"kinrow-record":    "the game record as one line of JSON",
		"kinrow-solve":     "the position's exact score (analyze: every move's; weak: the sign)",
	}
}

func (s *Server) cmdHelp(context.Context, []string) (string, error) {
	names := make([]string, 0, len(s.cmds))
	width := 0
	for n, h := range s.cmds {
		names = append(names, n)
		width = max(width, len(strings.TrimSpace(n+" "+h.usage)))
	}
	sort.Strings(names)
	help := commandHelp()
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%-*s  %s", width, strings.TrimSpace(n+" "+s.cmds[n].usage), help[n])
	}
	return b.String(), nil
}
