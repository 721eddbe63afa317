package pluginbot

import (
	"testing"

	"github.com/kinrow/kinrow/host/procrun"
)

// sandboxModes are the two sides of the sandbox's cost, run in turn.
var sandboxModes = []procrun.SandboxMode{procrun.SandboxOff, procrun.SandboxAuto}

func sandboxLoader(t testing.TB, mode procrun.SandboxMode) *testLoader {
	t.Helper()
	return loaderWith(t, loaderConfig{Containment: Containment{Sandbox: mode}})
}

// BenchmarkSandboxStart: a plugin bot's launch to ready (handshake and
// Info) with --sandbox=off and under the sandbox, in one run (issue 23:
// the sandbox should add under 20 ms).
func BenchmarkSandboxStart(b *testing.B) {
	procrun.SandboxDetect() // the probe, once, outside the timings
	for _, mode := range sandboxModes {
		b.Run("sandbox="+mode.String(), func(b *testing.B) { benchLaunch(b, sandboxLoader(b, mode)) })
	}
}

// BenchmarkSandboxGenMove: the plugin GenMove round trip (host→bot→host)
// with --sandbox=off and under the sandbox, in one run (issue 23: under
// 1.2× of today's).
func BenchmarkSandboxGenMove(b *testing.B) {
	for _, mode := range sandboxModes {
		b.Run("sandbox="+mode.String(), func(b *testing.B) { benchGenMove(b, sandboxLoader(b, mode)) })
	}
}
