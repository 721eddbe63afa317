package gtp

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestResponseReader(t *testing.T) {
	in := "=7 ok\n\n" +
		"= D4\r\n\r\n" +
		"\n\n" + // stray empty lines between answers are skipped
		"?3 unknown command\n\n" +
		"=\n\n" +
		"=12\n\n" +
		"= \n A B\n1 . x\r\n.\n\n" +
		"?\n\n" +
		"=ok\n\n" +
		"=5x\n\n" +
		"=  two spaces\n\n" +
		"= # not a comment\n\n" +
		"=007 a\n\n"
	want := []Response{
		{ID: 7, HasID: true, OK: true, Text: "ok"},
		{OK: true, Text: "D4"},
		{ID: 3, HasID: true, Text: "unknown command"},
		{OK: true},
		{ID: 12, HasID: true, OK: true},
		{OK: true, Text: "\n A B\n1 . x\n."},
		{},
		{OK: true, Text: "ok"},
		{ID: 5, HasID: true, OK: true, Text: "x"},
		{OK: true, Text: " two spaces"},
		{OK: true, Text: "# not a comment"},
		{ID: 7, HasID: true, OK: true, Text: "a"},
	}
	r := NewResponseReader(strings.NewReader(in))
	for i, w := range want {
		got, err := r.Next()
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Fatalf("Next #%d = %#v, %v; want %#v", i, got, err, w)
		}
	}
	if got, err := r.Next(); err != io.EOF {
		t.Fatalf("final Next = %#v, %v; want io.EOF", got, err)
	}
}

func TestResponseReaderErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		errs []error // nil entries are successful answers
	}{
		{"malformed then good", "hello\n=1 ok\n\n", []error{ErrMalformedResponse, nil, io.EOF}},
		{"malformed consumes one line", "hello\nworld\n= ok\n\n", []error{ErrMalformedResponse, ErrMalformedResponse, nil, io.EOF}},
		{"truncated", "=1 ok\n", []error{io.ErrUnexpectedEOF}},
		{"truncated no LF", "=1 ok", []error{io.ErrUnexpectedEOF}},
		{"id overflow consumes the answer", "=99999999999999999999 a\nb\n\n= ok\n\n", []error{ErrMalformedResponse, nil, io.EOF}},
		{"long header line", "=" + strings.Repeat("a", MaxLineBytes) + "\n=1 ok\n\n", []error{ErrLineTooLong, nil, io.EOF}},
		{"long body line consumes the answer", "= a\n" + strings.Repeat("b", MaxLineBytes+1) + "\nc\n\n= ok\n\n", []error{ErrLineTooLong, nil, io.EOF}},
		{"too much text", "= a\n" + strings.Repeat(strings.Repeat("c", 1000)+"\n", MaxResponseBytes/1000+1) + "\n=2 ok\n\n", []error{ErrResponseTooLong, nil, io.EOF}},
		{"read error", "", []error{errBoom, errBoom}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var src io.Reader = strings.NewReader(tt.in)
			if tt.name == "read error" {
				src = io.MultiReader(strings.NewReader("= a\n"), &errReader{})
			}
			r := NewResponseReader(src)
			for i, want := range tt.errs {
				resp, err := r.Next()
				if want == nil {
					if err != nil || !resp.OK {
						t.Fatalf("Next #%d = %#v, %v; want a success answer", i, resp, err)
					}
					continue
				}
				if !errors.Is(err, want) {
					t.Fatalf("Next #%d = %#v, %v; want %v", i, resp, err, want)
				}
			}
		})
	}
}

type errReader struct{}

func (*errReader) Read([]byte) (int, error) { return 0, errBoom }

func TestResponseErr(t *testing.T) {
	if err := (Response{OK: true, Text: "x"}).Err(); err != nil {
		t.Errorf("Err() of a success = %v", err)
	}
	err := Response{ID: 4, HasID: true, Text: "illegal move"}.Err()
	if err == nil || !strings.Contains(err.Error(), "illegal move") || !strings.Contains(err.Error(), "4") {
		t.Errorf("Err() = %v, want the text and the id", err)
	}
	if err := (Response{Text: "x"}).Err(); err == nil || !strings.Contains(err.Error(), "x") {
		t.Errorf("Err() = %v, want the text", err)
	}
}

// TestWriterResponseRoundTrip checks that what the Writer frames is read
// back by the ResponseReader as the normalised text.
func TestWriterResponseRoundTrip(t *testing.T) {
	texts := []string{"", "ok", "D4\n", "a\nb", "a\n\nb\n", "\n A B\n1 . x", "  x", "\xff", "a\r\n\r\nb", "#", "= 5"}
	norm := map[string]string{"D4\n": "D4", "a\n\nb\n": "a\n.\nb", "a\r\n\r\nb": "a\n.\nb"}
	var b strings.Builder
	w := NewWriter(&b)
	for i, text := range texts {
		c := Command{ID: i, HasID: i%2 == 0, Name: "x"}
		var err error
		if i%3 == 0 {
			err = w.Failure(c, text)
		} else {
			err = w.Success(c, text)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	r := NewResponseReader(strings.NewReader(b.String()))
	for i, text := range texts {
		want := Response{ID: 0, HasID: i%2 == 0, OK: i%3 != 0, Text: text}
		if want.HasID {
			want.ID = i
		}
		if n, ok := norm[text]; ok {
			want.Text = n
		}
		got, err := r.Next()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("answer %d: got %#v, %v; want %#v", i, got, err, want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("final err = %v, want io.EOF", err)
	}
}
