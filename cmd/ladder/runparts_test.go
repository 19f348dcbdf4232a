package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestProveRunRecordParts: the run record of a repository of three
// independent hierarchies (the counter and the ticket lock fixtures, and a
// proof whose automata are found in the library, specs/) has a part for
// each. After an edit of one, a run loads only that one's given files (the
// "load parts" phase, no "load"), replays the others' shares, and prints
// what a full run over the same cache prints; the library's automata are
// found in the library again, not given. When the changed
// part's new load does not fit beside the other — it names an automaton
// of the other, or declares a name the other declares — the run loads
// every file and reports what a run without a record reports. A part
// with a refuted obligation is run again each time, while the other is
// still replayed.
func TestProveRunRecordParts(t *testing.T) {
	t.Setenv("LADDER_TRACE", "1")
	root := t.TempDir()
	testdata, err := filepath.Abs(filepath.Join("..", "..", "internal", "driver", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	// the repository's root (.git), whose specs/ is the library
	for from, to := range map[string]string{"counter": "repo/counter", "kinds": "repo/kinds", "library": "specs", "library-proof": "repo/proofs"} {
		if err := os.CopyFS(filepath.Join(root, to), os.DirFS(filepath.Join(testdata, from))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	// an interface no automaton uses: a part of its own, without obligations
	spare := filepath.Join(root, "repo", "counter", "spare.yaml")
	if err := os.WriteFile(spare, []byte("interface: Spare\ndoc: Used by no automaton.\nevents:\n  Ping: {k: Int}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	dir := "repo"
	cache := filepath.Join(root, "cache")
	type result struct {
		code       int
		out, trace string
	}
	prove := func(t *testing.T, cache string) result {
		t.Helper()
		code, out, errOut := runLadder("prove", dir, "--cache-dir", cache, "--json", "-j", "2")
		return result{code, out, errOut}
	}
	// how: "replay" (no load), "parts" (only the changed parts loaded),
	// "full" (every file loaded, after a partial load or not).
	how := func(r result) string {
		switch {
		case strings.Contains(r.trace, "trace: load parts") && strings.Contains(r.trace, "trace: load  "):
			return "parts, then full"
		case strings.Contains(r.trace, "trace: load parts"):
			return "parts"
		case strings.Contains(r.trace, "trace: load"):
			return "full"
		}
		return "replay"
	}
	want := func(t *testing.T, r result, code int, way string) {
		t.Helper()
		if r.code != code || how(r) != way {
			t.Fatalf("exit %d, %s; want exit %d, %s\n%s", r.code, how(r), code, way, r.trace)
		}
	}
	// comparable returns the JSON report without what depends on the
	// clock or on the cache directory.
	comparable := func(t *testing.T, out string) map[string]any {
		t.Helper()
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		for _, k := range []string{"seconds", "solver_seconds", "z3_seconds"} {
			delete(rep["summary"].(map[string]any), k)
		}
		delete(rep["solver"].(map[string]any), "cache")
		for _, o := range rep["obligations"].([]any) {
			for _, k := range []string{"seconds", "solver_seconds", "z3_seconds"} {
				delete(o.(map[string]any), k)
			}
		}
		return rep
	}
	// copyCache returns a copy of the cache without its run records: a
	// run over it is a full run from the same verdicts.
	copyCache := func(t *testing.T) string {
		t.Helper()
		c := filepath.Join(t.TempDir(), "cache")
		if err := os.CopyFS(c, os.DirFS(cache)); err != nil {
			t.Fatal(err)
		}
		if err := os.RemoveAll(filepath.Join(c, "runs")); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// sameAsFull runs in full over a copy of the cache, then over the
	// cache itself the way wanted, and compares the two reports.
	sameAsFull := func(t *testing.T, code int, way string) {
		t.Helper()
		other := copyCache(t)
		r := prove(t, cache)
		want(t, r, code, way)
		full := prove(t, other)
		want(t, full, code, "full")
		if f, p := comparable(t, full.out), comparable(t, r.out); !reflect.DeepEqual(f, p) {
			t.Fatalf("the %s run differs from the full run:\nfull %v\n%s  %v", way, f, way, p)
		}
	}
	// errorsAsFull runs over the cache, which must load the changed
	// parts, then every file, and report the errors a run without a
	// record reports, among them one containing msg.
	errorsAsFull := func(t *testing.T, msg string) {
		t.Helper()
		_, _, wantErr := runLadder("prove", dir, "--cache-dir", copyCache(t), "--json", "-j", "2")
		r := prove(t, cache)
		want(t, r, exitUsage, "parts, then full")
		if got, wantErr := errorLines(r.trace), errorLines(wantErr); !reflect.DeepEqual(got, wantErr) || !strings.Contains(strings.Join(got, "\n"), msg) {
			t.Fatalf("errors %q; a run without a record reports %q", got, wantErr)
		}
	}

	want(t, prove(t, cache), exitOK, "full") // cold
	want(t, prove(t, cache), exitOK, "replay")
	parts, err := filepath.Glob(filepath.Join(cache, "runs", "*.report"))
	if err != nil || len(parts) != 4 {
		t.Fatalf("part reports %v, %v; want one for each hierarchy", parts, err)
	}

	t.Run("edit of one part", func(t *testing.T) {
		replaceIn(t, filepath.Join(dir, "kinds", "TicketLock.yaml"), "next := next + 1", "next := next + 1 + 0")
		sameAsFull(t, exitOK, "parts")
		want(t, prove(t, cache), exitOK, "replay")
	})
	t.Run("edit of the other part", func(t *testing.T) {
		replaceIn(t, filepath.Join(dir, "counter", "impl.yaml"), "      buf := k\n", "      buf := k + 0\n")
		sameAsFull(t, exitOK, "parts")
		want(t, prove(t, cache), exitOK, "replay")
	})
	t.Run("edit of the library", func(t *testing.T) {
		replaceIn(t, filepath.Join(root, "specs", "impl.yaml"), "doc: Stage a value", "doc: Stage  a value")
		sameAsFull(t, exitOK, "parts")
		want(t, prove(t, cache), exitOK, "replay")
	})
	t.Run("a theorem about the other part", func(t *testing.T) {
		proof := filepath.Join(dir, "counter", "proof.yaml")
		replaceIn(t, proof, "  - Buffered implements Total\n", "  - Buffered implements Total\n  - TicketLock implements Mutex\n")
		defer replaceIn(t, proof, "  - TicketLock implements Mutex\n", "")
		sameAsFull(t, exitOK, "parts, then full")
		// the two hierarchies are one part now
		want(t, prove(t, cache), exitOK, "replay")
	})
	t.Run("a name of the other part", func(t *testing.T) {
		// the joined part is split again
		want(t, prove(t, cache), exitOK, "parts")
		spec := filepath.Join(dir, "counter", "spec.yaml")
		replaceIn(t, spec, "automaton: Total", "automaton: Mutex")
		defer replaceIn(t, spec, "automaton: Mutex", "automaton: Total")
		errorsAsFull(t, "is already declared")
	})
	t.Run("an interface name of the other part", func(t *testing.T) {
		// with an edit of the counter, so that the parts loaded again have
		// obligations: the unused interface's name is the other's too
		replaceIn(t, spare, "interface: Spare", "interface: Lock")
		defer replaceIn(t, spare, "interface: Lock", "interface: Spare")
		impl := filepath.Join(dir, "counter", "impl.yaml")
		replaceIn(t, impl, "      buf := k + 0\n", "      buf := k + 0 + 0\n")
		defer replaceIn(t, impl, "      buf := k + 0 + 0\n", "      buf := k + 0\n")
		errorsAsFull(t, `interface "Lock" is already declared`)
	})
	t.Run("refuted in one part", func(t *testing.T) {
		// as recorded before the name was changed
		want(t, prove(t, cache), exitOK, "replay")
		impl := filepath.Join(dir, "counter", "impl.yaml")
		replaceIn(t, impl, "      buf := k + 0\n", "      buf := k + 5\n")
		sameAsFull(t, exitFailure, "parts")
		// never replayed: the failing part is run again
		want(t, prove(t, cache), exitFailure, "parts")
		replaceIn(t, impl, "      buf := k + 5\n", "      buf := k + 0\n")
		want(t, prove(t, cache), exitOK, "parts")
		want(t, prove(t, cache), exitOK, "replay")
	})
}

// errorLines returns the lines of a command's standard error that are
// not timings.
func errorLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if l != "" && !strings.HasPrefix(l, "ladder: trace:") {
			out = append(out, l)
		}
	}
	return out
}
