// This file implements the compiler of Flat (fast_flat.go): expressions,
// preconditions and effects as closures over encoded states.
//
// A value of a scalar sort (Bool, Int, Nat, an enum, a parameter sort, or
// an Option of a byte scalar) is an int64: the number, the ordinal, or for
// an Option 0 (None) or x+1 (Some(x)), which is also its encoding's byte.
// A value of any other sort is its canonical encoding (codec.go) in the
// flat layout: a slice of the state itself (a variable, an entry of a
// table, an element of a sequence), or of the runner's scratch memory
// when it is built. Closed expressions (no state, parameter or free bound
// variable) are evaluated once, by the plain compiler, and encoded.

package eval

import (
	"bytes"
	"fmt"

	"ladder/ioa"
	"ladder/ioa/expr"
)

type (
	sfn = func(c *flatCtx) int64  // a scalar
	rfn = func(c *flatCtx) []byte // an encoding
)

// flatCompiler compiles one Flat.
type flatCompiler struct {
	fl     *Flat
	m      *Machine
	bound  map[*expr.Object]int // slot (scalar) or register (encoding) of a bound object
	nslots int
	nregs  int
	busy   map[*expr.Object]bool
	defs   map[*expr.Object]*flatDef
	closed map[*expr.Object]bool // definitions whose bodies are closed
}

// flatDef is a compiled definition body.
type flatDef struct {
	s sfn
	r rfn
}

func notFlat(e expr.Expr, format string, args ...any) error {
	return fmt.Errorf("%w: %s at %s", errNotFlat, fmt.Sprintf(format, args...), e.Pos())
}

// isScalar reports whether values of s are int64s in Flat: the sorts
// whose encoding is one byte or an integer.
func (c *flatCompiler) isScalar(s *expr.Sort) bool {
	return c.m.byteScalar(s) || isInt(s) || c.m.byteOption(s)
}

// isInt reports whether a scalar of sort s is encoded as a zig-zag varint.
func isInt(s *expr.Sort) bool { return s.Kind == expr.KInt || s.Kind == expr.KNat }

// reader returns the function that reads a scalar of sort s from its byte.
func reader(s *expr.Sort) func(b byte) int64 {
	if isInt(s) {
		return func(b byte) int64 { return int64(b>>1) ^ -int64(b&1) }
	}
	return func(b byte) int64 { return int64(b) }
}

// enc returns the byte of scalar v of sort s, or marks the step bad when
// v is an integer outside -64..63.
func (c *flatCtx) enc(integer bool, v int64) byte {
	if integer {
		if v < -64 || v > 63 {
			c.bad = true
			return 0
		}
		return byte((v << 1) ^ (v >> 63))
	}
	return byte(v)
}

// seqElem returns the size of an element of sequence sort s.
func (c *flatCompiler) seqElem(e expr.Expr, s *expr.Sort) (int, error) {
	n, ok := c.fl.fixed(s.Elem)
	if !ok {
		return 0, notFlat(e, "sequence of %s", s.Elem)
	}
	return n, nil
}

// size returns the fixed size of a non-sequence sort.
func (c *flatCompiler) size(e expr.Expr, s *expr.Sort) (int, error) {
	n, ok := c.fl.fixed(s)
	if !ok {
		return 0, notFlat(e, "sort %s", s)
	}
	return n, nil
}

// scalar compiles e, of a scalar sort.
func (c *flatCompiler) scalar(e expr.Expr) (sfn, error) {
	s, err := sortOf(e)
	if err != nil {
		return nil, err
	}
	if !c.isScalar(s) {
		return nil, notFlat(e, "%s is not a scalar", s)
	}
	if c.isClosed(e) {
		v, err := c.constant(e)
		if err != nil {
			return nil, err
		}
		n := v.n
		if s.Kind == expr.KOption {
			n = 0
			if v.n != 0 {
				n = v.vs[0].n + 1
			}
		}
		return func(*flatCtx) int64 { return n }, nil
	}
	return c.scalarOpen(e, s)
}

// region compiles e, of a sort whose values are encodings.
func (c *flatCompiler) region(e expr.Expr) (rfn, error) {
	s, err := sortOf(e)
	if err != nil {
		return nil, err
	}
	if c.isScalar(s) {
		return nil, notFlat(e, "%s is a scalar", s)
	}
	if s.Kind != expr.KSeq {
		if _, err := c.size(e, s); err != nil {
			return nil, err
		}
	} else if _, err := c.seqElem(e, s); err != nil {
		return nil, err
	}
	if c.isClosed(e) {
		v, err := c.constant(e)
		if err != nil {
			return nil, err
		}
		b := c.m.encoder(s)(nil, v)
		if !c.inLayout(s, b) {
			return nil, notFlat(e, "a constant outside the flat layout")
		}
		return func(*flatCtx) []byte { return b }, nil
	}
	return c.regionOpen(e, s)
}

// inLayout reports whether b, an encoding of sort s, is in the flat layout.
func (c *flatCompiler) inLayout(s *expr.Sort, b []byte) bool {
	fv, err := c.fl.layoutVar(s)
	if err != nil {
		return false
	}
	fl := &Flat{m: c.m, vars: []flatVar{fv}}
	fl.plan = fl.scanPlan()
	return fl.scan(b, make([]int, 2))
}

// constant evaluates a closed expression with the plain compiler.
func (c *flatCompiler) constant(e expr.Expr) (Value, error) {
	f, err := compileFunc(c.m.c, e, nil)
	if err != nil {
		return Value{}, err
	}
	v, err := f.Eval(nil, nil)
	if err != nil {
		return Value{}, notFlat(e, "constant: %v", err)
	}
	return v, nil
}

// isClosed reports whether e reads no state variable, parameter or bound
// variable bound outside e, directly or through definitions.
func (c *flatCompiler) isClosed(e expr.Expr) bool {
	return c.closedIn(e, map[*expr.Object]bool{})
}

func (c *flatCompiler) closedIn(e expr.Expr, inner map[*expr.Object]bool) bool {
	ok := true
	expr.Inspect(e, func(x expr.Expr) bool {
		if !ok {
			return false
		}
		switch x := x.(type) {
		case *expr.Quant:
			for _, b := range x.Binders {
				inner[b.Var] = true
			}
		case *expr.Lambda:
			inner[x.Binder.Var] = true
		case *expr.Let:
			inner[x.Var] = true
		case *expr.Call:
			if x.Recv != nil {
				ok = false
			} else if o := x.Fun.Obj; o != nil && o.Kind == expr.ObjDef && !c.defClosed(o) {
				ok = false
			}
		case *expr.Ident:
			o := x.Obj
			if o == nil {
				ok = false
				break
			}
			switch o.Kind {
			case expr.ObjVar, expr.ObjParam, expr.ObjState, expr.ObjBad:
				ok = false
			case expr.ObjBound:
				ok = inner[o]
			case expr.ObjDef:
				ok = c.defClosed(o)
			}
		}
		return ok
	})
	return ok
}

// defClosed reports whether definition o's body reads nothing but its
// parameters.
func (c *flatCompiler) defClosed(o *expr.Object) bool {
	if v, ok := c.closed[o]; ok {
		return v
	}
	c.closed[o] = false // a recursive use is not closed
	inner := map[*expr.Object]bool{}
	for _, p := range o.Params {
		inner[p] = true
	}
	v := o.Body != nil && c.closedIn(o.Body, inner)
	c.closed[o] = v
	return v
}

// bind allocates the slot or register of a bound object.
func (c *flatCompiler) bind(o *expr.Object) (slot int, scalar bool) {
	if c.isScalar(o.Sort) {
		if k, ok := c.bound[o]; ok {
			return k, true
		}
		c.bound[o] = c.nslots
		c.nslots++
		return c.nslots - 1, true
	}
	if k, ok := c.bound[o]; ok {
		return k, false
	}
	c.bound[o] = c.nregs
	c.nregs++
	return c.nregs - 1, false
}

func (c *flatCompiler) scalarOpen(e expr.Expr, s *expr.Sort) (sfn, error) {
	switch e := e.(type) {
	case *expr.Ident:
		return c.identScalar(e, s)
	case *expr.Unary:
		x, err := c.scalar(e.X)
		if err != nil {
			return nil, err
		}
		if e.Op == expr.OpNot {
			return func(f *flatCtx) int64 { return 1 - x(f) }, nil
		}
		return func(f *flatCtx) int64 {
			v := x(f)
			if v == -v && v != 0 {
				f.bad = true
			}
			return -v
		}, nil
	case *expr.Binary:
		return c.binary(e)
	case *expr.Ite:
		return flatIte(c, e, c.scalar)
	case *expr.Let:
		return flatLet(c, e, c.scalar)
	case *expr.Quant:
		return c.quant(e)
	case *expr.Call:
		return c.callScalar(e, s)
	case *expr.Index:
		return c.indexScalar(e, s)
	case *expr.FieldSel:
		x, err := c.region(e.X)
		if err != nil {
			return nil, err
		}
		off, err := c.fieldOffset(e, e.X.Sort(), e.Field)
		if err != nil {
			return nil, err
		}
		rd := reader(s)
		return func(f *flatCtx) int64 { return rd(x(f)[off]) }, nil
	}
	return nil, notFlat(e, "expression %T", e)
}

// fieldOffset returns the offset of field i in the layout of record sort rs.
func (c *flatCompiler) fieldOffset(e expr.Expr, rs *expr.Sort, i int) (int, error) {
	if rs.Kind != expr.KRecord || rs.State != nil || i < 0 || i >= len(rs.Fields) {
		return 0, notFlat(e, "field of %s", rs)
	}
	off := 0
	for _, f := range rs.Fields[:i] {
		n, err := c.size(e, f.Sort)
		if err != nil {
			return 0, err
		}
		off += n
	}
	return off, nil
}

func (c *flatCompiler) identScalar(e *expr.Ident, s *expr.Sort) (sfn, error) {
	o := e.Obj
	switch o.Kind {
	case expr.ObjVar:
		i := o.Index
		if i < 0 || i >= len(c.fl.vars) || c.fl.vars[i].seq {
			return nil, notFlat(e, "variable %s", o.Name)
		}
		rd := reader(s)
		return func(f *flatCtx) int64 { return rd(f.st[f.offs[i]]) }, nil
	case expr.ObjParam:
		i := o.Index
		return func(f *flatCtx) int64 { return f.params[i] }, nil
	case expr.ObjBound:
		k, ok := c.bound[o]
		if !ok {
			return nil, notFlat(e, "unbound %s", o.Name)
		}
		return func(f *flatCtx) int64 { return f.slots[k] }, nil
	case expr.ObjDef:
		d, err := c.def(e, o)
		if err != nil {
			return nil, err
		}
		if d.s == nil {
			return nil, notFlat(e, "definition %s", o.Name)
		}
		return d.s, nil
	}
	return nil, notFlat(e, "name %s", o.Name)
}

func (c *flatCompiler) identRegion(e *expr.Ident, s *expr.Sort) (rfn, error) {
	o := e.Obj
	switch o.Kind {
	case expr.ObjVar:
		i := o.Index
		if i < 0 || i >= len(c.fl.vars) {
			return nil, notFlat(e, "variable %s", o.Name)
		}
		return func(f *flatCtx) []byte { return f.st[f.offs[i]:f.offs[i+1]] }, nil
	case expr.ObjBound:
		k, ok := c.bound[o]
		if !ok {
			return nil, notFlat(e, "unbound %s", o.Name)
		}
		return func(f *flatCtx) []byte { return f.regs[k] }, nil
	case expr.ObjDef:
		d, err := c.def(e, o)
		if err != nil {
			return nil, err
		}
		if d.r == nil {
			return nil, notFlat(e, "definition %s", o.Name)
		}
		return d.r, nil
	}
	return nil, notFlat(e, "name %s", o.Name)
}

// def compiles the body of definition o once.
func (c *flatCompiler) def(e expr.Expr, o *expr.Object) (*flatDef, error) {
	if d, ok := c.defs[o]; ok {
		return d, nil
	}
	if c.busy[o] || o.Body == nil || len(o.Params) > 8 {
		return nil, notFlat(e, "definition %s", o.Name)
	}
	c.busy[o] = true
	defer delete(c.busy, o)
	for _, p := range o.Params {
		if p.Sort.Kind == expr.KSeq {
			return nil, notFlat(e, "definition %s with a sequence parameter", o.Name)
		}
		c.bind(p)
	}
	d := &flatDef{}
	var err error
	if c.isScalar(o.Body.Sort()) {
		d.s, err = c.scalar(o.Body)
	} else {
		d.r, err = c.region(o.Body)
	}
	if err != nil {
		return nil, err
	}
	c.defs[o] = d
	return d, nil
}

// flatIte compiles if-then-else, of a scalar or an encoding (comp).
func flatIte[T any](c *flatCompiler, e *expr.Ite, comp func(expr.Expr) (func(*flatCtx) T, error)) (func(*flatCtx) T, error) {
	cond, err := c.scalar(e.Cond)
	if err != nil {
		return nil, err
	}
	a, err := comp(e.Then)
	if err != nil {
		return nil, err
	}
	b, err := comp(e.Else)
	if err != nil {
		return nil, err
	}
	return func(f *flatCtx) T {
		if cond(f) != 0 {
			return a(f)
		}
		return b(f)
	}, nil
}

// flatLet compiles let x = v in body, of a scalar or an encoding (comp).
func flatLet[T any](c *flatCompiler, e *expr.Let, comp func(expr.Expr) (func(*flatCtx) T, error)) (func(*flatCtx) T, error) {
	set, err := c.let(e)
	if err != nil {
		return nil, err
	}
	body, err := comp(e.Body)
	if err != nil {
		return nil, err
	}
	return func(f *flatCtx) T { set(f); return body(f) }, nil
}

// let returns the function that binds e's variable to its value.
func (c *flatCompiler) let(e *expr.Let) (func(f *flatCtx), error) {
	k, isScalar := c.bind(e.Var)
	if isScalar {
		v, err := c.scalar(e.Value)
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) { f.slots[k] = v(f) }, nil
	}
	if e.Var.Sort.Kind == expr.KSeq {
		return nil, notFlat(e, "let of a sequence")
	}
	v, err := c.region(e.Value)
	if err != nil {
		return nil, err
	}
	return func(f *flatCtx) { f.regs[k] = v(f) }, nil
}

// binder returns the range of a quantified variable: a finite sort's size
// (lo 0), or an integer range.
func (c *flatCompiler) binder(b *expr.Binder) (slot int, n int64, lo, hi sfn, err error) {
	if b.Lo != nil && b.Hi != nil {
		if lo, err = c.scalar(b.Lo); err != nil {
			return
		}
		if hi, err = c.scalar(b.Hi); err != nil {
			return
		}
		slot, _ = c.bind(b.Var)
		return
	}
	s := b.Var.Sort
	if !atomicKey(s) {
		err = fmt.Errorf("%w: quantifier over %s at %s", errNotFlat, s, b.P)
		return
	}
	n = int64(c.m.Inst.size(s))
	slot, _ = c.bind(b.Var)
	return
}

func (c *flatCompiler) quant(e *expr.Quant) (sfn, error) {
	type rng struct {
		k      int
		n      int64
		lo, hi sfn
	}
	rs := make([]rng, len(e.Binders))
	for i, b := range e.Binders {
		k, n, lo, hi, err := c.binder(b)
		if err != nil {
			return nil, err
		}
		rs[i] = rng{k, n, lo, hi}
	}
	body, err := c.scalar(e.Body)
	if err != nil {
		return nil, err
	}
	want := int64(0) // forall stops at a false body
	if !e.Forall {
		want = 1
	}
	maxEnum := int64(c.m.Inst.maxEnum())
	run := func(f *flatCtx) bool { return body(f) != want }
	for i := len(rs) - 1; i >= 0; i-- {
		k, n, lo, hi := rs[i].k, rs[i].n, rs[i].lo, rs[i].hi
		inner := run
		run = func(f *flatCtx) bool {
			a, b := int64(0), n
			if lo != nil {
				a, b = lo(f), hi(f)
				if b > a && (b-a > maxEnum || b-a < 0) {
					f.bad = true
					return false
				}
			}
			for v := a; v < b; v++ {
				f.slots[k] = v
				if !inner(f) || f.bad {
					return false
				}
			}
			return true
		}
	}
	if e.Forall {
		return func(f *flatCtx) int64 {
			if run(f) {
				return 1
			}
			return 0
		}, nil
	}
	return func(f *flatCtx) int64 {
		if run(f) {
			return 0
		}
		return 1
	}, nil
}

func (c *flatCompiler) binary(e *expr.Binary) (sfn, error) {
	switch e.Op {
	case expr.OpAnd, expr.OpOr, expr.OpImplies, expr.OpIff:
		x, err := c.scalar(e.X)
		if err != nil {
			return nil, err
		}
		y, err := c.scalar(e.Y)
		if err != nil {
			return nil, err
		}
		switch e.Op {
		case expr.OpAnd:
			return func(f *flatCtx) int64 {
				if x(f) == 0 {
					return 0
				}
				return y(f)
			}, nil
		case expr.OpOr:
			return func(f *flatCtx) int64 {
				if x(f) != 0 {
					return 1
				}
				return y(f)
			}, nil
		case expr.OpImplies:
			return func(f *flatCtx) int64 {
				if x(f) == 0 {
					return 1
				}
				return y(f)
			}, nil
		}
		return func(f *flatCtx) int64 {
			if x(f) == y(f) {
				return 1
			}
			return 0
		}, nil
	case expr.OpEq, expr.OpNeq:
		neq := int64(0)
		if e.Op == expr.OpNeq {
			neq = 1
		}
		if c.isScalar(e.X.Sort()) {
			if f := c.entryTest(e.X, e.Y, neq); f != nil {
				return f, nil
			}
			x, err := c.scalar(e.X)
			if err != nil {
				return nil, err
			}
			y, err := c.scalar(e.Y)
			if err != nil {
				return nil, err
			}
			return func(f *flatCtx) int64 {
				if x(f) == y(f) {
					return 1 - neq
				}
				return neq
			}, nil
		}
		x, err := c.region(e.X)
		if err != nil {
			return nil, err
		}
		y, err := c.region(e.Y)
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) int64 {
			if bytes.Equal(x(f), y(f)) {
				return 1 - neq
			}
			return neq
		}, nil
	case expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe, expr.OpAdd, expr.OpSub, expr.OpMul, expr.OpDiv, expr.OpMod:
		x, err := c.scalar(e.X)
		if err != nil {
			return nil, err
		}
		y, err := c.scalar(e.Y)
		if err != nil {
			return nil, err
		}
		switch e.Op {
		case expr.OpLt:
			return func(f *flatCtx) int64 { return b2i(x(f) < y(f)) }, nil
		case expr.OpLe:
			return func(f *flatCtx) int64 { return b2i(x(f) <= y(f)) }, nil
		case expr.OpGt:
			return func(f *flatCtx) int64 { return b2i(x(f) > y(f)) }, nil
		case expr.OpGe:
			return func(f *flatCtx) int64 { return b2i(x(f) >= y(f)) }, nil
		case expr.OpAdd:
			return func(f *flatCtx) int64 {
				a, b := x(f), y(f)
				r := a + b
				if (r > a) != (b > 0) {
					f.bad = true
				}
				return r
			}, nil
		case expr.OpSub:
			return func(f *flatCtx) int64 {
				a, b := x(f), y(f)
				r := a - b
				if (r < a) != (b > 0) {
					f.bad = true
				}
				return r
			}, nil
		}
		op := arith(e.Op)
		return func(f *flatCtx) int64 {
			r, ok := op(x(f), y(f))
			if !ok {
				f.bad = true
			}
			return r
		}, nil
	case expr.OpIn, expr.OpNotIn:
		ys := e.Y.Sort()
		if ys.Kind != expr.KSet || !atomicKey(ys.Elem) {
			return nil, notFlat(e, "in over %s", ys)
		}
		if f := c.entryTest(e.X, e.Y, b2i(e.Op == expr.OpNotIn)); f != nil {
			return f, nil
		}
		x, err := c.scalar(e.X)
		if err != nil {
			return nil, err
		}
		y, err := c.region(e.Y)
		if err != nil {
			return nil, err
		}
		if e.Op == expr.OpIn {
			return func(f *flatCtx) int64 { return int64(y(f)[x(f)]) }, nil
		}
		return func(f *flatCtx) int64 { return 1 - int64(y(f)[x(f)]) }, nil
	case expr.OpSubset:
		return c.subset(e)
	}
	return nil, notFlat(e, "operator %s", e.Op)
}

// entryTest fuses x[k] = K, x[k] != K, x[k] in S and x[k] notin S, for
// an entry that varEntry reads and a closed K or S, into one closure that
// looks the entry's byte up in a table of the bytes for which the test
// is true; it returns nil when the test has another shape. For = and !=
// the table marks K's byte; for in, the bytes of S's elements (which
// the set's encoding marks).
func (c *flatCompiler) entryTest(x, y expr.Expr, negate int64) sfn {
	ix, ok := x.(*expr.Index)
	if !ok {
		return nil
	}
	at := c.varEntry(ix)
	if at == nil {
		return nil
	}
	table, ok := c.testTable(x, y, negate != 0)
	if !ok {
		return nil
	}
	return func(f *flatCtx) int64 {
		if table[at(f)] {
			return 1
		}
		return 0
	}
}

// testTable returns the table of the entry bytes of x (an entry that
// varEntry reads) for which x = y, or x in y, holds (negated: fails), y
// closed; false when the test has another shape.
func (c *flatCompiler) testTable(x, y expr.Expr, negate bool) (*[256]bool, bool) {
	ix, ok := x.(*expr.Index)
	if !ok || !c.isClosed(y) || c.varEntry(ix) == nil {
		return nil, false
	}
	var table [256]bool
	ys := y.Sort()
	if ys.Kind == expr.KSet {
		r, err := c.region(y)
		if err != nil {
			return nil, false
		}
		for k, v := range r(nil) {
			table[k] = v != 0
		}
	} else {
		if isInt(ys) {
			return nil, false
		}
		k, err := c.scalar(y)
		if err != nil {
			return nil, false
		}
		v := k(nil)
		if v < 0 || v > 255 {
			return nil, false
		}
		table[v] = true
	}
	if negate {
		for i := range table {
			table[i] = !table[i]
		}
	}
	return &table, true
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// subset compiles x subset y over tables of one-byte leaves with atomic
// keys: sets, a partial map and a map, or two partial maps.
func (c *flatCompiler) subset(e *expr.Binary) (sfn, error) {
	xs, ys := e.X.Sort(), e.Y.Sort()
	x, err := c.region(e.X)
	if err != nil {
		return nil, err
	}
	y, err := c.region(e.Y)
	if err != nil {
		return nil, err
	}
	K, xl := tableSorts(xs)
	_, yl := tableSorts(ys)
	if !atomicKey(K) || !c.isScalar(xl) || !c.isScalar(yl) || isInt(yl) {
		return nil, notFlat(e, "subset of %s and %s", xs, ys)
	}
	switch {
	case xs.Kind == expr.KSet && ys.Kind == expr.KSet:
		return func(f *flatCtx) int64 {
			a, b := x(f), y(f)
			for k := range a {
				if a[k] > b[k] {
					return 0
				}
			}
			return 1
		}, nil
	case xs.Kind == expr.KMap && xl.Kind == expr.KOption && ys.Kind == expr.KMap && yl.Kind == expr.KOption:
		return func(f *flatCtx) int64 {
			a, b := x(f), y(f)
			for k := range a {
				if a[k] != 0 && a[k] != b[k] {
					return 0
				}
			}
			return 1
		}, nil
	case xs.Kind == expr.KMap && xl.Kind == expr.KOption && ys.Kind == expr.KMap:
		return func(f *flatCtx) int64 {
			a, b := x(f), y(f)
			for k := range a {
				if a[k] != 0 && a[k]-1 != b[k] {
					return 0
				}
			}
			return 1
		}, nil
	}
	return nil, notFlat(e, "subset of %s and %s", xs, ys)
}

// entry returns the size of an entry of a table over an atomic sort, or
// of an element of a sequence, of sort s.
func (c *flatCompiler) entry(e expr.Expr, s *expr.Sort) (int, error) {
	switch s.Kind {
	case expr.KMap, expr.KSet:
		K, l := tableSorts(s)
		if !atomicKey(K) {
			return 0, notFlat(e, "table over %s", K)
		}
		return c.size(e, l)
	case expr.KSeq:
		return c.seqElem(e, s)
	}
	return 0, notFlat(e, "index of %s", s)
}

// index compiles the parts of x[k]: the entry's size, x and k.
func (c *flatCompiler) index(e *expr.Index) (int, rfn, sfn, error) {
	size, err := c.entry(e, e.X.Sort())
	if err != nil {
		return 0, nil, nil, err
	}
	x, err := c.region(e.X)
	if err != nil {
		return 0, nil, nil, err
	}
	k, err := c.scalar(e.Index)
	if err != nil {
		return 0, nil, nil, err
	}
	return size, x, k, nil
}

// varEntry returns, for x[k] with x a state variable that is a table with
// one-byte entries over an atomic key and k a parameter or a bound
// variable, the function that returns the entry's byte: one closure where
// the general path calls three.
func (c *flatCompiler) varEntry(e *expr.Index) func(f *flatCtx) byte {
	id, ok := e.X.(*expr.Ident)
	if !ok || id.Obj == nil || id.Obj.Kind != expr.ObjVar {
		return nil
	}
	v := id.Obj.Index
	if v < 0 || v >= len(c.fl.vars) || c.fl.vars[v].seq {
		return nil
	}
	xs := id.Obj.Sort
	if xs.Kind != expr.KMap && xs.Kind != expr.KSet {
		return nil
	}
	K, leaf := tableSorts(xs)
	if !atomicKey(K) {
		return nil
	}
	if n, ok := c.fl.fixed(leaf); !ok || n != 1 {
		return nil
	}
	k, ok := e.Index.(*expr.Ident)
	if !ok || k.Obj == nil {
		return nil
	}
	switch k.Obj.Kind {
	case expr.ObjParam:
		p := k.Obj.Index
		return func(f *flatCtx) byte { return f.st[f.offs[v]+int(f.params[p])] }
	case expr.ObjBound:
		slot, ok := c.bound[k.Obj]
		if !ok || !c.isScalar(k.Obj.Sort) {
			return nil
		}
		return func(f *flatCtx) byte { return f.st[f.offs[v]+int(f.slots[slot])] }
	}
	return nil
}

func (c *flatCompiler) indexScalar(e *expr.Index, s *expr.Sort) (sfn, error) {
	if at := c.varEntry(e); at != nil {
		if isInt(s) {
			return func(f *flatCtx) int64 { b := at(f); return int64(b>>1) ^ -int64(b&1) }, nil
		}
		return func(f *flatCtx) int64 { return int64(at(f)) }, nil
	}
	size, x, k, err := c.index(e)
	if err != nil {
		return nil, err
	}
	rd := reader(s)
	if e.X.Sort().Kind == expr.KSeq {
		return func(f *flatCtx) int64 {
			r, i := x(f), k(f)
			if i < 0 || i >= int64(r[0]) {
				return 0 // the default of a scalar sort
			}
			return rd(r[1+int(i)*size])
		}, nil
	}
	return func(f *flatCtx) int64 { return rd(x(f)[int(k(f))*size]) }, nil
}

func (c *flatCompiler) indexRegion(e *expr.Index, s *expr.Sort) (rfn, error) {
	size, x, k, err := c.index(e)
	if err != nil {
		return nil, err
	}
	if e.X.Sort().Kind == expr.KSeq {
		d, err := c.defaultRegion(e, s)
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			r, i := x(f), k(f)
			if i < 0 || i >= int64(r[0]) {
				return d
			}
			o := 1 + int(i)*size
			return r[o : o+size]
		}, nil
	}
	return func(f *flatCtx) []byte {
		o := int(k(f)) * size
		return x(f)[o : o+size]
	}, nil
}

// defaultRegion returns the encoding of the default value of s.
func (c *flatCompiler) defaultRegion(e expr.Expr, s *expr.Sort) ([]byte, error) {
	d, err := c.m.c.def(e.Pos(), s)
	if err != nil {
		return nil, err
	}
	b := c.m.encoder(s)(nil, d)
	if !c.inLayout(s, b) {
		return nil, notFlat(e, "default of %s", s)
	}
	return b, nil
}

func (c *flatCompiler) callScalar(e *expr.Call, s *expr.Sort) (sfn, error) {
	call, d, err := c.defCall(e)
	if err != nil {
		return nil, err
	}
	if d != nil {
		if d.s == nil {
			return nil, notFlat(e, "definition %s", e.Fun.Name)
		}
		body := d.s
		return func(f *flatCtx) int64 { call(f); return body(f) }, nil
	}
	switch e.Fun.Name {
	case "len":
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		if e.Args[0].Sort().Kind != expr.KSeq {
			return nil, notFlat(e, "len")
		}
		return func(f *flatCtx) int64 { return int64(x(f)[0]) }, nil
	case "last":
		xs := e.Args[0].Sort()
		size, err := c.seqElem(e, xs)
		if err != nil {
			return nil, err
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		rd := reader(s)
		return func(f *flatCtx) int64 {
			r := x(f)
			if r[0] == 0 {
				return 0
			}
			return rd(r[1+(int(r[0])-1)*size])
		}, nil
	case "isSome", "isNone", "Some", "get", "abs", "even", "odd":
		x, err := c.scalar(e.Args[0])
		if err != nil {
			return nil, err
		}
		switch e.Fun.Name {
		case "isSome":
			return func(f *flatCtx) int64 { return b2i(x(f) != 0) }, nil
		case "isNone":
			return func(f *flatCtx) int64 { return b2i(x(f) == 0) }, nil
		case "Some":
			return func(f *flatCtx) int64 { return x(f) + 1 }, nil
		case "get":
			return func(f *flatCtx) int64 {
				if v := x(f); v != 0 {
					return v - 1
				}
				return 0
			}, nil
		case "abs":
			return func(f *flatCtx) int64 {
				v := x(f)
				if v < 0 {
					v = -v
					if v < 0 {
						f.bad = true
					}
				}
				return v
			}, nil
		case "even":
			return func(f *flatCtx) int64 { return 1 - x(f)&1 }, nil
		}
		return func(f *flatCtx) int64 { return x(f) & 1 }, nil
	case "min", "max":
		x, err := c.scalar(e.Args[0])
		if err != nil {
			return nil, err
		}
		y, err := c.scalar(e.Args[1])
		if err != nil {
			return nil, err
		}
		if e.Fun.Name == "min" {
			return func(f *flatCtx) int64 { return min(x(f), y(f)) }, nil
		}
		return func(f *flatCtx) int64 { return max(x(f), y(f)) }, nil
	}
	return nil, notFlat(e, "function %s", e.Fun.Name)
}

// defCall compiles call e of a definition: the binding of its parameters
// and its body (d); d is nil when e calls a built-in function.
func (c *flatCompiler) defCall(e *expr.Call) (call func(f *flatCtx), d *flatDef, err error) {
	o := e.Fun.Obj
	switch {
	case e.Recv != nil:
		return nil, nil, notFlat(e, "qualified call")
	case o != nil && o.Kind == expr.ObjDef:
		if call, err = c.callDef(e, o); err != nil {
			return nil, nil, err
		}
		return call, c.defs[o], nil
	case o == nil || o.Kind != expr.ObjBuiltin:
		return nil, nil, notFlat(e, "call")
	}
	return nil, nil, nil
}

// callDef compiles the binding of definition o's parameters to the
// arguments of call e: all arguments are evaluated before any is bound.
func (c *flatCompiler) callDef(e *expr.Call, o *expr.Object) (func(f *flatCtx), error) {
	if _, err := c.def(e, o); err != nil {
		return nil, err
	}
	if len(e.Args) != len(o.Params) {
		return nil, notFlat(e, "call of %s", o.Name)
	}
	type arg struct {
		k int
		s sfn
		r rfn
	}
	args := make([]arg, len(e.Args))
	for i, a := range e.Args {
		k, isScalar := c.bind(o.Params[i])
		args[i].k = k
		var err error
		if isScalar {
			args[i].s, err = c.scalar(a)
		} else {
			args[i].r, err = c.region(a)
		}
		if err != nil {
			return nil, err
		}
	}
	return func(f *flatCtx) {
		var sv [8]int64
		var rv [8][]byte
		for i := range args {
			if args[i].s != nil {
				sv[i] = args[i].s(f)
			} else {
				rv[i] = args[i].r(f)
			}
		}
		for i := range args {
			if args[i].s != nil {
				f.slots[args[i].k] = sv[i]
			} else {
				f.regs[args[i].k] = rv[i]
			}
		}
	}, nil
}

func (c *flatCompiler) regionOpen(e expr.Expr, s *expr.Sort) (rfn, error) {
	switch e := e.(type) {
	case *expr.Ident:
		return c.identRegion(e, s)
	case *expr.Ite:
		return flatIte(c, e, c.region)
	case *expr.Let:
		return flatLet(c, e, c.region)
	case *expr.Index:
		return c.indexRegion(e, s)
	case *expr.FieldSel:
		x, err := c.region(e.X)
		if err != nil {
			return nil, err
		}
		off, err := c.fieldOffset(e, e.X.Sort(), e.Field)
		if err != nil {
			return nil, err
		}
		n, err := c.size(e, s)
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte { return x(f)[off : off+n] }, nil
	case *expr.Call:
		return c.callRegion(e, s)
	case *expr.Binary:
		return c.setOp(e, s)
	case *expr.Lambda:
		return c.lambda(e, s)
	case *expr.Update:
		return c.update(e, s)
	case *expr.SetLit:
		return c.setLit(e, s)
	case *expr.SeqLit:
		return c.seqLit(e, s)
	case *expr.RecordLit:
		return c.record(e, s, nil, e.Fields)
	case *expr.RecordUpdate:
		return c.record(e, s, e.X, e.Fields)
	}
	return nil, notFlat(e, "expression %T of sort %s", e, s)
}

// put returns the function that writes a value of sort s at the start of
// a slice: a scalar's byte, or an encoding's bytes.
func (c *flatCompiler) put(e expr.Expr) (func(f *flatCtx, dst []byte), error) {
	s := e.Sort()
	if c.isScalar(s) {
		v, err := c.scalar(e)
		if err != nil {
			return nil, err
		}
		in := isInt(s)
		return func(f *flatCtx, dst []byte) { dst[0] = f.enc(in, v(f)) }, nil
	}
	if s.Kind == expr.KSeq {
		return nil, notFlat(e, "a sequence inside a value")
	}
	r, err := c.region(e)
	if err != nil {
		return nil, err
	}
	return func(f *flatCtx, dst []byte) { copy(dst, r(f)) }, nil
}

func (c *flatCompiler) callRegion(e *expr.Call, s *expr.Sort) (rfn, error) {
	call, d, err := c.defCall(e)
	if err != nil {
		return nil, err
	}
	if d != nil {
		if d.r == nil {
			return nil, notFlat(e, "definition %s", e.Fun.Name)
		}
		body := d.r
		return func(f *flatCtx) []byte { call(f); return body(f) }, nil
	}
	switch e.Fun.Name {
	case "last":
		size, err := c.seqElem(e, e.Args[0].Sort())
		if err != nil {
			return nil, err
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		d, err := c.defaultRegion(e, s)
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			r := x(f)
			if r[0] == 0 {
				return d
			}
			o := 1 + (int(r[0])-1)*size
			return r[o : o+size]
		}, nil
	case "append":
		size, err := c.seqElem(e, s)
		if err != nil {
			return nil, err
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		put, err := c.put(e.Args[1])
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			r := x(f)
			n := int(r[0])
			if n+1 >= 0x80 {
				f.bad = true
				return r
			}
			out := f.alloc(len(r) + size)
			copy(out, r)
			out[0] = byte(n + 1)
			put(f, out[len(r):])
			return out
		}, nil
	case "const":
		if s.Kind != expr.KMap {
			return nil, notFlat(e, "const of %s", s)
		}
		size, err := c.entry(e, s)
		if err != nil {
			return nil, err
		}
		n := c.m.Inst.size(s.Key)
		put, err := c.put(e.Args[0])
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			out := f.alloc(n * size)
			if n > 0 {
				put(f, out)
				for k := 1; k < n; k++ {
					copy(out[k*size:], out[:size])
				}
			}
			return out
		}, nil
	case "dom":
		xs := e.Args[0].Sort()
		if xs.Kind != expr.KMap || !atomicKey(xs.Key) || !c.m.byteOption(xs.Elem) {
			return nil, notFlat(e, "dom of %s", xs)
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			r := x(f)
			out := f.alloc(len(r))
			for k, b := range r {
				out[k] = byte(b2i(b != 0))
			}
			return out
		}, nil
	case "override":
		ps := e.Args[1].Sort()
		if s.Kind != expr.KMap || !atomicKey(s.Key) || !c.isScalar(s.Elem) || isInt(s.Elem) || ps.Kind != expr.KMap || !c.m.byteOption(ps.Elem) {
			return nil, notFlat(e, "override of %s", s)
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		p, err := c.region(e.Args[1])
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			a, b := x(f), p(f)
			out := f.alloc(len(a))
			for k := range out {
				if b[k] != 0 {
					out[k] = b[k] - 1
				} else {
					out[k] = a[k]
				}
			}
			return out
		}, nil
	}
	return nil, notFlat(e, "function %s", e.Fun.Name)
}

// setOp compiles union, inter and \ of sets over atomic sorts.
func (c *flatCompiler) setOp(e *expr.Binary, s *expr.Sort) (rfn, error) {
	if s.Kind != expr.KSet || !atomicKey(s.Elem) {
		return nil, notFlat(e, "operator %s on %s", e.Op, s)
	}
	var op func(a, b byte) byte
	switch e.Op {
	case expr.OpUnion:
		op = func(a, b byte) byte { return a | b }
	case expr.OpInter:
		op = func(a, b byte) byte { return a & b }
	case expr.OpDiff:
		op = func(a, b byte) byte { return a &^ b }
	default:
		return nil, notFlat(e, "operator %s", e.Op)
	}
	x, err := c.region(e.X)
	if err != nil {
		return nil, err
	}
	y, err := c.region(e.Y)
	if err != nil {
		return nil, err
	}
	return func(f *flatCtx) []byte {
		a, b := x(f), y(f)
		out := f.alloc(len(a))
		for k := range out {
			out[k] = op(a[k], b[k])
		}
		return out
	}, nil
}

// lambda compiles a table over an atomic sort: lambda x: S. body, or a set
// comprehension.
func (c *flatCompiler) lambda(e *expr.Lambda, s *expr.Sort) (rfn, error) {
	b := e.Binder
	if b.Lo != nil || !atomicKey(b.Var.Sort) {
		return nil, notFlat(e, "lambda over %s", b.Var.Sort)
	}
	size, err := c.entry(e, s)
	if err != nil {
		return nil, err
	}
	n := c.m.Inst.size(b.Var.Sort)
	k, _ := c.bind(b.Var)
	put, err := c.put(e.Body)
	if err != nil {
		return nil, err
	}
	return func(f *flatCtx) []byte {
		out := f.alloc(n * size)
		for v := 0; v < n; v++ {
			f.slots[k] = int64(v)
			put(f, out[v*size:])
		}
		return out
	}, nil
}

// update compiles x[i := v] of a table or a sequence.
func (c *flatCompiler) update(e *expr.Update, s *expr.Sort) (rfn, error) {
	size, err := c.entry(e, s)
	if err != nil {
		return nil, err
	}
	x, err := c.region(e.X)
	if err != nil {
		return nil, err
	}
	k, err := c.scalar(e.Index)
	if err != nil {
		return nil, err
	}
	put, err := c.put(e.Value)
	if err != nil {
		return nil, err
	}
	seq := s.Kind == expr.KSeq
	return func(f *flatCtx) []byte {
		r, i := x(f), k(f)
		o := int(i) * size
		if seq {
			if i < 0 || i >= int64(r[0]) {
				return r
			}
			o++
		}
		out := f.alloc(len(r))
		copy(out, r)
		put(f, out[o:])
		return out
	}, nil
}

// action compiles action number index.
func (c *flatCompiler) action(index int, act *ioa.Action) (*flatAction, error) {
	fa := &flatAction{index: index, params: make([]flatParam, len(act.Params))}
	for i, b := range act.Params {
		p := &fa.params[i]
		if b.Lo != nil && b.Hi != nil {
			var err error
			if p.lo, err = c.scalar(b.Lo); err != nil {
				return nil, err
			}
			if p.hi, err = c.scalar(b.Hi); err != nil {
				return nil, err
			}
			p.nat = b.Var.Sort != nil && b.Var.Sort.Kind == expr.KNat
			continue
		}
		if !atomicKey(b.Var.Sort) {
			return nil, fmt.Errorf("%w: parameter %s of sort %s", errNotFlat, b.Var.Name, b.Var.Sort)
		}
		p.n = int64(c.m.Inst.size(b.Var.Sort))
	}
	if act.Pre != nil {
		for _, cj := range conjuncts(act.Pre, nil) {
			f, err := c.scalar(cj)
			if err != nil {
				return nil, err
			}
			last := expr.MaxParam(cj)
			if last < 0 {
				fa.pre0 = append(fa.pre0, f)
				continue
			}
			p := &fa.params[last]
			if len(p.pre) == 0 && p.n > 0 && p.bind == nil && p.gate == nil {
				if p.gate = c.gate(cj, last); p.gate != nil {
					continue // the gate is this conjunct
				}
				p.bind = c.binding(cj, last)
			}
			p.pre = append(p.pre, f)
		}
	}
	var err error
	if fa.eff, err = c.stmts(act.Eff); err != nil {
		return nil, err
	}
	fa.plan = staticPlan(fa.eff, len(c.fl.vars))
	return fa, nil
}

// staticPlan returns the assignments of an effect without if, in the
// order of their variables (each is assigned at most once), or nil.
func staticPlan(eff []flatStmt, nvars int) []*flatAssign {
	byVar := make([]*flatAssign, nvars)
	for _, s := range eff {
		if s.asg == nil {
			return nil
		}
		byVar[s.asg.v] = s.asg
	}
	plan := []*flatAssign{}
	for _, a := range byVar {
		if a != nil {
			plan = append(plan, a)
		}
	}
	return plan
}

// gate returns conjunct cj as a table test of parameter number i when it
// is x[p] = K, x[p] != K, x[p] in S or x[p] notin S for p that parameter
// (entryTest), or nil.
func (c *flatCompiler) gate(cj expr.Expr, i int) *flatGate {
	b, ok := cj.(*expr.Binary)
	if !ok {
		return nil
	}
	var negate bool
	switch b.Op {
	case expr.OpEq, expr.OpIn:
	case expr.OpNeq, expr.OpNotIn:
		negate = true
	default:
		return nil
	}
	ix, ok := b.X.(*expr.Index)
	if !ok || (b.Op == expr.OpEq || b.Op == expr.OpNeq) && !c.isScalar(b.X.Sort()) {
		return nil
	}
	id, ok1 := ix.X.(*expr.Ident)
	k, ok2 := ix.Index.(*expr.Ident)
	if !ok1 || !ok2 || id.Obj == nil || id.Obj.Kind != expr.ObjVar || k.Obj == nil || k.Obj.Kind != expr.ObjParam || k.Obj.Index != i {
		return nil
	}
	table, ok := c.testTable(b.X, b.Y, negate)
	if !ok {
		return nil
	}
	return &flatGate{v: id.Obj.Index, table: table}
}

// binding returns the value that conjunct cj, `p = e` or `e = p` for
// parameter number i with e mentioning no later parameter, fixes for p,
// or nil.
func (c *flatCompiler) binding(cj expr.Expr, i int) sfn {
	b, ok := cj.(*expr.Binary)
	if !ok || b.Op != expr.OpEq {
		return nil
	}
	isP := func(x expr.Expr) bool {
		id, ok := x.(*expr.Ident)
		return ok && id.Obj != nil && id.Obj.Kind == expr.ObjParam && id.Obj.Index == i
	}
	var other expr.Expr
	switch {
	case isP(b.X) && expr.MaxParam(b.Y) < i:
		other = b.Y
	case isP(b.Y) && expr.MaxParam(b.X) < i:
		other = b.X
	default:
		return nil
	}
	f, err := c.scalar(other)
	if err != nil {
		return nil
	}
	return f
}

func (c *flatCompiler) stmts(ss []expr.Stmt) ([]flatStmt, error) {
	var out []flatStmt
	for _, s := range ss {
		switch s := s.(type) {
		case *expr.Assign:
			a, err := c.assign(s)
			if err != nil {
				return nil, err
			}
			out = append(out, flatStmt{asg: a})
		case *expr.IfStmt:
			cond, err := c.scalar(s.Cond)
			if err != nil {
				return nil, err
			}
			then, err := c.stmts(s.Then)
			if err != nil {
				return nil, err
			}
			els, err := c.stmts(s.Else)
			if err != nil {
				return nil, err
			}
			out = append(out, flatStmt{cond: cond, then: then, els_: els})
		case nil:
		default:
			return nil, fmt.Errorf("%w: statement %T", errNotFlat, s)
		}
	}
	return out, nil
}

// flatSel is one selector of an assignment's target: an entry of a table
// or sequence (k), or a record field (a fixed offset).
type flatSel struct {
	k    sfn
	size int // the entry's size
	n    int64
	seq  bool
	off  int
}

// assign compiles an assignment: the function appends the variable's new
// encoding, the pre-state's with the target's bytes replaced.
func (c *flatCompiler) assign(s *expr.Assign) (*flatAssign, error) {
	var sels []flatSel
	t := s.Target
	for {
		switch x := t.(type) {
		case *expr.Index:
			size, err := c.entry(x, x.X.Sort())
			if err != nil {
				return nil, err
			}
			k, err := c.scalar(x.Index)
			if err != nil {
				return nil, err
			}
			sel := flatSel{k: k, size: size, seq: x.X.Sort().Kind == expr.KSeq}
			if !sel.seq {
				K, _ := tableSorts(x.X.Sort())
				sel.n = int64(c.m.Inst.size(K))
			}
			sels = append(sels, sel)
			t = x.X
			continue
		case *expr.FieldSel:
			off, err := c.fieldOffset(x, x.X.Sort(), x.Field)
			if err != nil {
				return nil, err
			}
			sels = append(sels, flatSel{off: off})
			t = x.X
			continue
		}
		break
	}
	root, ok := t.(*expr.Ident)
	if !ok || root.Obj == nil || root.Obj.Kind != expr.ObjVar {
		return nil, notFlat(s.Target, "assignment target")
	}
	v := root.Obj.Index
	fv := &c.fl.vars[v]
	for i, j := 0, len(sels)-1; i < j; i, j = i+1, j-1 {
		sels[i], sels[j] = sels[j], sels[i]
	}
	for i := range sels {
		if sels[i].seq && i > 0 {
			return nil, notFlat(s.Target, "a sequence inside a value")
		}
	}
	ts := s.Target.Sort()
	if len(sels) == 0 && fv.seq {
		val, err := c.region(s.Value)
		if err != nil {
			return nil, err
		}
		nats := fv.nats
		size := fv.size
		return &flatAssign{v: v, write: func(f *flatCtx, out []byte) []byte {
			r := val(f)
			if len(nats) > 0 {
				for p := 1; p+size <= len(r); p += size {
					if !natsOK(r[p:], nats) {
						f.bad = true
					}
				}
			}
			return append(out, r...)
		}}, nil
	}
	put, err := c.put(s.Value)
	if err != nil {
		return nil, err
	}
	var nats []int
	if c.isScalar(ts) {
		if ts.Kind == expr.KNat {
			nats = []int{0}
		}
	} else {
		_, nats = c.fl.intOffsets(ts, 0, nil, nil)
	}
	if a := c.constEntry(s, sels, put, nats, v); a != nil {
		return a, nil
	}
	return &flatAssign{v: v, write: func(f *flatCtx, out []byte) []byte {
		start := len(out)
		out = append(out, f.st[f.offs[v]:f.offs[v+1]]...)
		o := start
		for i := range sels {
			sel := &sels[i]
			if sel.k == nil {
				o += sel.off
				continue
			}
			k := sel.k(f)
			if sel.seq {
				if k < 0 || k >= int64(out[start]) {
					return out // outside the sequence: unchanged
				}
				o += 1 + int(k)*sel.size
				continue
			}
			if k < 0 || k >= sel.n {
				f.bad = true
				return out
			}
			o += int(k) * sel.size
		}
		put(f, out[o:])
		if len(nats) > 0 && !natsOK(out[o:], nats) {
			f.bad = true
		}
		return out
	}}, nil
}

// constEntry returns the assignment s, `v[p] := e` for a parameter p and
// a closed e, as a copy of v with e's bytes, computed once, at row p, or
// nil when s has another form (sels and put are its target's selectors
// and its value's writer, as assign compiled them). Every action of a TM
// automaton sets its transaction's pc so.
func (c *flatCompiler) constEntry(s *expr.Assign, sels []flatSel, put func(*flatCtx, []byte), nats []int, v int) *flatAssign {
	ix, ok := s.Target.(*expr.Index)
	if !ok || len(sels) != 1 || sels[0].seq || sels[0].k == nil || !c.isClosed(s.Value) {
		return nil
	}
	p, ok := ix.Index.(*expr.Ident)
	if !ok || p.Obj == nil || p.Obj.Kind != expr.ObjParam {
		return nil
	}
	bs, ok := constBytes(put, sels[0].size)
	if !ok || len(nats) > 0 && !natsOK(bs, nats) {
		return nil
	}
	pi, n, size := p.Obj.Index, sels[0].n, sels[0].size
	return &flatAssign{v: v, write: func(f *flatCtx, out []byte) []byte {
		start := len(out)
		out = append(out, f.st[f.offs[v]:f.offs[v+1]]...)
		k := f.params[pi]
		if k < 0 || k >= n {
			f.bad = true
			return out
		}
		copy(out[start+int(k)*size:], bs)
		return out
	}}
}

// constBytes returns the size bytes that put writes for a closed value,
// or false when it cannot tell.
func constBytes(put func(*flatCtx, []byte), size int) (bs []byte, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	bs = make([]byte, size)
	f := &flatCtx{}
	put(f, bs)
	return bs, !f.bad
}

// natsOK reports whether the integers at the offsets nats of b are >= 0.
func natsOK(b []byte, nats []int) bool {
	for _, o := range nats {
		if b[o]&1 != 0 {
			return false
		}
	}
	return true
}

// setLit compiles {a, b, ...} over an atomic sort.
func (c *flatCompiler) setLit(e *expr.SetLit, s *expr.Sort) (rfn, error) {
	if s.Kind != expr.KSet || !atomicKey(s.Elem) {
		return nil, notFlat(e, "set literal of %s", s)
	}
	n := c.m.Inst.size(s.Elem)
	elems := make([]sfn, len(e.Elems))
	for i, x := range e.Elems {
		var err error
		if elems[i], err = c.scalar(x); err != nil {
			return nil, err
		}
	}
	return func(f *flatCtx) []byte {
		out := f.alloc(n)
		clear(out)
		for _, x := range elems {
			out[x(f)] = 1
		}
		return out
	}, nil
}

// seqLit compiles [a, b, ...].
func (c *flatCompiler) seqLit(e *expr.SeqLit, s *expr.Sort) (rfn, error) {
	size, err := c.seqElem(e, s)
	if err != nil {
		return nil, err
	}
	if len(e.Elems) >= 0x80 {
		return nil, notFlat(e, "a sequence of %d", len(e.Elems))
	}
	puts := make([]func(*flatCtx, []byte), len(e.Elems))
	for i, x := range e.Elems {
		if puts[i], err = c.put(x); err != nil {
			return nil, err
		}
	}
	return func(f *flatCtx) []byte {
		out := f.alloc(1 + len(puts)*size)
		out[0] = byte(len(puts))
		for i, p := range puts {
			p(f, out[1+i*size:])
		}
		return out
	}, nil
}

// record compiles a record literal Name{f: v, ...} (base nil) or an
// update base with {f := v, ...}: base's bytes (zeros for a literal, all
// of whose fields are given), then each field given.
func (c *flatCompiler) record(e expr.Expr, s *expr.Sort, base expr.Expr, fields []*expr.FieldInit) (rfn, error) {
	size, err := c.size(e, s)
	if err != nil {
		return nil, err
	}
	var x rfn
	if base != nil {
		if x, err = c.region(base); err != nil {
			return nil, err
		}
	}
	type field struct {
		off int
		put func(*flatCtx, []byte)
	}
	fs := make([]field, len(fields))
	for i, fi := range fields {
		if fs[i].off, err = c.fieldOffset(e, s, fi.Field); err != nil {
			return nil, err
		}
		if fs[i].put, err = c.put(fi.Value); err != nil {
			return nil, err
		}
	}
	return func(f *flatCtx) []byte {
		out := f.alloc(size)
		if x != nil {
			copy(out, x(f))
		}
		for _, fd := range fs {
			fd.put(f, out[fd.off:])
		}
		return out
	}, nil
}
