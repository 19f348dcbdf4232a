package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tempPrefix starts the name of every temporary snapshot written by Save.
const tempPrefix = SnapshotFile + ".tmp-"

// staleTemp is the age after which a leftover temporary file (from a
// process that died between create and rename) is removed by Save.
const staleTemp = time.Hour

// Save persists the cache. It takes an exclusive advisory lock on
// dir/cache.lock, re-reads the snapshot currently on disk (unless it is the
// file this cache read or wrote last), merges it into the
// in-memory tables (union; for the same key or name the newer Date wins, ties
// keep the in-memory row), writes the merged tables to a temporary file in
// dir, fsyncs it, renames it over dir/cache.db, fsyncs dir and releases the
// lock. A snapshot on disk that fails validation or belongs to another
// solver configuration is not merged, only replaced.
//
// Concurrent Saves from goroutines or processes therefore never lose each
// other's rows, and a crash at any point leaves either the old or the new
// snapshot in place.
func (c *Cache) Save() error {
	if c.closed.Load() {
		return ErrClosed
	}
	c.saveMu.Lock()
	defer c.saveMu.Unlock()
	if !c.dirty.Load() {
		if _, err := os.Stat(c.snapshotPath()); err == nil && !hasTemps(c.dir) {
			return nil // nothing changed since Open or the last Save
		}
	}

	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	unlock, err := lockFile(filepath.Join(c.dir, LockFile))
	if err != nil {
		return fmt.Errorf("cache: lock: %w", err)
	}
	defer unlock()

	// The snapshot on disk is merged unless it is the very file this cache
	// read or wrote last (same file, size and modification time): its
	// rows are in memory already.
	if fi, err := os.Stat(c.snapshotPath()); err != nil || c.known == nil || !os.SameFile(fi, c.known) ||
		fi.Size() != c.known.Size() || !fi.ModTime().Equal(c.known.ModTime()) {
		if p, w := c.readSnapshot(); w == nil && p != nil {
			txn := c.db.Txn(true)
			if err := insertPayload(txn, p, true); err != nil {
				txn.Abort() // leave memory as it was; the disk copy is replaced
			} else {
				txn.Commit()
				c.merges.Add(1)
			}
		}
	}

	p, err := collect(c.db.Txn(false), c.solverStr)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	data, err := encodeSnapshot(p)
	if err != nil {
		return err
	}
	// Under the lock no other writer is between create and rename: every
	// temporary snapshot there is left from a writer that died.
	removeStaleTemps(c.dir, lockExcludes)
	if err := writeAtomic(c.dir, SnapshotFile, data); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	c.known, _ = os.Stat(c.snapshotPath()) // under the lock: the file just written
	c.dirty.Store(false)
	return nil
}

// writeAtomic replaces dir/name with data: temp file in the same directory,
// fsync, rename, fsync of the directory.
func writeAtomic(dir, name string, data []byte) (err error) {
	f, err := os.CreateTemp(dir, name+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// removeStaleTemps deletes temporary snapshots left behind by crashed
// writers (killed between create and rename). With all, which the caller
// passes when it holds an exclusive lock, every one is; otherwise only
// files older than staleTemp are touched, so that a writer that does not
// hold the lock (see lock_other.go) is never disturbed.
func removeStaleTemps(dir string, all bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && (all || time.Since(info.ModTime()) > staleTemp) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// hasTemps reports whether dir holds a temporary snapshot.
func hasTemps(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			return true
		}
	}
	return false
}
