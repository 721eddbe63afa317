package sdk

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/protocol/botapi"
)

// OptionSet is the list of options a bot accepts; Parse checks a game's
// options against it.
type OptionSet []botapi.Option

// Values are options checked by OptionSet.Parse, with the defaults filled in.
type Values struct {
	set   OptionSet
	vals  map[string]string // canonical name → value, given or default
	given map[string]bool
}

// Parse checks opts against s: every name must be declared (names match
// case-insensitively) and every value must fit the option's type, range or
// choices. The errors read as
//
//	unknown option foo: accepted are seed, tt
//	option tt=0 out of range 1..4096
//	option tt=abc: want an integer
//	option ponder=maybe: want true or false
//	option kind=foo: accepted are occupied, full
//
// With several bad options, the first by name is reported.
func (s OptionSet) Parse(opts map[string]string) (Values, error) {
	v := Values{set: s, vals: map[string]string{}, given: map[string]bool{}}
	names := make([]string, 0, len(opts))
	for name := range opts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		o, ok := s.lookup(name)
		if !ok {
			if len(s) == 0 {
				return Values{}, fmt.Errorf("unknown option %s: this bot accepts no options", name)
			}
			return Values{}, fmt.Errorf("unknown option %s: accepted are %s", name, strings.Join(s.Names(), ", "))
		}
		value := strings.TrimSpace(opts[name])
		if err := check(o, value); err != nil {
			return Values{}, err
		}
		v.vals[o.Name], v.given[o.Name] = value, true
	}
	for _, o := range s {
		if v.given[o.Name] || o.Default == "" {
			continue
		}
		if err := check(o, o.Default); err != nil {
			return Values{}, fmt.Errorf("the bot's default is wrong: %w", err)
		}
		v.vals[o.Name] = o.Default
	}
	return v, nil
}

// Names lists the option names in declaration order.
func (s OptionSet) Names() []string {
	names := make([]string, len(s))
	for i, o := range s {
		names[i] = o.Name
	}
	return names
}

func (s OptionSet) lookup(name string) (botapi.Option, bool) {
	for _, o := range s {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return botapi.Option{}, false
}

// check tells whether value fits option o.
func check(o botapi.Option, value string) error {
	switch o.Type {
	case botapi.OptionInt:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return fmt.Errorf("option %s=%s: want an integer", o.Name, value)
		}
		if (o.Min != 0 || o.Max != 0) && (n < o.Min || n > o.Max) {
			return fmt.Errorf("option %s=%s out of range %d..%d", o.Name, value, o.Min, o.Max)
		}
	case botapi.OptionBool:
		if _, ok := parseBool(value); !ok {
			return fmt.Errorf("option %s=%s: want true or false", o.Name, value)
		}
	case botapi.OptionChoice:
		for _, c := range o.Choices {
			if strings.EqualFold(c, value) {
				return nil
			}
		}
		return fmt.Errorf("option %s=%s: accepted are %s", o.Name, value, strings.Join(o.Choices, ", "))
	case botapi.OptionString, "":
	default:
		return fmt.Errorf("option %s has unknown type %q", o.Name, o.Type)
	}
	return nil
}

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "1", "t", "true", "on", "yes":
		return true, true
	case "0", "f", "false", "off", "no":
		return false, true
	}
	return false, false
}

// declared returns the canonical name of option name; it panics if the bot
// asks for an option it did not declare (a programming error).
func (v Values) declared(name string) string {
	o, ok := v.set.lookup(name)
	if !ok {
		panic(fmt.Sprintf("sdk: option %q is not declared in the bot's Info().Options", name))
	}
	return o.Name
}

// Given reports whether the option was given for this game (rather than
// defaulted).
func (v Values) Given(name string) bool { return v.given[v.declared(name)] }

// Get returns the option's value as text: given, else the default, else "".
// For a choice option it is the choice as declared, whatever its case.
func (v Values) Get(name string) string {
	o, _ := v.set.lookup(v.declared(name))
	s := v.vals[o.Name]
	for _, c := range o.Choices {
		if strings.EqualFold(c, s) {
			return c
		}
	}
	return s
}

// Int returns an int option's value; 0 if neither given nor defaulted.
func (v Values) Int(name string) int64 {
	n, _ := strconv.ParseInt(v.vals[v.declared(name)], 10, 64)
	return n
}

// Bool returns a bool option's value; false if neither given nor defaulted.
func (v Values) Bool(name string) bool {
	b, _ := parseBool(v.vals[v.declared(name)])
	return b
}
