package safeio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readWithin runs ReadFile and fails the test if it takes longer than a
// few seconds (a blocking open of a FIFO would hang forever).
func readWithin(t *testing.T, name string, limit int64) ([]byte, error) {
	t.Helper()
	type res struct {
		data []byte
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		d, err := ReadFile(name, limit)
		ch <- res{d, err}
	}()
	select {
	case r := <-ch:
		return r.data, r.err
	case <-time.After(5 * time.Second):
		t.Fatalf("ReadFile(%q) did not return within 5s", name)
		return nil, nil
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(ok, []byte("automaton: A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, err := readWithin(t, ok, 100); err != nil || string(d) != "automaton: A\n" {
		t.Errorf("regular file: %q, %v", d, err)
	}
	if _, err := readWithin(t, ok, 5); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over the limit of 5 B") {
		t.Errorf("file over the limit: %v", err)
	}
	if _, err := readWithin(t, dir, 100); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a directory") {
		t.Errorf("directory: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := readWithin(t, fifo, 100); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("FIFO: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := readWithin(t, "/dev/zero", 100); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
			t.Errorf("/dev/zero: %v", err)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
	}{{"1GiB", 1 << 30}, {"512MiB", 512 << 20}, {"2G", 2 << 30}, {"300M", 300 << 20}, {"4096", 4096}, {"1.5GiB", 3 << 29}} {
		if got, err := ParseBytes(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "x", "-1G", "1e30G", "NaN"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q): no error", bad)
		}
	}
	if s := FormatBytes(64 << 20); s != "64 MiB" {
		t.Errorf("FormatBytes(64 MiB) = %q", s)
	}
}
