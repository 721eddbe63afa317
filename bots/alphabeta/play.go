package main

import (
	"fmt"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/bots/alphabeta/proven"
	"github.com/kinrow/kinrow/engine"
)

// playBooks keeps the books read and one solve-time estimator per rules
// for the life of the bot.
type playBooks struct {
	books map[string]*book.Book
	ests  map[engine.Rules]*proven.Estimator
}

// attach gives pl (of rules, with an exact solver) its book and
// estimator: name is the book option, a file, "default" or "none".
func (pb *playBooks) attach(pl *player, rules engine.Rules, name string) error {
	if pl.exact == nil {
		return nil
	}
	if pb.ests == nil {
		pb.books, pb.ests = map[string]*book.Book{}, map[engine.Rules]*proven.Estimator{}
	}
	if pb.ests[rules] == nil {
		pb.ests[rules] = proven.NewEstimator(rules.Cells())
	}
	pl.est = pb.ests[rules]
	g := book.Geometry{Rows: rules.Rows, Cols: rules.Cols, K: rules.K}
	var err error
	b, ok := pb.books[name+"\x00"+rules.String()]
	if !ok {
		switch name {
		case "none", "":
		case "default":
			b, err = book.Default(g)
		default:
			b, err = book.ReadFile(name)
		}
		if err != nil {
			return fmt.Errorf("alphabeta: option book=%s: %w", name, err)
		}
		if b != nil && b.Geometry != g {
			return fmt.Errorf("alphabeta: option book=%s: a book of %dx%dx%d, the game is %s", name, b.Rows, b.Cols, b.K, rules)
		}
		pb.books[name+"\x00"+rules.String()] = b
	}
	pl.book = b
	return nil
}
