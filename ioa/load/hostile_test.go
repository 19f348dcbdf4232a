package load

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ladder/internal/source"
)

// filesWithin loads paths and fails the test if loading takes more than d.
func filesWithin(t *testing.T, d time.Duration, paths ...string) (*Set, source.ErrorList) {
	t.Helper()
	type res struct {
		set  *Set
		errs source.ErrorList
	}
	ch := make(chan res, 1)
	go func() {
		s, errs := Files(paths...)
		ch <- res{s, errs}
	}()
	select {
	case r := <-ch:
		return r.set, r.errs
	case <-time.After(d):
		t.Fatalf("loading %v did not finish within %v", paths, d)
		return nil, nil
	}
}

// A broken file far below a checked directory is read and reported.
func TestDeepDirectory(t *testing.T) {
	root := t.TempDir()
	dir := root
	for i := 0; i < 120; i++ {
		dir = filepath.Join(dir, "d")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skipf("cannot create a deep directory: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.yaml"), []byte("automaton: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, errs := filesWithin(t, 10*time.Second, root)
	if len(set.Files) != 1 || len(errs) != 1 || !strings.Contains(errs[0].Msg, "malformed YAML") {
		t.Errorf("deep file: read %v, errors %v", set.Files, errs)
	}
}

// Special files among the inputs are errors, never hangs or crashes.
func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "a.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ok := "automaton: A\nstate: {n: {sort: Int, init: 0}}\nactions: {}\n"
	if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(ok), 0o644); err != nil {
		t.Fatal(err)
	}
	zero := "automaton: Z\ninterface: /dev/zero\nstate: {}\nactions: {}\n"
	if err := os.WriteFile(filepath.Join(dir, "c.yaml"), []byte(zero), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs := filesWithin(t, 10*time.Second, dir, "/dev/zero")
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{
		"a.yaml: cannot read file: not a regular file: a named pipe (FIFO)",
		"c.yaml:2:12: cannot read /dev/zero: not a regular file: a character device",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q:\n%s", want, got)
		}
	}
}

// wideEnum returns an automaton whose enum of n constants is on one line.
func wideEnum(n int) []byte {
	var b strings.Builder
	b.WriteString("automaton: Wide\nsorts:\n  E: {enum: [")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "E%d", i)
	}
	b.WriteString("]}\nstate:\n  x: {sort: E, init: E0}\nactions: {}\n")
	return []byte(b.String())
}

// Loading is linear in the number of nodes on one line: 100,000 enum
// constants on one line load in well under the deadline (quadratic
// position mapping took minutes).
func TestWideLine(t *testing.T) {
	data := wideEnum(100000)
	cfg := memConfig(map[string]string{"wide.yaml": string(data)})
	done := make(chan source.ErrorList, 1)
	go func() {
		_, errs := cfg.Files("wide.yaml")
		done <- errs
	}()
	select {
	case errs := <-done:
		if len(errs) > 0 {
			t.Fatalf("errors: %v", errs)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("loading 100000 constants on one line took more than 20s")
	}
}

func BenchmarkWideLine(b *testing.B) {
	for _, n := range []int{10000, 20000, 40000} {
		data := string(wideEnum(n))
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			cfg := memConfig(map[string]string{"wide.yaml": data})
			for i := 0; i < b.N; i++ {
				if _, errs := cfg.Files("wide.yaml"); len(errs) > 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}
