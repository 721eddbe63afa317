package book

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/kinrow/kinrow/engine"
)

// GeometryOf is the book geometry of rules for a book of plies plies
// (kinrow book build --rules --plies): books are for freestyle Connect-X.
// Its errors name the flag that was wrong and what is accepted.
func GeometryOf(rules engine.Rules, plies int) (Geometry, error) {
	if !rules.Gravity() || rules.Line != engine.Freestyle {
		return Geometry{}, fmt.Errorf("--rules %s: books are for freestyle Connect-X (connect4, connectx:RxCxK)", rules)
	}
	g := Geometry{Rows: rules.Rows, Cols: rules.Cols, K: rules.K}
	if err := g.Check(); err != nil {
		return Geometry{}, fmt.Errorf("--rules %s: %w", rules, err)
	}
	if plies < 0 || plies > rules.Cells() {
		return Geometry{}, fmt.Errorf("--plies %d: want 0..%d", plies, rules.Cells())
	}
	return g, nil
}

// Built is what BuildFile wrote.
type Built struct {
	Path      string
	Positions int
	Plies     int
	Bytes     int64
	Took      time.Duration
	// Strategy: a strategy book (BuildStrategyFile).
	Strategy bool
}

// Summary is the line kinrow book build prints: the file, the game, the
// book's size and how long it took.
func (b Built) Summary(rules engine.Rules) string {
	kind := ""
	if b.Strategy {
		kind = "strategy "
	}
	return fmt.Sprintf("%s: %s, %s%d positions up to %d plies, %d bytes, built in %s",
		b.Path, rules, kind, b.Positions, b.Plies, b.Bytes, b.Took.Round(time.Millisecond))
}

// BuildFile builds the book of o (o.Journal: path + ".journal", so that a
// stopped build resumes) and writes it to path; the journal goes once
// the book is written.
func BuildFile(ctx context.Context, o Options, path string) (Built, error) {
	start := time.Now()
	o.Journal = path + ".journal"
	b, err := Build(ctx, o)
	if err != nil {
		return Built{}, err
	}
	return writeBuilt(b, path, o.Journal, Built{Plies: o.Plies}, start)
}

// BuildStrategyFile builds the strategy book of o (o.Journal: path +
// ".journal", so that a stopped build resumes) and writes it to path; the
// journal goes once the book is written.
func BuildStrategyFile(ctx context.Context, o StrategyOptions, path string) (Built, error) {
	start := time.Now()
	o.Journal = path + ".journal"
	b, err := BuildStrategy(ctx, o)
	if err != nil {
		return Built{}, err
	}
	return writeBuilt(b, path, o.Journal, Built{Plies: b.Plies, Strategy: true}, start)
}

// writeBuilt writes b to path, removes the build's journal and returns
// what was built: kind with its path, size, positions and time since start.
func writeBuilt(b *Book, path, journal string, kind Built, start time.Time) (Built, error) {
	if err := b.WriteFile(path); err != nil {
		return Built{}, err
	}
	if err := os.Remove(journal); err != nil && !errors.Is(err, os.ErrNotExist) {
		return Built{}, fmt.Errorf("book: %w", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return Built{}, fmt.Errorf("book: %w", err)
	}
	kind.Path, kind.Positions, kind.Bytes, kind.Took = path, b.Len(), st.Size(), time.Since(start)
	return kind, nil
}
