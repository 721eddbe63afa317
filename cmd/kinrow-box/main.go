// Command kinrow-box is the first process of a bot's sandbox (see
// host/procrun/boxinit): kinrow starts it, from beside itself, in the box's
// namespaces; it builds the box and executes the bot. Run by hand it does
// nothing.
package main

import "github.com/kinrow/kinrow/host/procrun/boxinit"

func main() { boxinit.Main() }
