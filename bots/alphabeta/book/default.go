package book

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
)

// shipped holds the books embedded in the bot (books/README.md).
//
//go:embed books
var shipped embed.FS

// DefaultName returns the file name of the shipped book of g.
func DefaultName(g Geometry) string {
	return fmt.Sprintf("connectx-%dx%dx%d.book", g.Rows, g.Cols, g.K)
}

// Default returns the book shipped for g, or nil when none is.
func Default(g Geometry) (*Book, error) {
	data, err := shipped.ReadFile("books/" + DefaultName(g))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("book: shipped book of %dx%dx%d: %w", g.Rows, g.Cols, g.K, err)
	}
	b, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("book: shipped book %s: %w", DefaultName(g), err)
	}
	return b, nil
}
