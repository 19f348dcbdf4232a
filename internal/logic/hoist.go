// This file implements the naming of constant arrays over non-values in
// the canonical text (see the package documentation, "Portable text").

package logic

import "strconv"

// hoisted is a constant array the canonical text names: the fresh constant
// c stands for ((as const (Array D R)) v) when v is closed; when v mentions
// the bound variables vars (in the order of their names), c is the array
// of arrays (Array X1 (Array X2 … (Array D R))) whose element at x1, x2, …
// is the constant array over v.
type hoisted struct {
	c, v *Term
	vars []*Term
}

// hoister rewrites the assertions of one problem, naming every closed
// constant array whose element is not a value.
type hoister struct {
	in   interner
	memo map[*Term]*Term // a term (and its representative) → rewritten term
	defs []hoisted
}

// hoistConstArrays returns the assertions of p with every constant array
// ((as const (Array D R)) v) whose v is not a value (isValue) replaced by a
// fresh constant %cN, numbered in the order the rewrite meets them
// (post-order, assertion after assertion), and the definitions of those
// constants. Structurally equal arrays get the same constant. Under a
// binder, an array whose v mentions bound variables x1, x2, … becomes
// (select (select %cN x1) x2 …) of an array of arrays.
func hoistConstArrays(as []Named) ([]Named, []hoisted) {
	h := &hoister{in: interner{}, memo: map[*Term]*Term{}}
	out := make([]Named, len(as))
	for i, a := range as {
		out[i] = Named{Name: a.Name, Term: h.rewrite(a.Term)}
	}
	return out, h.defs
}

func (h *hoister) rewrite(t *Term) *Term {
	if !t.hoists {
		return t // nothing to name inside: rewrite1 would rebuild t as it is
	}
	if r, ok := h.memo[t]; ok {
		return r
	}
	c := h.in.canon(t)
	r, ok := h.memo[c]
	if !ok {
		r = h.rewrite1(c)
		h.memo[c] = r
	}
	h.memo[t] = r
	return r
}

func (h *hoister) rewrite1(t *Term) *Term {
	switch t.kind {
	case KindApp:
		args := make([]*Term, len(t.args))
		changed := false
		for i, a := range t.args {
			args[i] = h.rewrite(a)
			changed = changed || args[i] != a
		}
		if t.op == OpConstArray && !isValue(args[0]) {
			return h.name(t.sort, args[0])
		}
		if !changed {
			return t
		}
		return rebuild(t, args)
	case KindForall, KindExists, KindLambda:
		body := h.rewrite(t.args[0])
		changed := body != t.args[0]
		var pats [][]*Term
		for _, p := range t.pats {
			q := make([]*Term, len(p))
			for i, x := range p {
				q[i] = h.rewrite(x)
				changed = changed || q[i] != x
			}
			pats = append(pats, q)
		}
		if !changed {
			return t
		}
		return binder(t.kind, t.vars, body, pats)
	}
	return t
}

// name returns the term standing for the constant array of sort s over v,
// declaring its constant on first use.
func (h *hoister) name(s *Sort, v *Term) *Term {
	vars := v.loose
	var c *Term
	for _, d := range h.defs {
		if Equal(d.v, v) && Same(d.c.sort, outer(vars, s)) {
			c = d.c
			break
		}
	}
	if c == nil {
		c = finish(&Term{kind: KindConst, name: "%c" + strconv.Itoa(len(h.defs)), sort: outer(vars, s)})
		h.defs = append(h.defs, hoisted{c: c, v: v, vars: vars})
	}
	return selects(c, vars)
}

// outer returns the sort (Array X1 (Array X2 … s)) of arrays indexed by
// the sorts of vars.
func outer(vars []*Term, s *Sort) *Sort {
	for i := len(vars) - 1; i >= 0; i-- {
		s = ArraySort(vars[i].sort, s)
	}
	return s
}

// selects returns (select (select a x1) x2 …) for the terms xs.
func selects(a *Term, xs []*Term) *Term {
	for _, x := range xs {
		a = Select(a, x)
	}
	return a
}

// axiom returns the definition of d.c: every element of the array
// (selected at d.vars) is d.v, with that select as the pattern. Its index
// variable's name begins with %, so it cannot capture a variable of d.v.
func (d hoisted) axiom() *Term {
	arr := selects(d.c, d.vars)
	i := Var("%i", arr.sort.dom)
	sel := Select(arr, i)
	return Forall(append(append([]*Term(nil), d.vars...), i), Eq(sel, d.v), []*Term{sel})
}

// isValue reports whether t is a value in the sense of SMT-LIB solvers
// that accept a constant array only over a value (cvc5): a Boolean or
// integer literal, a constructor applied to values, or a constant array of
// a value.
func isValue(t *Term) bool { return t.value }
