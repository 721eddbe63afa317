// Command oldproto is a test bot that speaks plugin protocol version 0 (the
// same cookie, an older version), which the host must refuse.
package main
