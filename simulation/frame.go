package simulation

import (
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// clauseReads is what a relation clause reads: the variables of the
// concrete state c and of the abstract state a (objects objs[0] and
// objs[1]), directly (c.x) or through the automata's definitions (c.d(…));
// ok is false when it reads anything else of a state (the whole state, a
// third state), and then nothing may be concluded from its reads.
type clauseReads struct {
	clause *ioa.Clause
	c, a   []int
	ok     bool
}

// readsOf returns what body reads, for the state objects c and a
// (expr.VarReads).
func readsOf(body expr.Expr, c, a *expr.Object) clauseReads {
	var r clauseReads
	other := false // a bare variable, or one of a third state
	known := expr.VarReads(body, func(o *expr.Object, i int) {
		switch o {
		case c:
			r.c = appendNew(r.c, i)
		case a:
			r.a = appendNew(r.a, i)
		default:
			other = true
		}
	})
	r.ok = known && !other
	return r
}

func appendNew(xs []int, x int) []int {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// clauseFramed reports whether relation clause cl, clause i of the
// proof's relation, reads only variables whose values (cpost, apost) share
// with (c, a), so that cl(cpost, apost) = cl(c, a): a clause is a function
// of the variables it reads. The caller knows that cl(c, a) holds.
func (f *fastEval) clauseFramed(i int, cl *ioa.Clause, c, a, cpost, apost eval.State) bool {
	if len(f.objs) < 2 || i < 0 {
		return false
	}
	for len(f.frames) <= i {
		f.frames = append(f.frames, clauseReads{})
	}
	r := &f.frames[i]
	if r.clause != cl {
		*r = readsOf(cl.Body, f.objs[0], f.objs[1])
		r.clause = cl
	}
	return r.ok && eval.SharesVars(c, cpost, r.c) && eval.SharesVars(a, apost, r.a)
}
