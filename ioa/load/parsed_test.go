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
	var memo Parsed
	load := func() (string, string) {
		t.Helper()
		s1, e1 := Config{Parsed: &memo}.Files(dir)
		s2, e2 := Config{}.Files(dir)
		return describeSet(s1, e1.Err()), describeSet(s2, e2.Err())
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

// describeSet prints what a load gives: its interfaces, its automata with
// their actions and invariants, and its errors.
func describeSet(s *Set, errs error) string {
	var b strings.Builder
	if s != nil {
		for _, it := range s.Interfaces {
			fmt.Fprintf(&b, "interface %s %s %d events\n", it.Name, it.Pos, len(it.Events))
		}
		for _, a := range s.Automata {
			iface := ""
			if a.Interface != nil {
				iface = a.Interface.Name
			}
			fmt.Fprintf(&b, "%s %s over %s, %d actions\n", a.Name, a.Pos, iface, len(a.Actions))
			for _, act := range a.Actions {
				fmt.Fprintf(&b, "  %s: %s\n", act.Name, expr.Print(act.Pre))
			}
			for _, inv := range a.Invariants {
				fmt.Fprintf(&b, "  %s: %s\n", inv.Name, expr.Print(inv.Body))
			}
		}
		fmt.Fprintf(&b, "files %v\n", s.Files)
	}
	fmt.Fprintln(&b, errs)
	return b.String()
}

// write writes text to the file at path.
func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
