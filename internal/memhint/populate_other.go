//go:build !linux

package memhint

// populate does nothing on this system: pages are mapped by their first
// writes.
func populate(addr, n uintptr) {}
