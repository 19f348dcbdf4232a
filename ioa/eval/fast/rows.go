// This file implements the row frame of Flat's invariant checks
// (HoldsAfterRow): after a step that changes the tables of one
// parameter's row only, an invariant `forall x: S. B` whose body reads
// those tables at row x only needs its body at that row alone.
//
// The argument, for a step of action α with parameter p = t₀ from a
// state where every invariant holds: every variable α assigns is either
// assigned at row p only (a target v[p]…), or read by B not at all; and
// every variable B reads other than at row x (v itself, v[e] for another
// e, or through a definition) is assigned by α not at all. Then for
// x ≠ t₀ every value B reads at x is the pre-state's, so B(x) is as it
// was, true; only B(t₀) is evaluated. What a definition reads counts as
// read other than at row x; anything else the analysis does not
// recognise (a whole state, a quantifier over several binders or over a
// range, an assignment target it cannot follow) leaves the invariant to
// be evaluated whole.

package fast

import "ladder/ioa/expr"

// rowBody is an invariant `forall x: S. B` compiled for the row frame:
// B with x in slot, and the variables B reads at row x (rows) and
// otherwise (whole).
type rowBody struct {
	body  sfn
	slot  int
	sort  *expr.Sort
	rows  []bool
	whole []bool
}

// rowInvariant compiles inv for the row frame, or returns nil.
func (c *flatCompiler) rowInvariant(inv expr.Expr) *rowBody {
	q, ok := inv.(*expr.Quant)
	if !ok || !q.Forall || len(q.Binders) != 1 || q.Binders[0].Lo != nil || q.Binders[0].Hi != nil {
		return nil
	}
	x := q.Binders[0].Var
	n := len(c.fl.vars)
	rb := &rowBody{sort: x.Sort, rows: make([]bool, n), whole: make([]bool, n)}
	ok = true
	// wholeReads marks what e reads, through definitions too, as read
	// other than at row x
	wholeReads := func(e expr.Expr) {
		if !expr.VarReads(e, func(o *expr.Object, i int) {
			if o != nil || i < 0 || i >= n {
				ok = false
			} else {
				rb.whole[i] = true
			}
		}) {
			ok = false
		}
	}
	expr.Inspect(q.Body, func(e expr.Expr) bool {
		switch e := e.(type) {
		case *expr.Index:
			v, isVar := e.X.(*expr.Ident)
			k, isX := e.Index.(*expr.Ident)
			if isVar && isX && v.Obj != nil && v.Obj.Kind == expr.ObjVar && k.Obj == x && v.Obj.Index < n {
				rb.rows[v.Obj.Index] = true
				return false
			}
		case *expr.Ident:
			if e.Obj == nil {
				return true
			}
			switch e.Obj.Kind {
			case expr.ObjVar:
				if e.Obj.Index >= n {
					ok = false
				} else {
					rb.whole[e.Obj.Index] = true
				}
			case expr.ObjDef:
				wholeReads(e)
			case expr.ObjState:
				ok = false
			}
		case *expr.Call:
			if e.Recv != nil || e.Fun == nil || e.Fun.Obj == nil || e.Fun.Obj.Kind != expr.ObjBuiltin {
				wholeReads(e) // a definition: its arguments too
				return false
			}
		case *expr.FieldSel:
			if _, _, isField := expr.StateField(e); isField {
				ok = false
				return false
			}
		}
		return true
	})
	if !ok {
		return nil
	}
	slot, _, _, _, err := c.binder(q.Binders[0])
	if err != nil {
		return nil
	}
	body, err := c.scalar(q.Body)
	if err != nil {
		return nil
	}
	rb.body, rb.slot = body, slot
	return rb
}

// rowWrites returns the parameter whose row the effect eff assigns (the
// index of p when every assignment's target is v[p]… or a whole
// variable), the variables assigned at that row, and those assigned
// whole; param is -1 when no assignment is at a parameter's row or two
// are at different ones.
func rowWrites(eff []expr.Stmt, n int) (param int, rows, whole []bool) {
	param, rows, whole = -1, make([]bool, n), make([]bool, n)
	ok := true
	var walk func(ss []expr.Stmt)
	walk = func(ss []expr.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *expr.Assign:
				v, p := rowTarget(s.Target)
				switch {
				case v < 0 || v >= n:
					ok = false
				case p < 0:
					whole[v] = true
				case param >= 0 && p != param:
					ok = false
				default:
					param = p
					rows[v] = true
				}
			case *expr.IfStmt:
				walk(s.Then)
				walk(s.Else)
			default:
				ok = false
			}
		}
	}
	walk(eff)
	if !ok {
		return -1, rows, whole
	}
	return param, rows, whole
}

// rowTarget returns the variable an assignment's target assigns, and the
// parameter p when the target is v[p]… (-1 otherwise).
func rowTarget(t expr.Expr) (v, p int) {
	var first expr.Expr // the index applied to the variable itself
	for {
		switch e := t.(type) {
		case *expr.Ident:
			if e.Obj == nil || e.Obj.Kind != expr.ObjVar {
				return -1, -1
			}
			if k, ok := first.(*expr.Ident); ok && k.Obj != nil && k.Obj.Kind == expr.ObjParam {
				return e.Obj.Index, k.Obj.Index
			}
			return e.Obj.Index, -1
		case *expr.Index:
			first, t = e.Index, e.X
		case *expr.FieldSel:
			first, t = nil, e.X
		default:
			return -1, -1
		}
	}
}

// rowFrames sets, for each action, the invariants whose body alone, at
// the row of its frame parameter, stands for the invariant after its
// step (flatAction.rowFramed).
func (fl *Flat) rowFrames() {
	n := len(fl.vars)
	for i, fa := range fl.acts {
		act := fl.m.A.Actions[i]
		p, rows, whole := rowWrites(act.Eff, n)
		fa.rowParam = -1
		if p < 0 || p >= len(act.Params) {
			continue
		}
		fa.rowParam = p
		fa.rowFramed = make([]bool, len(fl.rows))
		for k, rb := range fl.rows {
			if rb == nil || act.Params[p].Var.Sort.String() != rb.sort.String() {
				continue
			}
			framed := true
			for v := 0; v < n; v++ {
				if whole[v] && (rb.rows[v] || rb.whole[v]) || rows[v] && rb.whole[v] {
					framed = false
				}
			}
			fa.rowFramed[k] = framed
		}
	}
}
