package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestProveRunRecord: a prove with nothing changed since a complete,
// successful run is replayed from its run record, without loading, and
// prints what a full run that reuses every verdict prints (the JSON, but
// for the summary's seconds). A change to anything the load reads (a
// file's bytes, a directory's entries), a damaged record, a cache
// snapshot written since, --only, and a failing run all run in full; a
// failing run's report is never recorded.
func TestProveRunRecord(t *testing.T) {
	t.Setenv("LADDER_TRACE", "1")
	dir, cache := proveFixture(t)
	impl := filepath.Join(dir, "impl.yaml")
	type result struct {
		code     int
		rep      map[string]any
		replayed bool
	}
	prove := func(t *testing.T, extra ...string) result {
		t.Helper()
		args := append([]string{"prove", dir, "--cache-dir", cache, "--json", "-j", "2"}, extra...)
		code, out, errOut := runLadder(args...)
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("prove %v: exit %d, output not JSON: %v\n%s\n%s", extra, code, err, out, errOut)
		}
		if !strings.Contains(errOut, "trace: replay") {
			t.Fatalf("prove %v: no replay phase:\n%s", extra, errOut)
		}
		return result{code, rep, !strings.Contains(errOut, "trace: load")}
	}
	want := func(t *testing.T, r result, replayed bool) {
		t.Helper()
		if r.code != exitOK || r.replayed != replayed {
			t.Fatalf("exit %d, replayed %t; want exit %d, replayed %t", r.code, r.replayed, exitOK, replayed)
		}
	}
	withoutSeconds := func(rep map[string]any) map[string]any {
		s := rep["summary"].(map[string]any)
		delete(s, "seconds")
		return rep
	}

	want(t, prove(t), false) // cold
	// A full warm run (its record removed) and the replay that follows
	// print the same.
	if err := os.RemoveAll(filepath.Join(cache, "runs")); err != nil {
		t.Fatal(err)
	}
	warm := prove(t)
	want(t, warm, false)
	again := prove(t)
	want(t, again, true)
	if w, a := withoutSeconds(warm.rep), withoutSeconds(again.rep); !reflect.DeepEqual(w, a) {
		t.Fatalf("the replay differs from the full warm run:\nfull   %v\nreplay %v", w, a)
	}
	if s := again.rep["summary"].(map[string]any); s["reused"] != 12.0 || s["rechecked"] != 0.0 {
		t.Errorf("replay summary %v", s)
	}

	t.Run("edited file", func(t *testing.T) {
		data, err := os.ReadFile(impl)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(impl, append(data, "# a comment\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		want(t, prove(t), false)
		want(t, prove(t), true)
	})
	t.Run("new directory entry", func(t *testing.T) {
		if err := os.Mkdir(filepath.Join(dir, "more"), 0o755); err != nil {
			t.Fatal(err)
		}
		want(t, prove(t), false)
		want(t, prove(t), true)
	})
	for _, ext := range []string{".run", ".report"} {
		t.Run("damaged "+ext, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join(cache, "runs", "*"+ext))
			if err != nil || len(files) != 1 {
				t.Fatalf("%s files %v, %v", ext, files, err)
			}
			data, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)-1] ^= 1
			if err := os.WriteFile(files[0], data, 0o600); err != nil {
				t.Fatal(err)
			}
			want(t, prove(t), false)
			want(t, prove(t), true)
		})
	}
	t.Run("cache snapshot written since", func(t *testing.T) {
		later := time.Now().Add(time.Minute)
		if err := os.Chtimes(filepath.Join(cache, "cache.db"), later, later); err != nil {
			t.Fatal(err)
		}
		want(t, prove(t), false)
		want(t, prove(t), true)
	})
	t.Run("only", func(t *testing.T) {
		want(t, prove(t, "--only", "Stage"), false)
		// The --only run saved the cache snapshot: the next run is in
		// full, and records the run again.
		want(t, prove(t), false)
		want(t, prove(t), true)
	})
	t.Run("failing run", func(t *testing.T) {
		replaceIn(t, impl, "      buf := k\n", "      buf := k + 5\n")
		for range 2 {
			r := prove(t)
			if r.code != exitFailure || r.replayed {
				t.Fatalf("exit %d, replayed %t; want exit %d, not replayed", r.code, r.replayed, exitFailure)
			}
		}
		replaceIn(t, impl, "      buf := k + 5\n", "      buf := k\n")
		want(t, prove(t), false)
		want(t, prove(t), true)
	})
}

// BenchmarkProveReplay times `ladder prove specs/` with nothing changed,
// in full (its run record removed first, so every unit is restored from
// its record) and then replayed from the run record that run wrote, one
// after the other in each iteration, and reports both times and their
// ratio.
func BenchmarkProveReplay(b *testing.B) {
	b.Setenv("LADDER_TRACE", "1")
	specs := filepath.Join("..", "..", "specs")
	cache := filepath.Join(b.TempDir(), "cache")
	prove := func() (time.Duration, bool) {
		start := time.Now()
		code, _, errOut := runLadder("prove", specs, "--cache-dir", cache, "-j", "2", "--json")
		if code != exitOK {
			b.Fatalf("prove: exit %d\n%s", code, errOut)
		}
		return time.Since(start), !strings.Contains(errOut, "trace: load")
	}
	prove() // cold
	var full, replay time.Duration
	n := 0
	for b.Loop() {
		if err := os.RemoveAll(filepath.Join(cache, "runs")); err != nil {
			b.Fatal(err)
		}
		f, replayed := prove()
		if replayed {
			b.Fatal("replayed without a run record")
		}
		r, replayed := prove()
		if !replayed {
			b.Fatal("not replayed with nothing changed")
		}
		full, replay, n = full+f, replay+r, n+1
	}
	b.ReportMetric(float64(full.Milliseconds())/float64(n), "full-ms")
	b.ReportMetric(float64(replay.Milliseconds())/float64(n), "replay-ms")
	b.ReportMetric(float64(full)/float64(replay), "full/replay")
}
