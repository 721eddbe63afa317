package match

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/termsafe"
)

// MergeReport says what Merge wrote.
type MergeReport struct {
	Schedule ScheduleID
	Games    int // records written
	// PerFile counts the records taken from each input, in order.
	PerFile []int
	// Torn names the inputs whose torn last line (a run killed while
	// writing) was left out: its game is missing, not lost.
	Torn []string
	// Missing counts the games of the schedule no input holds; Gaps lists
	// them as runs of consecutive games, by round.
	Missing int
	Gaps    []Gap
	// Skipped are the records left out by MergeOptions.SkipInvalid, each
	// an error naming file:line and why; they are not written.
	Skipped []error
	// Unsigned counts the unsigned records accepted by
	// MergeOptions.AllowUnsigned.
	Unsigned int
}

// MergeOptions says how Merge checks its inputs.
type MergeOptions struct {
	// Trusted are the keys whose signatures Merge accepts: every record
	// must be signed by one, each game id once across all inputs, unless
	// AllowUnsigned lets in records with no signature.
	Trusted       []ed25519.PublicKey
	AllowUnsigned bool
	// SkipInvalid leaves out the records that are not valid (counted in
	// MergeReport.Skipped) instead of refusing the merge. Records that do
	// not fit the schedule are still refused.
	SkipInvalid bool
}

// Gap is a run of missing games: games First to Last of round Round.
type Gap struct{ Round, First, Last int }

// maxGapsText bounds how many gaps MissingText lists.
const maxGapsText = 40

// MissingText describes the missing games compactly, e.g.
// "round 1: games 3-4, 9; round 2: game 1", or "" when none are.
func (r *MergeReport) MissingText() string {
	var rounds []string
	shown := min(len(r.Gaps), maxGapsText)
	for i := 0; i < shown; {
		round := r.Gaps[i].Round
		var spans []string
		count := 0
		for ; i < shown && r.Gaps[i].Round == round; i++ {
			g := r.Gaps[i]
			count += g.Last - g.First + 1
			if g.First == g.Last {
				spans = append(spans, strconv.Itoa(g.First))
			} else {
				spans = append(spans, fmt.Sprintf("%d-%d", g.First, g.Last))
			}
		}
		word := "games"
		if count == 1 {
			word = "game"
		}
		rounds = append(rounds, fmt.Sprintf("round %d: %s %s", round, word, strings.Join(spans, ", ")))
	}
	text := strings.Join(rounds, "; ")
	if more := len(r.Gaps) - shown; more > 0 {
		text += fmt.Sprintf("; and %d more runs of games", more)
	}
	return text
}

// ErrMerge marks the inputs Merge refuses: records of different
// schedules, duplicates, games outside the schedule, unreadable lines.
var ErrMerge = errors.New("cannot merge")

// where is a record's place: its file and line.
type where struct {
	path string
	line int
}

func (w where) String() string { return fmt.Sprintf("%s:%d", w.path, w.line) }

// Merge joins the record files of the shards of one schedule (or any
// record files of kinrow match runs of one schedule) into out, ordered by
// round and game. Every record must carry the same schedule identity, be a
// finished game of a round and game number inside the schedule, agree
// with the other records on the pairing, the colours and the opening of
// its pair, and appear once, and pass the judge of record.Reader (its
// result, reason and winner follow from its moves: Record.Judge); the
// error names the file and line of the first that does not, and nothing
// is written. Every record is verified (signed by a key of opts.Trusted,
// its game id seen once across the inputs) and written as the
// line it was read, with its own signature: Merge vouches for nothing
// itself, so a merged file verifies as its shards did. out must be new or
// empty: Merge never overwrites records. Missing games are reported, not refused:
// kinrow match --resume on out with the schedule's settings plays them.
func Merge(ctx context.Context, out string, inputs []string, opts MergeOptions) (*MergeReport, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("%w: no record files to merge", ErrMerge)
	}
	if err := RefuseNonEmpty(out, mergeHint); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	rep := &MergeReport{}
	v := record.NewVerifier(opts.Trusted, opts.AllowUnsigned)
	var first where
	byGame := map[[2]int]numbered{}
	from := map[[2]int]where{}
	// pairing holds the x and o of a round's odd games, from the first
	// record of the round; openings the opening of each pair.
	pairing := map[int][2]string{}
	pairingAt := map[int]where{}
	openings := map[[2]int]string{}
	openingAt := map[[2]int]where{}
	rules := ""
	for _, path := range inputs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		in, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		recs, skipped, tail, _, err := readRecords(path, in, v, opts.SkipInvalid)
		in.Close()
		if err != nil {
			var bad *record.Bad
			if errors.As(err, &bad) {
				return nil, fmt.Errorf("%w: %w", ErrMerge, err)
			}
			return nil, fmt.Errorf("merge: %w", err)
		}
		rep.Skipped = append(rep.Skipped, skipped...)
		if tail >= 0 {
			rep.Torn = append(rep.Torn, path)
		}
		rep.PerFile = append(rep.PerFile, len(recs))
		for _, nr := range recs {
			at := where{path, nr.line}
			rec := nr.rec
			bad := func(format string, a ...any) error {
				return fmt.Errorf("%w: %s: %s", ErrMerge, at, fmt.Sprintf(format, a...))
			}
			if rec.Schedule == "" {
				return nil, bad("the record has no schedule identity (written by kinrow match before shards existed, or by another program): its schedule cannot be checked")
			}
			id, err := ParseScheduleID(rec.Schedule)
			if err != nil {
				return nil, bad("%v", err)
			}
			if first.path == "" {
				first, rep.Schedule, rules = at, id, rec.Rules
			} else if id != rep.Schedule {
				return nil, bad("schedule %s; %s has schedule %s: records of different schedules (other rules, bots, options, games, openings, seed or time control) are never mixed",
					id, first, rep.Schedule)
			}
			if rec.Rules != rules {
				return nil, bad("rules %s; %s has rules %s", termsafe.Printable(rec.Rules), first, termsafe.Printable(rules))
			}
			if rec.Round < 1 || rec.Round > id.Rounds || rec.Game < 1 || rec.Game > id.Games {
				return nil, bad("round %d game %d is outside the schedule, which has rounds 1 to %d of games 1 to %d",
					rec.Round, rec.Game, id.Rounds, id.Games)
			}
			key := [2]int{rec.Round, rec.Game}
			if prev, dup := from[key]; dup {
				return nil, bad("round %d game %d is already in %s; a game is played and counted once", rec.Round, rec.Game, prev)
			}
			if err := checkFinished(rec); err != nil {
				return nil, bad("%v", err)
			}
			// Odd games of a round have its pairing's first bot as x.
			xo := [2]string{rec.Players.X, rec.Players.O}
			if rec.Game%2 == 0 {
				xo = [2]string{rec.Players.O, rec.Players.X}
			}
			if p, ok := pairing[rec.Round]; !ok {
				pairing[rec.Round], pairingAt[rec.Round] = xo, at
			} else if p != xo {
				return nil, bad("round %d game %d has x %s and o %s, which does not agree with %s (round %d: %s is x in odd games, %s in even ones)",
					rec.Round, rec.Game, termsafe.Printable(rec.Players.X), termsafe.Printable(rec.Players.O), pairingAt[rec.Round], rec.Round,
					termsafe.Printable(p[0]), termsafe.Printable(p[1]))
			}
			pair := [2]int{rec.Round, (rec.Game + 1) / 2}
			var opening []string
			for i := 0; i < rec.Opening && i < len(rec.Moves); i++ {
				opening = append(opening, rec.Moves[i].Move)
			}
			op := strings.Join(opening, " ")
			if o, ok := openings[pair]; !ok {
				openings[pair], openingAt[pair] = op, at
			} else if o != op {
				return nil, bad("round %d game %d opens with %q; the other game of its pair (%s) opens with %q", rec.Round, rec.Game, op, openingAt[pair], o)
			}
			byGame[key], from[key] = nr, at
		}
	}
	if first.path == "" {
		return nil, fmt.Errorf("%w: no records in %s", ErrMerge, strings.Join(inputs, ", "))
	}
	keys := make([][2]int, 0, len(byGame))
	for k := range byGame {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	// The gaps between the games present, round by round: the work is
	// in the games present and the rounds, never in the schedule's size,
	// which a record states.
	next := 0 // index in keys
	for r := 1; r <= rep.Schedule.Rounds; r++ {
		want := 1 // the first game of round r not yet accounted for
		for ; next < len(keys) && keys[next][0] == r; next++ {
			if g := keys[next][1]; g > want {
				rep.Gaps = append(rep.Gaps, Gap{r, want, g - 1})
			}
			want = keys[next][1] + 1
		}
		if want <= rep.Schedule.Games {
			rep.Gaps = append(rep.Gaps, Gap{r, want, rep.Schedule.Games})
		}
	}
	for _, g := range rep.Gaps {
		rep.Missing += g.Last - g.First + 1
	}
	var buf []byte
	for _, k := range keys {
		buf = append(buf, byGame[k].raw...)
		buf = append(buf, '\n')
	}
	if err := writeNew(out, buf); err != nil {
		return nil, err
	}
	rep.Games, rep.Unsigned = len(keys), v.Unsigned
	return rep, nil
}

// mergeHint is what to do when the merge's output holds data.
const mergeHint = "kinrow merge writes a new file; name another file"

// writeNew writes data to path, which must be missing or empty, and syncs it.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if err := RefuseNonEmpty(path, mergeHint); err != nil {
		f.Close()
		return fmt.Errorf("merge: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("merge: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("merge: sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("merge: close %s: %w", path, err)
	}
	return nil
}
