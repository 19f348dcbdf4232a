//go:build unix

package cache

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLogNotAFile: a log that is a directory or a named pipe is reported
// when the cache is opened, never read from or written to (a pipe would
// block), and Save writes the snapshot whole and still succeeds; a pipe
// that appears after Open is replaced too.
func TestLogNotAFile(t *testing.T) {
	for _, kind := range []string{"directory", "pipe", "pipe after Open"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			c := open(t, dir)
			mustPut(t, c, key(0), Result{Verdict: Proved})
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, LogFile)
			makeLog := func() {
				t.Helper()
				var err error
				if kind == "directory" {
					err = os.MkdirAll(filepath.Join(path, "x"), 0o755)
				} else {
					err = syscall.Mkfifo(path, 0o644)
				}
				if err != nil {
					t.Skipf("cannot make a %s: %v", kind, err)
				}
			}
			if kind == "pipe after Open" {
				makeLog()
			} else {
				makeLog()
				var warns []Warning
				var err error
				if c, warns, err = Open(dir, testSolver); err != nil || len(warns) != 1 {
					t.Fatalf("Open: %v, warnings %v; want one", err, warns)
				}
				if w := warns[0].String(); !strings.Contains(w, "cache: log ") || !strings.Contains(w, "unreadable") {
					t.Errorf("warning %q", w)
				}
			}
			mustPut(t, c, key(1), Result{Verdict: Proved})
			done := make(chan error, 1)
			go func() { done <- c.Save() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Save blocked")
			}
			if kind != "directory" {
				if _, err := os.Lstat(path); !os.IsNotExist(err) {
					t.Errorf("the %s outlived Save: %v", kind, err)
				}
			}
			d, _, err := Open(dir, testSolver)
			if err != nil || !d.Has(key(0)) || !d.Has(key(1)) {
				t.Errorf("rows lost: %v", err)
			}
		})
	}
}
