// Package pattern holds the line patterns of five-in-a-row and the tables
// that turn a cell's neighbourhood into them, built once per line rule.
//
// The idea is the classical evaluation of Rapfi (dhbloo/rapfi), rewritten
// for kinrow: for every empty cell and each of the four directions, the
// ten cells around it on that line (five each side) are packed two bits
// each into a 20-bit key (black, white, or both bits for off the board).
// A table indexed by that key gives, for each colour, the Pattern a stone
// of that colour on the cell would make on the line: a five, an overline
// (where only exactly five wins), an open or blocked four, three, two or
// one, or nothing. The four directions' patterns combine into a Pattern4,
// the cell's threat class (five, open four or double four, four-three, ...,
// and, for black under renju, forbidden), and a score used by the
// evaluation and the move ordering.
//
// The patterns are defined recursively on an 11-cell line with the centre
// occupied: a five through the centre; a four when one (blocked) or two
// (open) empty cells complete a five; a three when a stone on one empty cell
// makes a four (open three when that four is open), and so on down to one.
// Each line is judged once through a memo of the 3^11 line states, so
// building a table takes milliseconds; tables are immutable afterwards and
// shared by every board of the process.
package pattern
