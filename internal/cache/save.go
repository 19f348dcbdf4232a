package cache

import (
	"errors"
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
// dir/cache.lock. When the snapshot and the log on disk are the files
// this cache read or wrote last, it appends the rows changed since to the
// log (log.go) and syncs it, unless the log would grow past half the
// snapshot (logLimit). Otherwise it re-reads the snapshot and its log,
// merges them into the in-memory tables (union; for the same key or name
// the newer Date wins, ties keep the in-memory row), writes the tables to
// a temporary file in dir, fsyncs it, renames it over dir/cache.db, fsyncs
// dir, removes the log, and releases the lock. A snapshot on disk that
// fails validation or belongs to another solver configuration is not
// merged, only replaced.
//
// Concurrent Saves from goroutines or processes therefore never lose each
// other's rows, and a crash at any point leaves the old or the new
// snapshot in place, with the frames of its log that were written whole.
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

	// The files on disk are merged unless they are the very files this
	// cache read or wrote last (same file, size and modification time):
	// their rows are in memory already.
	fi, _ := os.Stat(c.snapshotPath())
	li, _ := os.Stat(c.logPath())
	if !sameStat(fi, c.known) || !sameStat(li, c.knownLog) {
		c.merge()
	} else if c.appendable && c.base != "" && !hasTemps(c.dir) {
		done, err := c.appendChanges(fi, li)
		if done || err != nil {
			return err
		}
	}
	return c.rewrite()
}

// sameStat reports whether a and b are the same file with the same size
// and modification time, or both absent (nil).
func sameStat(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// logLimit is the size the log may reach, for a snapshot of size n: half
// of it, and at least 256 KiB; past it Save writes the snapshot again.
func logLimit(n int64) int64 { return max(n/2, 256<<10) }

// merge merges into memory the rows of the snapshot on disk and of the
// frames of its log, which another writer wrote (under the lock).
func (c *Cache) merge() {
	p, base, w := c.readSnapshot()
	if w != nil || p == nil {
		return
	}
	frames, _, _ := c.readLog(base)
	txn := c.db.Txn(true)
	err := insertPayload(txn, p, true)
	for _, f := range frames {
		if err == nil {
			err = insertPayload(txn, f.rows, true)
		}
	}
	if err != nil {
		txn.Abort() // leave memory as it was; the disk copy is replaced
		return
	}
	txn.Commit()
	c.merges.Add(1)
}

// appendChanges appends the rows changed since the last Save to the log
// of the snapshot fi (the log li, or none), when it stays under logLimit;
// done reports whether it did, or found nothing to append.
func (c *Cache) appendChanges(fi, li os.FileInfo) (done bool, err error) {
	taken, _ := c.take()
	if len(taken) == 0 {
		c.dirty.Store(c.hasPending())
		return true, nil
	}
	frame, err := encodeFrame(taken, c.base, c.solverStr)
	var size int64
	if li != nil {
		size = li.Size()
	}
	if err != nil || size+int64(len(frame)) > logLimit(fi.Size()) {
		c.giveBack(taken) // the snapshot is written whole
		return false, nil
	}
	if err := c.appendLog(frame); err != nil {
		// The log may end in a frame cut short: the next Save writes
		// the snapshot whole and removes it.
		c.appendable = false
		c.giveBack(taken)
		return true, fmt.Errorf("cache: %w", err)
	}
	c.knownLog, _ = os.Stat(c.logPath()) // under the lock: the file just written
	c.dirty.Store(c.hasPending())
	return true, nil
}

// rewrite writes the whole snapshot and removes the log.
func (c *Cache) rewrite() error {
	taken, txn := c.take()
	p, err := collect(txn, c.solverStr)
	if err != nil {
		c.giveBack(taken)
		return fmt.Errorf("cache: %w", err)
	}
	data, err := encodeSnapshot(p)
	if err != nil {
		c.giveBack(taken)
		return err
	}
	// Under the lock no other writer is between create and rename: every
	// temporary snapshot there is left from a writer that died.
	removeStaleTemps(c.dir, lockExcludes)
	if err := writeAtomic(c.dir, SnapshotFile, data); err != nil {
		c.giveBack(taken)
		return fmt.Errorf("cache: %w", err)
	}
	c.known, _ = os.Stat(c.snapshotPath()) // under the lock: the file just written
	c.base = snapshotSum(data)
	// The log's frames extend the snapshot replaced: they are never read
	// again, and the log is removed so that new frames can follow.
	err = os.Remove(c.logPath())
	c.appendable = err == nil || errors.Is(err, os.ErrNotExist)
	c.knownLog, _ = os.Stat(c.logPath())
	c.dirty.Store(c.hasPending())
	return nil
}

// hasPending reports whether rows changed since they were last taken.
func (c *Cache) hasPending() bool {
	c.pendMu.Lock()
	defer c.pendMu.Unlock()
	return len(c.pending) > 0
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
