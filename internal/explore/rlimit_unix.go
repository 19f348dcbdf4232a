//go:build unix

package explore

import (
	"math"
	"syscall"
)

// addressSpaceLimit returns the soft limit on the process's address space
// (RLIMIT_AS, as `ulimit -v` sets it) in bytes, or 0 when there is none.
func addressSpaceLimit() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil {
		return 0
	}
	if r.Cur > math.MaxInt64 { // RLIM_INFINITY is all ones
		return 0
	}
	return int64(r.Cur)
}
