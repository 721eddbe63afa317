package match

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints what kinrow merge reports of merging inputs into out:
// the torn lines left out (on warn), then the games written per input and
// the missing games, with the command that plays them (on w).
func (r *MergeReport) WriteText(w, warn io.Writer, out string, inputs []string) {
	for _, torn := range r.Torn {
		fmt.Fprintf(warn, "kinrow merge: %s ends with a torn line (a run stopped while writing): left out, its game is missing\n", torn)
	}
	counts := make([]string, len(inputs))
	for i, in := range inputs {
		counts[i] = fmt.Sprintf("%s %d", in, r.PerFile[i])
	}
	fmt.Fprintf(w, "%s: %d of %d games of schedule %s (%s)\n", out, r.Games, r.Schedule.Rounds*r.Schedule.Games, r.Schedule, strings.Join(counts, ", "))
	if r.Missing == 0 {
		fmt.Fprintln(w, "missing: 0 games")
		return
	}
	fmt.Fprintf(w, "missing: %d games: %s\n", r.Missing, r.MissingText())
	fmt.Fprintf(w, "kinrow match --resume --out %s with the settings of the shards plays only those\n", out)
}
