package cache

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var testSolver = SolverID{
	Name:    "z3",
	Version: "4.13.0",
	Params:  CanonicalParams(map[string]string{"seed": "0", "rlimit": "5000000", "timeout": "30s", "encoding": "3"}),
}

func key(i int) string { return KeyOf(fmt.Sprintf("(assert (not (obligation %d)))", i), testSolver) }

func open(t testing.TB, dir string) *Cache {
	t.Helper()
	c, warns, err := Open(dir, testSolver)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if len(warns) != 0 {
		t.Fatalf("Open: unexpected warnings %v", warns)
	}
	return c
}

func mustPut(t testing.TB, c *Cache, k string, r Result) {
	t.Helper()
	if err := c.Put(k, r); err != nil {
		t.Fatalf("Put: %v", err)
	}
}

func TestKeyOf(t *testing.T) {
	base := KeyOf("text", testSolver)
	if !validKey(base) {
		t.Fatalf("KeyOf gave %q, not 64 lowercase hex digits", base)
	}
	if KeyOf("text", testSolver) != base {
		t.Fatal("KeyOf not deterministic")
	}
	variants := map[string]string{
		"text":    KeyOf("text ", testSolver),
		"name":    KeyOf("text", SolverID{"cvc5", testSolver.Version, testSolver.Params}),
		"version": KeyOf("text", SolverID{testSolver.Name, "4.13.1", testSolver.Params}),
		"params":  KeyOf("text", SolverID{testSolver.Name, testSolver.Version, testSolver.Params + " "}),
	}
	for what, k := range variants {
		if k == base {
			t.Errorf("changing the %s does not change the key", what)
		}
	}
	// Field boundaries are unambiguous.
	if KeyOf("ab", SolverID{Name: "c"}) == KeyOf("a", SolverID{Name: "bc"}) {
		t.Error("KeyOf is ambiguous across the text/name boundary")
	}
	if a, b := (SolverID{"a b", "c", ""}).String(), (SolverID{"a", "b c", ""}).String(); a == b {
		t.Errorf("SolverID.String ambiguous: %s", a)
	}
	for _, id := range []SolverID{testSolver, {}, {"a\nb", `"q"`, "x=\"1\" y"}} {
		if got, ok := parseSolverID(id.String()); !ok || got != id {
			t.Errorf("parseSolverID(%s) = %+v, %v", id, got, ok)
		}
	}
	if msg := solverDiff(SolverID{"z3", "a\nb", ""}.String(), testSolver.String()); strings.Contains(msg, "\n") {
		t.Errorf("solverDiff not single-line: %q", msg)
	}
	p1 := CanonicalParams(map[string]string{"seed": "1", "rlimit": "10"})
	p2 := CanonicalParams(map[string]string{"rlimit": "10", "seed": "1"})
	if p1 != p2 || p1 != `"rlimit"="10" "seed"="1"` {
		t.Errorf("CanonicalParams: %q vs %q", p1, p2)
	}
	if CanonicalParams(map[string]string{"a": "b c"}) == CanonicalParams(map[string]string{"a": "b", "c": ""}) {
		t.Error("CanonicalParams is ambiguous")
	}
}

func TestRoundTripThroughSave(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".ladder") // does not exist yet
	c := open(t, dir)
	date := time.Date(2025, 3, 4, 5, 6, 7, 890, time.UTC)
	want := map[string]Result{
		key(1): {Verdict: Proved, Seconds: 0.25, RLimitUsed: 12345, Date: date, Name: "TMS2 › invariant beginIdxBound › DoRead", Solver: testSolver.String()},
		key(2): {Verdict: Refuted, Seconds: 1.5, RLimitUsed: 99, Date: date.Add(time.Second), Name: "TMS2 › invariant x › DoWrite",
			Detail: []byte(`{"model":{"x":"3"}}`), Solver: testSolver.String()},
		key(3): {Verdict: Unknown, Seconds: 30, RLimitUsed: 5000000, Date: date.Add(2 * time.Second), Name: "R3",
			Detail: []byte(`{"reason":"canceled"}`), Solver: "custom"},
	}
	for k, r := range want {
		mustPut(t, c, k, r)
	}
	if err := c.RecordDeps("TMS2 › invariant beginIdxBound › DoRead", key(1),
		[]string{"automaton:TMS2/action:DoRead", "automaton:TMS2/invariant:beginIdxBound"}); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordEdge("TMS2 ⊨ beginIdxBound", []string{"TMS2 › invariant beginIdxBound › DoRead"}); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordTheorem("T", []string{"TMS2 ⊨ beginIdxBound"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatalf("Save: %v", err)
	}
	c.Close()

	d := open(t, dir)
	for k, w := range want {
		got, ok := d.Lookup(k)
		if !ok {
			t.Fatalf("Lookup(%s) missed after reopen", k)
		}
		if !got.Date.Equal(w.Date) {
			t.Errorf("Date %v, want %v", got.Date, w.Date)
		}
		got.Date, w.Date = time.Time{}, time.Time{}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("Lookup(%s) = %+v, want %+v", k, got, w)
		}
	}
	if _, ok := d.Lookup(key(4)); ok {
		t.Error("Lookup of a never-stored key hit")
	}
	if k, items, ok := d.Deps("TMS2 › invariant beginIdxBound › DoRead"); !ok || k != key(1) || len(items) != 2 {
		t.Errorf("Deps after reopen = %q %v %v", k, items, ok)
	}
	obs, edges, thms := d.Affected("automaton:TMS2/action:DoRead")
	if len(obs) != 1 || len(edges) != 1 || len(thms) != 1 || thms[0] != "T" {
		t.Errorf("Affected after reopen = %v %v %v", obs, edges, thms)
	}
	s := d.Stats()
	want2 := Stats{Results: 3, Proved: 1, Refuted: 1, Unknown: 1, Deps: 1, Edges: 1, Theorems: 1, Hits: 3, Misses: 1}
	if s != want2 {
		t.Errorf("Stats = %+v, want %+v", s, want2)
	}
}

func TestPutDefaultsAndValidation(t *testing.T) {
	c := open(t, t.TempDir())
	before := time.Now()
	mustPut(t, c, key(1), Result{Verdict: Proved})
	r, ok := c.Lookup(key(1))
	if !ok || r.Solver != testSolver.String() || r.Date.Before(before.Add(-time.Second)) {
		t.Errorf("defaults not applied: %+v", r)
	}
	bad := []struct {
		key string
		r   Result
	}{
		{"", Result{Verdict: Proved}},
		{"abc", Result{Verdict: Proved}},
		{strings.ToUpper(key(1)), Result{Verdict: Proved}},
		{key(1), Result{Verdict: "sat"}},
		{key(1), Result{Verdict: Proved, Seconds: -1}},
		{key(1), Result{Verdict: Proved, Seconds: math.NaN()}},
		{key(1), Result{Verdict: Proved, Seconds: math.Inf(1)}},
		{key(1), Result{Verdict: Proved, Date: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}},
	}
	for _, b := range bad {
		if err := c.Put(b.key, b.r); err == nil {
			t.Errorf("Put(%q, %+v) accepted", b.key, b.r)
		}
	}
	if err := c.RecordDeps("", key(1), nil); err == nil {
		t.Error("RecordDeps accepted an empty name")
	}
	if err := c.RecordDeps("o", "zz", nil); err == nil {
		t.Error("RecordDeps accepted a malformed key")
	}
	if err := c.RecordDeps("o", key(1), []string{"a\x00b"}); err == nil {
		t.Error("RecordDeps accepted an item with NUL")
	}
	if err := c.RecordEdge("e", []string{""}); err == nil {
		t.Error("RecordEdge accepted an empty obligation")
	}
	if err := c.RecordTheorem("", nil); err == nil {
		t.Error("RecordTheorem accepted an empty name")
	}
	// The failed Puts left the stored row alone, and Save still works.
	if s := c.Stats(); s.Results != 1 || s.Puts != 1 {
		t.Errorf("Stats after rejected puts = %+v", s)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open("", testSolver); err == nil {
		t.Error("Open accepted an empty directory")
	}
	if _, _, err := Open(t.TempDir(), SolverID{}); err == nil {
		t.Error("Open accepted a nameless solver")
	}
}

func TestClosed(t *testing.T) {
	c := open(t, t.TempDir())
	mustPut(t, c, key(1), Result{Verdict: Proved})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Lookup(key(1)); ok {
		t.Error("Lookup hit after Close")
	}
	if err := c.Put(key(2), Result{Verdict: Proved}); err != ErrClosed {
		t.Errorf("Put after Close: %v", err)
	}
	if err := c.Save(); err != ErrClosed {
		t.Errorf("Save after Close: %v", err)
	}
	if err := c.RecordDeps("o", key(1), nil); err != ErrClosed {
		t.Errorf("RecordDeps after Close: %v", err)
	}
}

func TestDetailIsCopied(t *testing.T) {
	c := open(t, t.TempDir())
	detail := []byte(`{"a":1}`)
	mustPut(t, c, key(1), Result{Verdict: Refuted, Detail: detail})
	detail[2] = 'X'
	r, _ := c.Lookup(key(1))
	if string(r.Detail) != `{"a":1}` {
		t.Fatalf("stored Detail aliased the caller's slice: %s", r.Detail)
	}
	r.Detail[2] = 'Y'
	r2, _ := c.Lookup(key(1))
	if string(r2.Detail) != `{"a":1}` {
		t.Fatalf("Lookup returned an alias of the stored Detail: %s", r2.Detail)
	}
	items := []string{"b", "a"}
	if err := c.RecordDeps("o", key(1), items); err != nil {
		t.Fatal(err)
	}
	items[0] = "zzz"
	_, got, _ := c.Deps("o")
	if !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("Deps = %v", got)
	}
}

func TestMissingSnapshotIsSilent(t *testing.T) {
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "no", "such", "dir")} {
		c := open(t, dir)
		if s := c.Stats(); s.Results != 0 {
			t.Errorf("fresh cache has %d results", s.Results)
		}
	}
}

func TestDependencyQueries(t *testing.T) {
	c := open(t, t.TempDir())
	rec := func(name string, items ...string) {
		t.Helper()
		if err := c.RecordDeps(name, KeyOf(name, testSolver), items); err != nil {
			t.Fatal(err)
		}
	}
	const (
		act  = "automaton:TMS2/action:DoRead"
		inv  = "automaton:TMS2/invariant:beginIdxBound"
		def  = "automaton:TMS2/definition:validIdx"
		cl   = "proof:P/clause:R3"
		obA  = "TMS2 › invariant beginIdxBound › DoRead"
		obB  = "TMS2 › invariant beginIdxBound › DoWrite"
		obC  = "P › R3 › DoRead"
		obD  = "TMS2 › invariant other › DoRead"
		none = "automaton:TMS2/action:Nothing"
	)
	rec(obA, act, inv, def, act) // duplicate item
	rec(obB, inv, def)
	rec(obC, act, cl)
	rec(obD, act)
	check := func(item string, want ...string) {
		t.Helper()
		got := c.ObligationsDependingOn(item)
		if len(got) == 0 && len(want) == 0 {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ObligationsDependingOn(%q) = %q, want %q", item, got, want)
		}
	}
	check(act, obC, obA, obD)
	check(inv, obA, obB)
	check(def, obA, obB)
	check(cl, obC)
	check(none)
	check("")
	check("automaton:TMS2/action:DoRea") // prefix of a stored item
	check(act + "\x00")

	// Re-recording replaces the item set.
	rec(obD, none)
	check(act, obC, obA)
	check(none, obD)
	rec(obC) // no items at all
	check(act, obA)
	check(cl)

	// Edges and theorems.
	if err := c.RecordEdge("E1", []string{obA, obB}); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordEdge("E2", []string{obD}); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordTheorem("Thm", []string{"E1", "E2"}); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordTheorem("Thm2", []string{"E2"}); err != nil {
		t.Fatal(err)
	}
	if got := c.EdgesContaining(obB); !reflect.DeepEqual(got, []string{"E1"}) {
		t.Errorf("EdgesContaining = %v", got)
	}
	if got := c.TheoremsUsing("E2"); !reflect.DeepEqual(got, []string{"Thm", "Thm2"}) {
		t.Errorf("TheoremsUsing = %v", got)
	}
	obs, edges, thms := c.Affected(inv)
	if !reflect.DeepEqual(obs, []string{obA, obB}) || !reflect.DeepEqual(edges, []string{"E1"}) || !reflect.DeepEqual(thms, []string{"Thm"}) {
		t.Errorf("Affected(inv) = %v %v %v", obs, edges, thms)
	}
	obs, edges, thms = c.Affected(none)
	if !reflect.DeepEqual(obs, []string{obD}) || !reflect.DeepEqual(edges, []string{"E2"}) || !reflect.DeepEqual(thms, []string{"Thm", "Thm2"}) {
		t.Errorf("Affected(none) = %v %v %v", obs, edges, thms)
	}
}

func TestSnapshotLayout(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	mustPut(t, c, key(1), Result{Verdict: Proved, Date: time.Unix(1, 0)})
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, SnapshotFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) != 4 || lines[3] != "" {
		t.Fatalf("snapshot has %d lines, want header, payload, checksum", len(lines))
	}
	wantHeader := fmt.Sprintf("ladder-cache %d %d %s", FormatVersion, len(lines[1]), testSolver.String())
	if lines[0] != wantHeader {
		t.Errorf("header %q, want %q", lines[0], wantHeader)
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &p); err != nil {
		t.Errorf("payload is not JSON: %v", err)
	}
	if !strings.HasPrefix(lines[2], "sha256:") || len(lines[2]) != 7+64 {
		t.Errorf("checksum line %q", lines[2])
	}
	// Saving unchanged content again gives the identical file, and leaves no
	// temporary files behind.
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(dir, SnapshotFile))
	if !bytes.Equal(data, again) {
		t.Error("snapshot not deterministic")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != SnapshotFile && e.Name() != LockFile && e.Name() != LogFile {
			t.Errorf("stray file %s in cache dir", e.Name())
		}
	}
}

func TestStaleTempFilesRemoved(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, tempPrefix+"123")
	fresh := filepath.Join(dir, tempPrefix+"456")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * staleTemp)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	c := open(t, dir)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Error("stale temp file kept")
	}
	// Under the exclusive lock a recent temporary snapshot is as stale as
	// an old one (its writer died between create and rename: kill -9);
	// without a lock that excludes writers, only old ones are removed.
	_, err := os.Stat(fresh)
	switch {
	case lockExcludes && !os.IsNotExist(err):
		t.Error("recent temp file of a dead writer kept")
	case !lockExcludes && err != nil:
		t.Error("recent temp file removed without the lock")
	}
}

// TestSaveSkipsUnchanged checks that re-recording identical rows leaves the
// snapshot untouched, that a real change is written, and that a corrupt
// snapshot is replaced by the next Save even when nothing was added.
func TestSaveSkipsUnchanged(t *testing.T) {
	dir := t.TempDir()
	id := SolverID{Name: "z3", Version: "4.8.12", Params: "p"}
	c, _, err := Open(dir, id)
	if err != nil {
		t.Fatal(err)
	}
	key := KeyOf("(assert false)", id)
	if err := c.RecordDeps("ob", key, []string{"automaton:A/action:X"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, SnapshotFile)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c2, _, _ := Open(dir, id)
	if err := c2.RecordDeps("ob", key, []string{"automaton:A/action:X"}); err != nil {
		t.Fatal(err)
	}
	if c2.dirty.Load() {
		t.Fatal("re-recording an identical row marked the cache dirty")
	}
	if err := c2.Save(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(before) {
		t.Error("Save rewrote the snapshot although nothing changed")
	}
	if err := c2.RecordDeps("ob", key, []string{"automaton:A/action:Y"}); err != nil {
		t.Fatal(err)
	}
	if err := c2.Save(); err != nil {
		t.Fatal(err)
	}
	c3, _, _ := Open(dir, id)
	if _, items, _ := c3.Deps("ob"); len(items) != 1 || items[0] != "automaton:A/action:Y" {
		t.Errorf("changed row not saved: items = %v", items)
	}
	if err := os.WriteFile(path, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	c4, warns, _ := Open(dir, id)
	if len(warns) != 1 {
		t.Fatalf("corrupt snapshot gave %d warnings, want 1", len(warns))
	}
	if err := c4.Save(); err != nil {
		t.Fatal(err)
	}
	if _, warns, _ := Open(dir, id); len(warns) != 0 {
		t.Errorf("corrupt snapshot not replaced by Save: %v", warns)
	}
}
