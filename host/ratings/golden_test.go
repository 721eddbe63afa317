package ratings

import (
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

var update = flag.Bool("update", false, "rewrite testdata/fit_golden.json from the current fit")

// goldenCases are fits whose results testdata/fit_golden.json keeps, as the
// hand-written Newton/Cholesky solver computed them before the linear
// algebra moved to gonum: every later solver must give the same ratings,
// intervals and parameters to within 1e-6 Elo.
func goldenCases() []struct {
	name string
	recs []*record.Record
	opts Options
} {
	sim := func(seed uint64, truth []float64, adv, draw float64, perPair int) []*record.Record {
		names := make([]string, len(truth))
		for i := range names {
			names[i] = string(rune('a' + i))
		}
		return simulate(rand.New(rand.NewPCG(seed, seed+1)), names, truth, adv, draw, perPair)
	}
	return []struct {
		name string
		recs []*record.Record
		opts Options
	}{
		{"20 bots, 10,000 games (the benchmark)", benchRecords(), Options{}},
		{"two bots with draws", pairing(pairing(nil, "A", "B", 6, 2, 2), "B", "A", 3, 2, 5), Options{}},
		{"two bots, prior 2", pairing(pairing(nil, "A", "B", 6, 2, 2), "B", "A", 3, 2, 5), Options{Prior: 2}},
		{"five bots, anchored", sim(7, []float64{-200, -50, 0, 120, 300}, 60, 80, 40), Options{Anchor: "c", AnchorElo: 1500}},
		{"three bots, fixed parameters", sim(5, []float64{-50, 0, 50}, 40, 100, 200), Options{Advantage: ptr(0), DrawElo: ptr(150)}},
		{"eight bots, no draws", sim(11, []float64{-300, -200, -100, 0, 0, 100, 200, 300}, 30, 0.001, 30), Options{DrawElo: ptr(0.001)}},
		{"a bot lost every game: fallback prior", weakLosesAll(), Options{FallbackPrior: DefaultPrior}},
	}
}

// goldenGroup is what the golden file keeps of a fitted group.
type goldenGroup struct {
	Bots      map[string]Estimate `json:"bots"`
	Advantage Estimate            `json:"advantage"`
	DrawElo   Estimate            `json:"draw_elo"`
	LogLik    float64             `json:"log_likelihood"`
}

func TestFitMatchesGolden(t *testing.T) {
	path := filepath.Join("testdata", "fit_golden.json")
	got := map[string][]goldenGroup{}
	for _, tc := range goldenCases() {
		rep, err := Fit(tc.recs, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, g := range rep.Groups {
			gg := goldenGroup{Bots: map[string]Estimate{}, Advantage: g.Advantage, DrawElo: g.DrawElo, LogLik: g.LogLik}
			for _, b := range g.Bots {
				gg.Bots[b.Bot] = b.Estimate
			}
			got[tc.name] = append(got[tc.name], gg)
		}
	}
	if *update {
		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]goldenGroup
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("%d cases, golden file has %d (go test -run TestFitMatchesGolden -update rewrites it)", len(got), len(want))
	}
	const tol = 1e-6
	same := func(what string, a, b float64) {
		if math.Abs(a-b) > tol {
			t.Errorf("%s: %.9f, golden %.9f (off by %.3g)", what, a, b, a-b)
		}
	}
	sameEstimate := func(what string, a, b Estimate) {
		same(what+" elo", a.Elo, b.Elo)
		same(what+" ±", a.PlusMinus, b.PlusMinus)
		if a.Fixed != b.Fixed {
			t.Errorf("%s: fixed %v, golden %v", what, a.Fixed, b.Fixed)
		}
	}
	for name, groups := range got {
		wg := want[name]
		if len(wg) != len(groups) {
			t.Errorf("%s: %d groups, golden %d", name, len(groups), len(wg))
			continue
		}
		for i, g := range groups {
			w := wg[i]
			if len(g.Bots) != len(w.Bots) {
				t.Errorf("%s: %d bots, golden %d", name, len(g.Bots), len(w.Bots))
			}
			for bot, e := range g.Bots {
				sameEstimate(name+": "+bot, e, w.Bots[bot])
			}
			sameEstimate(name+": advantage", g.Advantage, w.Advantage)
			sameEstimate(name+": draw Elo", g.DrawElo, w.DrawElo)
			same(name+": log-likelihood", g.LogLik, w.LogLik)
		}
	}
}
