//go:build !unix

package cputime

import "time"

// process is not measured on this platform; benchmarks report wall time.
func process() time.Duration { return 0 }
