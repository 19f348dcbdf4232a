package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"ladder/internal/cache"
	"ladder/internal/report"
	"ladder/simulation"
)

// dependingOn returns, sorted, the IDs of the obligations of in whose
// Deps contain item.
func dependingOn(in *Input, item string) []string {
	var out []string
	for _, o := range in.Obligations {
		if slices.Contains(o.Deps, item) {
			out = append(out, o.ID)
		}
	}
	sort.Strings(out)
	return out
}

// groupsOf returns, sorted, the invariants ("A.p") and the edges the
// obligations ids of in belong to.
func groupsOf(in *Input, ids []string) (invariants, edges []string) {
	inv, edg := map[string]bool{}, map[string]bool{}
	for _, o := range in.Obligations {
		if !slices.Contains(ids, o.ID) {
			continue
		}
		if o.Invariant != "" {
			a, n := splitInvariantKey(o.Invariant)
			inv[a+"."+n] = true
		}
		if o.Edge != "" {
			edg[o.Edge] = true
		}
	}
	return sortedKeys(inv), sortedKeys(edg)
}

func proveOrFail(t *testing.T, p *Prover, dir string) (*Input, *report.Prove) {
	t.Helper()
	in := loadDir(t, dir)
	rep, err := p.Prove(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return in, rep
}

func text(t *testing.T, rep *report.Prove) string {
	t.Helper()
	var b bytes.Buffer
	if err := rep.WriteText(&b, report.TextOptions{NoTimes: true}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestChangesAfterEdit edits one action of a temporary copy of a small
// example and checks the report's changes: the item, exactly the
// obligations whose Deps contain it, their invariants and edges, and the
// theorems resting on them; then that a re-run reports nothing changed.
func TestChangesAfterEdit(t *testing.T) {
	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	_, cold := proveOrFail(t, p, dir)
	if cold.Changes != nil {
		t.Fatalf("first run reports changes %+v; there is no earlier run", cold.Changes)
	}
	_, warm := proveOrFail(t, p, dir)
	if warm.Changes == nil || !warm.Changes.Empty() {
		t.Fatalf("unchanged re-run: changes %+v; want an empty record", warm.Changes)
	}
	if strings.Contains(text(t, warm), "Changed since") {
		t.Errorf("unchanged re-run prints a change block:\n%s", text(t, warm))
	}

	const item = "automaton:Buffered/action:Stage"
	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, "      buf := k\n", "      buf := min(k, 2)\n")
	in, rep := proveOrFail(t, p, dir)
	c := rep.Changes
	if c == nil {
		t.Fatal("no changes after an edit")
	}
	if want := []report.ItemChange{{Item: item, Change: report.ItemEdited}}; !reflect.DeepEqual(c.Items, want) {
		t.Errorf("changed items %+v; want %+v", c.Items, want)
	}
	want := dependingOn(in, item)
	if len(want) == 0 || len(want) == len(in.Obligations) {
		t.Fatalf("%d of %d obligations depend on %s; the test needs a proper subset", len(want), len(in.Obligations), item)
	}
	if !reflect.DeepEqual(c.Obligations, want) {
		t.Errorf("affected obligations\n\t%q\nwant those whose Deps contain %s\n\t%q", c.Obligations, item, want)
	}
	wantInv, wantEdges := groupsOf(in, want)
	if !reflect.DeepEqual(c.Invariants, wantInv) || !reflect.DeepEqual(c.Edges, wantEdges) {
		t.Errorf("affected invariants %q, edges %q; want %q, %q", c.Invariants, c.Edges, wantInv, wantEdges)
	}
	// Every theorem rests on the edge or on an invariant of Buffered but
	// Total's own invariant.
	var wantThms []string
	for _, th := range rep.Theorems {
		if th.Statement != "Total satisfies Total.totalNonNeg" {
			wantThms = append(wantThms, th.Statement)
		}
	}
	if len(wantThms) == 0 || !reflect.DeepEqual(c.Theorems, wantThms) {
		t.Errorf("affected theorems %q; want %q", c.Theorems, wantThms)
	}
	out := text(t, rep)
	for _, line := range []string{
		"Changed since the last run\n",
		"  edited   " + item + "\n",
		"  affects " + strconv.Itoa(len(want)) + " obligations, " + strconv.Itoa(len(wantInv)) + " invariants, 1 edge, " + strconv.Itoa(len(wantThms)) + " theorems\n",
		"    edges: Buffered→Total\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("text report lacks %q:\n%s", line, out)
		}
	}
	var js struct {
		Changes *report.Changes `json:"changes"`
	}
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), &js); err != nil || js.Changes == nil || !reflect.DeepEqual(js.Changes.Obligations, want) {
		t.Errorf("JSON changes %+v (%v)", js.Changes, err)
	}

	_, again := proveOrFail(t, p, dir)
	if !again.Changes.Empty() {
		t.Errorf("re-run after the edit: changes %+v; want none", again.Changes.Items)
	}
}

// TestChangesRemovedItem removes an invariant: the obligations that
// depended on it (its own, and those assuming it) are known from the
// dependency index of the earlier run only.
func TestChangesRemovedItem(t *testing.T) {
	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	before, _ := proveOrFail(t, p, dir)
	const item = "automaton:Buffered/invariant:sumNonNeg"
	want := dependingOn(before, item)
	edit(t, filepath.Join(dir, "impl.yaml"), "  sumNonNeg: sum >= 0\n", "")
	after, rep := proveOrFail(t, p, dir)
	if got := dependingOn(after, item); len(got) != 0 {
		t.Fatalf("after the removal %q still depend on %s", got, item)
	}
	c := rep.Changes
	if c == nil || !reflect.DeepEqual(c.Items, []report.ItemChange{{Item: item, Change: report.ItemRemoved}}) {
		t.Fatalf("changes %+v; want %s removed", c, item)
	}
	if !reflect.DeepEqual(c.Obligations, want) {
		t.Errorf("affected obligations\n\t%q\nwant those that depended on %s\n\t%q", c.Obligations, item, want)
	}
	// Restoring it is an addition.
	edit(t, filepath.Join(dir, "impl.yaml"), "invariants:\n", "invariants:\n  sumNonNeg: sum >= 0\n")
	_, rep = proveOrFail(t, p, dir)
	if c := rep.Changes; c == nil || !reflect.DeepEqual(c.Items, []report.ItemChange{{Item: item, Change: report.ItemAdded}}) {
		t.Errorf("changes %+v; want %s added", c, item)
	}
}

// TestChangesOnlyKeepsRecord: an --only run does not record the items, so
// the next complete run still reports the edit.
func TestChangesOnlyKeepsRecord(t *testing.T) {
	dir := copyTestdata(t, "counter")
	cacheDir := filepath.Join(t.TempDir(), "cache")
	p, err := NewProver(Config{CacheDir: cacheDir, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	proveOrFail(t, p, dir)
	p.Close()
	edit(t, filepath.Join(dir, "impl.yaml"), "      buf := k\n", "      buf := min(k, 2)\n")
	only, err := NewProver(Config{CacheDir: cacheDir, Jobs: 1, Only: "totalNonNeg"})
	if err != nil {
		t.Fatal(err)
	}
	_, rep := proveOrFail(t, only, dir)
	only.Close()
	if rep.Changes.Empty() {
		t.Fatal("--only run reports no change")
	}
	p, err = NewProver(Config{CacheDir: cacheDir, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, rep = proveOrFail(t, p, dir)
	if c := rep.Changes; c.Empty() || c.Items[0].Item != "automaton:Buffered/action:Stage" {
		t.Errorf("complete run after --only: changes %+v; want the edit of Stage", c)
	}
}

// TestChangesBadSnapshot: a corrupt snapshot, or one of the format before
// item fingerprints, is discarded with a warning; the run does not crash,
// re-checks everything and reports no changes (there is no earlier record).
func TestChangesBadSnapshot(t *testing.T) {
	for name, damage := range map[string]func([]byte) []byte{
		"corrupt": func(b []byte) []byte { return append(b[:len(b)/2:len(b)/2], "garbage"...) },
		"old format": func(b []byte) []byte {
			return bytes.Replace(b, []byte(cache.Magic+" "+strconv.Itoa(cache.FormatVersion)+" "), []byte(cache.Magic+" 1 "), 1)
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := copyTestdata(t, "counter")
			cacheDir := filepath.Join(t.TempDir(), "cache")
			p, err := NewProver(Config{CacheDir: cacheDir, Jobs: 1})
			if err != nil {
				t.Fatal(err)
			}
			proveOrFail(t, p, dir)
			p.Close()
			edit(t, filepath.Join(dir, "impl.yaml"), "      buf := k\n", "      buf := min(k, 2)\n")
			snap := filepath.Join(cacheDir, cache.SnapshotFile)
			data, err := os.ReadFile(snap)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(snap, damage(data), 0o644); err != nil {
				t.Fatal(err)
			}
			var warnings []string
			p, err = NewProver(Config{CacheDir: cacheDir, Jobs: 1, Warn: func(s string) { warnings = append(warnings, s) }})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			in, rep := proveOrFail(t, p, dir)
			if len(warnings) != 1 || !strings.Contains(warnings[0], "rebuilding") {
				t.Errorf("warnings %q; want the cache's one", warnings)
			}
			if s := rep.Summary; s.Rechecked+s.Trivial != len(in.Obligations) || s.Reused != 0 {
				t.Errorf("summary %+v; want all %d re-checked", s, len(in.Obligations))
			}
			if rep.Changes != nil {
				t.Errorf("changes %+v from a discarded snapshot", rep.Changes)
			}
		})
	}
}

// TestOrderChangedFirst: the jobs depending on a changed item go to the
// solver first, each part in its previous order.
func TestOrderChangedFirst(t *testing.T) {
	mk := func(id string, deps ...string) *job {
		return &job{ob: &simulation.Obligation{ID: id, Deps: deps}}
	}
	jobs := []*job{mk("a", "x"), mk("b", "y", "z"), mk("c", "z"), mk("d"), mk("e", "y")}
	e := &itemEdit{changed: map[string]bool{"y": true}}
	e.order(jobs)
	var got []string
	for _, j := range jobs {
		got = append(got, j.ob.ID)
	}
	if want := []string{"b", "e", "a", "c", "d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %q; want %q", got, want)
	}
	(*itemEdit)(nil).order(jobs) // no record: nothing to do, no panic
}

// TestChangesRestored: a run whose units are restored from their records
// compares its items with the last complete run's, like any other run,
// and so does one that undoes an edit.
func TestChangesRestored(t *testing.T) {
	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	run := func() (bool, *report.Changes) {
		t.Helper()
		in := planRecorded(t, p, dir)
		rep, err := p.Prove(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		return restoredCount(in) == len(in.Obligations), rep.Changes
	}
	run()
	if restored, c := run(); !restored || c == nil || !c.Empty() {
		t.Fatalf("unchanged run: restored=%v changes=%+v; want every unit restored and no change", restored, c)
	}
	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, "      buf := k\n", "      buf := min(k, 2)\n")
	if restored, c := run(); restored || c.Empty() {
		t.Fatalf("edited run: restored=%v changes=%+v", restored, c)
	}
	// Undoing the edit is an edit of Stage with respect to the last run.
	edit(t, impl, "      buf := min(k, 2)\n", "      buf := k\n")
	_, c := run()
	if want := []report.ItemChange{{Item: "automaton:Buffered/action:Stage", Change: report.ItemEdited}}; c == nil || !reflect.DeepEqual(c.Items, want) {
		t.Fatalf("undone edit: changes=%+v; want %+v", c, want)
	}
	if len(c.Obligations) == 0 || len(c.Edges) != 1 {
		t.Errorf("undone edit: affected %+v; want Stage's obligations and the edge", c)
	}
	if restored, c := run(); !restored || !c.Empty() {
		t.Errorf("again: restored=%v changes=%+v; want every unit restored and no change", restored, c)
	}
}

// TestChangesWithoutItems: an input without item fingerprints (a part of
// the obligations, as invariant inference proves them) neither reports
// changes nor records its items.
func TestChangesWithoutItems(t *testing.T) {
	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	in := loadDir(t, dir)
	part := &Input{Automata: in.Automata, Obligations: in.Obligations[:3], Files: in.Files}
	rep, err := p.Prove(context.Background(), part)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changes != nil {
		t.Errorf("changes %+v for an input without items", rep.Changes)
	}
	if _, rep := proveOrFail(t, p, dir); rep.Changes != nil {
		t.Errorf("the part recorded items: the first complete run reports %+v", rep.Changes)
	}
}

// TestChangesAnotherWriter: a Prover that keeps its items between runs
// (itemMemo) still compares with what its cache holds once another
// writer's snapshot was merged into it. The watcher's Prover records the
// file's items; another Prover on the same cache proves an edit of it and
// saves; the file is put back. The watcher's next run saves, merging the
// other's newer rows, and its run after that reports the put-back action
// as changed, as a Prover without the memo does.
func TestChangesAnotherWriter(t *testing.T) {
	dir := copyTestdata(t, "counter")
	cacheDir := filepath.Join(t.TempDir(), "cache")
	newProver := func() *Prover {
		p, err := NewProver(Config{CacheDir: cacheDir, Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(p *Prover) *report.Changes {
		t.Helper()
		rep, err := p.Prove(context.Background(), planRecorded(t, p, dir))
		if err != nil {
			t.Fatal(err)
		}
		return rep.Changes
	}
	w := newProver()
	defer w.Close()
	run(w)
	run(w)

	other := newProver()
	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, "      buf := k\n", "      buf := min(k, 2)\n")
	time.Sleep(10 * time.Millisecond) // the other's rows are newer
	run(other)
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	edit(t, impl, "      buf := min(k, 2)\n", "      buf := k\n")

	if c := run(w); c == nil || !c.Empty() {
		t.Fatalf("before the merge: changes %+v; want none (the watcher's cache holds its own rows)", c)
	}
	if w.cache.Merges() == 0 {
		t.Fatal("the other writer's snapshot was not merged")
	}
	want := []report.ItemChange{{Item: "automaton:Buffered/action:Stage", Change: report.ItemEdited}}
	if c := run(w); c == nil || !reflect.DeepEqual(c.Items, want) {
		t.Fatalf("after the merge: changes %+v; want %+v", c, want)
	}
}
