package pluginbot

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// openSocket opens the unix socket at path without following a symbolic
// link (O_PATH|O_NOFOLLOW) and checks that what it opened is a socket. The
// host then dials that very file through /proc/self/fd (dialAddress), so a
// bot can neither name a link to another socket nor swap one in after the
// check.
func openSocket(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		unix.Close(fd)
		what := "not a socket"
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			what = "a symbolic link, which is not followed"
		}
		return nil, fmt.Errorf("%s is %s", path, what)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// dialAddress is where the host dials the socket f holds.
func dialAddress(f *os.File) string { return "/proc/self/fd/" + strconv.Itoa(int(f.Fd())) }
