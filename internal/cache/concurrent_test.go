package cache

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Many goroutines Put, Lookup, query, record and Save on one Cache. Run with
// -race to check the Cache's own state.
func TestConcurrentPutLookup(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	const workers, per = 8, 300
	var wg sync.WaitGroup
	errs := make(chan error, workers*4)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				k := key(w*per + i)
				name := fmt.Sprintf("w%d/ob%d", w, i)
				if err := c.Put(k, Result{Verdict: Proved, Seconds: float64(i), Name: name, Detail: []byte(name)}); err != nil {
					errs <- err
					return
				}
				r, ok := c.Lookup(k)
				if !ok || r.Name != name || string(r.Detail) != name {
					errs <- fmt.Errorf("Lookup after Put: %+v %v", r, ok)
					return
				}
				if err := c.RecordDeps(name, k, []string{"shared", fmt.Sprintf("w%d", w)}); err != nil {
					errs <- err
					return
				}
				c.Lookup(key(-1 - i)) // miss
				_ = c.ObligationsDependingOn("shared")
				if i%100 == 0 {
					if err := c.Save(); err != nil {
						errs <- err
						return
					}
					_ = c.Stats()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s := c.Stats()
	if s.Results != workers*per || s.Deps != workers*per || s.Hits != workers*per || s.Misses != workers*per || s.Puts != workers*per {
		t.Fatalf("Stats = %+v", s)
	}
	if got := len(c.ObligationsDependingOn("shared")); got != workers*per {
		t.Fatalf("ObligationsDependingOn(shared) = %d names", got)
	}
	if got := len(c.ObligationsDependingOn("w3")); got != per {
		t.Fatalf("ObligationsDependingOn(w3) = %d names", got)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if s := open(t, dir).Stats(); s.Results != workers*per || s.Deps != workers*per {
		t.Fatalf("reopened Stats = %+v", s)
	}
}

// Separate Cache instances on one directory (as separate `ladder prove` runs
// would have) interleave Puts and Saves; the final snapshot holds the union.
func TestConcurrentSavesSeparateInstances(t *testing.T) {
	dir := t.TempDir()
	const instances, rounds, per = 4, 15, 10
	var wg sync.WaitGroup
	errs := make(chan error, instances)
	for inst := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, warns, err := Open(dir, testSolver)
			if err != nil || len(warns) != 0 {
				errs <- fmt.Errorf("Open: %v %v", warns, err)
				return
			}
			for r := range rounds {
				for i := range per {
					n := (inst*rounds+r)*per + i
					if err := c.Put(key(n), Result{Verdict: Proved, Name: strconv.Itoa(n)}); err != nil {
						errs <- err
						return
					}
				}
				if err := c.RecordEdge(fmt.Sprintf("edge-%d", inst), []string{strconv.Itoa(r)}); err != nil {
					errs <- err
					return
				}
				if err := c.Save(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkUnion(t, dir, instances*rounds*per)
	// Each instance's last RecordEdge (the newest) survived.
	if got := open(t, dir).EdgesContaining(strconv.Itoa(rounds - 1)); len(got) != instances {
		t.Fatalf("edges holding the last round: %v", got)
	}
}

func checkUnion(t *testing.T, dir string, n int) {
	t.Helper()
	d := open(t, dir)
	if s := d.Stats(); s.Results != n {
		t.Errorf("final snapshot has %d results, want %d", s.Results, n)
	}
	for i := range n {
		if r, ok := d.Lookup(key(i)); !ok || r.Name != strconv.Itoa(i) {
			t.Fatalf("result %d missing from the final snapshot", i)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != SnapshotFile && e.Name() != LockFile && e.Name() != LogFile {
			t.Errorf("stray file %s", e.Name())
		}
	}
}

const helperEnv = "LADDER_CACHE_TEST_HELPER"

// TestHelperProcess is not a test: re-executed by TestConcurrentSaveProcesses
// with helperEnv set, it plays one `ladder prove` process.
func TestHelperProcess(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("helper for TestConcurrentSaveProcesses")
	}
	var dir string
	var first, count, every int
	if _, err := fmt.Sscanf(spec, "%d %d %d %s", &first, &count, &every, &dir); err != nil {
		t.Fatalf("bad helper spec %q: %v", spec, err)
	}
	c, warns, err := Open(dir, testSolver)
	if err != nil || len(warns) != 0 {
		t.Fatalf("Open: %v %v", warns, err)
	}
	for i := first; i < first+count; i++ {
		if err := c.Put(key(i), Result{Verdict: Proved, Name: strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
		if (i-first)%every == every-1 {
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
}

// Real processes (the test binary re-executed) save to one directory at the
// same time; flock plus merge means the final snapshot is the exact union.
func TestConcurrentSaveProcesses(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		t.Skip("inside helper")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot find test binary:", err)
	}
	dir := filepath.Join(t.TempDir(), ".ladder")
	const procs, count, every = 3, 200, 10
	cmds := make([]*exec.Cmd, procs)
	for p := range procs {
		cmd := exec.Command(exe, "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d %d %d %s", helperEnv, p*count, count, every, dir))
		cmds[p] = cmd
	}
	outs := make([][]byte, procs)
	errs := make([]error, procs)
	var wg sync.WaitGroup
	for p, cmd := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[p], errs[p] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for p := range procs {
		if errs[p] != nil {
			t.Fatalf("helper %d: %v\n%s", p, errs[p], outs[p])
		}
	}
	checkUnion(t, dir, procs*count)
}

// For one key the merge keeps the newer result regardless of save order, and
// an instance holding a stale copy does not overwrite a newer one on disk.
func TestMergePrefersNewerDate(t *testing.T) {
	old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	newer := old.Add(time.Hour)
	for _, newerFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("newerFirst=%v", newerFirst), func(t *testing.T) {
			dir := t.TempDir()
			a, b := open(t, dir), open(t, dir)
			mustPut(t, a, key(1), Result{Verdict: Unknown, Date: old})
			mustPut(t, b, key(1), Result{Verdict: Proved, Date: newer})
			mustPut(t, a, key(2), Result{Verdict: Refuted, Date: old})
			first, second := a, b
			if newerFirst {
				first, second = b, a
			}
			if err := first.Save(); err != nil {
				t.Fatal(err)
			}
			if err := second.Save(); err != nil {
				t.Fatal(err)
			}
			d := open(t, dir)
			if r, ok := d.Lookup(key(1)); !ok || r.Verdict != Proved || !r.Date.Equal(newer) {
				t.Errorf("key 1: %+v %v, want the newer Proved", r, ok)
			}
			if r, ok := d.Lookup(key(2)); !ok || r.Verdict != Refuted {
				t.Errorf("key 2 lost: %+v %v", r, ok)
			}
			// The instance that saved second absorbed the other's rows.
			if r, _ := second.Lookup(key(1)); r.Verdict != Proved {
				t.Errorf("second saver did not merge: %+v", r)
			}
		})
	}
}
