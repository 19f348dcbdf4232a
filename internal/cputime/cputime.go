// Package cputime owns one measurement: the CPU time (user and system) the
// process has used, which benchmarks report next to the wall clock, since
// on a shared machine it measures work better.
package cputime

import "time"

// Process returns the CPU time the process has used so far, or 0 where it
// is not measured (see process_unix.go).
func Process() time.Duration { return process() }
