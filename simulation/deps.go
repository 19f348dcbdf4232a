// This file implements dependency sets: the source items whose text
// reaches an obligation (docs/proofs.md, "Dependencies").

package simulation

import (
	"sort"

	"ladder/ioa"
	"ladder/ioa/expr"
)

// deps collects dependency items. The zero value is not ready: use newDeps.
type deps struct {
	items map[string]bool
	seen  map[*expr.Object]bool // definitions and constants already followed
	// autos are the automata whose items reach the obligation, for its
	// Sources.
	autos map[*ioa.Automaton]bool
	// memo, when set, holds what each expression already walked brings
	// (shared by the deps of one generation: the same relation clauses,
	// invariants and definitions reach many obligations).
	memo map[expr.Expr]*deps
}

func newDeps() *deps {
	return &deps{items: map[string]bool{}, seen: map[*expr.Object]bool{}, autos: map[*ioa.Automaton]bool{}}
}

func (d *deps) add(item string) { d.items[item] = true }

// list returns the items, sorted.
func (d *deps) list() []string {
	out := make([]string, 0, len(d.items))
	for x := range d.items {
		out = append(out, x)
	}
	sort.Strings(out)
	return out
}

func autoItem(a *ioa.Automaton, what string) string { return "automaton:" + a.Name + "/" + what }

func proofItem(p *ioa.Proof, what string) string { return "proof:" + p.Name + "/" + what }

// state records that the obligation mentions a state of a: the
// declarations of its variables and sorts.
func (d *deps) state(a *ioa.Automaton) {
	d.add(autoItem(a, "state"))
	d.autos[a] = true
}

// init records a's start condition: the variables' inits and `initially`.
func (d *deps) init(a *ioa.Automaton) {
	d.state(a)
	d.add(autoItem(a, "init"))
	for _, v := range a.Vars {
		d.expr(v.Init)
	}
	for _, x := range a.Initially {
		d.expr(x)
	}
}

// action records a's action act: its parameters, precondition and effect.
func (d *deps) action(a *ioa.Automaton, act *ioa.Action) {
	d.state(a)
	d.add(autoItem(a, "action:"+act.Name))
	for _, b := range act.Params {
		d.expr(b.Lo)
		d.expr(b.Hi)
	}
	d.expr(act.Pre)
	expr.InspectStmts(act.Eff, d.visit)
}

// view records the view entry of act.
func (d *deps) view(a *ioa.Automaton, act *ioa.Action) {
	if act.View == nil {
		return
	}
	d.add(autoItem(a, "view:"+act.Name))
	for _, x := range act.View.Args {
		d.expr(x)
	}
}

// invariant records invariant inv of a.
func (d *deps) invariant(a *ioa.Automaton, inv *ioa.Invariant) {
	d.state(a)
	d.add(InvariantKey(a, inv.Name))
	d.expr(inv.Body)
}

// expr records the definitions and constants e refers to, transitively.
func (d *deps) expr(e expr.Expr) {
	if e == nil {
		return
	}
	if d.memo == nil {
		expr.Inspect(e, d.visit)
		return
	}
	f := d.memo[e]
	if f == nil {
		// what e brings on its own: a union, so it can be added to any set
		f = &deps{items: map[string]bool{}, seen: map[*expr.Object]bool{}, autos: map[*ioa.Automaton]bool{}, memo: d.memo}
		expr.Inspect(e, f.visit)
		d.memo[e] = f
	}
	for k := range f.items {
		d.items[k] = true
	}
	for k := range f.seen {
		d.seen[k] = true
	}
	for k := range f.autos {
		d.autos[k] = true
	}
}

func (d *deps) visit(e expr.Expr) bool {
	var obj *expr.Object
	switch x := e.(type) {
	case *expr.Ident:
		obj = x.Obj
	case *expr.Call:
		if x.Fun != nil {
			obj = x.Fun.Obj
		}
	case *expr.FieldSel:
		// c.x: the state of the automaton c belongs to.
		if id, ok := x.X.(*expr.Ident); ok && id.Obj != nil && id.Obj.Kind == expr.ObjState {
			if a, ok := id.Obj.Owner.(*ioa.Automaton); ok {
				d.state(a)
			}
		}
	}
	if obj == nil || d.seen[obj] {
		return true
	}
	owner, _ := obj.Owner.(*ioa.Automaton)
	if owner != nil {
		d.autos[owner] = true
	}
	switch obj.Kind {
	case expr.ObjDef:
		d.seen[obj] = true
		if owner != nil {
			d.add(autoItem(owner, "definition:"+obj.Name))
		}
		d.expr(obj.Body)
	case expr.ObjConst:
		d.seen[obj] = true
		if owner != nil {
			d.add(autoItem(owner, "constant:"+obj.Name))
		}
		d.expr(obj.Body)
	case expr.ObjVar:
		if owner != nil {
			d.state(owner)
		}
	}
	return true
}
