package driver

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ladder/internal/report"
)

// TestDeferredCores checks Config.DeferCoreSearch: a run after an edit
// proves the re-checked obligations without looking for their cores and
// leaves those searches for FindCores; once FindCores has recorded them,
// a further edit re-checks exactly what it re-checks when the run looks
// for them itself. A run that starts before FindCores drops the searches
// left, and FindCores with a context already done records nothing.
func TestDeferredCores(t *testing.T) {
	// the same edits with the search in the run and deferred
	type outcome struct {
		deferred      []string
		first, second []string
		cores         map[string]bool // after the first edit: a core search ended for its text
	}
	runEdits := func(deferSearch, find bool) outcome {
		dir := copyTestdata(t, "counter")
		p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 2, DeferCoreSearch: deferSearch})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		prove := func() *report.Prove {
			t.Helper()
			rep, err := p.Prove(context.Background(), planRecorded(t, p, dir))
			if err != nil || !rep.OK() {
				t.Fatalf("defer=%v: %v %+v", deferSearch, err, rep)
			}
			return rep
		}
		var o outcome
		prove()
		if p.Deferred() != 0 {
			t.Errorf("defer=%v: a cold run left %d core searches", deferSearch, p.Deferred())
		}
		impl := filepath.Join(dir, "impl.yaml")
		edit(t, impl, "sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum")
		o.first = rechecked(prove())
		if p.deferred != nil {
			for _, j := range p.deferred.jobs {
				o.deferred = append(o.deferred, j.ob.ID)
				if j.query == nil || j.ob.Problem == nil {
					t.Errorf("%s: left for FindCores without its query", j.ob.ID)
				}
			}
		}
		if find {
			ended, err := p.FindCores(context.Background())
			if err != nil || ended != len(o.deferred) {
				t.Errorf("FindCores: %d searches ended of %d, %v", ended, len(o.deferred), err)
			}
			if p.Deferred() != 0 {
				t.Errorf("FindCores left %d searches", p.Deferred())
			}
		}
		planRecorded(t, p, dir) // reads the records the runs wrote
		o.cores = map[string]bool{}
		for _, id := range o.first {
			o.cores[id] = p.keys.priorCore(id) != nil
		}
		edit(t, impl, "sumNonNeg: 0 <= sum", "sumNonNeg: 0 <= sum + 0")
		o.second = rechecked(prove())
		return o
	}
	inRun := runEdits(false, false)
	later := runEdits(true, true)
	skipped := runEdits(true, false)
	if len(inRun.deferred) != 0 {
		t.Errorf("without DeferCoreSearch, searches were left: %q", inRun.deferred)
	}
	if len(later.deferred) == 0 {
		t.Fatal("the edit left no core search: the fixture does not exercise DeferCoreSearch")
	}
	for _, id := range later.deferred {
		if !slices.Contains(later.first, id) {
			t.Errorf("%s was left for FindCores but not re-checked", id)
		}
	}
	if !slices.Equal(later.first, inRun.first) || !slices.Equal(later.second, inRun.second) {
		t.Errorf("deferred searches then FindCores re-checked %q then %q; searches in the run %q then %q",
			later.first, later.second, inRun.first, inRun.second)
	}
	// the searches record a core (or that there is none) for each text
	// left, as the run does; without FindCores, none is recorded
	for _, id := range later.deferred {
		if !later.cores[id] || !inRun.cores[id] {
			t.Errorf("%s: a core recorded after FindCores %v, in the run %v", id, later.cores[id], inRun.cores[id])
		}
		if skipped.cores[id] {
			t.Errorf("%s: a core recorded without FindCores", id)
		}
	}

	// a search stopped before it starts records nothing and drops the rest
	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 2, DeferCoreSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Prove(context.Background(), planRecorded(t, p, dir)); err != nil {
		t.Fatal(err)
	}
	edit(t, filepath.Join(dir, "impl.yaml"), "sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum")
	if _, err := p.Prove(context.Background(), planRecorded(t, p, dir)); err != nil {
		t.Fatal(err)
	}
	left := p.deferred
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if ended, err := p.FindCores(done); ended != 0 || err != nil || p.Deferred() != 0 {
		t.Errorf("FindCores with its context done: %d ended, %v, %d left", ended, err, p.Deferred())
	}
	for _, j := range left.jobs {
		if j.core != nil || j.query != nil {
			t.Errorf("%s: core %v, query kept %v after a stopped search", j.ob.ID, j.core, j.query != nil)
		}
	}
}

// TestWatchFindsCores checks that ladder watch's Watcher (with
// Config.DeferCoreSearch, as the command sets it) looks for the cores a
// run left while it waits for the next save: the edit after that
// re-checks what it re-checks when every run looks for them itself.
func TestWatchFindsCores(t *testing.T) {
	// the reference: the same two edits with the searches in the runs
	ref := func() []string {
		dir := copyTestdata(t, "counter")
		p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache")})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		var last []string
		for _, e := range [][2]string{{"", ""}, {"sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum"}, {"sumNonNeg: 0 <= sum", "sumNonNeg: 0 <= sum + 0"}} {
			if e[0] != "" {
				edit(t, filepath.Join(dir, "impl.yaml"), e[0], e[1])
			}
			rep, err := p.Prove(context.Background(), planRecorded(t, p, dir))
			if err != nil {
				t.Fatal(err)
			}
			last = rechecked(rep)
		}
		return last
	}()

	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), DeferCoreSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	out := &syncBuffer{}
	searched := make(chan int, 8)
	w := &Watcher{Paths: []string{dir}, Prover: p, Out: out, Interval: 20 * time.Millisecond, searched: searched}
	waitFor, cancel, done := runWatcher(t, w, out)
	impl := filepath.Join(dir, "impl.yaml")
	waitFor("watching ", 1)
	edit(t, impl, "sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum")
	bumpMtime(t, impl)
	waitFor("watching ", 2)
	select {
	case n := <-searched:
		if n == 0 {
			t.Error("the watcher's search after the first edit ended none")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the watcher did not look for the cores the first edit left")
	}
	edit(t, impl, "sumNonNeg: 0 <= sum", "sumNonNeg: 0 <= sum + 0")
	bumpMtime(t, impl)
	waitFor("watching ", 3)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	text := out.String()
	last := text[strings.LastIndex(text, "change detected"):]
	want := fmt.Sprintf("re-checked %d;", len(ref))
	if !strings.Contains(last, want) {
		t.Errorf("the second edit under watch: want %q as with the searches in the run (%q):\n%s", want, ref, last)
	}
}
