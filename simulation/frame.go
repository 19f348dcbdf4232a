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

// readsOf returns what body reads, for the state objects c and a.
func readsOf(body expr.Expr, c, a *expr.Object) clauseReads {
	r := clauseReads{ok: true}
	type defAt struct{ def, owner *expr.Object }
	seen := map[defAt]bool{}
	add := func(o *expr.Object, i int) {
		switch o {
		case c:
			r.c = appendNew(r.c, i)
		case a:
			r.a = appendNew(r.a, i)
		default:
			r.ok = false
		}
	}
	// walk visits e, in which a bare state variable is one of owner (the
	// state a definition was called on; nil in the clause itself)
	var walk func(e expr.Expr, owner *expr.Object)
	walk = func(e expr.Expr, owner *expr.Object) {
		expr.Inspect(e, func(x expr.Expr) bool {
			switch x := x.(type) {
			case *expr.FieldSel:
				if o, i, ok := expr.StateField(x); ok {
					add(o, i)
					return false
				}
			case *expr.Call:
				if x.Recv == nil || x.Recv.Obj == nil || x.Recv.Obj.Kind != expr.ObjState {
					return true
				}
				for _, arg := range x.Args {
					walk(arg, owner)
				}
				d := x.Fun.Obj
				if d == nil || d.Kind != expr.ObjDef {
					r.ok = false
				} else if k := (defAt{d, x.Recv.Obj}); !seen[k] {
					seen[k] = true
					walk(d.Body, x.Recv.Obj)
				}
				return false
			case *expr.Ident:
				if x.Obj == nil {
					return true
				}
				switch x.Obj.Kind {
				case expr.ObjVar:
					if owner == nil {
						r.ok = false
					} else {
						add(owner, x.Obj.Index)
					}
				case expr.ObjState:
					r.ok = false
				case expr.ObjDef:
					if k := (defAt{x.Obj, owner}); !seen[k] {
						seen[k] = true
						walk(x.Obj.Body, owner)
					}
				}
			}
			return true
		})
	}
	walk(body, nil)
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
