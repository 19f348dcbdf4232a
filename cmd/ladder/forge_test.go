package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ladder/internal/cache"
	"ladder/internal/kernel"
	"ladder/internal/refute"
	"ladder/internal/sign"
)

// forgeCounter is a wrong invariant: notDone fails after Stop.
const forgeCounter = `automaton: Counter
constants:
  max: {sort: Int, value: 3}
state:
  n: {sort: Nat, init: 0}
  done: {sort: Bool, init: false}
actions:
  Inc:
    kind: internal
    pre: n < max
    eff: n := n + 1
  Stop:
    kind: internal
    pre: n = max
    eff: done := true
invariants:
  notDone: not done or n < max
`

// TestForgedCacheRecord proves a wrong invariant (refuted), then forges the
// cache as someone who knows its format would: the refuted obligation's
// record rewritten to proved, with the snapshot's checksums made right by
// the cache package itself — once unsigned, once signed with a key the
// repository does not trust, once with a trusted signature moved from
// another record. Each time the next run warns that it ignored a record,
// checks the obligation again and refutes it (exit 1).
func TestForgedCacheRecord(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "counter.yaml")
	if err := os.WriteFile(file, []byte(forgeCounter), 0o644); err != nil {
		t.Fatal(err)
	}
	cacheDir := filepath.Join(dir, "cache")
	const id = "Counter › invariant notDone › Stop"
	refutedRE := regexp.MustCompile(regexp.QuoteMeta(id) + ` +refuted`)
	prove := func() (int, string, string) {
		return runLadder("prove", "-j", "1", "--cache-dir", cacheDir, file)
	}
	if code, out, errs := prove(); code != exitFailure || !refutedRE.MatchString(out) {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errs)
	}
	k, err := kernel.New(kernel.Config{}, t.TempDir(), refute.New())
	if err != nil {
		t.Fatal(err)
	}
	ident := k.Identity()
	solver := cache.SolverID{Name: ident.Name, Version: ident.Version, Params: ident.Params}

	otherKey, err := sign.NewKeyFile(filepath.Join(t.TempDir(), "other-key"), sign.Config{Comment: "forger"})
	if err != nil {
		t.Fatal(err)
	}
	// proved returns the record's kernel JSON turned into a proved one.
	proved := func(record []byte) []byte {
		var m map[string]any
		if err := json.Unmarshal(record, &m); err != nil {
			t.Fatalf("record %q: %v", record, err)
		}
		if m["verdict"] != "refuted" {
			t.Fatalf("the record is %v, not refuted", m["verdict"])
		}
		m["verdict"] = "proved"
		delete(m, "counterexample")
		out, _ := json.Marshal(m)
		return out
	}
	forgeries := []struct {
		name  string
		forge func(key string, sealed, other []byte) []byte
	}{
		{"unsigned", func(key string, sealed, _ []byte) []byte {
			return proved(body(t, sealed, key))
		}},
		{"signed by an untrusted key", func(key string, sealed, _ []byte) []byte {
			return otherKey.Seal(append([]byte("ladder-record-of "+key+"\n"), proved(body(t, sealed, key))...))
		}},
		{"a trusted signature of another record", func(key string, sealed, other []byte) []byte {
			return other // a proved record, signed, of another obligation
		}},
	}
	for _, f := range forgeries {
		c, _, err := cache.Open(cacheDir, solver)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := c.Generated(id)
		if !ok {
			t.Fatalf("no record of %s", id)
		}
		row, ok := c.Lookup(g.Key)
		if !ok {
			t.Fatal("no result")
		}
		og, _ := c.Generated("Counter › invariant notDone › start")
		other, _ := c.Lookup(og.Key)
		if err := c.Put(g.Key, cache.Result{Verdict: cache.Proved, Name: id, Detail: f.forge(g.Key, row.Detail, other.Detail)}); err != nil {
			t.Fatal(err)
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		c.Close()
		code, out, errs := prove()
		if code != exitFailure || !refutedRE.MatchString(out) {
			t.Errorf("%s: exit %d; want the refutation again\n%s%s", f.name, code, out, errs)
		}
		if !strings.Contains(errs, "not signed by a trusted key") || strings.Count(errs, "warning") != 1 {
			t.Errorf("%s: want one warning that a record was ignored; stderr:\n%s", f.name, errs)
		}
	}
}

// body returns the kernel record inside a sealed cache result.
func body(t *testing.T, sealed []byte, key string) []byte {
	t.Helper()
	_, rest, ok := bytes.Cut(sealed, []byte("\nladder-record-of "+key+"\n"))
	if !ok {
		t.Fatalf("the stored result is not a signed record of %s: %q", key, sealed)
	}
	return rest
}
