// This file implements Inputs, the record of the bytes of every file a load
// reads (and of every directory it lists, and every read that failed), and
// the removal of temporary record files left by writers that died.

package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"ladder/ioa/load"
)

// Inputs records the bytes of every file a load reads, so that the unit
// records of a run name exactly the content its obligations were generated
// from (an edit made while a run is under way cannot slip into a record).
// Through LoadConfig it also records every directory listing and every
// failed read, so that together they are everything the load's outcome
// depends on (Reads, for run records). The zero value is ready to use; it
// is safe for concurrent use.
type Inputs struct {
	mu     sync.Mutex
	sums   map[string][sha256.Size]byte
	failed map[string]bool   // files whose read failed
	dirs   map[string]string // listings: hex listingSum; "" when the listing failed
}

// LoadConfig returns a loader configuration that reads files and lists
// directories on disk and records them in in.
func (in *Inputs) LoadConfig() load.Config {
	return load.Config{ReadFile: in.Reader(load.ReadFile), ReadDir: in.lister(os.ReadDir)}
}

// lister returns list, recording in in the listing of every directory it
// lists, or that listing it failed.
func (in *Inputs) lister(list func(name string) ([]fs.DirEntry, error)) func(name string) ([]fs.DirEntry, error) {
	return func(name string) ([]fs.DirEntry, error) {
		entries, err := list(name)
		sum := ""
		if err == nil {
			sum = listingSum(entries)
		}
		in.mu.Lock()
		if in.dirs == nil {
			in.dirs = map[string]string{}
		}
		in.dirs[name] = sum
		in.mu.Unlock()
		return entries, err
	}
}

// listingSum returns the hex SHA-256 of a directory's entries: each
// one's name and type, in order.
func listingSum(entries []fs.DirEntry) string {
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%q %d\n", e.Name(), e.Type())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Reader returns read, recording in in the bytes of every file it reads
// without error: for a loader that reads some files from elsewhere than
// the disk (the language server's open documents).
func (in *Inputs) Reader(read func(name string) ([]byte, error)) func(name string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		data, err := read(name)
		in.mu.Lock()
		if err == nil {
			if in.sums == nil {
				in.sums = map[string][sha256.Size]byte{}
			}
			in.sums[name] = sha256.Sum256(data)
		} else {
			if in.failed == nil {
				in.failed = map[string]bool{}
			}
			in.failed[name] = true
		}
		in.mu.Unlock()
		return data, err
	}
}

// Sums returns the hex SHA-256 of every file recorded, by name
// (Input.Sums).
func (in *Inputs) Sums() map[string]string {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make(map[string]string, len(in.sums))
	for name, sum := range in.sums {
		out[name] = hex.EncodeToString(sum[:])
	}
	return out
}

// Reads returns what the load recorded in in, sorted: every file read
// with the SHA-256 of its content, every directory listed with that of its
// listing, and every file or listing that failed, with no sum.
func (in *Inputs) Reads() []RunRead {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make([]RunRead, 0, len(in.sums)+len(in.failed)+len(in.dirs))
	for name, sum := range in.sums {
		out = append(out, RunRead{Name: name, Sum: hex.EncodeToString(sum[:])})
	}
	for name := range in.failed {
		if _, ok := in.sums[name]; !ok {
			out = append(out, RunRead{Name: name})
		}
	}
	for name, sum := range in.dirs {
		out = append(out, RunRead{Name: name, Dir: true, Sum: sum})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return !out[i].Dir && out[j].Dir
	})
	return out
}

// tempMark is in the name of a record file being written, followed by the
// writer's process id: NAME.tmp-PID-random.
const tempMark = ".tmp-"

// staleTemp is the age after which a temporary record file whose writer
// cannot be identified is removed.
const staleTemp = time.Hour

// removeStaleTemps deletes the temporary record files in dir left by
// writers that died between create and rename: those whose process is
// gone, and any older than staleTemp.
func removeStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		i := strings.Index(name, tempMark)
		if i < 0 || e.IsDir() {
			continue
		}
		rest := name[i+len(tempMark):]
		pidText, _, _ := strings.Cut(rest, "-")
		stale := false
		if pid, err := strconv.Atoi(pidText); err == nil && pid > 0 {
			stale = pid != os.Getpid() && !processAlive(pid)
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			stale = true
		}
		if stale {
			os.Remove(filepath.Join(dir, name))
		}
	}
}
