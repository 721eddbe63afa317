//go:build !unix

package botapi

import (
	"io"
	"net"
)

// blockingSocket returns c: outside Unix the session's socket stays in Go's
// network poller.
func blockingSocket(c net.Conn) io.ReadWriteCloser { return c }
