package simulation

import (
	"path/filepath"
	"strings"
	"testing"

	"ladder/ioa/load"
)

// loadCounter loads the counter example with the given proof files (in
// testdata/counter unless they contain a slash).
func loadCounter(t *testing.T, proofs ...string) *load.Set {
	t.Helper()
	files := []string{"testdata/counter/iface.yaml", "testdata/counter/spec.yaml", "testdata/counter/spech.yaml", "testdata/counter/impl.yaml"}
	for _, p := range proofs {
		if !strings.Contains(p, "/") {
			p = filepath.Join("testdata/counter", p)
		}
		files = append(files, p)
	}
	set, errs := load.Files(files...)
	if len(errs) > 0 {
		t.Fatalf("loading %v:\n%v", proofs, errs)
	}
	return set
}

func TestGenerateNamesCountsDeps(t *testing.T) {
	set := loadCounter(t, "ok_refinement.yaml", "ok_forward.yaml", "ok_backward.yaml", "ok_history.yaml", "ok_simple.yaml")
	obls, edges, errs := Generate(&set.Hierarchy, Config{})
	if len(errs) > 0 {
		t.Fatalf("Generate: %v", errs)
	}
	byID := map[string]*Obligation{}
	for _, o := range obls {
		if byID[o.ID] != nil {
			t.Errorf("duplicate ID %s", o.ID)
		}
		byID[o.ID] = o
		if o.Problem == nil || o.Replay == nil || !o.Pos.IsValid() {
			t.Errorf("%s: problem %v, replay %v, pos %v", o.ID, o.Problem != nil, o.Replay != nil, o.Pos)
		}
	}
	// Counts per edge (see docs/proofs.md, "Obligations").
	want := map[string]int{
		// start; Stage: post(total); Flush: pre(Add), post(total), event
		"Impl→Spec": 5,
		// start init, start R1; Stage: relation(R1); Flush: 2 cases × (pre, relation, event)
		"Impl→Spec [Impl-Spec-forward]": 9,
		// start, totality R1; Stage: relation, post; Flush: relation, pre, post, event
		"Impl→Spec [Impl-Spec-backward]": 8,
		// 3 starts; Add: guard, commute, event
		"Spec→SpecH":                   6,
		"Impl→Spec [Impl-Spec-simple]": 5,
	}
	for _, e := range edges {
		if n, ok := want[e.Name]; !ok || len(e.Obligations) != n {
			t.Errorf("edge %q: %d obligations %v; want %d", e.Name, len(e.Obligations), e.Obligations, n)
		}
	}
	// Invariants: 2 of Impl × (start + 2 actions); SpecH: countNonNeg and count:Nat × (start + Add).
	inv := 0
	for _, o := range obls {
		if o.Edge == "" {
			inv++
		}
	}
	if inv != 10 {
		t.Errorf("%d invariant obligations; want 10", inv)
	}
	for _, c := range []struct {
		id       string
		clause   string
		has, not []string
		assumes  []string
	}{
		{"Impl › invariant bufRange › Stage", ClauseInvariant,
			[]string{"automaton:Impl/action:Stage", "automaton:Impl/invariant:bufRange", "automaton:Impl/invariant:emptyBuf"},
			[]string{"automaton:Impl/action:Flush", "automaton:Impl/init"},
			[]string{"automaton:Impl/invariant:bufRange", "automaton:Impl/invariant:emptyBuf"}},
		{"SpecH › invariant count:Nat › start", ClauseStart,
			[]string{"automaton:SpecH/init", "automaton:SpecH/invariant:count:Nat"}, []string{"automaton:SpecH/action:Add"}, nil},
		{"Impl→Spec › refinement › Stage › post(total)", ClausePost,
			[]string{"automaton:Impl/action:Stage", "proof:Impl-Spec-refinement/mapping", "proof:Impl-Spec-refinement/step:Stage"},
			[]string{"automaton:Spec/action:Add", "automaton:Impl/action:Flush", "automaton:Impl/view:Flush"},
			[]string{"automaton:Impl/invariant:bufRange", "automaton:Impl/invariant:emptyBuf"}},
		{"Impl→Spec [Impl-Spec-simple] › simple-refinement › Flush › event", ClauseEvent,
			[]string{"automaton:Impl/definition:staged", "automaton:Impl/view:Flush", "automaton:Spec/view:Add"},
			[]string{"automaton:Impl/invariant:bufRange"}, []string{"automaton:Impl/invariant:emptyBuf"}},
		{"Impl→Spec [Impl-Spec-forward] › forward › Flush › case 2 › relation(R1)", ClauseRelation,
			[]string{"proof:Impl-Spec-forward/clause:R1", "proof:Impl-Spec-forward/step:Flush", "automaton:Spec/action:Add"},
			[]string{"automaton:Spec/view:Add"}, nil},
		{"Impl→Spec [Impl-Spec-backward] › backward › totality › R1", ClauseTotality,
			[]string{"proof:Impl-Spec-backward/total", "proof:Impl-Spec-backward/clause:R1"},
			[]string{"automaton:Impl/action:Flush"}, nil},
		{"Spec→SpecH › history › Add › commute", ClauseCommute,
			[]string{"automaton:Spec/action:Add", "automaton:SpecH/action:Add", "proof:Spec-SpecH/mapping", "automaton:SpecH/invariant:countNonNeg"},
			nil, []string{"automaton:SpecH/invariant:count:Nat", "automaton:SpecH/invariant:countNonNeg"}},
	} {
		id := c.id
		o := byID[id]
		if o == nil {
			t.Errorf("no obligation %s", id)
			continue
		}
		if o.Clause != c.clause {
			t.Errorf("%s: clause %s; want %s", id, o.Clause, c.clause)
		}
		deps := strings.Join(o.Deps, " ")
		for _, d := range c.has {
			if !strings.Contains(" "+deps+" ", " "+d+" ") {
				t.Errorf("%s: deps %v lack %s", id, o.Deps, d)
			}
		}
		for _, d := range c.not {
			if strings.Contains(" "+deps+" ", " "+d+" ") {
				t.Errorf("%s: deps %v contain %s", id, o.Deps, d)
			}
		}
		if c.assumes != nil && strings.Join(o.Assumes, " ") != strings.Join(c.assumes, " ") {
			t.Errorf("%s: assumes %v; want %v", id, o.Assumes, c.assumes)
		}
	}
}

// TestTrivialGoals checks the generator's simplifications on one edge: an
// obligation whose goal is true by construction (a stutter leaves the
// mapped variable as it is) has the literal false as its negated goal, the
// form kernel.Trivial decides without the solver, and one with a real goal
// does not.
func TestTrivialGoals(t *testing.T) {
	set := loadCounter(t, "ok_refinement.yaml")
	obls, _, errs := Generate(&set.Hierarchy, Config{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[string]bool{
		"Impl→Spec › refinement › Stage › post(total)": true,
		"Impl→Spec › refinement › Flush › post(total)": false,
	}
	for _, o := range obls {
		w, ok := want[o.ID]
		if !ok {
			continue
		}
		delete(want, o.ID)
		got, found := false, false
		for _, a := range o.Problem.Assertions {
			if a.Name == "goal (negated)" {
				got, found = a.Term.IsFalse(), true
			}
		}
		if !found {
			t.Errorf("%s: no negated goal among the assertions", o.ID)
		} else if got != w {
			t.Errorf("%s: negated goal is the literal false = %v, want %v", o.ID, got, w)
		}
	}
	for id := range want {
		t.Errorf("no obligation %s", id)
	}
}
