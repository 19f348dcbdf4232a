// This file implements Flat's compilation of binary operators: logic,
// comparisons and equality of encodings, integer arithmetic (which gives
// up on overflow and on results outside one byte), membership, subset and
// the set operations on tables.

package fast

import (
	"bytes"

	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// operands compiles the operands of e as scalars.
func (c *flatCompiler) operands(e *expr.Binary) (x, y sfn, err error) {
	if x, err = c.scalar(e.X); err != nil {
		return nil, nil, err
	}
	if y, err = c.scalar(e.Y); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func (c *flatCompiler) binary(e *expr.Binary) (sfn, error) {
	switch e.Op {
	case expr.OpAnd, expr.OpOr, expr.OpImplies, expr.OpIff:
		x, y, err := c.operands(e)
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
			x, y, err := c.operands(e)
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
		x, y, err := c.operands(e)
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
		op := eval.Arith(e.Op)
		return func(f *flatCtx) int64 {
			r, ok := op(x(f), y(f))
			if !ok {
				f.bad = true
			}
			return r
		}, nil
	case expr.OpIn, expr.OpNotIn:
		ys := e.Y.Sort()
		if ys.Kind != expr.KSet || !eval.AtomicKey(ys.Elem) {
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
	K, xl := eval.TableSorts(xs)
	_, yl := eval.TableSorts(ys)
	if !eval.AtomicKey(K) || !c.isScalar(xl) || !c.isScalar(yl) || isInt(yl) {
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

// setOp compiles union, inter and \ of sets over atomic sorts.
func (c *flatCompiler) setOp(e *expr.Binary, s *expr.Sort) (rfn, error) {
	if s.Kind != expr.KSet || !eval.AtomicKey(s.Elem) {
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
