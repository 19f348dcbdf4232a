//go:build !unix

package cache

import "os"

// lockFile is a best-effort stand-in where flock(2) is unavailable: it only
// creates the lock file. Saves stay atomic (rename), so concurrent writers
// can lose each other's new rows but never corrupt the snapshot.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

// lockExcludes says that lockFile does not exclude other writers.
const lockExcludes = false
