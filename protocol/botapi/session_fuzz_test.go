package botapi

import (
	"bufio"
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/kinrow/kinrow/protocol/botpb"
)

// FuzzSessionDispatch feeds the host's checking of the bot's messages any
// message, with a play, a genmove and a solve batch awaiting answers: it
// never panics, and a message it takes either answers what was asked or is
// refused with a protocol error.
func FuzzSessionDispatch(f *testing.F) {
	for _, m := range []*botpb.BotMessage{
		{Seq: 2, Reply: &botpb.BotMessage_Move{Move: "4"}},
		{Seq: 2, Reply: &botpb.BotMessage_Progress{Progress: &botpb.Progress{Depth: 3, Pv: []string{"4", "3"}}}},
		{Seq: 1, Reply: &botpb.BotMessage_Failure{Failure: &botpb.Failure{Code: 3, Message: "illegal move"}}},
		{Seq: 3, Reply: &botpb.BotMessage_Solved{Solved: &botpb.SolveReplies{Replies: []*botpb.SolveReply{{Id: 7, Known: true}}}}},
		{Seq: 9, Reply: &botpb.BotMessage_Done{Done: &botpb.Done{}}},
	} {
		b, _ := proto.Marshal(m)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m botpb.BotMessage
		if proto.Unmarshal(data, &m) != nil {
			return
		}
		s := &sessionSolveStream{replies: make(chan []SolveReply, 4), ended: make(chan struct{}), ctx: t.Context(), seqs: []uint64{3}}
		c := &SessionClient{
			cancel: func() {}, ended: make(chan struct{}), seq: 3,
			queue: []*call{
				{seq: 1, kind: kindPlay, what: "move 4"},
				{seq: 2, kind: kindGenMove, what: "genmove", ch: make(chan *botpb.BotMessage, 8)},
			},
			batches: map[uint64]*solveCall{3: {s: s, left: map[uint64]struct{}{7: {}, 8: {}}}},
		}
		if err := c.dispatch(&m); err != nil {
			return
		}
		switch m.GetReply().(type) {
		case *botpb.BotMessage_Solved:
			if m.GetSeq() != 3 {
				t.Errorf("solve replies for request %d taken", m.GetSeq())
			}
		case *botpb.BotMessage_Failure:
			if m.GetSeq() < 1 || m.GetSeq() > 3 {
				t.Errorf("a failure for request %d taken", m.GetSeq())
			}
		default:
			if m.GetSeq() != 2 {
				t.Errorf("%s taken", describe(&m))
			}
		}
	})
}

// FuzzFrameRead reads the bot's frames (length and message) from any bytes:
// never a panic, never a buffer past the cap.
func FuzzFrameRead(f *testing.F) {
	for _, m := range []*botpb.BotMessage{
		{Seq: 2, Reply: &botpb.BotMessage_Move{Move: "4"}},
		{Seq: 0, Reply: &botpb.BotMessage_Hello{Hello: "/tmp/x"}},
	} {
		b, _ := proto.Marshal(m)
		f.Add(append([]byte{0, 0, 0, byte(len(b))}, b...))
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := &frameConn{r: bufio.NewReader(bytes.NewReader(data))}
		for range 4 {
			var m botpb.BotMessage
			if fc.read(&m) != nil {
				break
			}
		}
		if cap(fc.rbuf) > MaxInfoSize {
			t.Errorf("a read buffer of %d bytes", cap(fc.rbuf))
		}
	})
}
