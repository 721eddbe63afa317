package procrun

import (
	"bytes"
	"strconv"

	"golang.org/x/sys/unix"
)

// idleChecker looks at the threads of a process in /proc, reusing its
// buffers from one look to the next.
type idleChecker struct {
	dirents []byte   // getdents buffer
	names   []string // thread ids
	path    []byte   // /proc/PID/task/TID/stat
	stat    []byte   // one stat line
}

// idle reports whether no thread of process pid is running or runnable
// (state R in /proc/PID/task/TID/stat); true when it cannot tell (the
// process gone).
func (c *idleChecker) idle(pid int) bool {
	if c.dirents == nil {
		c.dirents = make([]byte, 4096)
		c.stat = make([]byte, 512)
	}
	c.path = append(strconv.AppendInt(append(c.path[:0], "/proc/"...), int64(pid), 10), "/task"...)
	dir, err := unix.Open(string(c.path), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return true
	}
	defer unix.Close(dir)
	base := len(c.path)
	for {
		n, err := unix.Getdents(dir, c.dirents)
		if err != nil || n <= 0 {
			return true
		}
		_, _, c.names = unix.ParseDirent(c.dirents[:n], -1, c.names[:0])
		for _, tid := range c.names {
			c.path = append(append(append(c.path[:base], '/'), tid...), "/stat"...)
			if c.running() {
				return false
			}
		}
	}
}

// running reads the stat file at c.path and reports whether its state is
// R. The state follows the command name in parentheses, which may itself
// hold spaces and parentheses.
func (c *idleChecker) running() bool {
	fd, err := unix.Open(string(c.path), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	n, err := unix.Read(fd, c.stat)
	if err != nil || n <= 0 {
		return false
	}
	b := c.stat[:n]
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'R'
}
