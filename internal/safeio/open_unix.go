//go:build unix

package safeio

import (
	"os"
	"syscall"
)

// openNonblock opens name for reading; a named pipe opened this way does
// not wait for a writer.
func openNonblock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
