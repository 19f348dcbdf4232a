package memhint

import "syscall"

// madvPopulateWrite is Linux's MADV_POPULATE_WRITE (since 5.14): fault in
// the pages of a range, writable, in one system call.
const madvPopulateWrite = 23

// populate maps the whole pages of [addr, addr+n) in one system call. An
// error (an older kernel) leaves them to be mapped by the first writes.
func populate(addr, n uintptr) {
	page := uintptr(syscall.Getpagesize())
	lo := (addr + page - 1) &^ (page - 1)
	hi := (addr + n) &^ (page - 1)
	if hi <= lo {
		return
	}
	syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvPopulateWrite)
}
