// Package refkey is the referee's key: the ed25519 key a kinrow host signs
// the records of the games it refereed with (engine/record's SignedLine),
// made at first use in the user's config directory, and the public key
// files a host is told to trust (--trust KEYFILE) for records signed
// elsewhere. The format is in docs/MATCHES.md.
package refkey
