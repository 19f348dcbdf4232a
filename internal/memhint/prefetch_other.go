//go:build !amd64

package memhint

// prefetch does nothing on this architecture: the table and records are
// read when they are needed.
func prefetch(addr uintptr) {}
