//go:build !unix

package pluginbot

import "time"

// cpuTime is not measured here: the benchmarks report 0 host CPU.
func cpuTime() time.Duration { return 0 }
