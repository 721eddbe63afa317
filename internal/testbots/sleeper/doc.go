// Command sleeper is a test bot that sleeps 60 s before serving, so it
// never completes the plugin handshake in time.
package main
