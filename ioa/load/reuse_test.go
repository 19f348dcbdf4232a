package load

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ladder/ioa"
	"ladder/ioa/expr"
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

// hasTransfer reports whether p assumes an invariant by transfer.
func hasTransfer(p *ioa.Proof) bool {
	for _, side := range p.AssumeSides() {
		for _, r := range side.Refs {
			if r.Transferred() {
				return true
			}
		}
	}
	return false
}

// describeProofs prints the proofs of a load: each one's kind, automata,
// relation clauses, steps and the chains of its transferred assumptions.
func describeProofs(s *Set) string {
	var b strings.Builder
	for _, p := range s.Proofs {
		fmt.Fprintf(&b, "%s %s %s %s→%s, %d clauses, %d steps\n", p.Name, p.Pos, p.Kind, p.Concrete.Name, p.Abstract.Name, len(p.Relation), len(p.Steps))
		for _, c := range p.Relation {
			fmt.Fprintf(&b, "  %s: %s\n", c.Name, expr.Print(c.Body))
		}
		for _, side := range p.AssumeSides() {
			for _, r := range side.Refs {
				var chain []string
				for _, q := range r.Chain {
					chain = append(chain, q.Name)
				}
				fmt.Fprintf(&b, "  assume %s of %s via %v\n", r.Name, side.Owner.Name, chain)
			}
		}
	}
	return b.String()
}

// TestReuseRepository loads the repository's specifications, algorithms
// and proofs through one Parsed, again with nothing changed, and again
// after an edit of one specification: each load gives what a load without
// the memo gives; with nothing changed every interface, automaton and
// proof is reused; after the edit the edited automaton and every proof
// naming it are built again, and nothing else; after an edit of a proof
// on the chain of a transferred invariant, that proof and those assuming
// the invariant are built again.
func TestReuseRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the repository four times")
	}
	root := t.TempDir()
	for _, d := range []string{"specs", "algorithms", "proofs"} {
		if err := os.CopyFS(filepath.Join(root, d), os.DirFS(filepath.Join("..", "..", d))); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{filepath.Join(root, "specs"), filepath.Join(root, "algorithms"), filepath.Join(root, "proofs")}
	var memo Parsed
	load := func(what string) *Set {
		t.Helper()
		s1, e1 := Config{Parsed: &memo}.Files(paths...)
		s2, e2 := Config{}.Files(paths...)
		if len(e1) > 0 {
			t.Fatalf("%s: %v", what, e1.Err())
		}
		got := describeSet(s1, e1.Err()) + describeProofs(s1)
		want := describeSet(s2, e2.Err()) + describeProofs(s2)
		if got != want {
			t.Fatalf("%s: the load with the memo differs from the one without", what)
		}
		return s1
	}
	first := load("first load")
	again := load("nothing changed")
	same := func(a, b *Set) (autos map[string]bool, proofs map[string]bool) {
		autos, proofs = map[string]bool{}, map[string]bool{}
		for i, x := range a.Automata {
			autos[x.Name] = x == b.Automata[i]
		}
		for i, it := range a.Interfaces {
			autos["interface "+it.Name] = it == b.Interfaces[i]
		}
		for i, p := range a.Proofs {
			proofs[p.Name] = p == b.Proofs[i]
		}
		return autos, proofs
	}
	autos, proofs := same(first, again)
	transfers := 0
	for name, reused := range autos {
		if !reused {
			t.Errorf("nothing changed: %s built again", name)
		}
	}
	for _, p := range again.Proofs {
		if hasTransfer(p) {
			transfers++
		}
		if !proofs[p.Name] {
			t.Errorf("nothing changed: proof %s built again (assumes by transfer: %v)", p.Name, hasTransfer(p))
		}
	}
	if transfers == 0 || transfers == len(again.Proofs) {
		t.Fatalf("%d of %d proofs assume by transfer: the test needs both kinds", transfers, len(again.Proofs))
	}

	spec := filepath.Join(root, "specs", "TMS2.yaml")
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	write(t, spec, string(b)+"# edited\n")
	edited := load("TMS2 edited")
	autos, proofs = same(again, edited)
	for name, reused := range autos {
		if reused == (name == "TMS2") {
			t.Errorf("TMS2 edited: %s reused %v", name, reused)
		}
	}
	named := 0
	for _, p := range edited.Proofs {
		names := p.Concrete.Name == "TMS2" || p.Abstract.Name == "TMS2"
		if names {
			named++
		}
		// the chains of the proofs assuming by transfer do not go
		// through TMS2's proofs
		if proofs[p.Name] == names {
			t.Errorf("TMS2 edited: proof %s reused %v", p.Name, proofs[p.Name])
		}
	}
	if named == 0 {
		t.Fatal("no proof names TMS2")
	}

	// A proof on the chain of the transferred invariants edited: it, and
	// every proof assuming by transfer through it, is built again.
	link := filepath.Join(root, "proofs", "NOrec-NOrecDerived.yaml")
	b, err = os.ReadFile(link)
	if err != nil {
		t.Fatal(err)
	}
	write(t, link, string(b)+"# edited\n")
	relinked := load("a link of a chain edited")
	_, proofs = same(edited, relinked)
	through := 0
	for _, p := range relinked.Proofs {
		via := p.Name == "NOrec-NOrecDerived"
		for _, side := range p.AssumeSides() {
			for _, r := range side.Refs {
				for _, q := range r.Chain {
					via = via || q.Name == "NOrec-NOrecDerived"
				}
			}
		}
		if via && p.Name != "NOrec-NOrecDerived" {
			through++
		}
		if proofs[p.Name] == via {
			t.Errorf("a link of a chain edited: proof %s reused %v", p.Name, proofs[p.Name])
		}
	}
	if through == 0 {
		t.Fatal("no proof assumes by transfer through NOrec-NOrecDerived")
	}
}
