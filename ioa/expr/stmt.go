// This file implements the checking of effect statements.

package expr

import (
	"ladder/internal/source"
)

// CheckStmts checks an effect in scope sc: every target is an lvalue rooted
// at a state variable (an ObjVar object), every value is assignable to its
// target's sort, every condition is Bool, and on any path through the ifs
// each state variable is assigned at most once (the error names both
// positions). Assignments in different branches of an if do not conflict.
func (c *Checker) CheckStmts(stmts []Stmt, sc *Scope) {
	defer c.guard(source.NoPos, nil)
	c.checkStmts(stmts, sc, map[*Object]source.Pos{})
}

// checkStmts checks ss on a path on which the variables in assigned have
// been assigned already; it adds the variables assigned by ss (on any of
// their paths) to assigned.
func (c *Checker) checkStmts(ss []Stmt, sc *Scope, assigned map[*Object]source.Pos) {
	for _, s := range ss {
		switch s := s.(type) {
		case *Assign:
			c.checkAssign(s, sc, assigned)
		case *IfStmt:
			c.expect(s.Cond, sc, BoolSort, "")
			thenA := copyAssigned(assigned)
			c.checkStmts(s.Then, sc, thenA)
			elseA := copyAssigned(assigned)
			c.checkStmts(s.Else, sc, elseA)
			for o, p := range thenA {
				assigned[o] = p
			}
			for o, p := range elseA {
				if _, ok := assigned[o]; !ok {
					assigned[o] = p
				}
			}
		case nil:
		default:
			c.errorf(s.Pos(), source.ErrInternal, "internal error: unknown statement %T", s)
		}
	}
}

func copyAssigned(m map[*Object]source.Pos) map[*Object]source.Pos {
	c := make(map[*Object]source.Pos, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// lvalueRoot returns the identifier an lvalue is rooted at, or nil when
// target is not an lvalue (name { [index] | .field }).
func lvalueRoot(target Expr) *Ident {
	for {
		switch t := target.(type) {
		case *Ident:
			return t
		case *Index:
			target = t.X
		case *FieldSel:
			target = t.X
		default:
			return nil
		}
	}
}

func (c *Checker) checkAssign(s *Assign, sc *Scope, assigned map[*Object]source.Pos) {
	if s.Target == nil || s.Value == nil {
		c.errorf(s.P, source.ErrInternal, "internal error: incomplete assignment")
		return
	}
	root := lvalueRoot(s.Target)
	if root == nil {
		c.errorf(s.Target.Pos(), source.ErrModel, "cannot assign to %s: not a state variable", short(s.Target))
		c.check(s.Target, sc, nil)
		c.check(s.Value, sc, nil)
		return
	}
	ts := c.check(s.Target, sc, nil)
	obj := root.Obj
	switch {
	case obj == nil || obj.Kind == ObjBad:
		// undefined: reported by check
	case obj.Kind != ObjVar:
		c.errorf(root.P, source.ErrModel, "cannot assign to %q: not a state variable", root.Name)
	default:
		if first, ok := assigned[obj]; ok {
			c.errorf(s.P, source.ErrModel, "%q assigned twice on one path (first at %s)", root.Name, first)
		} else {
			assigned[obj] = s.P
		}
	}
	c.expect(s.Value, sc, ts, "assignment to "+short(s.Target))
}
