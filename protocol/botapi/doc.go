// Package botapi is the plugin contract between the kinrow host and its bots,
// shaped as in hashicorp/go-plugin's examples/grpc: the handshake and
// protocol version, the wire-level Bot interface with plain Go types, and the
// gRPC glue both ways (GRPCClient for the host, GRPCServer for the bot, and
// the Plugin that go-plugin dispenses).
//
// The host starts a bot with go-plugin's ClientConfig{HandshakeConfig:
// Handshake(), VersionedPlugins: VersionedPluginSets(nil), AllowedProtocols:
// gRPC only}, dispenses PluginName and gets a Bot. Errors from the wire keep
// their gRPC status (status.Code, status.FromError and errors.As work on
// them); IsDisconnect and IsDeadline classify them.
//
// Bot authors use protocol/sdk instead of this package.
package botapi
