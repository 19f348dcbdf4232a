//go:build !linux

package nodestore

import "unsafe"

// adviseHuge does nothing outside Linux: the memory keeps the system's
// page size.
func adviseHuge(b unsafe.Pointer, n int) {}
