package tb

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/botpb"
)

// ServerPlugin is the go-plugin plugin of a test bot that serves a bent
// copy of the SDK's gRPC service: Wrap turns the bot's botapi.GRPCServer
// into the service it registers (a broken stream, a missing method).
type ServerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl botapi.Bot
	Wrap func(*botapi.GRPCServer) botpb.BotServer
}

// GRPCServer registers the wrapped service.
func (p *ServerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	botpb.RegisterBotServer(s, p.Wrap(&botapi.GRPCServer{Impl: p.Impl}))
	return nil
}

// GRPCClient fails: a bot has no client side.
func (p *ServerPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, status.Error(codes.Unimplemented, "a bot has no client")
}
