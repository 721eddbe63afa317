package main

import (
	"strings"
	"testing"
)

// TestPndbSolvesTicTacToe: kinrow solve --bot pndb --weak proves the empty
// 3x3x3 board a draw.
func TestPndbSolvesTicTacToe(t *testing.T) {
	cmd := kinrowCmd(t, "solve", "--bot", "pndb", "--weak", "--rules", "mnk:3x3x3")
	cmd.Stdin = strings.NewReader("\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("solve: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "0" {
		t.Errorf("solve mnk:3x3x3 empty board: %q, want 0", got)
	}
}
