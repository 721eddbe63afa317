package gomocup

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		line string
		want Command
	}{
		{"START 20", Command{Kind: CmdStart, Width: 20, Height: 20}},
		{"start 15\r\n", Command{Kind: CmdStart, Width: 15, Height: 15}},
		{"RECTSTART 30,20", Command{Kind: CmdRectStart, Width: 30, Height: 20}},
		{"RECTSTART 30, 20", Command{Kind: CmdRectStart, Width: 30, Height: 20}},
		{"RESTART", Command{Kind: CmdRestart}},
		{"BEGIN", Command{Kind: CmdBegin}},
		{"  TURN\t10,10 ", Command{Kind: CmdTurn, Point: Point{10, 10}}},
		{"TURN 0 , 19", Command{Kind: CmdTurn, Point: Point{0, 19}}},
		{"TAKEBACK 3,4", Command{Kind: CmdTakeback, Point: Point{3, 4}}},
		{"PLAY 7,8", Command{Kind: CmdPlay, Point: Point{7, 8}}},
		{"BOARD", Command{Kind: CmdBoard}},
		{"SWAP2BOARD", Command{Kind: CmdSwap2Board}},
		{"END", Command{Kind: CmdEnd}},
		{"ABOUT", Command{Kind: CmdAbout}},
		{"INFO timeout_turn 30000", Command{Kind: CmdInfo, Key: "timeout_turn", Value: "30000"}},
		{"INFO Max_Memory   83886080  ", Command{Kind: CmdInfo, Key: "max_memory", Value: "83886080"}},
		{"INFO folder C:\\brains\\my brain", Command{Kind: CmdInfo, Key: "folder", Value: "C:\\brains\\my brain"}},
		{"INFO evaluate", Command{Kind: CmdInfo, Key: "evaluate"}},
	}
	for _, tt := range tests {
		got, err := ParseCommand(tt.line)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseCommand(%q) = %+v, %v; want %+v", tt.line, got, err, tt.want)
		}
	}
}

func TestParseCommandErrors(t *testing.T) {
	tests := []struct {
		line    string
		unknown bool
		kind    CommandKind
		says    string
	}{
		{"HELLO", true, 0, `unknown command "HELLO": accepted are START, RECTSTART`},
		{"", true, 0, "unknown command"},
		{"10,10", true, 0, "unknown command"},
		{"START", false, CmdStart, "START: want START size"},
		{"START 0", false, CmdStart, "a number from 1"},
		{"START x", false, CmdStart, `"x" is not a number`},
		{"START 99999999999", false, CmdStart, "larger than"},
		{"RECTSTART 20", false, CmdRectStart, "no comma"},
		{"RECTSTART 0,5", false, CmdRectStart, "two numbers from 1"},
		{"TURN", false, CmdTurn, "TURN: want TURN X,Y"},
		{"TURN -1,3", false, CmdTurn, `"-1" is not a number`},
		{"TURN 1,2,3", false, CmdTurn, "Y"},
		{"TAKEBACK a,b", false, CmdTakeback, "TAKEBACK X,Y"},
		{"BEGIN now", false, CmdBegin, "BEGIN with nothing after it"},
		{"INFO", false, CmdInfo, "INFO key value"},
	}
	for _, tt := range tests {
		_, err := ParseCommand(tt.line)
		var se *SyntaxError
		if err == nil || !errors.As(err, &se) {
			t.Errorf("ParseCommand(%q) = %v; want a *SyntaxError", tt.line, err)
			continue
		}
		if errors.Is(err, ErrUnknownCommand) != tt.unknown || se.Kind != tt.kind || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("ParseCommand(%q) = %v (kind %v, unknown %v); want kind %v, unknown %v, saying %q",
				tt.line, err, se.Kind, errors.Is(err, ErrUnknownCommand), tt.kind, tt.unknown, tt.says)
		}
	}
}

func TestCommandLinesAndWrite(t *testing.T) {
	tests := []struct {
		c    Command
		want string
	}{
		{Command{Kind: CmdStart, Width: 20, Height: 20}, "START 20\r\n"},
		{Command{Kind: CmdRectStart, Width: 30, Height: 20}, "RECTSTART 30,20\r\n"},
		{Command{Kind: CmdTurn, Point: Point{10, 10}}, "TURN 10,10\r\n"},
		{Command{Kind: CmdInfo, Key: "timeout_turn", Value: "1000"}, "INFO timeout_turn 1000\r\n"},
		{Command{Kind: CmdInfo, Key: "folder", Value: "a\nb"}, "INFO folder a b\r\n"},
		{Command{Kind: CmdBoard, Stones: []Stone{{Point{10, 10}, FieldOwn}, {Point{10, 11}, FieldOpponent}, {Point{11, 11}, FieldContinuous}}},
			"BOARD\r\n10,10,1\r\n10,11,2\r\n11,11,3\r\nDONE\r\n"},
		{Command{Kind: CmdBoard}, "BOARD\r\nDONE\r\n"},
		{Command{Kind: CmdSwap2Board, Stones: []Stone{{Point: Point{7, 7}}}}, "SWAP2BOARD\r\n7,7\r\nDONE\r\n"},
		{Command{Kind: CmdEnd}, "END\r\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := WriteCommand(&b, tt.c); err != nil || b.String() != tt.want {
			t.Errorf("WriteCommand(%+v) = %q, %v; want %q", tt.c, b.String(), err, tt.want)
		}
		got, err := NewReader(strings.NewReader(tt.want)).Next()
		want := tt.c
		if want.Kind == CmdInfo {
			want.Value = strings.Trim(clean(want.Value), " ")
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("reading back %q = %+v, %v; want %+v", tt.want, got, err, want)
		}
	}
	for _, bad := range []Command{{}, {Kind: CmdStart, Width: 20, Height: 15}, {Kind: CmdInfo, Key: "a b"}, {Kind: CmdInfo}} {
		if err := WriteCommand(&strings.Builder{}, bad); err == nil {
			t.Errorf("WriteCommand(%+v) = nil; want an error", bad)
		}
	}
}

func TestInt(t *testing.T) {
	tests := []struct {
		value string
		want  int64
		ok    bool
	}{{"0", 0, true}, {"30000", 30000, true}, {" 7 ", 7, true}, {"2147483648", 2147483648, true},
		{"-1", 0, false}, {"+5", 0, false}, {"", 0, false}, {"1e3", 0, false}, {"99999999999999999999", 0, false}}
	for _, tt := range tests {
		v, err := Command{Kind: CmdInfo, Key: "k", Value: tt.value}.Int()
		if (err == nil) != tt.ok || v != tt.want {
			t.Errorf("Int(%q) = %d, %v; want %d, ok %v", tt.value, v, err, tt.want, tt.ok)
		}
	}
}

func TestRule(t *testing.T) {
	tests := []struct {
		s    string
		want Rule
		name string
	}{{"0", RuleFreestyle, "freestyle"}, {"1", RuleExactFive, "exactly five"}, {"2", RuleContinuous, "continuous"},
		{"4", RuleRenju, "renju"}, {"8", RuleCaro, "caro"}, {"5", RuleExactFive | RuleRenju, "exactly five+renju"},
		{"17", 17, "exactly five+bits 16"}}
	for _, tt := range tests {
		r, err := ParseRule(tt.s)
		if err != nil || r != tt.want || r.String() != tt.name {
			t.Errorf("ParseRule(%q) = %v (%q), %v; want %v (%q)", tt.s, int(r), r, err, int(tt.want), tt.name)
		}
	}
	if _, err := ParseRule("renju"); err == nil {
		t.Error(`ParseRule("renju") = nil error`)
	}
}
