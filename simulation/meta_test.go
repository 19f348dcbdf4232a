package simulation

import (
	"strings"
	"testing"

	"ladder/ioa"
	"ladder/ioa/expr"
)

// ---- hand-built automata, proofs and edges ----

func iface(name string) *ioa.Interface {
	return &ioa.Interface{Name: name, Events: []*ioa.Event{{Name: "Ev"}}}
}

// mkAuto returns an automaton with Int variables.
func mkAuto(name string, itf *ioa.Interface, vars ...string) *ioa.Automaton {
	a := &ioa.Automaton{Name: name, Interface: itf}
	ss := &expr.Sort{Kind: expr.KRecord, Name: name, State: a}
	for i, v := range vars {
		obj := &expr.Object{Kind: expr.ObjVar, Name: v, Sort: expr.IntSort, Index: i, Owner: a}
		a.Vars = append(a.Vars, &ioa.StateVar{Name: v, Sort: expr.IntSort, Obj: obj})
		ss.Fields = append(ss.Fields, expr.Field{Name: v, Sort: expr.IntSort})
	}
	a.StateSort = ss
	return a
}

func stateObj(name string, a *ioa.Automaton) *expr.Object {
	return &expr.Object{Kind: expr.ObjState, Name: name, Sort: a.StateSort}
}

func ident(o *expr.Object) *expr.Ident {
	id := &expr.Ident{Name: o.Name, Obj: o}
	id.SetSort(o.Sort)
	return id
}

func sel(st *expr.Object, a *ioa.Automaton, v string) *expr.FieldSel {
	f := &expr.FieldSel{X: ident(st), Name: v, Field: a.StateSort.FieldIndex(v)}
	f.SetSort(a.Var(v).Sort)
	return f
}

func intLit(n int64) *expr.IntLit {
	l := &expr.IntLit{Value: n}
	l.SetSort(expr.IntSort)
	return l
}

func bin(op expr.Op, x, y expr.Expr, s *expr.Sort) *expr.Binary {
	b := &expr.Binary{Op: op, X: x, Y: y}
	b.SetSort(s)
	return b
}

// mkEdge returns an edge C → A of the given kind whose mapping sends every
// variable of A to the same-named variable of C plus one (refinements), or
// every variable of C to the same-named one of A (history).
func mkEdge(kind ioa.ProofKind, c, a *ioa.Automaton, assumes ...string) *Edge {
	p := &ioa.Proof{Name: c.Name + "-" + a.Name, Kind: kind, Concrete: c, Abstract: a}
	p.C, p.A = stateObj("c", c), stateObj("a", a)
	switch {
	case kind.IsRefinement():
		p.Mapping = &ioa.StateMap{Target: a}
		for i, v := range a.Vars {
			p.Mapping.Entries = append(p.Mapping.Entries, &ioa.MapEntry{Var: v,
				Value: bin(expr.OpAdd, sel(p.C, c, c.Vars[i].Name), intLit(1), expr.IntSort)})
		}
	case kind == ioa.ProofHistory:
		p.Mapping = &ioa.StateMap{Target: c}
		for _, v := range c.Vars {
			p.Mapping.Entries = append(p.Mapping.Entries, &ioa.MapEntry{Var: v, Value: sel(p.A, a, v.Name)})
		}
	}
	e := &Edge{Name: EdgeName(p), Proof: p, Assumes: assumes}
	e.Obligations = []string{e.Name + " › start"}
	return e
}

// verdicts returns a verdict function: listed IDs get their status,
// everything else is proved.
func verdicts(m map[string]Status) func(string) Status {
	return func(id string) Status {
		if s, ok := m[id]; ok {
			return s
		}
		return Proved
	}
}

// invariant adds invariant name = body to a and returns its obligations
// (one start obligation, assuming the given invariant keys).
func invariant(a *ioa.Automaton, name string, body expr.Expr, assumes ...string) []*Obligation {
	a.Invariants = append(a.Invariants, &ioa.Invariant{Name: name, Body: body})
	k := InvariantKey(a, name)
	return []*Obligation{{ID: a.Name + " › invariant " + name + " › start", Invariant: k, Assumes: assumes, automaton: a}}
}

func names(d *Derivation) string {
	var out []string
	for _, t := range d.Theorems {
		out = append(out, t.Name)
	}
	return strings.Join(out, "\n")
}

// ---- tests ----

func TestDeriveChain(t *testing.T) {
	itf := iface("TM")
	c, b, a := mkAuto("C", itf, "x"), mkAuto("B", itf, "x"), mkAuto("A", itf, "x")
	e1, e2 := mkEdge(ioa.ProofRefinement, c, b), mkEdge(ioa.ProofForward, b, a)
	d := Derive(nil, []*Edge{e1, e2}, verdicts(nil))
	for _, want := range []string{"C implements B", "B implements A", "C implements A", "C refines B"} {
		if d.Theorem(want) == nil {
			t.Errorf("missing theorem %q; derived:\n%s", want, names(d))
		}
	}
	if th := d.Theorem("C implements A"); th != nil {
		if th.Rule != RuleTransitivity || strings.Join(th.Edges, ",") != "B→A,C→B" {
			t.Errorf("C implements A: rule %s, edges %v; want transitivity from B→A,C→B", th.Rule, th.Edges)
		}
	}
	// A forward simulation is no refinement mapping: nothing composes.
	if d.Theorem("C refines A") != nil || d.Theorem("B refines A") != nil {
		t.Errorf("a forward simulation was used as a refinement mapping:\n%s", names(d))
	}
}

func TestTransitivityRefusesUnprovedEdge(t *testing.T) {
	itf := iface("TM")
	c, b, a := mkAuto("C", itf, "x"), mkAuto("B", itf, "x"), mkAuto("A", itf, "x")
	e1, e2 := mkEdge(ioa.ProofRefinement, c, b), mkEdge(ioa.ProofRefinement, b, a)
	for _, st := range []Status{Unknown, Refuted, Unchecked} {
		d := Derive(nil, []*Edge{e1, e2}, verdicts(map[string]Status{e2.Obligations[0]: st}))
		if d.Edges[e2.Name] != st {
			t.Errorf("status of %s = %s; want %s", e2.Name, d.Edges[e2.Name], st)
		}
		if d.Theorem("C implements A") != nil || d.Theorem("B implements A") != nil || d.Theorem("C refines A") != nil {
			t.Errorf("with B→A %s, derived:\n%s", st, names(d))
		}
		if _, err := TraceInclusion(e2, st); err == nil {
			t.Errorf("TraceInclusion accepted an edge that is %s", st)
		}
	}
	// Premises that do not meet are refused.
	x, _ := TraceInclusion(e1, Proved)
	if _, err := Transitivity(x[0], x[0]); err == nil {
		t.Errorf("Transitivity(C implements B, C implements B) succeeded")
	}
}

func TestCompositionRefusesDifferentInterfaces(t *testing.T) {
	c, b, a := mkAuto("C", iface("TM"), "x"), mkAuto("B", iface("TM"), "x"), mkAuto("A", iface("Other"), "x")
	f := &Theorem{Name: "C refines B", Kind: Refines, Concrete: c, Abstract: b, Map: mkEdge(ioa.ProofRefinement, c, b).Proof.Mapping}
	g := &Theorem{Name: "B refines A", Kind: Refines, Concrete: b, Abstract: a, Map: mkEdge(ioa.ProofRefinement, b, a).Proof.Mapping}
	if _, err := Composition(f, g); err == nil || !strings.Contains(err.Error(), "interface") {
		t.Errorf("Composition across interfaces: err = %v; want an interface error", err)
	}
	// And the derivation refuses the edge itself.
	e := mkEdge(ioa.ProofRefinement, b, a)
	if _, err := EdgeRefinement(e, Proved); err == nil {
		t.Errorf("EdgeRefinement accepted automata with different interfaces")
	}
	if _, err := TraceInclusion(e, Proved); err == nil {
		t.Errorf("TraceInclusion accepted automata with different interfaces")
	}
	// Composition refuses trace inclusions.
	ti, _ := TraceInclusion(mkEdge(ioa.ProofRefinement, c, b), Proved)
	if _, err := Composition(ti[0], g); err == nil {
		t.Errorf("Composition accepted a trace inclusion as a refinement")
	}
}

func TestCompositionSubstitutes(t *testing.T) {
	itf := iface("TM")
	c, b, a := mkAuto("C", itf, "x"), mkAuto("B", itf, "x"), mkAuto("A", itf, "x")
	e1, e2 := mkEdge(ioa.ProofRefinement, c, b), mkEdge(ioa.ProofRefinement, b, a)
	d := Derive(nil, []*Edge{e1, e2}, verdicts(nil))
	th := d.Theorem("C refines A")
	if th == nil || th.Rule != RuleComposition {
		t.Fatalf("C refines A not derived by composition:\n%s", names(d))
	}
	// a.x := (c.x + 1) + 1, over C's state object.
	got := th.Map.Entry("x").Value
	outer, ok := got.(*expr.Binary)
	if !ok || outer.Op != expr.OpAdd {
		t.Fatalf("composed mapping = %T; want a sum", got)
	}
	inner, ok := outer.X.(*expr.Binary)
	if !ok {
		t.Fatalf("composed mapping's left operand = %T; want c.x + 1", outer.X)
	}
	fs, ok := inner.X.(*expr.FieldSel)
	if !ok || fs.X.(*expr.Ident).Obj != e1.Proof.C || fs.Name != "x" {
		t.Errorf("composed mapping does not select x of C's state")
	}
	if th.State != e1.Proof.C {
		t.Errorf("composed mapping's state object is not C's")
	}
}

func TestTransferRefusesForward(t *testing.T) {
	itf := iface("TM")
	c, a := mkAuto("C", itf, "x"), mkAuto("A", itf, "x")
	body := bin(expr.OpGe, ident(a.Vars[0].Obj), intLit(0), expr.BoolSort)
	obls := invariant(a, "pos", body)
	fwd := mkEdge(ioa.ProofForward, c, a)
	d := Derive(obls, []*Edge{fwd}, verdicts(nil))
	if d.Theorem("A satisfies A.pos") == nil {
		t.Fatalf("the invariant itself is not derived:\n%s", names(d))
	}
	if d.Theorem("C satisfies A.pos") != nil {
		t.Errorf("an invariant was transferred along a forward simulation")
	}
	if _, err := EdgeRefinement(fwd, Proved); err == nil {
		t.Errorf("EdgeRefinement accepted a forward simulation")
	}
	ti, _ := TraceInclusion(fwd, Proved)
	if _, err := Transfer(ti[0], d.Theorem("A satisfies A.pos")); err == nil {
		t.Errorf("Transfer accepted a trace inclusion")
	}
}

func TestTransferSubstitutes(t *testing.T) {
	itf := iface("TM")
	c, a := mkAuto("C", itf, "y"), mkAuto("A", itf, "x")
	body := bin(expr.OpGe, ident(a.Vars[0].Obj), intLit(0), expr.BoolSort)
	obls := invariant(a, "pos", body)
	ref := mkEdge(ioa.ProofRefinement, c, a)
	ref.Proof.Mapping.Entries[0].Value = bin(expr.OpAdd, sel(ref.Proof.C, c, "y"), intLit(1), expr.IntSort)
	d := Derive(obls, []*Edge{ref}, verdicts(nil))
	th := d.Theorem("C satisfies A.pos")
	if th == nil {
		t.Fatalf("not transferred:\n%s", names(d))
	}
	ge := th.Body.(*expr.Binary)
	sum, ok := ge.X.(*expr.Binary)
	if !ok || sum.Op != expr.OpAdd {
		t.Fatalf("P∘f = %T; want (c.y + 1) >= 0", ge.X)
	}
	if fs := sum.X.(*expr.FieldSel); fs.Name != "y" || fs.X.(*expr.Ident).Obj != ref.Proof.C {
		t.Errorf("P∘f does not select y of C's state")
	}
	if body.X.(*expr.Ident).Obj != a.Vars[0].Obj {
		t.Errorf("Transfer modified the source invariant")
	}
	// The invariant must be proved: with its obligation unknown nothing transfers.
	d = Derive(obls, []*Edge{ref}, verdicts(map[string]Status{obls[0].ID: Unknown}))
	if d.Theorem("C satisfies A.pos") != nil || d.Theorem("A satisfies A.pos") != nil {
		t.Errorf("an unproved invariant was used:\n%s", names(d))
	}
}

func TestTransferInlinesDefinitions(t *testing.T) {
	itf := iface("TM")
	c, a := mkAuto("C", itf, "y"), mkAuto("A", itf, "x")
	// A: def above(k: Int) = x > k; invariant P: above(0).
	k := &expr.Object{Kind: expr.ObjBound, Name: "k", Sort: expr.IntSort}
	def := &expr.Object{Kind: expr.ObjDef, Name: "above", Sort: expr.BoolSort, Params: []*expr.Object{k}, Owner: a,
		Body: bin(expr.OpGt, ident(a.Vars[0].Obj), ident(k), expr.BoolSort)}
	a.Defs = []*expr.Object{def}
	call := &expr.Call{Fun: ident(def), Args: []expr.Expr{intLit(0)}}
	call.SetSort(expr.BoolSort)
	obls := invariant(a, "P", call)
	ref := mkEdge(ioa.ProofRefinement, c, a)
	d := Derive(obls, []*Edge{ref}, verdicts(nil))
	th := d.Theorem("C satisfies A.P")
	if th == nil {
		t.Fatalf("not transferred:\n%s", names(d))
	}
	// let k' = 0 in (c.y + 1) > k', with a fresh k'.
	l, ok := th.Body.(*expr.Let)
	if !ok {
		t.Fatalf("P∘f = %T; want a let", th.Body)
	}
	if l.Var == k || l.Var.Name != "k" {
		t.Errorf("the definition's parameter was not renamed to a fresh object")
	}
	gt := l.Body.(*expr.Binary)
	if id, ok := gt.Y.(*expr.Ident); !ok || id.Obj != l.Var {
		t.Errorf("the inlined body does not refer to the let-bound parameter")
	}
	if _, ok := gt.X.(*expr.Binary); !ok {
		t.Errorf("the inlined body does not use the mapping for x")
	}
}

func TestInvariantStatusJointInduction(t *testing.T) {
	itf := iface("TM")
	a := mkAuto("A", itf, "x")
	body := bin(expr.OpGe, ident(a.Vars[0].Obj), intLit(0), expr.BoolSort)
	kp, kq, kr := InvariantKey(a, "P"), InvariantKey(a, "Q"), InvariantKey(a, "R")
	obls := append(invariant(a, "P", body, kp, kq), invariant(a, "Q", body, kp, kq)...)
	obls = append(obls, invariant(a, "R", body, kr, kq)...)
	// P and Q assume each other: both proved.
	st := InvariantStatus(obls, verdicts(nil))
	if st[kp] != Proved || st[kq] != Proved || st[kr] != Proved {
		t.Errorf("statuses = %v; want all proved", st)
	}
	// Q unknown: P (assumes Q) and R (assumes Q) are unknown too.
	st = InvariantStatus(obls, verdicts(map[string]Status{obls[1].ID: Unknown}))
	if st[kp] != Unknown || st[kq] != Unknown || st[kr] != Unknown {
		t.Errorf("statuses = %v; want all unknown", st)
	}
	// Q refuted: Q is refuted, and P and R, which assume it, are unknown.
	st = InvariantStatus(obls, verdicts(map[string]Status{obls[1].ID: Refuted}))
	if st[kp] != Unknown || st[kq] != Refuted || st[kr] != Unknown {
		t.Errorf("statuses = %v; want P, R unknown and Q refuted", st)
	}
	// R refuted: P and Q are unaffected.
	st = InvariantStatus(obls, verdicts(map[string]Status{obls[2].ID: Refuted}))
	if st[kp] != Proved || st[kq] != Proved || st[kr] != Refuted {
		t.Errorf("statuses = %v; want P, Q proved and R refuted", st)
	}
}

func TestEdgeNeedsAssumedInvariants(t *testing.T) {
	itf := iface("TM")
	c, a := mkAuto("C", itf, "x"), mkAuto("A", itf, "x")
	body := bin(expr.OpGe, ident(c.Vars[0].Obj), intLit(0), expr.BoolSort)
	obls := invariant(c, "inv", body)
	e := mkEdge(ioa.ProofRefinement, c, a, InvariantKey(c, "inv"))
	if d := Derive(obls, []*Edge{e}, verdicts(nil)); d.Theorem("C implements A") == nil {
		t.Errorf("not derived with the assumed invariant proved:\n%s", names(d))
	}
	d := Derive(obls, []*Edge{e}, verdicts(map[string]Status{obls[0].ID: Refuted}))
	// The edge's own obligations are not refuted: it is unknown, and no
	// theorem follows from it.
	if d.Edges[e.Name] != Unknown || d.Theorem("C implements A") != nil {
		t.Errorf("edge assuming a refuted invariant: status %s, theorems:\n%s", d.Edges[e.Name], names(d))
	}
	// An assumption nobody generated leaves the edge unchecked.
	e2 := mkEdge(ioa.ProofRefinement, c, a, InvariantKey(c, "missing"))
	if st := EdgeStatus(e2, verdicts(nil), InvariantStatus(obls, verdicts(nil))); st != Unchecked {
		t.Errorf("edge assuming an unknown invariant: status %s; want unchecked", st)
	}
}

func TestHistoryBothWays(t *testing.T) {
	itf := iface("TM")
	c, a, r := mkAuto("TMS2", itf, "x"), mkAuto("TxnOrd", itf, "x", "h"), mkAuto("Res", itf, "x")
	hist := mkEdge(ioa.ProofHistory, c, a)
	ref := mkEdge(ioa.ProofRefinement, a, r)
	back := mkEdge(ioa.ProofBackward, r, a)
	d := Derive(nil, []*Edge{hist, ref, back}, verdicts(nil))
	for _, want := range []string{"TMS2 implements TxnOrd", "TxnOrd implements TMS2", "TxnOrd refines TMS2",
		"TMS2 implements Res", "Res implements TMS2"} {
		if d.Theorem(want) == nil {
			t.Errorf("missing %q; derived:\n%s", want, names(d))
		}
	}
	if d.Theorem("TMS2 refines TxnOrd") != nil {
		t.Errorf("a history edge's forward half was used as a refinement mapping")
	}
	th := d.Theorem("Res implements TMS2")
	if th != nil && !strings.Contains(th.Provenance(), "transitivity") {
		t.Errorf("provenance = %q", th.Provenance())
	}
}

func TestCheckClaims(t *testing.T) {
	itf := iface("TM")
	c, a := mkAuto("C", itf, "x"), mkAuto("A", itf, "x")
	e := mkEdge(ioa.ProofRefinement, c, a)
	e.Proof.Theorems = []*ioa.TheoremClaim{
		{Subject: "C", Verb: "implements", Object: "A"},
		{Subject: "A", Verb: "implements", Object: "C"},
	}
	d := Derive(nil, []*Edge{e}, verdicts(nil))
	errs := CheckClaims([]*ioa.Proof{e.Proof}, d)
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, "A implements C") {
		t.Errorf("CheckClaims = %v; want one error about A implements C", errs)
	}
}
