package memhint

// prefetch asks the processor to bring the cache line at addr into its
// caches (PREFETCHT0), without waiting for it and without faulting.
//
//go:noescape
func prefetch(addr uintptr)
