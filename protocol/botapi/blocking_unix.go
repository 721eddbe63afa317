//go:build unix

package botapi

import (
	"io"
	"net"
	"os"
	"syscall"
)

// blockingSocket returns c's socket in blocking mode, outside Go's network
// poller: a read then waits in the kernel and returns with the message (one
// system call a message, where the poller costs a read that finds nothing,
// an epoll wait and a hand-over between threads). Close wakes a blocked
// read. The bot's reading goroutine owns the socket, so blocking its
// thread costs nothing else. On any failure c itself is returned.
func blockingSocket(c net.Conn) io.ReadWriteCloser {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return c
	}
	fd := -1
	if err := rc.Control(func(s uintptr) {
		syscall.ForkLock.RLock()
		defer syscall.ForkLock.RUnlock()
		if d, err := syscall.Dup(int(s)); err == nil {
			syscall.CloseOnExec(d)
			fd = d
		}
	}); err != nil || fd < 0 {
		return c
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return c
	}
	c.Close() // the poller lets go of it; the socket lives on in fd
	return &blockingSock{File: os.NewFile(uintptr(fd), "session"), fd: fd}
}

type blockingSock struct {
	*os.File
	fd int
}

// Close shuts the socket down, which wakes a read blocked on it, and closes
// it.
func (b *blockingSock) Close() error {
	_ = syscall.Shutdown(b.fd, syscall.SHUT_RDWR)
	return b.File.Close()
}
