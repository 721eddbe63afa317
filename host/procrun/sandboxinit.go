package procrun

import "github.com/kinrow/kinrow/host/procrun/boxinit"

// init turns any binary importing procrun (kinrow, the test binaries)
// into the sandbox init when the host starts it as one, where no
// kinrow-box is found beside the host (boxinit.Main; it never returns
// then).
func init() { boxinit.Main() }
