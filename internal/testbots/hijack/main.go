// Command hijack is a hostile test bot: its session hello names a socket
// outside its private socket directory (one it makes in the system's
// temporary directory), which could as well be another program's socket.
// The host must refuse to dial it.
package main

import (
	"context"
	"os"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/botpb"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// server makes its session socket outside the directory the host gave it.
type server struct{ *botapi.GRPCServer }

func (s server) Session(stream botpb.Bot_SessionServer) error {
	os.Setenv("PLUGIN_UNIX_SOCKET_DIR", os.TempDir())
	return s.GRPCServer.Session(stream)
}

type hijackPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	impl botapi.Bot
}

func (p *hijackPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	botpb.RegisterBotServer(s, server{&botapi.GRPCServer{Impl: p.impl, OwnSocket: true}})
	return nil
}

func (p *hijackPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, status.Error(codes.Unimplemented, "a bot has no client")
}

func main() {
	tb.Limit(nil)
	impl := sdk.Adapt(tb.Bot{Name: "hijack"}, sdk.Logger())
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  botapi.Handshake(),
		VersionedPlugins: map[int]plugin.PluginSet{botapi.Version2: {botapi.PluginName: &hijackPlugin{impl: impl}}},
		GRPCServer:       plugin.DefaultGRPCServer,
		Logger:           sdk.Logger(),
	})
}
