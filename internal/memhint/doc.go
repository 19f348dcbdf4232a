// Package memhint owns ladder's hints about memory to the processor:
// prefetching a cache line that a search will read soon, so that the
// cache misses of several lookups in a large table overlap. Hints change
// timings only, never results: a prefetch of an element of a slice reads
// nothing and cannot fault.
package memhint

import "unsafe"

// At asks for the cache line of s[i] (which must be in range), so that a
// later read of it does not wait for memory.
func At[T any](s []T, i int) { prefetch(uintptr(unsafe.Pointer(&s[i]))) }
