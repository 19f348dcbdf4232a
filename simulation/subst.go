// This file implements the substitution of a state mapping into
// expressions: P∘f for invariant transfer and g∘f for refinement
// composition. Definitions of the mapped automaton are inlined (their
// parameters let-bound to fresh objects), so the result mentions only the
// state the mapping is over.

package simulation

import (
	"fmt"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// substituter replaces the state of automaton auto by a mapping: a
// variable v of auto, written bare (`x`, inside invariant and definition
// bodies) or selected from recv (`c.x`, in proof expressions), becomes
// value(v); a call of a definition of auto, bare or on recv, is inlined.
// Every other node is copied.
type substituter struct {
	auto  *ioa.Automaton
	recv  *expr.Object // the ObjState standing for auto's state, or nil
	value func(v *ioa.StateVar) expr.Expr
	vars  map[*expr.Object]*ioa.StateVar
	defs  map[*expr.Object]bool
	// rename maps the parameters of definitions being inlined to the fresh
	// let-bound objects that replace them.
	rename map[*expr.Object]*expr.Object
}

func newSubstituter(auto *ioa.Automaton, recv *expr.Object, value func(v *ioa.StateVar) expr.Expr) *substituter {
	s := &substituter{auto: auto, recv: recv, value: value,
		vars: map[*expr.Object]*ioa.StateVar{}, defs: map[*expr.Object]bool{}, rename: map[*expr.Object]*expr.Object{}}
	for _, v := range auto.Vars {
		s.vars[v.Obj] = v
	}
	for _, d := range auto.Defs {
		s.defs[d] = true
	}
	return s
}

// mapValue returns the function giving each variable of m.Target its
// mapped expression.
func mapValue(m *ioa.StateMap) func(v *ioa.StateVar) expr.Expr {
	return func(v *ioa.StateVar) expr.Expr {
		if e := m.Entry(v.Name); e != nil {
			return e.Value
		}
		return &expr.BadExpr{}
	}
}

// node is satisfied by every expression node (through its embedded base).
type node interface {
	expr.Expr
	SetSort(*expr.Sort)
	SetPos(source.Pos)
}

// sorted gives x the sort and position of the node it replaces.
func sorted[T node](x T, from expr.Expr) T {
	x.SetSort(from.Sort())
	x.SetPos(from.Pos())
	return x
}

func (s *substituter) exprs(xs []expr.Expr) []expr.Expr {
	if xs == nil {
		return nil
	}
	out := make([]expr.Expr, len(xs))
	for i, x := range xs {
		out[i] = s.expr(x)
	}
	return out
}

func (s *substituter) binder(b *expr.Binder) *expr.Binder {
	nb := *b
	if b.Lo != nil {
		nb.Lo = s.expr(b.Lo)
	}
	if b.Hi != nil {
		nb.Hi = s.expr(b.Hi)
	}
	return &nb
}

// inline returns the body of definition def applied to args, with the
// definition's parameters let-bound to fresh objects.
func (s *substituter) inline(def *expr.Object, args []expr.Expr, at expr.Expr) expr.Expr {
	fresh := make([]*expr.Object, len(def.Params))
	saved := make([]*expr.Object, len(def.Params))
	for i, p := range def.Params {
		np := *p
		fresh[i] = &np
		saved[i] = s.rename[p]
		s.rename[p] = fresh[i]
	}
	body := s.expr(def.Body)
	for i, p := range def.Params {
		if saved[i] != nil {
			s.rename[p] = saved[i]
		} else {
			delete(s.rename, p)
		}
	}
	for i := len(def.Params) - 1; i >= 0; i-- {
		l := &expr.Let{Var: fresh[i], Value: args[i], Body: body}
		body = sorted(l, at)
	}
	return body
}

// expr returns a copy of x with the substitution applied.
func (s *substituter) expr(x expr.Expr) expr.Expr {
	switch x := x.(type) {
	case nil:
		return nil
	case *expr.Ident:
		if v, ok := s.vars[x.Obj]; ok {
			return s.value(v)
		}
		if r, ok := s.rename[x.Obj]; ok {
			n := &expr.Ident{Name: r.Name, Obj: r}
			return sorted(n, x)
		}
		if x.Obj != nil && x.Obj.Kind == expr.ObjDef && s.defs[x.Obj] {
			return s.inline(x.Obj, s.exprs(nil), x)
		}
		n := *x
		return &n
	case *expr.IntLit:
		n := *x
		return &n
	case *expr.BoolLit:
		n := *x
		return &n
	case *expr.ElemLit:
		n := *x
		return &n
	case *expr.BadExpr:
		n := *x
		return &n
	case *expr.Unary:
		return sorted(&expr.Unary{Op: x.Op, X: s.expr(x.X)}, x)
	case *expr.Binary:
		return sorted(&expr.Binary{Op: x.Op, X: s.expr(x.X), Y: s.expr(x.Y), OpPos: x.OpPos}, x)
	case *expr.Ite:
		return sorted(&expr.Ite{Cond: s.expr(x.Cond), Then: s.expr(x.Then), Else: s.expr(x.Else)}, x)
	case *expr.Let:
		return sorted(&expr.Let{Var: x.Var, Value: s.expr(x.Value), Body: s.expr(x.Body)}, x)
	case *expr.Quant:
		bs := make([]*expr.Binder, len(x.Binders))
		for i, b := range x.Binders {
			bs[i] = s.binder(b)
		}
		return sorted(&expr.Quant{Forall: x.Forall, Binders: bs, Body: s.expr(x.Body)}, x)
	case *expr.Lambda:
		return sorted(&expr.Lambda{Binder: s.binder(x.Binder), Body: s.expr(x.Body), Set: x.Set}, x)
	case *expr.Call:
		if x.Fun != nil && x.Fun.Obj != nil && x.Fun.Obj.Kind == expr.ObjDef && s.defs[x.Fun.Obj] &&
			(x.Recv == nil || s.recv != nil && x.Recv.Obj == s.recv) {
			return s.inline(x.Fun.Obj, s.exprs(x.Args), x)
		}
		var recv *expr.Ident
		if x.Recv != nil {
			r := *x.Recv
			recv = &r
		}
		fun := *x.Fun
		return sorted(&expr.Call{Recv: recv, Fun: &fun, Args: s.exprs(x.Args)}, x)
	case *expr.Index:
		return sorted(&expr.Index{X: s.expr(x.X), Index: s.expr(x.Index)}, x)
	case *expr.Update:
		return sorted(&expr.Update{X: s.expr(x.X), Index: s.expr(x.Index), Value: s.expr(x.Value)}, x)
	case *expr.FieldSel:
		if id, ok := x.X.(*expr.Ident); ok && s.recv != nil && id.Obj == s.recv {
			if v := s.auto.Var(x.Name); v != nil {
				return s.value(v)
			}
		}
		return sorted(&expr.FieldSel{X: s.expr(x.X), Name: x.Name, Field: x.Field}, x)
	case *expr.RecordUpdate:
		return sorted(&expr.RecordUpdate{X: s.expr(x.X), Fields: s.fields(x.Fields)}, x)
	case *expr.RecordLit:
		return sorted(&expr.RecordLit{SortName: x.SortName, Fields: s.fields(x.Fields)}, x)
	case *expr.SetLit:
		return sorted(&expr.SetLit{Elems: s.exprs(x.Elems)}, x)
	case *expr.SeqLit:
		return sorted(&expr.SeqLit{Elems: s.exprs(x.Elems)}, x)
	}
	// An unknown node kind: a newer expr package. Keep it unchanged
	// rather than fail; the generated obligation then mentions the
	// original state, which the encoder reports.
	return x
}

func (s *substituter) fields(fs []*expr.FieldInit) []*expr.FieldInit {
	out := make([]*expr.FieldInit, len(fs))
	for i, f := range fs {
		nf := *f
		nf.Value = s.expr(f.Value)
		out[i] = &nf
	}
	return out
}

// Transferred returns the predicate an invariant assumed by transfer
// stands for (LLM12 §5.3; docs/proofs.md, "Invariants by transfer"): for
// r = X.P assumed of automaton owner along the chain of refinement
// mappings f_1 … f_n from owner to X, the body of P with f_n, …, f_1
// substituted in turn, so P∘(f_n∘…∘f_1), written over the state object
// target (of owner's state sort). Definitions of every automaton on the
// chain are inlined, as in Composition and Transfer.
func Transferred(r *ioa.InvariantRef, owner *ioa.Automaton, target *expr.Object) (expr.Expr, error) {
	if !r.Transferred() || len(r.Chain) == 0 {
		return nil, fmt.Errorf("%s is not an invariant assumed by transfer along a chain of refinements", r.Name)
	}
	if r.Chain[0].MapsFrom() != owner {
		return nil, fmt.Errorf("the chain of %s does not start at %s", r.Name, owner.Name)
	}
	body := r.Inv.Body
	var recv *expr.Object // the state object body is over; nil: bare variables of X
	for i := len(r.Chain) - 1; i >= 0; i-- {
		q := r.Chain[i]
		to, over, ok := q.MapsTo()
		if !ok || q.Mapping == nil {
			return nil, fmt.Errorf("proof %s of the chain of %s is not a refinement mapping", q.Name, r.Name)
		}
		body = newSubstituter(to, recv, mapValue(q.Mapping)).expr(body)
		recv = over
	}
	field := func(v *ioa.StateVar) expr.Expr {
		id := sorted(&expr.Ident{Name: target.Name, Obj: target}, body)
		id.SetSort(target.Sort)
		sel := sorted(&expr.FieldSel{X: id, Name: v.Name, Field: owner.VarIndex(v.Name)}, body)
		sel.SetSort(v.Sort)
		return sel
	}
	return newSubstituter(owner, recv, field).expr(body), nil
}
