// Package memhint owns ladder's hints about memory to the processor and
// the system: prefetching a cache line that a search will read soon, so
// that the cache misses of several lookups in a large table overlap, and
// mapping the pages of a large new table in one system call. Hints change
// timings only, never results: a prefetch of an element of a slice reads
// nothing and cannot fault, and populating a slice changes none of its
// elements.
package memhint

import "unsafe"

// At asks for the cache line of s[i] (which must be in range), so that a
// later read of it does not wait for memory.
func At[T any](s []T, i int) { prefetch(uintptr(unsafe.Pointer(&s[i]))) }

// Populate asks the system to map the pages of a freshly allocated slice
// now, in one call, rather than one page fault at a time when they are
// first written: in a virtual machine a page fault can cost microseconds,
// and a search's tables and arenas are written page after page. It changes
// no element (a page that is already mapped is left as it is; one that is
// not reads as zeros, as it would when first written).
func Populate[T any](s []T) {
	if len(s) == 0 {
		return
	}
	var zero T
	populate(uintptr(unsafe.Pointer(&s[0])), uintptr(len(s))*unsafe.Sizeof(zero))
}
