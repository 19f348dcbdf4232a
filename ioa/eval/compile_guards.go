// This file compiles the leading conjuncts of an action parameter's
// precondition into tests that need no closure call, for fast.Runner:
// a parameter's values are then skipped before any compiled code runs.
//
//   - A mask: `x[p] = K`, `x[p] != K`, `x[p] in S` or `x[p] notin S`, for a
//     state variable x that is a map from p's sort to an enumeration or
//     Bool, and constants K and S. It holds for the value k of p when bit
//     x[k] of a 64-bit mask is set. Almost every action of a TM automaton
//     starts with one (pc[t] = Ready).
//   - A binding: `p = e` (or `e = p`) for an expression e of the state and
//     the parameters before p. Only the value e evaluates to is tried
//     (DoRead(t, l, n) with l = argL[t]).
//
// Only a prefix of the level's conjuncts is compiled so: the conjuncts of a
// level are evaluated in order and stop at the first false one, and a
// compiled test is the conjunct's own value, so which conjuncts run, and so
// which run-time errors can occur, is unchanged. A plain machine (tests)
// compiles none.

package eval

import (
	"ladder/ioa/expr"
)

// paramMask is a conjunct x[p] ∈ M compiled to a bit test: it holds for
// the value k of parameter p when bit state[v][k] of mask is set.
type paramMask struct {
	v    int
	mask uint64
}

// leadingTests moves the leading conjuncts of the level of parameter i
// (cjs, with their compiled code in fns) that are masks or a binding into
// pc, and returns the compiled code of the others.
func (c *compiler) leadingTests(pc *ParamCode, i int, cjs []expr.Expr, fns []fn) []fn {
	if pc.values == nil || c.noFold {
		return fns
	}
	k := 0
	if len(cjs) > 0 {
		if e, ok := c.binding(cjs[0], i); ok {
			if f, err := c.expr(e); err == nil {
				pc.bind = f
				k = 1
			}
		}
	}
	if k == 0 {
		for ; k < len(cjs); k++ {
			m, ok := c.mask(cjs[k], i)
			if !ok {
				break
			}
			pc.masks = append(pc.masks, m)
		}
	}
	return fns[k:]
}

// binding returns e when cj is `p = e` or `e = p` with p parameter i, of a
// scalar sort, and e mentioning no parameter after it nor p itself.
func (c *compiler) binding(cj expr.Expr, i int) (expr.Expr, bool) {
	b, ok := cj.(*expr.Binary)
	if !ok || b.Op != expr.OpEq {
		return nil, false
	}
	s, err := sortOf(b.X)
	if err != nil || !AtomicKey(s) {
		return nil, false
	}
	for _, pair := range [2][2]expr.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if p, ok := c.paramRead(pair[0]); ok && p == i && expr.MaxParam(pair[1]) < i {
			return pair[1], true
		}
	}
	return nil, false
}

// mask compiles cj into a paramMask for parameter i, if it has one of the
// shapes in the file's comment.
func (c *compiler) mask(cj expr.Expr, i int) (paramMask, bool) {
	b, ok := cj.(*expr.Binary)
	if !ok {
		return paramMask{}, false
	}
	ix, ok := b.X.(*expr.Index)
	if !ok {
		return paramMask{}, false
	}
	v, ok := c.varRead(ix.X)
	if !ok {
		return paramMask{}, false
	}
	if p, ok := c.paramRead(ix.Index); !ok || p != i {
		return paramMask{}, false
	}
	xs, err := sortOf(ix.X)
	if err != nil || xs.Kind != expr.KMap || !AtomicKey(xs.Key) || !smallLeaf(xs.Elem) {
		return paramMask{}, false
	}
	k, ok := c.constOf(b.Y)
	if !ok {
		return paramMask{}, false
	}
	var mask uint64
	switch b.Op {
	case expr.OpEq, expr.OpNeq:
		if k.vs != nil || k.n < 0 || k.n >= 64 {
			return paramMask{}, false
		}
		mask = 1 << uint64(k.n)
	case expr.OpIn, expr.OpNotIn:
		if len(k.vs) > 64 {
			return paramMask{}, false
		}
		for j, m := range k.vs {
			mask |= uint64(m.n&1) << uint64(j)
		}
	default:
		return paramMask{}, false
	}
	if b.Op == expr.OpNeq || b.Op == expr.OpNotIn {
		mask = ^mask
	}
	return paramMask{v: v, mask: mask}, true
}

// smallLeaf reports whether every value of sort s is a scalar in 0..63:
// Bool, or an enumeration of at most 64 constants.
func smallLeaf(s *expr.Sort) bool {
	return s.Kind == expr.KBool || s.Kind == expr.KEnum && len(s.Elems) <= 64
}

// passes reports whether value k of a parameter passes its masks in f.
func (pc *ParamCode) passes(f *frame, k int64) bool {
	for _, m := range pc.masks {
		if m.mask>>uint64(f.state[m.v].vs[k].n)&1 == 0 {
			return false
		}
	}
	return true
}

// admits reports whether value v of the parameter passes the level's
// compiled tests in f (its binding or its masks), with the parameters
// before it bound.
func (pc *ParamCode) admits(f *frame, v Value) bool {
	if pc.bind != nil {
		return pc.bind(f).n == v.n
	}
	return pc.passes(f, v.n)
}
