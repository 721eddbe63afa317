package match

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/ratings"
	"github.com/kinrow/kinrow/host/stats"
	"github.com/kinrow/kinrow/host/termsafe"
)

// WriteText prints the summary as kinrow match does: the table of
// pairings, cutechess-cli's lines for each, the SPRT's lines under --sprt
// and, for three bots or more, the standings (their error is returned
// after everything else is printed).
func (s *Summary) WriteText(w io.Writer) error {
	writeSummaryText(w, s, s.cfg.SPRT)
	return writeStandings(w, s, len(s.cfg.Bots))
}

// WriteJSON prints the summary as JSON (docs/MATCHES.md); standings that
// cannot be made are logged on log and left out.
func (s *Summary) WriteJSON(w io.Writer, log hclog.Logger) error {
	return writeSummaryJSON(w, s, s.cfg.SPRT, standingsJSON(s, len(s.cfg.Bots), log))
}

// noNegativeZero turns an Elo that prints as -0.0 into 0 (a score a hair
// under 50% is no loss of Elo worth a sign).
func noNegativeZero(elo float64) float64 {
	if elo <= 0 && elo > -0.05 { // also IEEE -0, which is not < 0
		return 0
	}
	return elo
}

// tableElo is e with an Elo that prints as -0.0 made 0.
func tableElo(e stats.Estimate) stats.Estimate {
	e.Elo = noNegativeZero(e.Elo)
	return e
}

// writeStandings prints the ratings of every bot of a round robin or a
// gauntlet (three or more bots) under the pair rows.
func writeStandings(w io.Writer, sum *Summary, bots int) error {
	if bots < 3 || len(sum.Records) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	return ratings.WriteStandings(w, sum.Records)
}

// standingsJSON is the ratings report of a run of three or more bots for
// --format json (nil otherwise, or when no rating can be made).
func standingsJSON(sum *Summary, bots int, log hclog.Logger) *ratings.Report {
	if bots < 3 || len(sum.Records) == 0 {
		return nil
	}
	rep, err := ratings.Fit(sum.Records, ratings.Options{FallbackPrior: ratings.DefaultPrior})
	if err != nil {
		log.Warn("no standings", "error", err)
		return nil
	}
	return rep
}

func forfeitText(m map[record.Forfeit]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", termsafe.Printable(string(k)), v))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// cnum prints a number as C's printf does for cutechess-cli's lines:
// "inf", "-inf" and "nan" where Go would print "+Inf", "-Inf" and "NaN".
func cnum(f float64, format byte, prec int) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, format, prec, 64)
}

// drawRatio is the share of draws, 0 with no games.
func drawRatio(w stats.WDL) float64 {
	if w.N() == 0 {
		return 0
	}
	return float64(w.D) / float64(w.N())
}

// eloError is the half-width of the 95% interval, as cutechess-cli's "+/-".
func eloError(e stats.Estimate) float64 { return (e.High - e.Low) / 2 }

// writeScore prints a pairing the way cutechess-cli does: wins of A,
// wins of B (losses of A), draws, A's score and the number of games; the
// same by the side A played and for x against o; then the Elo difference
// with its error, the LOS and the draw ratio.
func writeScore(w io.Writer, p *PairingStats) {
	fmt.Fprintf(w, "Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", termsafe.Printable(p.A), termsafe.Printable(p.B), p.WDL.W, p.WDL.L, p.WDL.D, p.WDL.Score(), p.WDL.N())
	for _, side := range []struct {
		name string
		wdl  stats.WDL
	}{{"x", p.AsX}, {"o", p.AsO}} {
		if side.wdl.N() > 0 {
			fmt.Fprintf(w, "...      %s playing %s: %d - %d - %d  [%.3f] %d\n",
				termsafe.Printable(p.A), side.name, side.wdl.W, side.wdl.L, side.wdl.D, side.wdl.Score(), side.wdl.N())
		}
	}
	if n := p.WDL.N(); n > 0 {
		xWins, oWins := p.AsX.W+p.AsO.L, p.AsX.L+p.AsO.W
		fmt.Fprintf(w, "...      x vs o: %d - %d - %d  [%.3f] %d\n",
			xWins, oWins, p.WDL.D, (float64(xWins)+0.5*float64(p.WDL.D))/float64(n), n)
	}
	elo, margin := math.NaN(), math.NaN()
	if p.WDL.N() > 0 {
		elo, margin = noNegativeZero(p.Elo.Elo), eloError(p.Elo)
	}
	fmt.Fprintf(w, "Elo difference: %s +/- %s, LOS: %s %%, DrawRatio: %s %%\n",
		cnum(elo, 'f', 1), cnum(margin, 'f', 1), cnum(100*p.LOS, 'f', 1), cnum(100*drawRatio(p.WDL), 'f', 1))
}

func writeSummaryText(w io.Writer, sum *Summary, sprt *stats.SPRT) {
	fmt.Fprintf(w, "%s: %d games\n", sum.Rules, sum.Games)
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header("bot A", "bot B", "games", "A: W-D-L", "score", "Elo (95%)", "LOS", "pairs 0-½-1-1½-2", "forfeits A", "forfeits B", "ms/move A med/max", "ms/move B med/max")
	for _, p := range sum.Pairings {
		pe := p.Penta
		t.Append(termsafe.Printable(p.A), termsafe.Printable(p.B), strconv.Itoa(p.WDL.N()),
			fmt.Sprintf("%d-%d-%d", p.WDL.W, p.WDL.D, p.WDL.L),
			fmt.Sprintf("%.1f%%", 100*p.WDL.Score()),
			tableElo(p.Elo).String(), fmt.Sprintf("%.1f%%", 100*p.LOS),
			fmt.Sprintf("%d-%d-%d-%d-%d", pe[0], pe[1], pe[2], pe[3], pe[4]),
			forfeitText(p.Forfeits[p.A]), forfeitText(p.Forfeits[p.B]),
			fmt.Sprintf("%d/%d", p.MedianMS[p.A], p.MaxMS[p.A]),
			fmt.Sprintf("%d/%d", p.MedianMS[p.B], p.MaxMS[p.B]))
	}
	t.Render()
	for _, p := range sum.Pairings {
		writeScore(w, p)
	}
	if sprt != nil {
		lo, hi := sprt.Bounds()
		llr := sprt.LLR(sum.Pairings[0].Penta)
		// cutechess-cli's line: the LLR as a share of the upper bound.
		line := fmt.Sprintf("SPRT: llr %s (%s%%), lbound %s, ubound %s",
			cnum(llr, 'g', 3), cnum(llr/hi*100, 'f', 1), cnum(lo, 'g', 3), cnum(hi, 'g', 3))
		switch sum.Decision {
		case stats.AcceptH0:
			line += " - H0 was accepted"
		case stats.AcceptH1:
			line += " - H1 was accepted"
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, "SPRT elo0=%g elo1=%g alpha=%g beta=%g model=%s: LLR %.2f (%.2f, %.2f): %s\n",
			sprt.Elo0, sprt.Elo1, sprt.Alpha, sprt.Beta, sprt.Model, llr, lo, hi, sum.Decision)
	}
}

// The JSON summary; every key is snake_case (TestMatchJSONKeysAreSnakeCase).
type (
	jsonSummary struct {
		Rules       string        `json:"rules"`
		Games       int           `json:"games"`
		Interrupted bool          `json:"interrupted"`
		Pairings    []jsonPairing `json:"pairings"`
		SPRT        *jsonSPRT     `json:"sprt,omitempty"`
		// Standings are the ratings of every bot of a run of three or more.
		Standings *ratings.Report `json:"standings,omitempty"`
	}
	jsonPairing struct {
		A         string  `json:"a"`
		B         string  `json:"b"`
		Games     int     `json:"games"`
		Wins      int     `json:"wins"`
		Draws     int     `json:"draws"`
		Losses    int     `json:"losses"`
		Score     float64 `json:"score"`
		DrawRatio float64 `json:"draw_ratio"`
		Elo       float64 `json:"elo"`
		EloError  float64 `json:"elo_error"`
		EloLow    float64 `json:"elo_low"`
		EloHigh   float64 `json:"elo_high"`
		LOS       float64 `json:"los"`
		// Pentanomial counts the pairs A scored 0, ½, 1, 1½ and 2 points in.
		Pentanomial [5]int  `json:"pentanomial"`
		AAsX        jsonWDL `json:"a_as_x"`
		AAsO        jsonWDL `json:"a_as_o"`
		// Bots holds A, then B.
		Bots [2]jsonBot `json:"bots"`
	}
	jsonWDL struct {
		Games  int     `json:"games"`
		Wins   int     `json:"wins"`
		Draws  int     `json:"draws"`
		Losses int     `json:"losses"`
		Score  float64 `json:"score"`
	}
	jsonBot struct {
		Name     string        `json:"name"`
		Forfeits []jsonForfeit `json:"forfeits"`
		MedianMS int64         `json:"median_ms"`
		MaxMS    int64         `json:"max_ms"`
	}
	jsonForfeit struct {
		Reason string `json:"reason"` // as in the records' "forfeit"
		Count  int    `json:"count"`
	}
	jsonSPRT struct {
		Elo0       float64 `json:"elo0"`
		Elo1       float64 `json:"elo1"`
		Alpha      float64 `json:"alpha"`
		Beta       float64 `json:"beta"`
		Model      string  `json:"model"`
		LLR        float64 `json:"llr"`
		LowerBound float64 `json:"lower_bound"`
		UpperBound float64 `json:"upper_bound"`
		Decision   string  `json:"decision"`
	}
)

func toJSONWDL(w stats.WDL) jsonWDL {
	return jsonWDL{Games: w.N(), Wins: w.W, Draws: w.D, Losses: w.L, Score: w.Score()}
}

func toJSONBot(p *PairingStats, name string) jsonBot {
	b := jsonBot{Name: name, Forfeits: []jsonForfeit{}, MedianMS: p.MedianMS[name], MaxMS: p.MaxMS[name]}
	for reason, n := range p.Forfeits[name] {
		b.Forfeits = append(b.Forfeits, jsonForfeit{Reason: string(reason), Count: n})
	}
	sort.Slice(b.Forfeits, func(i, j int) bool { return b.Forfeits[i].Reason < b.Forfeits[j].Reason })
	return b
}

func writeSummaryJSON(w io.Writer, sum *Summary, sprt *stats.SPRT, standings *ratings.Report) error {
	out := jsonSummary{Rules: sum.Rules, Games: sum.Games, Interrupted: sum.Interrupted, Pairings: []jsonPairing{}, Standings: standings}
	for _, p := range sum.Pairings {
		e := p.Elo
		out.Pairings = append(out.Pairings, jsonPairing{
			A: p.A, B: p.B, Games: p.WDL.N(), Wins: p.WDL.W, Draws: p.WDL.D, Losses: p.WDL.L,
			Score: p.WDL.Score(), DrawRatio: drawRatio(p.WDL),
			Elo: finite(e.Elo), EloError: finite(eloError(e)), EloLow: finite(e.Low), EloHigh: finite(e.High),
			LOS: p.LOS, Pentanomial: p.Penta, AAsX: toJSONWDL(p.AsX), AAsO: toJSONWDL(p.AsO),
			Bots: [2]jsonBot{toJSONBot(p, p.A), toJSONBot(p, p.B)},
		})
	}
	if sprt != nil {
		lo, hi := sprt.Bounds()
		out.SPRT = &jsonSPRT{Elo0: sprt.Elo0, Elo1: sprt.Elo1, Alpha: sprt.Alpha, Beta: sprt.Beta, Model: sprt.Model,
			LLR: finite(sprt.LLR(sum.Pairings[0].Penta)), LowerBound: lo, UpperBound: hi, Decision: sum.Decision.String()}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write the JSON summary: %w", err)
	}
	return nil
}

// finite clamps ±Inf (all games won or lost) for JSON, and NaN to 0.
func finite(f float64) float64 {
	switch {
	case f > 9999:
		return 9999
	case f < -9999:
		return -9999
	case f != f:
		return 0
	}
	return f
}
