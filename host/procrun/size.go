package procrun

import (
	"fmt"
	"regexp"
	"strconv"

	units "github.com/docker/go-units"
)

// sizeForm is the form ParseSize reads: a number of bytes (a fraction
// allowed; a minus sign only to be refused by name), spaces, then an
// optional K, M, G, T or P with an optional iB or B, or just B, in any case.
var sizeForm = regexp.MustCompile(`(?i)^\s*(-?)([0-9]+)(\.[0-9]+)?\s*([kmgtp]?(?:i?b)?)\s*$`)

// maxSize bounds what ParseSize accepts (8 PiB, 2⁵³ bytes): below it the
// library's floating-point product is exact for whole numbers and far
// from the end of an int64.
const maxSize = 1 << 53

// sizeAccepted says what ParseSize accepts, for errors.
const sizeAccepted = "a positive number of bytes, or one with K, M, G, T or P (KiB, MiB, …: powers of 1024), e.g. 350M, 1.5G or 2GiB"

// ParseSize reads a memory size: "350M", "2GiB", "1.5G", "1048576",
// "512 KiB". Units are powers of 1024 (K = KB = KiB), parsed by
// github.com/docker/go-units (RAMInBytes); a fraction of a byte is dropped.
// Zero, negative, malformed and overflowing sizes are errors naming the
// value and what is accepted.
func ParseSize(s string) (int64, error) {
	m := sizeForm.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("memory size %q: want %s", s, sizeAccepted)
	}
	sign, digits, fraction, unit := m[1], m[2], m[3], m[4]
	if sign != "" {
		return 0, fmt.Errorf("memory size %q: must be more than 0 (want %s)", s, sizeAccepted)
	}
	mult, err := units.RAMInBytes("1" + unit)
	if err != nil {
		return 0, fmt.Errorf("memory size %q: unit %q: want %s", s, unit, sizeAccepted)
	}
	whole, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || whole >= maxSize/mult {
		return 0, fmt.Errorf("memory size %q: too large (want %s)", s, sizeAccepted)
	}
	n, err := units.RAMInBytes(digits + fraction + unit)
	if err != nil {
		return 0, fmt.Errorf("memory size %q: %w (want %s)", s, err, sizeAccepted)
	}
	if n <= 0 {
		return 0, fmt.Errorf("memory size %q: must be more than 0 (want %s)", s, sizeAccepted)
	}
	return n, nil
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
