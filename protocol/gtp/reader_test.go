package gtp

import (
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads commands until an error and returns them with the error.
func readAll(t *testing.T, r *Reader) ([]Command, error) {
	t.Helper()
	var cmds []Command
	for range 1000 {
		c, err := r.Next()
		if err != nil {
			return cmds, err
		}
		cmds = append(cmds, c)
	}
	t.Fatal("reader does not stop")
	return nil, nil
}

func TestReader(t *testing.T) {
	in := "1 boardsize 9\r\n\n   \n# comment\n\t\n2 play x 4 # move\n\x00\x01\r\n12\nquit"
	cmds, err := readAll(t, NewReader(strings.NewReader(in)))
	if err != io.EOF {
		t.Fatalf("err = %v, want io.EOF", err)
	}
	want := []Command{
		{ID: 1, HasID: true, Name: "boardsize", Args: []string{"9"}},
		{ID: 2, HasID: true, Name: "play", Args: []string{"x", "4"}},
		{ID: 12, HasID: true},
		{Name: "quit"},
	}
	if !reflect.DeepEqual(cmds, want) {
		t.Errorf("got %#v\nwant %#v", cmds, want)
	}
}

func TestReaderEmpty(t *testing.T) {
	for _, in := range []string{"", "\n", "# x", "\r\n\r\n", "  \t  "} {
		if cmds, err := readAll(t, NewReader(strings.NewReader(in))); err != io.EOF || len(cmds) != 0 {
			t.Errorf("%q: got %v, %v; want no command and io.EOF", in, cmds, err)
		}
	}
}

func TestReaderOneByteAtATime(t *testing.T) {
	in := "1 a b\r\n2 c\n"
	cmds, err := readAll(t, NewReader(iotest.OneByteReader(strings.NewReader(in))))
	want := []Command{{ID: 1, HasID: true, Name: "a", Args: []string{"b"}}, {ID: 2, HasID: true, Name: "c"}}
	if err != io.EOF || !reflect.DeepEqual(cmds, want) {
		t.Errorf("got %#v, %v; want %#v, io.EOF", cmds, err, want)
	}
}

func TestReaderReadErrorIsWrappedAndSticky(t *testing.T) {
	r := NewReader(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(errBoom)))
	cmds, err := readAll(t, r)
	if !errors.Is(err, errBoom) || len(cmds) != 2 {
		t.Fatalf("got %v, %v; want two commands then errBoom", cmds, err)
	}
	if _, err := r.Next(); !errors.Is(err, errBoom) {
		t.Errorf("second Next: err = %v, want errBoom again", err)
	}
}

func TestReaderLineTooLong(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	tests := []struct {
		name string
		in   string
		want []Command // nil entries stand for ErrLineTooLong
		end  error
	}{
		{"1 MiB then command", long + "\n7 name\n", []Command{{}, {ID: 7, HasID: true, Name: "name"}}, io.EOF},
		{"1 MiB at EOF", "a\n" + long, []Command{{Name: "a"}, {}}, io.EOF},
		{"two long lines", long + "\n" + long + "\r\nb", []Command{{}, {}, {Name: "b"}}, io.EOF},
		{"exactly MaxLineBytes is fine", strings.Repeat("y", MaxLineBytes) + "\nb\n",
			[]Command{{Name: strings.Repeat("y", MaxLineBytes)}, {Name: "b"}}, io.EOF},
		{"MaxLineBytes+1", strings.Repeat("y", MaxLineBytes+1) + "\nb\n", []Command{{}, {Name: "b"}}, io.EOF},
		{"CR counts", strings.Repeat("y", MaxLineBytes) + "\r\nb\n", []Command{{}, {Name: "b"}}, io.EOF},
		{"comment counts", "a #" + strings.Repeat("y", MaxLineBytes) + "\nb\n", []Command{{}, {Name: "b"}}, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.in))
			for i, w := range tt.want {
				c, err := r.Next()
				if w.Name == "" && !w.HasID {
					if !errors.Is(err, ErrLineTooLong) {
						t.Fatalf("Next #%d = %#v, %v; want ErrLineTooLong", i, c, err)
					}
					continue
				}
				if err != nil || !reflect.DeepEqual(c, w) {
					t.Fatalf("Next #%d = %.80v, %v; want %.80v", i, c, err, w)
				}
			}
			if c, err := r.Next(); err != tt.end {
				t.Fatalf("final Next = %.80v, %v; want %v", c, err, tt.end)
			}
		})
	}
}

// patternReader produces n bytes of 'z' without allocating, then a suffix.
type patternReader struct {
	n      int64
	suffix string
	block  []byte
}

func (p *patternReader) Read(b []byte) (int, error) {
	if p.n > 0 {
		k := len(b)
		if int64(k) > p.n {
			k = int(p.n)
		}
		if p.block == nil {
			p.block = []byte(strings.Repeat("z", 32<<10))
		}
		for i := 0; i < k; {
			i += copy(b[i:k], p.block)
		}
		p.n -= int64(k)
		return k, nil
	}
	if p.suffix == "" {
		return 0, io.EOF
	}
	k := copy(b, p.suffix)
	p.suffix = p.suffix[k:]
	return k, nil
}

func TestReaderHugeLineBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 200 MiB")
	}
	src := &patternReader{n: 200 << 20, suffix: "\n3 genmove o\n"}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := NewReader(src)
	_, err1 := r.Next()
	c, err2 := r.Next()
	_, err3 := r.Next()
	runtime.ReadMemStats(&after)
	if !errors.Is(err1, ErrLineTooLong) {
		t.Fatalf("first Next: err = %v, want ErrLineTooLong", err1)
	}
	if want := (Command{ID: 3, HasID: true, Name: "genmove", Args: []string{"o"}}); err2 != nil || !reflect.DeepEqual(c, want) {
		t.Fatalf("second Next = %#v, %v; want %#v", c, err2, want)
	}
	if err3 != io.EOF {
		t.Fatalf("third Next: err = %v, want io.EOF", err3)
	}
	const limit = 2 << 20
	if d := after.TotalAlloc - before.TotalAlloc; d > limit {
		t.Errorf("allocated %d bytes while discarding a 200 MiB line, want < %d", d, limit)
	} else {
		t.Logf("allocated %d bytes", d)
	}
}
