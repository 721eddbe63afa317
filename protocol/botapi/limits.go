package botapi

import (
	"math"

	"google.golang.org/grpc"
)

// The size caps on what a host reads from a bot (docs/PROTOCOL.md, "Bots:
// the plugin contract"). The GRPCClient asks gRPC for them on every call,
// so a bot's oversized answer is refused as it arrives: the call fails with
// ResourceExhausted, which the host's referee judges a protocol error, and
// the host never holds more than the cap.
const (
	// MaxAnswerSize bounds each message of a GenMove answer (every
	// progress report and the move) and the replies of NewGame, Play and
	// Undo: 64 KiB, room for a progress report with a principal variation
	// across the largest board.
	MaxAnswerSize = 64 << 10
	// MaxInfoSize bounds the reply of Info (a bot's description and its
	// options' help) and each reply of Solve (a score per move of the
	// largest board): 1 MiB.
	MaxInfoSize = 1 << 20
	// MaxMoveLen bounds the move of a GenMove answer, in bytes: the longest
	// notation (a column number, a vertex such as "a19", "resign") is far below.
	MaxMoveLen = 64
	// MaxErrorLen bounds the bot's words quoted from an error it answers:
	// a longer message is cut there, with the number of bytes cut.
	MaxErrorLen = 1024
	// MaxHeaderListSize bounds the metadata of each reply (headers and the
	// trailers an error's message travels in): 64 KiB.
	MaxHeaderListSize = 64 << 10
)

// recvCap is the call option capping a reply message at n bytes.
func recvCap(n int) grpc.CallOption { return grpc.MaxCallRecvMsgSize(n) }

// DialOptions are the gRPC dial options a host uses to reach a bot
// (go-plugin's ClientConfig.GRPCDialOptions): the metadata cap, and every
// message capped at MaxInfoSize unless a call asks for less (go-plugin's
// own default is 2 GiB).
//
// They also fix the flow-control windows, which turns off gRPC's bandwidth
// estimation: it pings the other side after data comes in, two more writes
// for every message of a move; between two processes on one machine a
// fixed window of flowWindow never holds a message back.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithMaxHeaderListSize(MaxHeaderListSize),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxInfoSize), grpc.MaxCallSendMsgSize(math.MaxInt32)),
		grpc.WithInitialWindowSize(flowWindow),
		grpc.WithInitialConnWindowSize(flowWindow),
	}
}

// flowWindow is the flow-control window of a stream and of the connection,
// both ways: 4 MiB, past every cap.
const flowWindow = 4 << 20

// ServerOptions are the gRPC server options a bot serves with
// (protocol/sdk passes them to go-plugin): the fixed flow-control windows
// of DialOptions, for the bot's side.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.InitialWindowSize(flowWindow), grpc.InitialConnWindowSize(flowWindow)}
}
