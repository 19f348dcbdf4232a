package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessGrows checks that work shows up in the process's CPU time.
func TestProcessGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("not measured on this platform")
	}
	start := Process()
	x := 0
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
		x++
	}
	if d := Process() - start; d <= 0 {
		t.Errorf("50 ms of work added %v of CPU time (x=%d)", d, x)
	}
}
