package main

import (
	"github.com/hashicorp/go-plugin"
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

func main() {
	tb.Limit(nil)
	hs := botapi.Handshake()
	hs.ProtocolVersion = botapi.Version1
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: hs,
		Plugins: plugin.PluginSet{botapi.PluginName: &tb.ServerPlugin{Impl: sdk.Adapt(tb.Bot{Name: "v1bot"}, sdk.Logger()),
			Wrap: func(g *botapi.GRPCServer) botpb.BotServer { return v1Server{g} }}},
		GRPCServer: plugin.DefaultGRPCServer,
		Logger:     sdk.Logger(),
	})
}
