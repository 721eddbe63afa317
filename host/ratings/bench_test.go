package ratings

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

// benchRecords is a round robin of 20 bots, 10,000 games in all, drawn
// from the model with spread ratings, draws and a first-move advantage.
func benchRecords() []*record.Record {
	rng := rand.New(rand.NewPCG(20, 10000))
	names := make([]string, 20)
	truth := make([]float64, 20)
	for i := range names {
		names[i] = fmt.Sprintf("bot%02d", i)
		truth[i] = float64(i-10) * 40
	}
	// 190 pairings × 53 games ≈ 10,000 games.
	return simulate(rng, names, truth, 40, 100, 53)
}

// BenchmarkFit rates 20 bots from 10,000 records: counting the games into
// cells, the Newton fit and the intervals.
func BenchmarkFit(b *testing.B) {
	recs := benchRecords()
	b.ReportAllocs()
	b.ReportMetric(float64(len(recs)), "games")
	for b.Loop() {
		if _, err := Fit(recs, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewton is the fit alone on the counted games of 20 bots.
func BenchmarkNewton(b *testing.B) {
	recs := benchRecords()
	n := 20
	index := map[string]int{}
	for _, r := range recs {
		for _, p := range []string{r.Players.X, r.Players.O} {
			if _, ok := index[p]; !ok {
				index[p] = len(index)
			}
		}
	}
	counts := make([]cell, n*n)
	for _, r := range recs {
		c := &counts[index[r.Players.X]*n+index[r.Players.O]]
		switch r.Result {
		case "X+":
			c.w++
		case "O+":
			c.l++
		default:
			c.d++
		}
	}
	pr := problem{n: n, fixAdv: nan(), fixDraw: nan()}
	for x := range n {
		for o := range n {
			if c := counts[x*n+o]; c.w+c.d+c.l > 0 {
				c.x, c.o = x, o
				pr.cells = append(pr.cells, c)
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pr.fit(100); err != nil {
			b.Fatal(err)
		}
	}
}
