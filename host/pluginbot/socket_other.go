//go:build !linux

package pluginbot

import (
	"fmt"
	"os"

	"github.com/kinrow/kinrow/host/procrun"
)

// openSocket checks that path is a unix socket and not a symbolic link
// (Lstat); without /proc/self/fd the host dials the path itself, so a bot
// that swaps the socket for a link between the check and the dial is not
// stopped here.
func openSocket(_ *procrun.Process, path string) (*os.File, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link, which is not followed", path)
	}
	if st.Mode()&os.ModeSocket == 0 {
		return nil, fmt.Errorf("%s is not a socket", path)
	}
	return nil, nil
}

// dialAddress is never asked without a file here.
func dialAddress(*os.File) string { return "" }
