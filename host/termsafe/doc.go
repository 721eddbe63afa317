// Package termsafe makes text that came from a bot or a records file safe
// to print: a bot name, a reason or a log line holding escape sequences
// (ESC [ 2 J clears a screen), carriage returns (which overwrite a line),
// Unicode direction overrides or bytes that are not UTF-8 is shown with
// those characters written out as escapes (\x1b, \r, \u202e, \xff) rather
// than sent to the terminal. Everything printable, spaces included, stays
// as it is, so ordinary names print unchanged.
package termsafe
