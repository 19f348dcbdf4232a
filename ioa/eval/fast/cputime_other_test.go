//go:build !unix

package fast

import "time"

// cpuTime is not measured on this platform; benchmarks report wall time.
func cpuTime() time.Duration { return 0 }
