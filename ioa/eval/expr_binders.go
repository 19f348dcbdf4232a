// This file implements the compilation of binders: quantifiers over finite
// sorts and integer ranges, and lambdas and set comprehensions, which are
// tabulated over their finite key sort. Its twins are
// internal/encode/expr_binders.go (the SMT encoding) and
// fast/expr_binders.go (the explorer's engine on encodings).

package eval

import (
	"errors"

	"ladder/internal/source"
	"ladder/ioa/expr"
)

// binder is a compiled binder: a finite domain or an integer range.
type binder struct {
	slot   int
	values []Value // the domain of a sort binder
	lo, hi fn      // a range binder
	pos    source.Pos
}

// binders compiles a list of binders; the returned undo removes their names.
func (c *compiler) binders(bs []*expr.Binder) ([]binder, func(), error) {
	var undos []func()
	undo := func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}
	out := make([]binder, len(bs))
	for i, b := range bs {
		if b == nil || b.Var == nil {
			undo()
			return nil, nil, errors.New("malformed binder")
		}
		out[i].pos = b.P
		if b.Lo != nil || b.Hi != nil {
			if b.Lo == nil || b.Hi == nil {
				undo()
				return nil, nil, errorf(b.P, "malformed range binder %s", b.Var.Name)
			}
			var err error
			if out[i].lo, err = c.expr(b.Lo); err == nil {
				out[i].hi, err = c.expr(b.Hi)
			}
			if err != nil {
				undo()
				return nil, nil, err
			}
		} else {
			if b.Var.Sort.IsInvalid() {
				undo()
				return nil, nil, errorf(b.P, "binder %s has no sort", b.Var.Name)
			}
			vals, err := c.inst.Values(b.Var.Sort)
			if err != nil {
				undo()
				return nil, nil, errorf(b.P, "cannot range %s over %s: %v (use a range binder `%s in lo..hi` for integers)", b.Var.Name, b.Var.Sort, err, b.Var.Name)
			}
			out[i].values = vals
		}
		s, u := c.bind(b.Var)
		out[i].slot = s
		undos = append(undos, u)
	}
	return out, undo, nil
}

// eachFn returns a function that evaluates body with the binders bound to
// every combination of values, in order, and reports false as soon as body
// gives stop (or an error occurs), true if it never does.
func (c *compiler) eachFn(bs []binder, body fn, stop int64) func(f *frame) bool {
	maxEnum := int64(c.inst.EnumLimit())
	var rec func(f *frame, i int) bool
	rec = func(f *frame, i int) bool {
		if i == len(bs) {
			return body(f).n != stop && f.err == nil
		}
		b := &bs[i]
		if b.values != nil || b.lo == nil {
			for _, v := range b.values {
				f.locals[b.slot] = v
				if !rec(f, i+1) {
					return false
				}
			}
			return true
		}
		lo, hi := b.lo(f).n, b.hi(f).n
		if hi > lo && (hi-lo > maxEnum || hi-lo < 0) {
			f.fail(b.pos, "range %d..%d is larger than the limit of %d values", lo, hi, maxEnum)
			return false
		}
		for k := lo; k < hi; k++ {
			f.locals[b.slot] = Value{n: k}
			if !rec(f, i+1) {
				return false
			}
		}
		return true
	}
	if len(bs) == 1 && bs[0].lo == nil {
		slot, values := bs[0].slot, bs[0].values
		return func(f *frame) bool {
			for _, v := range values {
				f.locals[slot] = v
				if body(f).n == stop || f.err != nil {
					return false
				}
			}
			return true
		}
	}
	return func(f *frame) bool { return rec(f, 0) }
}

func (c *compiler) quant(e *expr.Quant) (fn, error) {
	bs, undo, err := c.binders(e.Binders)
	if err != nil {
		return nil, err
	}
	body, err := c.expr(e.Body)
	undo()
	if err != nil {
		return nil, err
	}
	if e.Forall {
		each := c.eachFn(bs, body, 0)
		return func(f *frame) Value { return Bool(each(f) && f.err == nil) }, nil
	}
	each := c.eachFn(bs, body, 1)
	return func(f *frame) Value { return Bool(!each(f) && f.err == nil) }, nil
}

// lambda compiles `lambda x: S. body` into a table over S: a map, or a set
// when the lambda's sort is Set[S] (a set comprehension).
func (c *compiler) lambda(e *expr.Lambda) (fn, error) {
	v, K, err := c.lambdaVar(e)
	if err != nil {
		return nil, err
	}
	return c.tabulate(e.Pos(), v, K, e.Body)
}

// lambdaVar returns the variable of lambda e and its sort, which must be a
// finite sort that tables can be keyed by.
func (c *compiler) lambdaVar(e *expr.Lambda) (*expr.Object, *expr.Sort, error) {
	b := e.Binder
	if b == nil || b.Var == nil {
		return nil, nil, errorf(e.Pos(), "malformed lambda")
	}
	if b.Lo != nil || b.Hi != nil {
		return nil, nil, errorf(e.Pos(), "a lambda cannot bind an integer range")
	}
	K := b.Var.Sort
	if K.IsInvalid() || !keyable(K) {
		return nil, nil, errorf(e.Pos(), "cannot tabulate a function over %s in an explored instance", K)
	}
	return b.Var, K, nil
}

// tabulate compiles the table over K whose leaf at key x is body (with
// variable bound to x).
func (c *compiler) tabulate(pos source.Pos, variable *expr.Object, K *expr.Sort, bodyExpr expr.Expr) (fn, error) {
	keys, err := c.inst.Values(K)
	if err != nil {
		return nil, errorf(pos, "%v", err)
	}
	s, undo := c.bind(variable)
	body, err := c.expr(bodyExpr)
	undo()
	if err != nil {
		return nil, err
	}
	inst := c.inst
	return func(f *frame) Value {
		leaves := f.mk(len(keys))
		for i, k := range keys {
			f.locals[s] = k
			leaves[i] = body(f)
		}
		if AtomicKey(K) {
			return Value{vs: leaves}
		}
		return inst.tbuild(f, K, leaves)
	}, nil
}
