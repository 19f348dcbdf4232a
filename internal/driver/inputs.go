// This file implements Inputs, the record of the bytes of every file a load
// reads, and the removal of temporary record files left by writers that
// died.

package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"ladder/ioa/load"
)

// Inputs records the bytes of every file a load reads, so that the unit
// records of a run name exactly the content its obligations were generated
// from (an edit made while a run is under way cannot slip into a record). The
// zero value is ready to use; it is safe for concurrent use.
type Inputs struct {
	mu   sync.Mutex
	sums map[string][sha256.Size]byte
}

// LoadConfig returns a loader configuration that reads files from disk and
// records them in in.
func (in *Inputs) LoadConfig() load.Config {
	return load.Config{ReadFile: in.Reader(load.ReadFile), ReadDir: os.ReadDir}
}

// Reader returns read, recording in in the bytes of every file it reads
// without error: for a loader that reads some files from elsewhere than
// the disk (the language server's open documents).
func (in *Inputs) Reader(read func(name string) ([]byte, error)) func(name string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		data, err := read(name)
		if err == nil {
			in.mu.Lock()
			if in.sums == nil {
				in.sums = map[string][sha256.Size]byte{}
			}
			in.sums[name] = sha256.Sum256(data)
			in.mu.Unlock()
		}
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
