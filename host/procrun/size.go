package procrun

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes ParseSize accepts, powers of 1024.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
	{"B", 1},
}

// sizeAccepted says what ParseSize accepts, for errors.
const sizeAccepted = "a positive whole number of bytes, or one with K, M, G or T (KiB, MiB, …: powers of 1024), e.g. 350M or 2GiB"

// ParseSize reads a memory size: "350M", "2GiB", "1048576", "512 KiB".
// Units are powers of 1024 (K = KB = KiB). Zero, negative, fractional
// and overflowing sizes are errors naming the value and what is accepted.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range sizeUnits {
		if len(t) > len(u.suffix) && strings.EqualFold(t[len(t)-len(u.suffix):], u.suffix) {
			mult = u.mult
			t = strings.TrimSpace(t[:len(t)-len(u.suffix)])
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || t == "" || t[0] == '+' {
		return 0, fmt.Errorf("memory size %q: want %s", s, sizeAccepted)
	}
	if n <= 0 {
		return 0, fmt.Errorf("memory size %q: must be more than 0 (want %s)", s, sizeAccepted)
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("memory size %q: too large (want %s)", s, sizeAccepted)
	}
	return n * mult, nil
}

// FormatSize writes a size in bytes the way ParseSize reads it, in the
// largest unit that divides it (MiB rounded where none does).
func FormatSize(n int64) string {
	switch {
	case n <= 0:
		return "0"
	case n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	case n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " B"
}
