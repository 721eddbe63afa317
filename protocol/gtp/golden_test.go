package gtp

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/internal/golden"
)

// checkGolden compares got with testdata/name, or rewrites the file when
// -update is given.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// formatCommand renders c unambiguously, one line.
func formatCommand(c Command) string {
	id := "-"
	if c.HasID {
		id = fmt.Sprint(c.ID)
	}
	return fmt.Sprintf("id=%s name=%+q args=%+q", id, c.Name, c.Args)
}

func TestGoldenCommands(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "commands.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r := NewReader(bytes.NewReader(in))
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(&out, "error: %v\n", err)
			continue
		}
		fmt.Fprintln(&out, formatCommand(c))
	}
	checkGolden(t, "commands.golden", out.Bytes())
}

func TestGoldenAnswers(t *testing.T) {
	answers := []struct {
		ok   bool
		c    Command
		text string
	}{
		{true, Command{ID: 1, HasID: true}, "2"},
		{true, Command{ID: 2, HasID: true}, "kinrow\n"},
		{true, Command{}, ""},
		{true, Command{ID: 4, HasID: true}, ""},
		{true, Command{ID: 5, HasID: true}, "\n   A B C\n 3 . . . 3\n\n 2 . x . 2\n 1 . . o 1\n   A B C\n"},
		{false, Command{ID: 6, HasID: true}, "illegal move"},
		{false, Command{ID: 12, HasID: true}, "syntax error"},
		{false, Command{}, "unknown command"},
		{true, Command{ID: 7, HasID: true}, "line one\r\n\r\nline three\r\n"},
		{true, Command{ID: 8, HasID: true}, "é ☃ \xff"},
	}
	var framed bytes.Buffer
	w := NewWriter(&framed)
	for _, a := range answers {
		var err error
		if a.ok {
			err = w.Success(a.c, a.text)
		} else {
			err = w.Failure(a.c, a.text)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	checkGolden(t, "answers.golden", framed.Bytes())

	var parsed strings.Builder
	r := NewResponseReader(bytes.NewReader(framed.Bytes()))
	for {
		resp, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading back the answers: %v", err)
		}
		id := "-"
		if resp.HasID {
			id = fmt.Sprint(resp.ID)
		}
		fmt.Fprintf(&parsed, "ok=%v id=%s text=%+q\n", resp.OK, id, resp.Text)
	}
	checkGolden(t, "responses.golden", []byte(parsed.String()))
}
