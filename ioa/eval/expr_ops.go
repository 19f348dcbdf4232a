// This file implements the compilation of the operators: not and unary
// minus, the connectives (lazy), equality and comparisons, exact integer
// arithmetic with Euclidean div and mod, membership, subset and the set
// operations. Its twins are internal/encode/expr_ops.go (the SMT encoding)
// and fast/expr_ops.go (the explorer's engine on encodings).

package eval

import (
	"math"

	"ladder/ioa/expr"
)

func (c *compiler) unary(e *expr.Unary) (fn, error) {
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	pos := e.Pos()
	switch e.Op {
	case expr.OpNot:
		return func(f *frame) Value { return Value{n: 1 - x(f).n} }, nil
	case expr.OpNeg:
		return func(f *frame) Value {
			a := x(f).n
			if a == math.MinInt64 {
				f.fail(pos, "integer overflow in -(%d)", a)
				return Value{}
			}
			return Value{n: -a}
		}, nil
	}
	return nil, errorf(pos, "unknown unary operator %s", e.Op)
}

func (c *compiler) binary(e *expr.Binary) (fn, error) {
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	y, err := c.expr(e.Y)
	if err != nil {
		return nil, err
	}
	pos := e.Pos()
	switch e.Op {
	case expr.OpAnd:
		return func(f *frame) Value {
			if x(f).n == 0 {
				return Value{}
			}
			return y(f)
		}, nil
	case expr.OpOr:
		return func(f *frame) Value {
			if x(f).n != 0 {
				return Value{n: 1}
			}
			return y(f)
		}, nil
	case expr.OpImplies:
		return func(f *frame) Value {
			if x(f).n == 0 {
				return Value{n: 1}
			}
			return y(f)
		}, nil
	case expr.OpIff:
		return func(f *frame) Value { return Bool(x(f).n == y(f).n) }, nil
	case expr.OpEq, expr.OpNeq:
		xs, err := sortOf(e.X)
		if err != nil {
			return nil, err
		}
		if scalar(xs) {
			return c.compare(e, x, y), nil
		}
		neg := e.Op == expr.OpNeq
		return func(f *frame) Value { return Bool(Equal(x(f), y(f)) != neg) }, nil
	case expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe:
		return c.compare(e, x, y), nil
	case expr.OpAdd, expr.OpSub, expr.OpMul, expr.OpDiv, expr.OpMod:
		op := Arith(e.Op)
		return func(f *frame) Value {
			r, ok := op(x(f).n, y(f).n)
			if !ok {
				f.fail(pos, "integer overflow in %s", e.Op)
			}
			return Value{n: r}
		}, nil
	case expr.OpIn, expr.OpNotIn:
		ys, err := sortOf(e.Y)
		if err != nil {
			return nil, err
		}
		if ys.Kind != expr.KSet {
			return nil, errorf(pos, "%s needs a set on its right, not %s", e.Op, ys)
		}
		if err := c.inst.checkSizes(ys); err != nil {
			return nil, errorf(pos, "%v", err)
		}
		var want int64 = 1
		if e.Op == expr.OpNotIn {
			want = 0
		}
		K := ys.Elem
		if set, ok := c.constOf(e.Y); ok && AtomicKey(K) && len(set.vs) <= 64 {
			var mask uint64
			for i, b := range set.vs {
				mask |= uint64(b.n) << i
			}
			if want == 0 {
				mask = ^mask
			}
			return func(f *frame) Value { return Value{n: int64(mask >> uint64(x(f).n) & 1)} }, nil
		}
		if AtomicKey(K) {
			return func(f *frame) Value {
				s, k := y(f), x(f)
				return Bool(s.vs[k.n].n == want)
			}, nil
		}
		return func(f *frame) Value {
			s, k := y(f), x(f)
			return Bool(tget(K, s, k).n == want)
		}, nil
	case expr.OpSubset:
		return c.subset(e, x, y)
	case expr.OpUnion, expr.OpInter, expr.OpDiff:
		s, err := sortOf(e.X)
		if err != nil {
			return nil, err
		}
		if s.Kind != expr.KSet {
			return nil, errorf(pos, "%s needs sets, not %s", e.Op, s)
		}
		if err := c.inst.checkSizes(s); err != nil {
			return nil, errorf(pos, "%v", err)
		}
		var leaf func(a, b Value) Value
		switch e.Op {
		case expr.OpUnion:
			leaf = func(a, b Value) Value { return Value{n: a.n | b.n} }
		case expr.OpInter:
			leaf = func(a, b Value) Value { return Value{n: a.n & b.n} }
		default:
			leaf = func(a, b Value) Value { return Value{n: a.n &^ b.n} }
		}
		K := s.Elem
		return func(f *frame) Value { return tzip(f, K, x(f), y(f), leaf) }, nil
	}
	return nil, errorf(pos, "unknown binary operator %s", e.Op)
}

// subset compiles `x subset y`: set inclusion, or agreement of a partial map
// (Map[K, Option[V]]) with a total map (Map[K, V]) or another partial map.
func (c *compiler) subset(e *expr.Binary, x, y fn) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	ys, err := sortOf(e.Y)
	if err != nil {
		return nil, err
	}
	if err := c.inst.checkSizes(xs); err != nil {
		return nil, errorf(e.Pos(), "%v", err)
	}
	switch {
	case xs.Kind == expr.KSet && ys.Kind == expr.KSet:
		K := xs.Elem
		return func(f *frame) Value {
			return Bool(tall(K, x(f), y(f), func(a, b Value) bool { return a.n == 0 || b.n != 0 }))
		}, nil
	case xs.Kind == expr.KMap && xs.Elem.Kind == expr.KOption && ys.Kind == expr.KMap && ys.Elem.Kind == expr.KOption:
		K := xs.Key
		return func(f *frame) Value {
			return Bool(tall(K, x(f), y(f), func(a, b Value) bool { return a.n == 0 || Equal(a, b) }))
		}, nil
	case xs.Kind == expr.KMap && xs.Elem.Kind == expr.KOption && ys.Kind == expr.KMap:
		K := xs.Key
		return func(f *frame) Value {
			return Bool(tall(K, x(f), y(f), func(a, b Value) bool { return a.n == 0 || Equal(a.vs[0], b) }))
		}, nil
	}
	return nil, errorf(e.Pos(), "subset needs two sets or a partial map and a map, not %s and %s", xs, ys)
}

// Arith returns the integer operation of op, which reports false on overflow.
func Arith(op expr.Op) func(a, b int64) (int64, bool) {
	switch op {
	case expr.OpAdd:
		return func(a, b int64) (int64, bool) {
			r := a + b
			return r, (r > a) == (b > 0)
		}
	case expr.OpSub:
		return func(a, b int64) (int64, bool) {
			r := a - b
			return r, (r < a) == (b > 0)
		}
	case expr.OpMul:
		return func(a, b int64) (int64, bool) {
			if a == 0 || b == 0 {
				return 0, true
			}
			r := a * b
			if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
				return r, false
			}
			return r, true
		}
	case expr.OpDiv:
		return func(a, b int64) (int64, bool) {
			q, _, ok := divmod(a, b)
			return q, ok
		}
	}
	return func(a, b int64) (int64, bool) {
		_, r, ok := divmod(a, b)
		return r, ok
	}
}

// divmod returns the Euclidean quotient and remainder of a by b
// (0 <= r < |b|), with a div 0 = 0 and a mod 0 = a, as in SMT-LIB. It reports
// false when the quotient overflows.
func divmod(a, b int64) (q, r int64, ok bool) {
	if b == 0 {
		return 0, a, true
	}
	if a == math.MinInt64 && b == -1 {
		return 0, 0, false
	}
	q, r = a/b, a%b
	if r < 0 {
		if b > 0 {
			q, r = q-1, r+b
		} else {
			q, r = q+1, r-b
		}
	}
	return q, r, true
}
