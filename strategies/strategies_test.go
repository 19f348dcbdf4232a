package strategies

import (
	"sort"
	"strings"
	"testing"

	"ladder/internal/logic"
	"ladder/internal/smt"
	"ladder/ioa/load"
	"ladder/simulation"
)

// loadTxn loads testdata/txn.yaml, whose invariants call strategies.
func loadTxn(t *testing.T) *load.Set {
	t.Helper()
	set, errs := load.Files("testdata/txn.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return set
}

// ids returns the IDs of the obligations of one group, sorted.
func ids(obls []*simulation.Obligation, group string) []string {
	var out []string
	for _, o := range obls {
		if o.Group == group {
			out = append(out, o.ID)
		}
	}
	sort.Strings(out)
	return out
}

// hypNames returns the names of o's assertions.
func hypNames(o *simulation.Obligation) string {
	var out []string
	for _, a := range o.Problem.Assertions {
		out = append(out, a.Name)
	}
	return strings.Join(out, "; ")
}

// quantified returns the names of o's assertions that contain a
// quantifier.
func quantified(o *simulation.Obligation) []string {
	var out []string
	for _, a := range o.Problem.Assertions {
		if hasQuantifier(a.Term, map[*logic.Term]bool{}) {
			out = append(out, a.Name)
		}
	}
	return out
}

func hasQuantifier(t *logic.Term, seen map[*logic.Term]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if t.Kind() == logic.KindForall || t.Kind() == logic.KindExists {
		return true
	}
	for _, a := range t.Args() {
		if hasQuantifier(a, seen) {
			return true
		}
	}
	return false
}

// TestObligationSets checks, per strategy, the names, counts and
// hypotheses of the obligations it produces.
func TestObligationSets(t *testing.T) {
	set := loadTxn(t)
	plain := generate(t, set, false)
	obls := generate(t, set, true)
	m := map[string]*simulation.Obligation{}
	for _, o := range obls {
		m[o.ID] = o
	}
	actions := []string{"Start", "Finish", "Grab", "Tick"}

	// parametrized (unnamed): the index t clashes with the parameter t.
	var want []string
	for _, a := range actions {
		if a == "Tick" {
			want = append(want, "Txn › invariant xIdle › Tick")
			continue
		}
		want = append(want, "Txn › invariant xIdle › "+a+" › case index t=t", "Txn › invariant xIdle › "+a+" › case index t≠t")
	}
	want = append(want, "Txn › invariant xIdle › start")
	sort.Strings(want)
	if got := ids(obls, "Txn › invariant xIdle"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("xIdle obligations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Every support invariant over T (all but logDone) at t and at the index.
	o := m["Txn › invariant xIdle › Finish › case index t≠t"]
	h := hypNames(o)
	for _, inv := range []string{"xIdle", "xBusy", "xDone", "ownerBusy", "wrongDone"} {
		for _, at := range []string{"t", "index t"} {
			if !strings.Contains(h, "instance Txn."+inv+"("+at+") at s") {
				t.Errorf("xIdle at Finish: no instance of %s(%s): %s", inv, at, h)
			}
		}
		if strings.Contains(h, "assume Txn."+inv+"(s)") {
			t.Errorf("xIdle at Finish: %s still quantified: %s", inv, h)
		}
	}
	if !strings.Contains(h, "assume Txn.logDone(s)") || !strings.Contains(h, "case index t≠t") {
		t.Errorf("xIdle at Finish: %s", h)
	}
	if got := strings.Join(o.Assumes, " "); !strings.Contains(got, "invariant:logDone") || !strings.Contains(got, "invariant:wrongDone") {
		t.Errorf("xIdle Assumes = %s", got)
	}

	// assume: xBusy keeps its two hypotheses, under its own IDs.
	if got, want := len(ids(obls, "Txn › invariant xBusy")), len(ids(plain, "Txn › invariant xBusy")); got != want {
		t.Errorf("xBusy: %d obligations, want %d (assume does not split)", got, want)
	}
	o = m["Txn › invariant xBusy › Start"]
	if h := hypNames(o); strings.Count(h, "assume ") != 2 || !strings.Contains(h, "assume Txn.xIdle(s)") || !strings.Contains(h, "assume Txn.xBusy(s)") {
		t.Errorf("xBusy at Start: %s", h)
	}
	if got := strings.Join(o.Assumes, " "); got != "automaton:Txn/invariant:n:Nat automaton:Txn/invariant:xBusy automaton:Txn/invariant:xIdle" {
		t.Errorf("xBusy Assumes = %s", got)
	}

	// parametrized with assume: only xBusy and xDone as support.
	o = m["Txn › invariant xDone › Finish › case u=t"]
	if h := hypNames(o); strings.Contains(h, "assume ") || strings.Count(h, "instance ") != 4 || !strings.Contains(h, "instance Txn.xBusy(u) at s") {
		t.Errorf("xDone at Finish: %s", h)
	}
	if got := strings.Join(o.Assumes, " "); got != "automaton:Txn/invariant:n:Nat automaton:Txn/invariant:xBusy automaton:Txn/invariant:xDone" {
		t.Errorf("xDone Assumes = %s", got)
	}

	// split on an Option, restricted to Grab; instantiate on Grab and Finish.
	for _, id := range []string{"Txn › invariant ownerBusy › Grab › case owner=None", "Txn › invariant ownerBusy › Grab › case owner=Some"} {
		if o := m[id]; o == nil || !strings.Contains(hypNames(o), "instance Txn.xBusy(t) at s") {
			t.Errorf("%s: missing, or without the instance", id)
		}
	}
	if o := m["Txn › invariant ownerBusy › Finish"]; o == nil || !strings.Contains(hypNames(o), "instance Txn.xBusy(t) at s") || !strings.Contains(hypNames(o), "assume Txn.xBusy(s)") {
		t.Errorf("ownerBusy at Finish: %v", o)
	}
	if o := m["Txn › invariant ownerBusy › Start"]; o == nil || strings.Contains(hypNames(o), "instance") {
		t.Errorf("ownerBusy at Start: the instantiate step applies to Grab and Finish only")
	}

	// Without a Strategist the declarations are ignored.
	for _, o := range plain {
		if strings.Contains(o.ID, "case") {
			t.Errorf("without a Strategist: %s", o.ID)
		}
	}

	// Every strategized obligation of a true invariant is proved.
	for _, o := range obls {
		if strings.Contains(o.ID, "wrongDone") {
			continue
		}
		if st, cex, _ := decide(t, o); st != smt.Unsat {
			t.Errorf("%s: %v\n%v", o.ID, st, cex)
		}
	}
}

// TestWrongInvariantRefutedPerCase is the negative test: wrongDone, with
// parametrized and a split on the index's pc, is refuted in exactly the
// case where it fails (Finish by the indexed transaction, which was Busy),
// with a counterexample the evaluator replays; every other case is proved.
func TestWrongInvariantRefutedPerCase(t *testing.T) {
	set := loadTxn(t)
	obls := generate(t, set, true)
	var refuted []string
	n := 0
	for _, o := range obls {
		if o.Group != "Txn › invariant wrongDone" {
			continue
		}
		n++
		st, cex, _ := decide(t, o)
		switch st {
		case smt.Unsat:
		case smt.Sat:
			refuted = append(refuted, o.ID)
			text := cex.String()
			for _, want := range []string{"fails: invariant: wrongDone(s') at u = T#", "concrete step: Finish(T#", "x: "} {
				if !strings.Contains(text, want) {
					t.Errorf("counterexample lacks %q:\n%s", want, text)
				}
			}
			t.Logf("%s", text)
		default:
			t.Errorf("%s: %v", o.ID, st)
		}
	}
	// 3 actions × (u=t, u≠t) × 3 values of pc[u], Tick × 3 values, start.
	if n != 3*2*3+3+1 {
		t.Errorf("%d obligations", n)
	}
	if got := strings.Join(refuted, "\n"); got != "Txn › invariant wrongDone › Finish › case u=t › case pc[u]=Busy" {
		t.Errorf("refuted:\n%s", got)
	}
}

// TestProofStrategies applies a proof's and a case's strategies to a
// forward simulation.
func TestProofStrategies(t *testing.T) {
	set, errs := load.Files("../simulation/testdata/counter/iface.yaml", "../simulation/testdata/counter/spec.yaml",
		"../simulation/testdata/counter/impl.yaml", "testdata/forward.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	obls, edges, errs := simulation.Generate(&set.Hierarchy, simulation.Config{Strategist: For()})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m := map[string]*simulation.Obligation{}
	for _, o := range obls {
		m[o.ID] = o
	}
	e := edges[0]
	want := []string{
		"Impl→Spec › forward › Flush › case 1 › event › case c.full=false",
		"Impl→Spec › forward › Flush › case 1 › event › case c.full=true",
		"Impl→Spec › forward › Flush › case 1 › pre(Add)", // clauses: excludes it from the split
		"Impl→Spec › forward › Flush › case 2 › pre(Add) › case k = c.buf=true",
		"Impl→Spec › forward › Flush › case 1 › relation(R1) › case c.full=false",
		"Impl→Spec › forward › Flush › case 1 › relation(R1) › case c.full=true",
		"Impl→Spec › forward › Flush › case 2 › event › case c.full=false › case k = c.buf=true",
		"Impl→Spec › forward › Flush › case 2 › event › case c.full=false › case k = c.buf=false",
	}
	for _, id := range want {
		o := m[id]
		if o == nil {
			t.Errorf("no obligation %s", id)
			continue
		}
		if !contains(e.Obligations, id) {
			t.Errorf("edge does not list %s", id)
		}
		// The proof's assume keeps emptyBuf; case 2's replaces it by bufRange.
		h := hypNames(o)
		kept, dropped := "emptyBuf", "bufRange"
		if strings.Contains(id, "case 2") {
			kept, dropped = dropped, kept
		}
		if strings.Contains(h, "assume Impl."+dropped+"(c)") || !strings.Contains(h, "assume Impl."+kept+"(c)") {
			t.Errorf("%s: %s", id, h)
		}
		if !contains(o.Deps, "proof:Impl-Spec-forward/strategy") {
			t.Errorf("%s: Deps %v", id, o.Deps)
		}
		if st, cex, _ := decide(t, o); st != smt.Unsat {
			t.Errorf("%s: %v\n%v", id, st, cex)
		}
	}
	// Stage: the proof's assume applies (its case's strategy has none),
	// the proof's split (actions: [Flush]) not, its case's split does.
	if o := m["Impl→Spec › forward › Stage › relation(R1) › case c.full=false"]; o == nil || hypNames(o) != "assume Impl.emptyBuf(c); R1(c, a); pre Stage(c, p); case c.full=false; goal (negated)" {
		t.Errorf("Stage: %v", o)
	}
	if got := strings.Join(e.Assumes, " "); got != "automaton:Impl/invariant:bufRange automaton:Impl/invariant:emptyBuf" {
		t.Errorf("edge Assumes = %s", got)
	}
}
