package nodestore

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks the kernel to back the whole 2 MiB pages of b with
// transparent huge pages (madvise(2), MADV_HUGEPAGE): the table and the
// arena are read at random, and with 4 KiB pages most of those reads miss
// the TLB as well as the cache. It is advice: an error changes nothing.
func adviseHuge(b unsafe.Pointer, n int) {
	const huge = 2 << 20
	if n < huge {
		return
	}
	p := uintptr(b)
	lo := (p + huge - 1) &^ (huge - 1)
	hi := (p + uintptr(n)) &^ (huge - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(b, lo-p)), hi-lo), 14 /* MADV_HUGEPAGE */)
}
