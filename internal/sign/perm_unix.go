//go:build unix

package sign

import (
	"fmt"
	"io/fs"
	"os"
)

// checkFileMode refuses a key file that others may read or write.
func checkFileMode(path string, fi fs.FileInfo) error {
	if m := fi.Mode().Perm(); m&0o077 != 0 {
		return fmt.Errorf("sign: %w: %s has mode %04o, so others may read or replace the key; make it private with: chmod 600 %s",
			ErrKeyPermissions, path, m, path)
	}
	return nil
}

// checkDir refuses a key directory that others may write (they could
// replace the key file).
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("sign: %w", err)
	}
	if m := fi.Mode().Perm(); m&0o022 != 0 {
		return fmt.Errorf("sign: %w: the key directory %s has mode %04o, so others may replace the key; fix it with: chmod 700 %s",
			ErrKeyPermissions, dir, m, dir)
	}
	return nil
}
