package driver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"ladder/internal/report"
)

// copyTestdata copies testdata/<name> into a fresh temporary directory and
// returns the copy's path.
func copyTestdata(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// edit replaces old by new in file, which must contain old exactly once.
func edit(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data), old) != 1 {
		t.Fatalf("%s does not contain %q exactly once", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func loadDir(t *testing.T, dir string) *Input {
	t.Helper()
	in, errs := Load(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return in
}

// rechecked returns the IDs of the obligations sent to the solver, sorted.
func rechecked(r *report.Prove) []string {
	var out []string
	for _, o := range r.Obligations {
		if !o.Cached && o.Verdict != report.Trivial {
			out = append(out, o.ID)
		}
	}
	sort.Strings(out)
	return out
}

// TestEditInvalidation proves a small automaton and refinement cold, again
// with everything reused, then edits one action's effect and checks that
// exactly the obligations generated from that action are re-checked, and
// every other one is reused.
func TestEditInvalidation(t *testing.T) {
	dir := copyTestdata(t, "counter")
	cfg := Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 2}
	ctx := context.Background()
	p, err := NewProver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	in := loadDir(t, dir)
	cold, err := p.Prove(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	n := len(in.Obligations)
	if s := cold.Summary; s.Obligations != n || s.Proved+s.Trivial != n || s.Rechecked+s.Trivial != n || s.Reused != 0 {
		t.Fatalf("cold run: %+v; want all %d proved and re-checked", s, n)
	}

	warm, err := p.Prove(ctx, loadDir(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if s := warm.Summary; s.Proved+s.Trivial != n || s.Reused+s.Trivial != n || s.Rechecked != 0 {
		t.Fatalf("warm run: %+v; want all %d proved or trivial, and the proved reused", s, n)
	}

	// The cache's dependency records name the obligations generated from
	// the action before the edit.
	const item = "automaton:Buffered/action:Stage"
	affected, edges, _ := p.cache.Affected(item)
	if len(edges) == 0 {
		t.Errorf("Affected(%s) names no edge or invariant", item)
	}

	// An edit of every assignment of Stage's effect changes the text of
	// every obligation generated from Stage: exactly those are re-checked.
	const before = "      buf := k\n      full := true\n"
	const whole = "      buf := min(k, 2)\n      full := k >= 0\n      sum := sum + 0\n"
	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, before, whole)
	in = loadDir(t, dir)
	var fromStage []string
	after, err := p.Prove(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	// Trivial obligations are decided without the solver, before and after.
	trivial := map[string]bool{}
	for _, o := range after.Obligations {
		trivial[o.ID] = o.Verdict == report.Trivial
	}
	for _, o := range in.Obligations {
		if o.Action == "Stage" && !trivial[o.ID] {
			fromStage = append(fromStage, o.ID)
		}
	}
	sort.Strings(fromStage)
	if len(fromStage) == 0 || len(fromStage) >= n {
		t.Fatalf("%d of %d obligations come from Stage; the test needs a proper subset", len(fromStage), n)
	}
	got := rechecked(after)
	if !reflect.DeepEqual(got, fromStage) {
		t.Errorf("after editing Stage's effect re-checked\n\t%q\nwant exactly the obligations of Stage\n\t%q", got, fromStage)
	}
	var affectedSolved []string
	for _, id := range affected {
		if !trivial[id] {
			affectedSolved = append(affectedSolved, id)
		}
	}
	if !reflect.DeepEqual(got, affectedSolved) {
		t.Errorf("re-checked %q; the cache's Affected(%s) said %q", got, item, affected)
	}
	if s := after.Summary; s.Proved+s.Trivial != n || s.Reused+s.Trivial != n-len(fromStage) {
		t.Errorf("after the edit: %+v; want all proved or trivial, %d reused", s, n-len(fromStage))
	}

	// Undoing the edit reuses everything: the old results are still in the
	// cache under the old texts.
	edit(t, impl, whole, before)
	undone, err := p.Prove(ctx, loadDir(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if s := undone.Summary; s.Reused+s.Trivial != n {
		t.Errorf("after undoing the edit: %+v; want all %d reused", s, n)
	}

	// Reuse is by text, finer than the dependency records: changing only
	// what Stage assigns to buf re-checks only the obligation whose goal
	// reads buf after Stage (emptyBuf's holds since full becomes true, and
	// sumNonNeg and the refinement do not read buf).
	edit(t, impl, "      buf := k\n", "      buf := max(k - 1, 0)\n")
	fine, err := p.Prove(ctx, loadDir(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rechecked(fine), []string{"Buffered › invariant bufRange › Stage"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after editing buf's assignment re-checked %q; want %q", got, want)
	}
}

// TestWatchStep edits a file between two watcher steps and checks the
// difference: an invariant broken, the theorems resting on it stale; then
// repaired.
func TestWatchStep(t *testing.T) {
	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	w := &Watcher{Paths: []string{dir}, Prover: p, Out: io.Discard}
	ctx := context.Background()
	first, d, err := w.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.NewlyProved) != first.Summary.Obligations || len(d.Derived) != len(first.Theorems) || len(d.NewlyFailing) != 0 {
		t.Fatalf("first step: %d newly proved, %d derived, %d failing", len(d.NewlyProved), len(d.Derived), len(d.NewlyFailing))
	}
	if w.Changed() {
		t.Fatal("Changed() right after a step")
	}

	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, "      buf := k\n", "      buf := k + 5\n")
	bumpMtime(t, impl)
	if !w.Changed() {
		t.Fatal("Changed() = false after an edit")
	}
	_, d, err = w.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(d.NewlyFailing), []string{"Buffered › invariant bufRange › Stage"}; !reflect.DeepEqual(got, want) {
		t.Errorf("newly failing %q; want %q", got, want)
	}
	if f := d.NewlyFailing; len(f) == 1 && (f[0].Verdict != report.Refuted || f[0].Counterexample == nil) {
		t.Errorf("newly failing obligation: %s without a counterexample", f[0].Verdict)
	}
	stale := statements(d.Stale)
	for _, want := range []string{"Buffered satisfies Buffered.bufRange", "Buffered implements Total"} {
		if !contains(stale, want) {
			t.Errorf("stale theorems %q lack %q", stale, want)
		}
	}
	if len(d.Derived) != 0 {
		t.Errorf("derived %q after breaking an invariant", statements(d.Derived))
	}

	edit(t, impl, "      buf := k + 5\n", "      buf := k\n")
	bumpMtime(t, impl)
	_, d, err = w.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(d.NewlyProved); !reflect.DeepEqual(got, []string{"Buffered › invariant bufRange › Stage"}) {
		t.Errorf("newly proved %q after the repair", got)
	}
	if !contains(statements(d.Derived), "Buffered implements Total") || len(d.Stale) != 0 || len(d.NewlyFailing) != 0 {
		t.Errorf("after the repair: derived %q, stale %q, failing %q", statements(d.Derived), statements(d.Stale), ids(d.NewlyFailing))
	}
}

// bumpMtime moves a file's modification time forward, so that a poll sees
// the edit even on file systems with coarse timestamps.
func bumpMtime(t *testing.T, file string) {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(2e9)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
// runWatcher runs w, which writes to out, until the returned cancel is
// called, and returns a function that waits (at most 60 s) until out holds
// n copies of what, failing the test otherwise, and the channel of Run's
// result.
func runWatcher(t *testing.T, w *Watcher, out *syncBuffer) (waitFor func(what string, n int), cancel func(), done <-chan error) {
	ctx, cancel := context.WithCancel(context.Background())
	result := make(chan error)
	go func() { result <- w.Run(ctx) }()
	return func(what string, n int) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for strings.Count(out.String(), what) < n {
			if time.Now().After(deadline) {
				cancel()
				t.Fatalf("no %q after 60 s; output:\n%s", what, out.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}, cancel, result
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// counterWatcher returns a watcher of a copy of testdata/counter that
// polls every interval, with a prover of its own (closed when the test
// ends), the buffer it writes to, and the copy's directory.
func counterWatcher(t *testing.T, interval time.Duration) (*Watcher, *syncBuffer, string) {
	t.Helper()
	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	out := &syncBuffer{}
	return &Watcher{Paths: []string{dir}, Prover: p, Out: out, Interval: interval}, out, dir
}

// TestWatchRun runs the polling loop: the first report, then after an edit
// only the difference.
func TestWatchRun(t *testing.T) {
	w, out, dir := counterWatcher(t, 20*time.Millisecond)
	waitFor, cancel, done := runWatcher(t, w, out)
	waitFor("watching ", 1)
	if !strings.Contains(out.String(), "16 obligations: 12 proved, 4 trivial, 0 refuted") {
		t.Errorf("first report missing:\n%s", out.String())
	}
	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, "      buf := k\n", "      buf := k + 5\n")
	bumpMtime(t, impl)
	waitFor("watching ", 2)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	second := out.String()[strings.Index(out.String(), "change detected"):]
	for _, want := range []string{
		"- refuted  Buffered › invariant bufRange › Stage",
		"- theorem  Buffered satisfies Buffered.bufRange (stale)",
		"Changed since the last run\n  edited   automaton:Buffered/action:Stage\n",
		"16 obligations: 11 proved, 4 trivial, 1 refuted, 0 unknown; reused 11, re-checked 1",
	} {
		if !strings.Contains(second, want) {
			t.Errorf("output after the edit lacks %q:\n%s", want, second)
		}
	}
	if strings.Contains(second, "+ proved") {
		t.Errorf("output after the edit repeats unchanged obligations:\n%s", second)
	}
}

// TestWatchInterrupted checks that a watch whose proof is interrupted
// returns the ErrInterrupted of the run, which the command prints and
// exits 1 with, rather than nil.
func TestWatchInterrupted(t *testing.T) {
	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // stopped before any obligation is decided
	var out bytes.Buffer
	w := &Watcher{Paths: []string{dir}, Prover: p, Out: &out}
	err = w.Run(ctx)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run = %v, want ErrInterrupted", err)
	}
	if !strings.Contains(err.Error(), "obligations decided") {
		t.Errorf("the error does not say what was decided: %v", err)
	}
}
