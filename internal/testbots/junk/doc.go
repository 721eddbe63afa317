// Command junk is a test bot that prints junk on stdout before serving, so
// the plugin handshake fails.
package main
