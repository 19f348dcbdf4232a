package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/driver"
)

// TestSharedProverCores checks the core searches a run of the language
// server leaves (driver.Config.DeferCoreSearch): findCores runs them when
// no other run waits for the prover, skips them when one does (the next
// run drops them), and lock stops a search that holds the prover.
func TestSharedProverCores(t *testing.T) {
	// a prover whose last run left core searches: the counter fixture
	// proved, then proved again after a semantics-preserving edit of an
	// invariant every obligation assumes
	leftSearches := func() *sharedProver {
		t.Helper()
		dir := t.TempDir()
		for _, f := range []string{"iface.yaml", "impl.yaml", "proof.yaml", "spec.yaml"} {
			b, err := os.ReadFile(filepath.Join("../driver/testdata/counter", f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		p, err := driver.NewProver(driver.Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 1, DeferCoreSearch: true, Warn: func(string) {}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		prove := func() {
			var inputs driver.Inputs
			set, errs := inputs.LoadConfig().Files(dir)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			in, errs := p.Plan(set, inputs.Sums())
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if _, err := p.Prove(context.Background(), in); err != nil {
				t.Fatal(err)
			}
		}
		prove()
		impl := filepath.Join(dir, "impl.yaml")
		b, _ := os.ReadFile(impl)
		edited := strings.Replace(string(b), "sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum", 1)
		if edited == string(b) {
			t.Fatal("impl.yaml has no invariant sumNonNeg: sum >= 0")
		}
		if err := os.WriteFile(impl, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		prove()
		if p.Deferred() == 0 {
			t.Fatal("the edit left no core search")
		}
		return &sharedProver{p: p}
	}

	// another run waiting: the searches are left to it
	sp := leftSearches()
	sp.mu.Lock()
	sp.waiting = 1
	sp.findCores(context.Background())
	if sp.p.Deferred() == 0 {
		t.Error("findCores searched while a run waited for the prover")
	}
	sp.waiting = 0
	// none waiting: they run
	sp.findCores(context.Background())
	if n := sp.p.Deferred(); n != 0 {
		t.Errorf("findCores left %d searches", n)
	}
	if sp.stop != nil {
		t.Error("findCores kept the stop of a search that ended")
	}
	sp.mu.Unlock()

	// lock stops the search that holds the prover
	stopped := make(chan struct{})
	sp.smu.Lock()
	sp.stop = func() { close(stopped) }
	sp.smu.Unlock()
	go func() {
		<-stopped
		sp.mu.Unlock()
	}()
	sp.mu.Lock() // held by "the search" until lock stops it
	sp.lock()
	if sp.waiting != 0 {
		t.Errorf("lock left waiting at %d", sp.waiting)
	}
	sp.mu.Unlock()
}
