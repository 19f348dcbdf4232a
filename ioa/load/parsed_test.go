package load

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"ladder/ioa/expr"
)

// TestParsedMemo loads a directory twice through one Parsed, editing one
// file between the loads: the unedited files keep the YAML parsed the first
// time, the edited one is parsed again, and each load gives what a load
// without the memo gives (the same automata and the same errors, a file
// with a YAML error included).
func TestParsedMemo(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"counter-events.yaml", "counter.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata/ok", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("automaton: X\nstates: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// describe prints what a load gives: its automata with their
	// invariants and its errors.
	describe := func(s *Set, errs error) string {
		var b strings.Builder
		if s != nil {
			for _, a := range s.Automata {
				fmt.Fprintf(&b, "%s %d actions\n", a.Name, len(a.Actions))
				for _, inv := range a.Invariants {
					fmt.Fprintf(&b, "  %s: %s\n", inv.Name, expr.Print(inv.Body))
				}
			}
		}
		fmt.Fprintln(&b, errs)
		return b.String()
	}
	var memo Parsed
	load := func() (string, string) {
		t.Helper()
		s1, e1 := Config{Parsed: &memo}.Files(dir)
		s2, e2 := Config{}.Files(dir)
		return describe(s1, e1.Err()), describe(s2, e2.Err())
	}
	roots := func() map[string]any {
		out := map[string]any{}
		for path, e := range memo.by {
			out[filepath.Base(path)] = e.root
		}
		return out
	}
	got, want := load()
	if got != want {
		t.Fatalf("with the memo:\n%s\nwithout:\n%s", got, want)
	}
	if !strings.Contains(got, "bad.yaml:") {
		t.Fatalf("no error for bad.yaml:\n%s", got)
	}
	before := roots()
	if len(before) != 3 || before["bad.yaml"] != (*yaml.Node)(nil) {
		t.Fatalf("memo after the first load: %v", before)
	}
	counter := filepath.Join(dir, "counter.yaml")
	b, err := os.ReadFile(counter)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(counter, append(b, []byte("# edited\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	got, want = load()
	if got != want {
		t.Fatalf("after the edit, with the memo:\n%s\nwithout:\n%s", got, want)
	}
	after := roots()
	if after["counter-events.yaml"] != before["counter-events.yaml"] {
		t.Errorf("the unedited file was parsed again")
	}
	if after["counter.yaml"] == before["counter.yaml"] {
		t.Errorf("the edited file was not parsed again")
	}
}
