package main

import (
	"io"
	"sync"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/botpb"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// bot declares the mode option; it plays the first legal move.
type bot struct{ tb.Bot }

func (bot) Info() botapi.Info {
	return tb.Info("badstream", botapi.Option{Name: "mode", Type: botapi.OptionChoice, Default: "none",
		Choices: []string{"none", "unasked", "wrongkind", "outoforder", "close", "refuseplay"}, Help: "how to break the stream"})
}

// server wraps the SDK's Session in a stream that misbehaves.
type server struct{ *botapi.GRPCServer }

func (s server) Session(stream botpb.Bot_SessionServer) error {
	bs := &badStream{Bot_SessionServer: stream, in: make(chan *botpb.HostMessage), closing: make(chan struct{})}
	go bs.read()
	return s.GRPCServer.Session(bs)
}

type badStream struct {
	botpb.Bot_SessionServer
	in        chan *botpb.HostMessage
	closing   chan struct{}
	closeOnce sync.Once

	mu   sync.Mutex
	mode string
}

func (b *badStream) read() {
	for {
		m, err := b.Bot_SessionServer.Recv()
		if err != nil {
			close(b.in)
			return
		}
		b.peek(m)
		select {
		case b.in <- m:
		case <-b.closing:
			return
		}
	}
}

// peek takes the mode from a NewGame and spoils the moves of Plays in
// refuseplay mode, in m and the requests it batches.
func (b *badStream) peek(m *botpb.HostMessage) {
	for _, inner := range m.GetBatch().GetRequests() {
		b.peek(inner)
	}
	if ng := m.GetNewGame(); ng != nil {
		b.mu.Lock()
		b.mode = ng.GetOptions()["mode"]
		b.mu.Unlock()
	}
	if p := m.GetPlay(); p != nil && b.getMode() == "refuseplay" {
		p.Move = "zz"
	}
}

func (b *badStream) getMode() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.mode
}

// Recv ends the stream (io.EOF: the handler returns, closing it with OK)
// once close mode struck.
func (b *badStream) Recv() (*botpb.HostMessage, error) {
	select {
	case m, ok := <-b.in:
		if !ok {
			return nil, io.EOF
		}
		return m, nil
	case <-b.closing:
		return nil, io.EOF
	}
}

func (b *badStream) Send(m *botpb.BotMessage) error {
	if _, move := m.GetReply().(*botpb.BotMessage_Move); !move {
		return b.Bot_SessionServer.Send(m)
	}
	switch b.getMode() {
	case "unasked":
		return b.Bot_SessionServer.Send(&botpb.BotMessage{Seq: m.GetSeq() + 1000, Reply: m.GetReply()})
	case "wrongkind":
		return b.Bot_SessionServer.Send(&botpb.BotMessage{Seq: m.GetSeq(), Reply: &botpb.BotMessage_Done{Done: &botpb.Done{}}})
	case "outoforder":
		if err := b.Bot_SessionServer.Send(m); err != nil {
			return err
		}
		return b.Bot_SessionServer.Send(&botpb.BotMessage{Seq: m.GetSeq() - 1, Reply: &botpb.BotMessage_Failure{
			Failure: &botpb.Failure{Code: int32(codes.InvalidArgument), Message: "too late"}}})
	case "close":
		b.closeOnce.Do(func() { close(b.closing) })
		return nil
	}
	return b.Bot_SessionServer.Send(m)
}

func main() {
	tb.Limit(nil)
	impl := sdk.Adapt(bot{tb.Bot{Name: "badstream"}}, sdk.Logger())
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  botapi.Handshake(),
		VersionedPlugins: map[int]plugin.PluginSet{botapi.Version2: {botapi.PluginName: &tb.ServerPlugin{Impl: impl, Wrap: func(g *botapi.GRPCServer) botpb.BotServer { return server{g} }}}},
		GRPCServer:       plugin.DefaultGRPCServer,
		Logger:           sdk.Logger(),
	})
}
