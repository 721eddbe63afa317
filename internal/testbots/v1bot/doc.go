// Command v1bot is a test bot built as a bot of plugin protocol version 1
// was, before the Session stream: it speaks only version 1 and its service
// has no Session method (Unimplemented, as in the code generated then). It
// plays the first legal move. The host must keep loading and playing it.
package main
