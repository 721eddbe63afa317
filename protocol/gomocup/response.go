package gomocup

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// ResponseKind is the kind of a brain's answer line.
type ResponseKind int

// The brain's answers.
const (
	ReplyOK      ResponseKind = iota + 1 // OK [text]: START, RECTSTART, RESTART, TAKEBACK succeeded
	ReplyError                           // ERROR text: a known command the brain cannot do
	ReplyUnknown                         // UNKNOWN text: a command the brain does not know
	ReplyMessage                         // MESSAGE text: for the user, before an answer
	ReplyDebug                           // DEBUG text: for the brain's author, before an answer
	ReplySuggest                         // SUGGEST X,Y: the brain proposes a move, the manager answers PLAY
	ReplyMove                            // X,Y: the brain's move
	ReplyMoves                           // X,Y X,Y …: several moves on one line (Swap2 answers)
	ReplySwap                            // SWAP: the brain swaps (Swap2 answers)
	ReplyAbout                           // key="value", …: the answer to ABOUT
)

var replyWords = map[ResponseKind]string{
	ReplyOK: "OK", ReplyError: "ERROR", ReplyUnknown: "UNKNOWN", ReplyMessage: "MESSAGE",
	ReplyDebug: "DEBUG", ReplySuggest: "SUGGEST", ReplySwap: "SWAP",
}

// String names the kind: its word ("OK", "SUGGEST"…), or "move", "moves",
// "about".
func (k ResponseKind) String() string {
	switch k {
	case ReplyMove:
		return "move"
	case ReplyMoves:
		return "moves"
	case ReplyAbout:
		return "about"
	}
	if s, ok := replyWords[k]; ok {
		return s
	}
	return fmt.Sprintf("reply(%d)", int(k))
}

// AboutField is one key="value" pair of the answer to ABOUT.
type AboutField struct {
	Key, Value string
}

// The keys of ABOUT the protocol names.
const (
	AboutName    = "name"
	AboutVersion = "version"
	AboutAuthor  = "author"
	AboutCountry = "country"
	AboutWWW     = "www"
	AboutEmail   = "email"
)

// Response is one line from the brain. Which fields are set depends on
// Kind; the others are zero.
type Response struct {
	Kind ResponseKind
	// Text: the rest of the line after OK, ERROR, UNKNOWN, MESSAGE, DEBUG.
	Text string
	// Point: ReplyMove and ReplySuggest.
	Point Point
	// Points: ReplyMoves (two or more).
	Points []Point
	// About: ReplyAbout, in the order sent.
	About []AboutField
}

// Move returns the answer that plays p.
func Move(p Point) Response { return Response{Kind: ReplyMove, Point: p} }

// OK returns the answer OK.
func OK() Response { return Response{Kind: ReplyOK} }

// Error returns ERROR with a message.
func Error(format string, args ...any) Response {
	return Response{Kind: ReplyError, Text: fmt.Sprintf(format, args...)}
}

// Unknown returns UNKNOWN with a message.
func Unknown(format string, args ...any) Response {
	return Response{Kind: ReplyUnknown, Text: fmt.Sprintf(format, args...)}
}

// Message returns a MESSAGE line.
func Message(text string) Response { return Response{Kind: ReplyMessage, Text: text} }

// Debug returns a DEBUG line.
func Debug(text string) Response { return Response{Kind: ReplyDebug, Text: text} }

// ReplyTo returns the answer a brain gives to a line it could not read:
// UNKNOWN for an error wrapping ErrUnknownCommand, ERROR otherwise, with
// the error's text.
func ReplyTo(err error) Response {
	msg := strings.TrimPrefix(err.Error(), "gomocup: ")
	if errors.Is(err, ErrUnknownCommand) {
		return Response{Kind: ReplyUnknown, Text: msg}
	}
	return Response{Kind: ReplyError, Text: msg}
}

// Get returns the value of the ABOUT key (case-insensitive), "" if absent.
func (r Response) Get(key string) string {
	for _, f := range r.About {
		if strings.EqualFold(f.Key, key) {
			return f.Value
		}
	}
	return ""
}

// String prints r as one line without its line end. Text that would break
// the line is replaced by spaces; in ABOUT values a double quote becomes a single one.
func (r Response) String() string {
	switch r.Kind {
	case ReplyMove:
		return r.Point.String()
	case ReplyMoves:
		s := make([]string, len(r.Points))
		for i, p := range r.Points {
			s[i] = p.String()
		}
		return strings.Join(s, " ")
	case ReplySuggest:
		return "SUGGEST " + r.Point.String()
	case ReplySwap:
		return "SWAP"
	case ReplyAbout:
		return FormatAbout(r.About)
	}
	word := replyWords[r.Kind]
	if word == "" {
		word = "ERROR"
	}
	if t := strings.Trim(clean(r.Text), " "); t != "" {
		return word + " " + t
	}
	return word
}

// WriteResponse writes r to w as one line ended with LF, in one Write.
func WriteResponse(w io.Writer, r Response) error {
	if _, err := io.WriteString(w, r.String()+"\n"); err != nil {
		return fmt.Errorf("gomocup: write %s: %w", r.Kind, err)
	}
	return nil
}

// FormatAbout prints an ABOUT answer: key="value" pairs separated by ", ".
// Spaces, control characters, '=', ',' and '"' are dropped from keys.
func FormatAbout(fields []AboutField) string {
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteString(", ")
		}
		for i := 0; i < len(f.Key); i++ {
			if c := f.Key[i]; c > ' ' && c != '=' && c != ',' && c != '"' && c != 0x7f {
				b.WriteByte(c)
			}
		}
		b.WriteString(`="`)
		b.WriteString(strings.ReplaceAll(clean(f.Value), `"`, "'"))
		b.WriteByte('"')
	}
	return b.String()
}

// ParseAbout reads an ABOUT answer: key="value" pairs separated by commas
// (values may also be unquoted, up to the next comma).
func ParseAbout(line string) ([]AboutField, error) {
	s := strings.Trim(clean(line), " ")
	var out []AboutField
	for {
		s = strings.TrimLeft(s, " ,")
		if s == "" {
			break
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return nil, fmt.Errorf("about %q: %q has no '=': want key=\"value\", …", line, s)
		}
		key := strings.Trim(s[:eq], " ")
		if key == "" || strings.ContainsAny(key, " ,\"") {
			return nil, fmt.Errorf("about %q: bad key %q: want key=\"value\", …", line, key)
		}
		s = strings.TrimLeft(s[eq+1:], " ")
		var value string
		if strings.HasPrefix(s, `"`) {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("about %q: value of %s has no closing '\"'", line, key)
			}
			value, s = s[1:1+end], s[2+end:]
			if t := strings.TrimLeft(s, " "); t != "" && t[0] != ',' {
				return nil, fmt.Errorf("about %q: %q after the value of %s: want a comma", line, t, key)
			}
		} else {
			value, s, _ = strings.Cut(s, ",")
			value = strings.Trim(value, " ")
			if strings.Contains(value, `"`) {
				return nil, fmt.Errorf("about %q: value of %s: stray '\"'", line, key)
			}
		}
		out = append(out, AboutField{Key: key, Value: value})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("about %q: empty: want key=\"value\", …", line)
	}
	return out, nil
}

// ParseResponse reads one line from a brain (the line end may be
// included): OK, ERROR, UNKNOWN, MESSAGE, DEBUG, SUGGEST X,Y, SWAP, a move
// X,Y, several moves X,Y X,Y, or an ABOUT answer. Words are
// case-insensitive. A line that is none of these gives an error naming
// what is accepted.
func ParseResponse(line string) (Response, error) {
	t := strings.Trim(clean(line), " ")
	word, rest, _ := strings.Cut(t, " ")
	rest = strings.Trim(rest, " ")
	switch w := strings.ToUpper(word); w {
	case "OK", "ERROR", "UNKNOWN", "MESSAGE", "DEBUG":
		for k, s := range replyWords {
			if s == w {
				return Response{Kind: k, Text: rest}, nil
			}
		}
	case "SUGGEST":
		p, err := ParsePoint(rest)
		if err != nil {
			return Response{}, newSyntaxError(0, t, fmt.Errorf("SUGGEST: want SUGGEST X,Y: %w", err))
		}
		return Response{Kind: ReplySuggest, Point: p}, nil
	case "SWAP":
		if rest == "" {
			return Response{Kind: ReplySwap}, nil
		}
	}
	if strings.Contains(t, "=") {
		about, err := ParseAbout(t)
		if err != nil {
			return Response{}, newSyntaxError(0, t, err)
		}
		return Response{Kind: ReplyAbout, About: about}, nil
	}
	if t != "" && t[0] >= '0' && t[0] <= '9' {
		pts, err := parsePoints(t)
		if err != nil {
			return Response{}, newSyntaxError(0, t, err)
		}
		if len(pts) == 1 {
			return Response{Kind: ReplyMove, Point: pts[0]}, nil
		}
		return Response{Kind: ReplyMoves, Points: pts}, nil
	}
	return Response{}, newSyntaxError(0, t, errors.New("not an answer: accepted are X,Y, OK, ERROR, UNKNOWN, MESSAGE, DEBUG, SUGGEST X,Y, SWAP and key=\"value\" lists"))
}

// parsePoints reads one or more X,Y separated by spaces (spaces around a
// comma are allowed).
func parsePoints(s string) ([]Point, error) {
	// Glue "X , Y" into "X,Y" before splitting on spaces.
	var b strings.Builder
	fields := strings.Fields(s)
	for i, f := range fields {
		if i > 0 && !strings.HasSuffix(fields[i-1], ",") && !strings.HasPrefix(f, ",") {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	var pts []Point
	for _, f := range strings.Fields(b.String()) {
		p, err := ParsePoint(f)
		if err != nil {
			return nil, fmt.Errorf("moves: %w", err)
		}
		pts = append(pts, p)
	}
	return pts, nil
}
