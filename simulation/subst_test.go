package simulation

// The tests of the substitution that transfers an invariant along a
// refinement mapping (subst.go): the body of P∘f and the composed mapping
// g∘f. The rules themselves are tested in package internal/theorems.

import (
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

// mkEdge returns a proof C → A of the given kind whose mapping sends every
// variable of A to the same-named variable of C plus one (refinements), or
// every variable of C to the same-named one of A (history).
func mkEdge(kind ioa.ProofKind, c, a *ioa.Automaton) *ioa.Proof {
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
	return p
}

func TestCompositionSubstitutes(t *testing.T) {
	itf := iface("TM")
	c, b, a := mkAuto("C", itf, "x"), mkAuto("B", itf, "x"), mkAuto("A", itf, "x")
	f, g := mkEdge(ioa.ProofRefinement, c, b), mkEdge(ioa.ProofRefinement, b, a)
	// a.x := (c.x + 1) + 1, over C's state object: g's entry with f substituted.
	got := newSubstituter(g.Concrete, g.C, mapValue(f.Mapping)).expr(g.Mapping.Entry("x").Value)
	outer, ok := got.(*expr.Binary)
	if !ok || outer.Op != expr.OpAdd {
		t.Fatalf("composed mapping = %T; want a sum", got)
	}
	inner, ok := outer.X.(*expr.Binary)
	if !ok {
		t.Fatalf("composed mapping's left operand = %T; want c.x + 1", outer.X)
	}
	fs, ok := inner.X.(*expr.FieldSel)
	if !ok || fs.X.(*expr.Ident).Obj != f.C || fs.Name != "x" {
		t.Errorf("composed mapping does not select x of C's state")
	}
}

func TestTransferSubstitutes(t *testing.T) {
	itf := iface("TM")
	c, a := mkAuto("C", itf, "y"), mkAuto("A", itf, "x")
	body := bin(expr.OpGe, ident(a.Vars[0].Obj), intLit(0), expr.BoolSort)
	ref := mkEdge(ioa.ProofRefinement, c, a)
	ref.Mapping.Entries[0].Value = bin(expr.OpAdd, sel(ref.C, c, "y"), intLit(1), expr.IntSort)
	ge := newSubstituter(a, nil, mapValue(ref.Mapping)).expr(body).(*expr.Binary)
	sum, ok := ge.X.(*expr.Binary)
	if !ok || sum.Op != expr.OpAdd {
		t.Fatalf("P∘f = %T; want (c.y + 1) >= 0", ge.X)
	}
	if fs := sum.X.(*expr.FieldSel); fs.Name != "y" || fs.X.(*expr.Ident).Obj != ref.C {
		t.Errorf("P∘f does not select y of C's state")
	}
	if body.X.(*expr.Ident).Obj != a.Vars[0].Obj {
		t.Errorf("the substitution modified the source invariant")
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
	ref := mkEdge(ioa.ProofRefinement, c, a)
	body := newSubstituter(a, nil, mapValue(ref.Mapping)).expr(call)
	// let k' = 0 in (c.y + 1) > k', with a fresh k'.
	l, ok := body.(*expr.Let)
	if !ok {
		t.Fatalf("P∘f = %T; want a let", body)
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
