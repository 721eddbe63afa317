package solver

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// KINROW_PROF="file:from:to[:a]" totals nodes and time over lines [from,to).
func TestProf(t *testing.T) {
	spec := os.Getenv("KINROW_PROF")
	if spec == "" {
		t.Skip()
	}
	for _, one := range strings.Split(spec, ",") {
		var name string
		var from, to int
		parts := strings.Split(one, ":")
		name = parts[0]
		fmt.Sscan(parts[1], &from)
		fmt.Sscan(parts[2], &to)
		an := len(parts) > 3
		f, err := os.Open("../../../../shared/testdata/connect4/Test_" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		s, _ := New(6, 7, 4, mibEnv())
		var nodes uint64
		t0 := time.Now()
		for i := 0; i < to && sc.Scan(); i++ {
			if i < from {
				continue
			}
			fl := strings.Fields(sc.Text())
			p := s.NewPosition()
			s.PlaySequence(&p, fl[0])
			if an {
				v, _ := s.Analyze(context.Background(), p, false)
				if got := fmt.Sprint(v); false {
					t.Log(got)
				}
			} else {
				v, _ := s.Solve(context.Background(), p, false)
				if fmt.Sprint(v) != fl[1] {
					t.Errorf("%s: %d want %s", fl[0], v, fl[1])
				}
			}
			nodes += s.Nodes()
		}
		f.Close()
		t.Logf("%s nodes %d time %v", one, nodes, time.Since(t0))
	}
	t.Log(cutAt, cutTT, allNode)
}

func mibEnv() int {
	v := 64
	fmt.Sscan(os.Getenv("KINROW_MIB"), &v)
	return v
}
