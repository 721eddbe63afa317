// Package record holds the game record: the rules, the players, every move
// with the time it took, the result and the reason for it, written as one
// JSON object per game (one line in a .jsonl file). The schema is in
// docs/PROTOCOL.md; the host, the match runner and the Gomocup adapter all
// write records through this package so that one reader (Reader) reads
// them all. A referee signs the records it vouches for (SignedLine: a game
// id, its ed25519 key, the signature as the line's last member), and a
// Verifier checks them on reading (docs/MATCHES.md, "Records a referee
// vouches for").
package record
