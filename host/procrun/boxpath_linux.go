package procrun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// OpenPath opens path as the bot sees it, with O_PATH (a handle that names
// the very file, /proc/self/fd/N, without reading it), never following a
// symbolic link at its end. A bot in a mount namespace of its own (its
// box) sees its own tree, where its Private directories are: path is then
// walked from the bot's root (/proc/PID/root) one name at a time,
// following no symbolic link at all, so nothing the bot makes can lead the
// host outside that tree. A bot in the host's mount namespace (no box)
// sees the host's paths: path is opened as it is.
//
// The bot's /proc/PID is opened while it has not been reaped (the host
// reaps it), so the pid is still the bot's.
func (p *Process) OpenPath(path string) (*os.File, error) {
	clean := filepath.Clean(path)
	if !filepath.IsAbs(clean) || clean == "/" {
		return nil, fmt.Errorf("open %s in the bot's box: want an absolute path below /", path)
	}
	proc, err := unix.Open("/proc/"+strconv.Itoa(p.pid), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s in the bot's box: %w", path, err)
	}
	defer unix.Close(proc)
	if p.WaitExit(0) {
		return nil, fmt.Errorf("open %s in the bot's box: the bot has exited", path)
	}
	same, err := sameMountNS(proc)
	if err != nil {
		return nil, fmt.Errorf("open %s in the bot's box: %w", path, err)
	}
	if same {
		fd, err := unix.Open(clean, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		return os.NewFile(uintptr(fd), path), nil
	}
	fd, err := walkIn(proc, clean)
	if err != nil {
		return nil, fmt.Errorf("open %s in the bot's box: %w", path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// sameMountNS reports whether the process of the /proc directory proc
// sees the host's mount namespace.
func sameMountNS(proc int) (bool, error) {
	var its, ours unix.Stat_t
	if err := unix.Fstatat(proc, "ns/mnt", &its, 0); err != nil {
		return false, fmt.Errorf("its mount namespace: %w", err)
	}
	if err := unix.Stat("/proc/self/ns/mnt", &ours); err != nil {
		return false, fmt.Errorf("the host's mount namespace: %w", err)
	}
	return its.Dev == ours.Dev && its.Ino == ours.Ino, nil
}

// walkIn opens the absolute, clean path from the root of the process of
// the /proc directory proc, a name at a time, following no symbolic link;
// the last name is opened O_PATH|O_NOFOLLOW.
func walkIn(proc int, path string) (int, error) {
	dir, err := unix.Openat(proc, "root", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("its root: %w", err)
	}
	names := strings.Split(path[1:], "/")
	for i, name := range names {
		flags := unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if i < len(names)-1 {
			flags |= unix.O_DIRECTORY
		}
		next, err := unix.Openat(dir, name, flags, 0)
		if err != nil {
			var st unix.Stat_t
			if errors.Is(err, unix.ENOTDIR) && unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				err = errors.New("a symbolic link, which is not followed")
			}
			unix.Close(dir)
			return -1, fmt.Errorf("/%s: %w", strings.Join(names[:i+1], "/"), err)
		}
		unix.Close(dir)
		dir = next
	}
	return dir, nil
}
