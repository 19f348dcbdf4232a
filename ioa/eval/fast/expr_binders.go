// This file implements Flat's compilation of binders: quantifiers over
// finite sorts and integer ranges, and lambdas and set comprehensions as
// tables built in scratch memory.

package fast

import (
	"fmt"

	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

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
	if !eval.AtomicKey(s) {
		err = fmt.Errorf("%w: quantifier over %s at %s", errNotFlat, s, b.P)
		return
	}
	n = int64(c.m.Inst.Count(s))
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
	maxEnum := int64(c.m.Inst.EnumLimit())
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

// lambda compiles a table over an atomic sort: lambda x: S. body, or a set
// comprehension.
func (c *flatCompiler) lambda(e *expr.Lambda, s *expr.Sort) (rfn, error) {
	b := e.Binder
	if b.Lo != nil || !eval.AtomicKey(b.Var.Sort) {
		return nil, notFlat(e, "lambda over %s", b.Var.Sort)
	}
	size, err := c.entry(e, s)
	if err != nil {
		return nil, err
	}
	n := c.m.Inst.Count(b.Var.Sort)
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
