package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A round robin of three bots ends with the standings of all of them, in
// the text summary and under "standings" in the JSON one; two bots have
// none.
func TestMatchPrintsStandings(t *testing.T) {
	args := []string{"match", "--rules", "tictactoe", "--bot", "random", "--bot", "mics", "--bot", "alphabeta",
		"--games", "2", "--movetime", "100ms"}
	cmd := kinrowCmd(t, args...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kinrow %v: %v\n%s", args, err, stderr.String())
	}
	text := stdout.String()
	i := strings.Index(text, "standings, mnk:3x3x3")
	if i < 0 {
		t.Fatalf("no standings in:\n%s", text)
	}
	for _, bot := range []string{"random", "mics", "alphabeta"} {
		if !strings.Contains(text[i:], "│ "+bot) {
			t.Errorf("the standings lack %s:\n%s", bot, text[i:])
		}
	}

	cmd = kinrowCmd(t, append(args, "--format", "json")...)
	stdout.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kinrow %v --format json: %v\n%s", args, err, stderr.String())
	}
	var sum struct {
		Standings *struct {
			Groups []struct {
				Rules string `json:"rules"`
				Bots  []struct {
					Name  string `json:"name"`
					Games int    `json:"games"`
				} `json:"bots"`
			} `json:"groups"`
		} `json:"standings"`
	}
	if err := json.Unmarshal([]byte(stdout.String()), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, stdout.String())
	}
	if sum.Standings == nil || len(sum.Standings.Groups) != 1 || len(sum.Standings.Groups[0].Bots) != 3 {
		t.Fatalf("standings %+v in:\n%s", sum.Standings, stdout.String())
	}
	for _, b := range sum.Standings.Groups[0].Bots {
		if b.Games != 4 {
			t.Errorf("%s played %d games, want 4 (2 against each other bot)", b.Name, b.Games)
		}
	}

	two := kinrowCmd(t, "match", "--rules", "tictactoe", "--bot", "random", "--bot", "mics", "--games", "2", "--movetime", "100ms")
	stdout.Reset()
	two.Stdout, two.Stderr = &stdout, &stderr
	if err := two.Run(); err != nil {
		t.Fatalf("two bots: %v\n%s", err, stderr.String())
	}
	if strings.Contains(stdout.String(), "standings") {
		t.Errorf("standings printed for two bots:\n%s", stdout.String())
	}
}
