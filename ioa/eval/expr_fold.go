// This file implements the compiler's optimisations: constant folding of
// closed expressions and the specialised closures for the shapes the inner
// loop of an exploration meets most (var[param] = k, x[i] on an atomic key,
// comparisons of parameters and bound variables). They are fast paths, not
// semantics: plain code (compiler.noFold, newMachine with plain set) takes
// none of them — every getter is then gOther, x(f).n, and no expression is
// folded — and TestPlainAgrees checks that the optimised code computes
// what plain code computes.

package eval

import (
	"ladder/ioa/expr"
)

// isClosed reports whether e mentions no state, parameter, free bound
// variable or named state, so that its value can be computed once.
func (c *compiler) isClosed(e expr.Expr) bool {
	if v, ok := c.closed[e]; ok {
		return v
	}
	ok := c.closedWith(e, nil)
	c.closed[e] = ok
	return ok
}

// defClosed reports whether a definition's body mentions only its
// parameters and closed things.
func (c *compiler) defClosed(d *expr.Object) bool {
	switch c.closedDef[d] {
	case 1:
		return true
	case 2, 3:
		return false
	}
	c.closedDef[d] = 3 // in progress: a recursive use is not closed
	ok := d.Body != nil
	if ok {
		params := map[*expr.Object]bool{}
		for _, p := range d.Params {
			params[p] = true
		}
		ok = c.closedWith(d.Body, params)
	}
	if ok {
		c.closedDef[d] = 1
	} else {
		c.closedDef[d] = 2
	}
	return ok
}

// closedWith reports whether e mentions no state, action parameter, named
// state or bound variable other than those e binds itself or free lists,
// and only definitions that are closed (defClosed).
func (c *compiler) closedWith(e expr.Expr, free map[*expr.Object]bool) bool {
	bound := map[*expr.Object]bool{}
	ok := true
	expr.Inspect(e, func(x expr.Expr) bool {
		if !ok {
			return false
		}
		switch x := x.(type) {
		case *expr.Let:
			bound[x.Var] = true
		case *expr.Quant:
			for _, b := range x.Binders {
				if b != nil {
					bound[b.Var] = true
				}
			}
		case *expr.Lambda:
			if x.Binder != nil {
				bound[x.Binder.Var] = true
			}
		case *expr.Call:
			if x.Recv != nil {
				ok = false
			}
		case *expr.Ident:
			if x.Obj == nil {
				return true
			}
			switch x.Obj.Kind {
			case expr.ObjVar, expr.ObjParam, expr.ObjState:
				ok = false
			case expr.ObjBound:
				ok = bound[x.Obj] || free[x.Obj]
			case expr.ObjDef:
				ok = c.defClosed(x.Obj)
			}
		}
		return ok
	})
	return ok
}

// constValue returns the value of a closed expression compiled to body, and
// false if evaluating it fails (the failure is then left to run time).
func (c *compiler) constValue(body fn) (Value, bool) {
	f := &frame{locals: make([]Value, c.nlocals)}
	v := body(f)
	return v, f.err == nil
}

// constOf returns the value of e if it is closed and evaluates without
// error.
func (c *compiler) constOf(e expr.Expr) (Value, bool) {
	switch e := e.(type) {
	case *expr.IntLit:
		return Int(e.Value), true
	case *expr.BoolLit:
		return Bool(e.Value), true
	}
	if c.folding || c.noFold || !c.isClosed(e) {
		return Value{}, false
	}
	c.folding = true
	body, err := c.expr1(e)
	c.folding = false
	if err != nil {
		return Value{}, false
	}
	return c.constValue(body)
}

// varRead reports whether e reads a variable of frame.state, and its index.
func (c *compiler) varRead(e expr.Expr) (int, bool) {
	id, ok := e.(*expr.Ident)
	if !ok || c.noFold || id.Obj == nil || id.Obj.Kind != expr.ObjVar || c.stateSlot >= 0 || c.nstate < 0 {
		return 0, false
	}
	return id.Obj.Index, id.Obj.Index >= 0 && id.Obj.Index < c.nstate
}

// paramRead reports whether e reads an action parameter, and its index.
func (c *compiler) paramRead(e expr.Expr) (int, bool) {
	id, ok := e.(*expr.Ident)
	if !ok || c.noFold || id.Obj == nil || id.Obj.Kind != expr.ObjParam || c.nparams < 0 {
		return 0, false
	}
	return id.Obj.Index, id.Obj.Index >= 0 && id.Obj.Index < c.nparams
}

// slotRead reports whether e reads a bound variable, and its slot.
func (c *compiler) slotRead(e expr.Expr) (int, bool) {
	id, ok := e.(*expr.Ident)
	if !ok || c.noFold || id.Obj == nil || id.Obj.Kind != expr.ObjBound {
		return 0, false
	}
	s, ok := c.slots[id.Obj]
	return s, ok
}

// recFieldRead reports whether e is o.x for a record o bound to a slot (a
// state object such as c of a proof), and o's slot and x's field index.
func (c *compiler) recFieldRead(e expr.Expr) (slot, field int, ok bool) {
	fs, ok := e.(*expr.FieldSel)
	if !ok || c.noFold {
		return 0, 0, false
	}
	id, ok := fs.X.(*expr.Ident)
	if !ok || id.Obj == nil || (id.Obj.Kind != expr.ObjBound && id.Obj.Kind != expr.ObjState) {
		return 0, 0, false
	}
	s, ok := c.slots[id.Obj]
	if !ok {
		return 0, 0, false
	}
	xs := fs.X.Sort()
	if xs.IsInvalid() || xs.Kind != expr.KRecord {
		return 0, 0, false
	}
	k := xs.FieldIndex(fs.Name)
	return s, k, k >= 0
}

// recIndex returns o.x[i] for the record o in slot r and x its field k,
// failing as fieldSel does when the value has no such field, and when the
// field's table has no entry i (a value of another sort).
func recIndex(f *frame, r, k int, i int64, e *expr.Index) Value {
	vs := f.locals[r].vs
	if k >= len(vs) {
		f.fail(e.X.Pos(), "the value has no field %s", e.X.(*expr.FieldSel).Name)
		return Value{}
	}
	if i < 0 || i >= int64(len(vs[k].vs)) {
		f.fail(e.Pos(), "the key is outside the table of field %s", e.X.(*expr.FieldSel).Name)
		return Value{}
	}
	return vs[k].vs[i]
}

// getter reads a scalar: it is the fast form of a compiled expression of a
// scalar sort for the shapes that comparisons meet most.
type getter struct {
	kind int // one of the g constants
	k    int64
	v, i int // variable index (field index for gRec*); parameter index or slot
	r    int // the record's slot for gRec*
	e    *expr.Index
	x    fn
}

const (
	gConst    = iota // k
	gVarParam        // state[v][params[i]]
	gVarSlot         // state[v][locals[i]]
	gParam           // params[i]
	gSlot            // locals[i]
	gRecParam        // locals[r][v][params[i]]
	gRecSlot         // locals[r][v][locals[i]]
	gOther           // x(f).n
)

// getterOf returns the getter of scalar expression e compiled to x.
func (c *compiler) getterOf(e expr.Expr, x fn) getter {
	if k, ok := c.constOf(e); ok {
		return getter{kind: gConst, k: k.n}
	}
	if ix, ok := e.(*expr.Index); ok {
		if xs := ix.X.Sort(); !xs.IsInvalid() && xs.Kind == expr.KMap && AtomicKey(xs.Key) {
			if vi, ok := c.varRead(ix.X); ok {
				if pi, ok := c.paramRead(ix.Index); ok {
					return getter{kind: gVarParam, v: vi, i: pi}
				}
				if s, ok := c.slotRead(ix.Index); ok {
					return getter{kind: gVarSlot, v: vi, i: s}
				}
			}
			if r, k, ok := c.recFieldRead(ix.X); ok {
				if pi, ok := c.paramRead(ix.Index); ok {
					return getter{kind: gRecParam, r: r, v: k, i: pi, e: ix}
				}
				if s, ok := c.slotRead(ix.Index); ok {
					return getter{kind: gRecSlot, r: r, v: k, i: s, e: ix}
				}
			}
		}
	}
	if pi, ok := c.paramRead(e); ok {
		return getter{kind: gParam, i: pi}
	}
	if s, ok := c.slotRead(e); ok {
		return getter{kind: gSlot, i: s}
	}
	return getter{kind: gOther, x: x}
}

// fn returns the getter as a function.
func (g getter) fn() func(f *frame) int64 {
	v, i, k, x, r, e := g.v, g.i, g.k, g.x, g.r, g.e
	switch g.kind {
	case gRecParam:
		return func(f *frame) int64 { return recIndex(f, r, v, f.params[i].n, e).n }
	case gRecSlot:
		return func(f *frame) int64 { return recIndex(f, r, v, f.locals[i].n, e).n }
	case gConst:
		return func(*frame) int64 { return k }
	case gVarParam:
		return func(f *frame) int64 { return f.state[v].vs[f.params[i].n].n }
	case gVarSlot:
		return func(f *frame) int64 { return f.state[v].vs[f.locals[i].n].n }
	case gParam:
		return func(f *frame) int64 { return f.params[i].n }
	case gSlot:
		return func(f *frame) int64 { return f.locals[i].n }
	}
	return func(f *frame) int64 { return x(f).n }
}

// compare compiles a comparison of scalars: =, != (of any scalar sort) and
// <, <=, >, >= (of integers), fusing the common shapes var[p] = constant
// into single closures.
func (c *compiler) compare(e *expr.Binary, x, y fn) fn {
	gx, gy := c.getterOf(e.X, x), c.getterOf(e.Y, y)
	if gx.kind == gConst && gy.kind != gConst {
		// put the constant on the right: a op k
		gx, gy = gy, gx
		switch e.Op {
		case expr.OpLt:
			return c.compareOp(expr.OpGt, gx, gy)
		case expr.OpLe:
			return c.compareOp(expr.OpGe, gx, gy)
		case expr.OpGt:
			return c.compareOp(expr.OpLt, gx, gy)
		case expr.OpGe:
			return c.compareOp(expr.OpLe, gx, gy)
		}
	}
	return c.compareOp(e.Op, gx, gy)
}

func (c *compiler) compareOp(op expr.Op, gx, gy getter) fn {
	if gy.kind == gConst && (op == expr.OpEq || op == expr.OpNeq) {
		v, i, k, r, e := gx.v, gx.i, gy.k, gx.r, gx.e
		var want int64 = 1
		if op == expr.OpNeq {
			want = 0
		}
		switch gx.kind {
		case gVarParam:
			if want == 1 {
				return func(f *frame) Value { return Bool(f.state[v].vs[f.params[i].n].n == k) }
			}
			return func(f *frame) Value { return Bool(f.state[v].vs[f.params[i].n].n != k) }
		case gVarSlot:
			if want == 1 {
				return func(f *frame) Value { return Bool(f.state[v].vs[f.locals[i].n].n == k) }
			}
			return func(f *frame) Value { return Bool(f.state[v].vs[f.locals[i].n].n != k) }
		case gRecSlot:
			if want == 1 {
				return func(f *frame) Value { return Bool(recIndex(f, r, v, f.locals[i].n, e).n == k) }
			}
			return func(f *frame) Value { return Bool(recIndex(f, r, v, f.locals[i].n, e).n != k) }
		}
		a := gx.fn()
		if want == 1 {
			return func(f *frame) Value { return Bool(a(f) == k) }
		}
		return func(f *frame) Value { return Bool(a(f) != k) }
	}
	a, b := gx.fn(), gy.fn()
	switch op {
	case expr.OpEq:
		return func(f *frame) Value { return Bool(a(f) == b(f)) }
	case expr.OpNeq:
		return func(f *frame) Value { return Bool(a(f) != b(f)) }
	case expr.OpLt:
		return func(f *frame) Value { return Bool(a(f) < b(f)) }
	case expr.OpLe:
		return func(f *frame) Value { return Bool(a(f) <= b(f)) }
	case expr.OpGt:
		return func(f *frame) Value { return Bool(a(f) > b(f)) }
	}
	return func(f *frame) Value { return Bool(a(f) >= b(f)) }
}

// indexAtomic compiles x[i] for a map with an atomic key, specialised for
// the common shapes var[param], var[bound] and x[constant].
func (c *compiler) indexAtomic(e *expr.Index, x, i fn) fn {
	if vi, ok := c.varRead(e.X); ok {
		if pi, ok := c.paramRead(e.Index); ok {
			return func(f *frame) Value { return f.state[vi].vs[f.params[pi].n] }
		}
		if s, ok := c.slotRead(e.Index); ok {
			return func(f *frame) Value { return f.state[vi].vs[f.locals[s].n] }
		}
		return func(f *frame) Value { return f.state[vi].vs[i(f).n] }
	}
	if r, k, ok := c.recFieldRead(e.X); ok {
		if pi, ok := c.paramRead(e.Index); ok {
			return func(f *frame) Value { return recIndex(f, r, k, f.params[pi].n, e) }
		}
		if s, ok := c.slotRead(e.Index); ok {
			return func(f *frame) Value { return recIndex(f, r, k, f.locals[s].n, e) }
		}
	}
	if pi, ok := c.paramRead(e.Index); ok {
		return func(f *frame) Value { return x(f).vs[f.params[pi].n] }
	}
	if s, ok := c.slotRead(e.Index); ok {
		return func(f *frame) Value { return x(f).vs[f.locals[s].n] }
	}
	if k, ok := c.constOf(e.Index); ok {
		return func(f *frame) Value { return x(f).vs[k.n] }
	}
	return func(f *frame) Value { return x(f).vs[i(f).n] }
}
