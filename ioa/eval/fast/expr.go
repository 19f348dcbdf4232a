// This file implements the compiler of Flat (flat.go): its state, the
// dispatch on expressions, closed expressions, if and let. The other
// expressions are compiled in the files named as their reference
// compilers in package eval and their encodings in internal/encode:
// expr_names.go, expr_ops.go, expr_binders.go, expr_index.go and
// expr_calls.go; effect.go compiles actions and effects.
//
// A value of a scalar sort (Bool, Int, Nat, an enum, a parameter sort, or
// an Option of a byte scalar) is an int64: the number, the ordinal, or for
// an Option 0 (None) or x+1 (Some(x)), which is also its encoding's byte.
// A value of any other sort is its canonical encoding (eval/codec.go) in
// the flat layout: a slice of the state itself (a variable, an entry of a
// table, an element of a sequence), or of the runner's scratch memory
// when it is built. Closed expressions (no state, parameter or free bound
// variable) are evaluated once, by the Machine's compiler, and encoded.

package fast

import (
	"fmt"

	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

type (
	sfn = func(c *flatCtx) int64  // a scalar
	rfn = func(c *flatCtx) []byte // an encoding
)

// flatCompiler compiles one Flat.
type flatCompiler struct {
	fl     *Flat
	m      *eval.Machine
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
	return c.m.ByteScalar(s) || isInt(s) || c.m.ByteOption(s)
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
	s := e.Sort()
	if s.IsInvalid() {
		return nil, notFlat(e, "expression has no sort (not sort-checked)")
	}
	if !c.isScalar(s) {
		return nil, notFlat(e, "%s is not a scalar", s)
	}
	if c.isClosed(e) {
		v, err := c.constant(e)
		if err != nil {
			return nil, err
		}
		n := v.Int()
		if s.Kind == expr.KOption {
			n = 0
			if v.IsSome() {
				n = v.Get().Int() + 1
			}
		}
		return func(*flatCtx) int64 { return n }, nil
	}
	return c.scalarOpen(e, s)
}

// region compiles e, of a sort whose values are encodings.
func (c *flatCompiler) region(e expr.Expr) (rfn, error) {
	s := e.Sort()
	if s.IsInvalid() {
		return nil, notFlat(e, "expression has no sort (not sort-checked)")
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
		b := c.m.Encoder(s)(nil, v)
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
func (c *flatCompiler) constant(e expr.Expr) (eval.Value, error) {
	f, err := c.m.Compile(e)
	if err != nil {
		return eval.Value{}, err
	}
	v, err := f.Eval(nil, nil)
	if err != nil {
		return eval.Value{}, notFlat(e, "constant: %v", err)
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
