// Package gtpfront is the host's GTP-style front end: it reads commands from
// a controller (a GUI, a referee script, a person at a terminal), answers
// them, and drives a referee.Game with bots loaded on demand. It is a thin
// adapter: rules, deadlines and forfeits live in the referee, bot processes
// behind the Loader, framing in protocol/gtp. The command set is specified in
// docs/PROTOCOL.md.
package gtpfront
