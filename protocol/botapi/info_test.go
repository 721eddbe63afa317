package botapi

import (
	"context"
	"maps"
	"testing"

	"google.golang.org/grpc"

	"github.com/kinrow/kinrow/protocol/botpb"
)

func TestStrengthFor(t *testing.T) {
	info := Info{Strength: 40, KindStrength: map[string]int{"mnk": 10}}
	for _, tc := range []struct {
		kind string
		want int
	}{{"mnk", 10}, {"connectx", 40}, {"", 40}} {
		if got := info.StrengthFor(tc.kind); got != tc.want {
			t.Errorf("StrengthFor(%q) = %d, want %d", tc.kind, got, tc.want)
		}
	}
}

// infoOnly is a Bot that only describes itself.
type infoOnly struct {
	Bot
	info Info
}

func (b infoOnly) Info(context.Context) (Info, error) { return b.info, nil }

// serverAsClient calls a GRPCServer directly, without a network.
type serverAsClient struct {
	botpb.BotClient
	srv *GRPCServer
}

func (c serverAsClient) Info(ctx context.Context, in *botpb.InfoRequest, _ ...grpc.CallOption) (*botpb.InfoReply, error) {
	return c.srv.Info(ctx, in)
}

// TestInfoWire: every field of Info survives the server's and the client's
// conversions, KindStrength included.
func TestInfoWire(t *testing.T) {
	want := Info{
		Name: "x", Version: "1", Author: "a", Strength: 7,
		KindStrength: map[string]int{"mnk": 30, "connectx": 5},
		Kinds:        []string{"connectx", "mnk"}, MaxRows: 9, MaxCols: 8,
	}
	c := &GRPCClient{client: serverAsClient{srv: &GRPCServer{Impl: infoOnly{info: want}}}}
	got, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != want.Name || got.Strength != want.Strength || !maps.Equal(got.KindStrength, want.KindStrength) ||
		got.MaxRows != want.MaxRows || got.MaxCols != want.MaxCols || len(got.Kinds) != 2 {
		t.Fatalf("Info through the wire = %+v, want %+v", got, want)
	}
	want.KindStrength = nil
	c = &GRPCClient{client: serverAsClient{srv: &GRPCServer{Impl: infoOnly{info: want}}}}
	if got, _ := c.Info(context.Background()); got.KindStrength != nil || got.StrengthFor("mnk") != 7 {
		t.Fatalf("no KindStrength: got %+v", got)
	}
}
