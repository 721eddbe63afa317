package pluginbot

import (
	"testing"

	"github.com/kinrow/kinrow/host/procrun"
)

// limitsCases are the two sides of the default limits' cost (issue 35),
// both under the sandbox: no limit and no suspension (the defaults
// before), and the defaults now (tasks, memory where a cgroup holds it,
// file size, the side not to move suspended), and the limits alone.
var limitsCases = []struct {
	name string
	c    Containment
}{
	{"before", Containment{}},
	{"limits-only", Containment{Memory: procrun.DefaultMemoryCap(), Limits: procrun.DefaultLimits()}},
	{"limits+suspend", Containment{Memory: procrun.DefaultMemoryCap(), Limits: procrun.DefaultLimits(), SuspendAll: true}},
}

// BenchmarkLimitsStart: a plugin bot's launch to ready in its sandbox
// without limits and with the default ones, in one run.
func BenchmarkLimitsStart(b *testing.B) {
	procrun.SandboxDetect()
	for _, tc := range limitsCases {
		b.Run(tc.name, func(b *testing.B) { benchLaunch(b, loaderWith(b, loaderConfig{Containment: tc.c})) })
	}
}

// BenchmarkLimitsGenMove: the plugin GenMove round trip in its sandbox
// without limits and with the default ones (the bot resumed before each
// move), in one run.
func BenchmarkLimitsGenMove(b *testing.B) {
	for _, tc := range limitsCases {
		b.Run(tc.name, func(b *testing.B) { benchGenMove(b, loaderWith(b, loaderConfig{Containment: tc.c})) })
	}
}
