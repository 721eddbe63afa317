// Package botpb is the gRPC service a kinrow bot serves to the host (plugin
// protocol version 1), generated from bot.proto by generate.sh
// (`go generate ./protocol/botpb/`, or `make generate`). The generated files
// are committed; edit bot.proto, never them.
//
// Host and bot code should not use this package directly: protocol/botapi
// wraps it in plain Go types, and protocol/sdk is what a bot author uses.
package botpb
