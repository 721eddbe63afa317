package match

import (
	"math"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/stats"
)

// An Elo a hair under 0 is printed 0.0, never -0.0 (cutechess's line and
// the table's +0.0); a real loss keeps its sign.
func TestSummaryTextHasNoNegativeZero(t *testing.T) {
	for _, tc := range []struct {
		elo        float64
		line, cell string
	}{
		{-0.02, "Elo difference: 0.0 +/-", "+0.0 ± "},
		{math.Copysign(0, -1), "Elo difference: 0.0 +/-", "+0.0 ± "},            // IEEE negative zero: the constant -0.0 in Go is +0
		{stats.WDL{W: 2, L: 2}.Elo().Elo, "Elo difference: 0.0 +/-", "+0.0 ± "}, // what 2-2-0 gives: -400·log10(1/0.5−1)
		{-3.26, "Elo difference: -3.3 +/-", "-3.3 ± "},
	} {
		p := &PairingStats{A: "a", B: "b", WDL: stats.WDL{W: 10, D: 1, L: 10},
			Elo:      stats.Estimate{Elo: tc.elo, Low: tc.elo - 20, High: tc.elo + 20},
			Forfeits: map[string]map[record.Forfeit]int{}, MedianMS: map[string]int64{}, MaxMS: map[string]int64{}}
		var out strings.Builder
		writeSummaryText(&out, &Summary{Rules: "connect4", Games: 21, Pairings: []*PairingStats{p}}, nil)
		if !strings.Contains(out.String(), tc.line) || !strings.Contains(out.String(), tc.cell) {
			t.Errorf("Elo %v: want %q and %q in\n%s", tc.elo, tc.line, tc.cell, out.String())
		}
	}
}
