package botapi

import (
	"context"
	"errors"
	"io"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// IsDisconnect reports whether err means the bot is gone: the connection
// broke or closed (Unavailable, io.EOF, a closed transport or client
// connection), as when the bot process exited or was killed.
func IsDisconnect(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	st, ok := status.FromError(err)
	if !ok {
		return false
	}
	switch st.Code() {
	case codes.Unavailable:
		return true
	case codes.Canceled, codes.Internal, codes.Unknown:
		// grpc words a closed ClientConn or a transport torn down mid-call so.
		msg := st.Message()
		for _, s := range []string{"client connection is closing", "transport is closing", "connection closed", "error reading from server"} {
			if strings.Contains(msg, s) {
				return true
			}
		}
	}
	return false
}

// IsDeadline reports whether err means the call's deadline passed before
// the bot answered (codes.DeadlineExceeded or context.DeadlineExceeded).
func IsDeadline(err error) bool {
	if err == nil {
		return false
	}
	return errors.Is(err, context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
}

// IsUnimplemented reports whether err means the bot lacks the feature
// asked for (codes.Unimplemented: a bot that does not solve, asked to).
func IsUnimplemented(err error) bool {
	return err != nil && status.Code(err) == codes.Unimplemented
}
