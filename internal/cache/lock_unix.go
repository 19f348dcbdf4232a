//go:build unix

package cache

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) on path, creating it if needed, and
// returns the function that releases it. flock locks belong to the open file
// description, so two Cache instances in one process exclude each other as
// two processes do. The lock is released by the kernel if the process dies.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}

// lockExcludes says that lockFile excludes every other writer.
const lockExcludes = true
