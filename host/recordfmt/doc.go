// Package recordfmt turns kinrow's JSON game records into the files other
// tools open, and reads those files back:
//
//   - PSQ as Piskvork writes it (m,n,k boards): a header "Piskvork WxH, …",
//     one "X,Y,MS" line per move with 1-based Gomocup coordinates (X the
//     column from the left, Y the row from the top), then the two players.
//   - SGF (FF[4], GM[4] "Gomoku+Renju" for m,n,k boards up to 52 on a side):
//     the players (PB, PW), the result (RE), kinrow's rules string in RU,
//     and each move's time as its comment ("123 ms").
//   - Text: the move list as kinrow reads it back, a digit string such as
//     "4453" for Connect-X up to 9 columns (as Connect-4 solvers read it),
//     1-based columns or vertices separated by spaces otherwise; one game per
//     line behind a "#" comment line, so the output is an openings file.
//   - SVG of any position of any board kinrow plays (Connect-X with its
//     gravity and column numbers, m,n,k with kinrow's coordinates), with
//     the last move marked, the winning line highlighted and x/o marks on the
//     stones besides their colours.
//
// [LoadRecords] reads a records file as kinrow match --out writes it,
// tolerating a torn last line. A [Game] is the common form between the
// formats: rules, players, moves with their times, and the result.
package recordfmt
