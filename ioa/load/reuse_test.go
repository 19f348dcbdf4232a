package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReuse loads a directory through one Parsed again and again, editing
// it between the loads: an automaton or interface whose file, and whose
// interface, are unchanged is the very object of the load before; one
// whose file or interface changed is built again; a file that loaded with
// an error is never reused; and each load gives what a load without the
// memo gives, a clash with a new file's declaration included.
func TestReuse(t *testing.T) {
	dir := t.TempDir()
	copyIn := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("testdata/ok", from))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, to), string(b))
	}
	copyIn("counter-events.yaml", "counter-events.yaml")
	copyIn("counter.yaml", "counter.yaml")
	counter, err := os.ReadFile(filepath.Join(dir, "counter.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// a second automaton over the same interface
	second := strings.Replace(string(counter), "automaton: Counter", "automaton: Counter2", 1)
	write(t, filepath.Join(dir, "counter2.yaml"), second)

	var memo Parsed
	load := func(what string) *Set {
		t.Helper()
		s1, e1 := Config{Parsed: &memo}.Files(dir)
		s2, e2 := Config{}.Files(dir)
		got, want := describeSet(s1, e1.Err()), describeSet(s2, e2.Err())
		if got != want {
			t.Fatalf("%s: with the memo:\n%s\nwithout:\n%s", what, got, want)
		}
		return s1
	}
	byName := func(s *Set) map[string]any {
		out := map[string]any{}
		for _, a := range s.Automata {
			out[a.Name] = a
		}
		for _, it := range s.Interfaces {
			out[it.Name] = it
		}
		return out
	}

	s0 := byName(load("first load"))
	s1 := byName(load("nothing changed"))
	for _, name := range []string{"Counter", "Counter2", "CounterEvents"} {
		if s1[name] == nil || s1[name] != s0[name] {
			t.Errorf("nothing changed: %s was built again", name)
		}
	}

	// an edit of one automaton: only that one is built again
	write(t, filepath.Join(dir, "counter2.yaml"), second+"# edited\n")
	s2 := byName(load("automaton edited"))
	if s2["Counter2"] == s1["Counter2"] {
		t.Errorf("the edited automaton was reused")
	}
	if s2["Counter"] != s1["Counter"] || s2["CounterEvents"] != s1["CounterEvents"] {
		t.Errorf("an unedited automaton or interface was built again")
	}

	// an edit of the interface: both automata are built again over it
	events, err := os.ReadFile(filepath.Join(dir, "counter-events.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "counter-events.yaml"), string(events)+"# edited\n")
	s3 := byName(load("interface edited"))
	for _, name := range []string{"Counter", "Counter2", "CounterEvents"} {
		if s3[name] == s2[name] {
			t.Errorf("interface edited: %s was reused", name)
		}
	}

	// a new file declaring a name an unchanged automaton declares: the
	// clash is reported as a load without the memo reports it
	write(t, filepath.Join(dir, "dup.yaml"), second)
	s4, errs := Config{Parsed: &memo}.Files(dir)
	if !strings.Contains(errs.Err().Error(), `automaton "Counter2" is already declared`) {
		t.Fatalf("no clash reported: %v", errs.Err())
	}
	load("a clashing file")
	if byName(s4)["Counter"] != s3["Counter"] {
		t.Errorf("the automaton beside the clash was built again")
	}
	if err := os.Remove(filepath.Join(dir, "dup.yaml")); err != nil {
		t.Fatal(err)
	}

	// an automaton with an error is built again each time, the error
	// reported each time
	write(t, filepath.Join(dir, "counter2.yaml"), second+"invariants:\n  bad: n + true\n")
	s5 := load("an error")
	s6 := load("the error again")
	if byName(s5)["Counter2"] == byName(s6)["Counter2"] {
		t.Errorf("an automaton with an error was reused")
	}
}
