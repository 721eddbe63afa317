package main

import (
	"github.com/hashicorp/go-plugin"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

func main() {
	tb.Limit(nil)
	hs := botapi.Handshake()
	hs.ProtocolVersion = 0
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: hs,
		Plugins:         botapi.PluginSet(sdk.Adapt(tb.Bot{Name: "oldproto"}, sdk.Logger())),
		GRPCServer:      plugin.DefaultGRPCServer,
		Logger:          sdk.Logger(),
	})
}
