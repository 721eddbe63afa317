// Command late is a test bot that answers legally, but only after sleeping
// late_ms milliseconds, ignoring cancellation.
package main
