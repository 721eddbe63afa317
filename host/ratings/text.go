package ratings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/stats"
	"github.com/kinrow/kinrow/host/termsafe"
)

// WriteJSON writes the report as indented JSON with snake_case keys.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write ratings: %w", err)
	}
	return nil
}

// WriteText writes every group's rating list: a heading with the games,
// the first-move advantage and the draw parameter, notes, and a table of
// rank, bot, Elo, its 95% interval, games, W-D-L, score, draws and the mean
// rating of the opponents.
func (r *Report) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	for i, g := range r.Groups {
		if i > 0 {
			buf.WriteByte('\n')
		}
		g.writeHeading(&buf)
		t := newTable(&buf, "rank", "bot", "Elo", "±", "games", "W-D-L", "score", "draws", "opp. Elo")
		for _, b := range g.Bots {
			t.Append(strconv.Itoa(b.Rank), termsafe.Printable(b.Bot), stats.SignedElo(b.Elo, 1), plusMinus(b.Estimate),
				strconv.Itoa(b.Games), fmt.Sprintf("%d-%d-%d", b.Wins, b.Draws, b.Losses),
				fmt.Sprintf("%.1f%%", 100*b.Score), fmt.Sprintf("%.1f%%", 100*b.DrawRatio),
				stats.SignedElo(b.OpponentsElo, 1))
		}
		if err := t.Render(); err != nil {
			return fmt.Errorf("write ratings: %w", err)
		}
	}
	var skipped []string
	if r.Open > 0 {
		skipped = append(skipped, fmt.Sprintf("%d open games", r.Open))
	}
	if r.SelfPlay > 0 {
		skipped = append(skipped, fmt.Sprintf("%d games of a bot against itself", r.SelfPlay))
	}
	if len(skipped) > 0 {
		fmt.Fprintf(&buf, "not rated: %s\n", strings.Join(skipped, ", "))
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write ratings: %w", err)
	}
	return nil
}

func (g *Group) writeHeading(w io.Writer) {
	fmt.Fprintf(w, "%s: %d games, %d bots; first player +%d =%d -%d (draws %.1f%%)\n",
		termsafe.Printable(g.Rules), g.Games, len(g.Bots), g.FirstWins, g.Draws, g.SecondWins, 100*g.DrawRatio)
	ref := "mean 0"
	if g.Anchor != "" {
		ref = fmt.Sprintf("anchor %s = %g", termsafe.Printable(g.Anchor), g.AnchorElo)
	}
	model := "maximum likelihood"
	if g.Prior > 0 {
		model = fmt.Sprintf("prior of %g virtual games per pairing", g.Prior)
	}
	fmt.Fprintf(w, "first-move advantage %s Elo, draw Elo %s; ratings: %s, %s\n",
		estimateText(g.Advantage, true), estimateText(g.DrawElo, false), ref, model)
	for _, n := range g.Notes {
		fmt.Fprintf(w, "note: %s\n", termsafe.Printable(n))
	}
}

func estimateText(e Estimate, sign bool) string {
	v := stats.SignedElo(e.Elo, 1)
	if !sign {
		v = strings.TrimPrefix(v, "+")
	}
	if e.Fixed {
		return v + " (fixed)"
	}
	return v + " ± " + fmt.Sprintf("%.1f", e.PlusMinus)
}

func plusMinus(e Estimate) string {
	if e.Fixed {
		return "-"
	}
	return fmt.Sprintf("%.1f", e.PlusMinus)
}

// newTable is a table with the header as given and numbers right-aligned.
func newTable(w io.Writer, header ...string) *tablewriter.Table {
	align := make(tw.Alignment, len(header))
	for i, h := range header {
		align[i] = tw.AlignRight
		if h == "bot" {
			align[i] = tw.AlignLeft
		}
	}
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}))
	t.Header(header)
	return t
}

// WriteStandings writes the standings of the finished games in recs, for
// the summary of `kinrow match`: for every rules string with three or more
// bots, a line with the first-move advantage and a table of rank, bot, Elo
// and its 95% interval (mean 0), games, score and draws. Ratings are the
// maximum-likelihood ones, or, when those are not finite (a bot won or lost
// every game), those with DefaultPrior virtual games per pairing, which the
// line says. It writes nothing when no rules string has three bots, and
// nothing but returns the error when the games cannot be rated.
func WriteStandings(w io.Writer, recs []*record.Record) error {
	rep, err := Fit(recs, Options{FallbackPrior: DefaultPrior})
	if err != nil {
		return fmt.Errorf("standings: %w", err)
	}
	var buf bytes.Buffer
	for _, g := range rep.Groups {
		if len(g.Bots) < 3 {
			continue
		}
		how := ""
		if g.Prior > 0 {
			how = fmt.Sprintf(", with a prior of %g virtual games per pairing", g.Prior)
		}
		fmt.Fprintf(&buf, "standings, %s (BayesElo model, mean 0%s; first-move advantage %s Elo, draw Elo %s):\n",
			termsafe.Printable(g.Rules), how, estimateText(g.Advantage, true), estimateText(g.DrawElo, false))
		t := newTable(&buf, "rank", "bot", "Elo", "±", "games", "score", "draws")
		for _, b := range g.Bots {
			t.Append(strconv.Itoa(b.Rank), termsafe.Printable(b.Bot), stats.SignedElo(b.Elo, 1), plusMinus(b.Estimate),
				strconv.Itoa(b.Games), fmt.Sprintf("%.1f%%", 100*b.Score), fmt.Sprintf("%.1f%%", 100*b.DrawRatio))
		}
		if err := t.Render(); err != nil {
			return fmt.Errorf("standings: %w", err)
		}
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("standings: %w", err)
	}
	return nil
}
