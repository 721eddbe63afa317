package pluginbot

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/kinrow/kinrow/host/procrun"
)

// openSocket opens the unix socket at path as the bot run sees it (in its
// box, through its root: procrun.Process.OpenPath, no symbolic link
// followed; without a box, the host's path, no link followed at its end),
// O_PATH, and checks that what it opened is a socket. The host then dials
// that very file through /proc/self/fd (dialAddress), so a bot can
// neither name a link to another socket nor swap one in after the check,
// and the socket directory need not be the host's: under the sandbox it
// is a tmpfs of the bot's own, which the host never sees at path.
func openSocket(run *procrun.Process, path string) (*os.File, error) {
	if run == nil {
		return nil, fmt.Errorf("open %s: the bot is not started", path)
	}
	f, err := run.OpenPath(path)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		f.Close()
		what := "not a socket"
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			what = "a symbolic link, which is not followed"
		}
		return nil, fmt.Errorf("%s is %s", path, what)
	}
	return f, nil
}

// dialAddress is where the host dials the socket f holds.
func dialAddress(f *os.File) string { return "/proc/self/fd/" + strconv.Itoa(int(f.Fd())) }
