package main

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/botpb"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// v1Server is the version-1 service: no Session.
type v1Server struct{ *botapi.GRPCServer }

func (v1Server) Session(botpb.Bot_SessionServer) error {
	return status.Error(codes.Unimplemented, "method Session not implemented")
}

// v1Plugin serves v1Server.
type v1Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	impl botapi.Bot
}

func (p *v1Plugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	botpb.RegisterBotServer(s, v1Server{&botapi.GRPCServer{Impl: p.impl}})
	return nil
}

func (p *v1Plugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, status.Error(codes.Unimplemented, "a bot has no client")
}

func main() {
	tb.Limit(nil)
	hs := botapi.Handshake()
	hs.ProtocolVersion = botapi.Version1
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: hs,
		Plugins:         plugin.PluginSet{botapi.PluginName: &v1Plugin{impl: sdk.Adapt(tb.Bot{Name: "v1bot"}, sdk.Logger())}},
		GRPCServer:      plugin.DefaultGRPCServer,
		Logger:          sdk.Logger(),
	})
}
