package sdk

import (
	"strings"
	"testing"

	"github.com/kinrow/kinrow/protocol/botapi"
)

var testOptions = OptionSet{
	{Name: "seed", Type: botapi.OptionInt, Help: "seed"},
	{Name: "tt", Type: botapi.OptionInt, Default: "64", Min: 1, Max: 4096},
	{Name: "ponder", Type: botapi.OptionBool, Default: "false"},
	{Name: "book", Type: botapi.OptionString},
	{Name: "kind", Type: botapi.OptionChoice, Default: "full", Choices: []string{"occupied", "full"}},
}

func TestOptionSetParse(t *testing.T) {
	tests := []struct {
		opts map[string]string
		err  string
	}{
		{nil, ""},
		{map[string]string{"seed": "-9223372036854775808", "tt": "1", "ponder": "on", "book": "a b", "kind": "OCCUPIED"}, ""},
		{map[string]string{"TT": "4096"}, ""},
		{map[string]string{"foo": "1"}, "unknown option foo: accepted are seed, tt, ponder, book, kind"},
		{map[string]string{"zz": "1", "foo": "1", "tt": "1"}, "unknown option foo: accepted are"},
		{map[string]string{"tt": "0"}, "option tt=0 out of range 1..4096"},
		{map[string]string{"tt": "4097"}, "option tt=4097 out of range 1..4096"},
		{map[string]string{"tt": "abc"}, "option tt=abc: want an integer"},
		{map[string]string{"tt": ""}, "option tt=: want an integer"},
		{map[string]string{"seed": "99999999999999999999"}, "option seed=99999999999999999999: want an integer"},
		{map[string]string{"ponder": "maybe"}, "option ponder=maybe: want true or false"},
		{map[string]string{"kind": "garbage"}, "option kind=garbage: accepted are occupied, full"},
	}
	for _, tc := range tests {
		_, err := testOptions.Parse(tc.opts)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("Parse(%v) = %v", tc.opts, err)
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("Parse(%v) = %v, want %q", tc.opts, err, tc.err)
		}
	}
	if _, err := (OptionSet{}).Parse(map[string]string{"seed": "1"}); err == nil || err.Error() != "unknown option seed: this bot accepts no options" {
		t.Errorf("no options: %v", err)
	}
	if _, err := (OptionSet{{Name: "tt", Type: botapi.OptionInt, Default: "0", Min: 1, Max: 4}}).Parse(nil); err == nil ||
		!strings.Contains(err.Error(), "default is wrong") {
		t.Errorf("a bad default: %v", err)
	}
}

func TestValues(t *testing.T) {
	v, err := testOptions.Parse(map[string]string{"Seed": " 7 ", "ponder": "yes", "kind": "OCCUPIED"})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Given("seed") || v.Int("seed") != 7 || v.Given("tt") || v.Int("tt") != 64 || !v.Bool("ponder") ||
		v.Get("book") != "" || v.Given("book") || v.Get("kind") != "occupied" || v.Get("TT") != "64" {
		t.Errorf("values %+v", v)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("an undeclared option did not panic")
		}
	}()
	v.Int("depth")
}
