// Command kinrow is the kinrow host.
//
//	kinrow [serve]   speaks the GTP-style text protocol on stdin/stdout
//	                 (docs/PROTOCOL.md) and plays with bots loaded as plugins;
//	kinrow match     plays automated matches and tournaments (docs/MATCHES.md);
//	kinrow solve     solves positions read from stdin with a solving bot.
//
// Logs go to stderr through go-hclog (--log-level, KINROW_LOG), never to
// stdout. Ctrl-C stops every bot process the host started.
package main
