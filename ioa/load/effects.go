// This file checks that an effect assigns each state variable at most once
// on every path through its conditionals.

package load

import (
	"ladder/internal/source"
	"ladder/ioa/expr"
)

// assignOnce checks stmts, given the variables already assigned on the path
// leading to them (with the position of the assignment), and returns the
// variables assigned on some path through them.
func (al *autoLoader) assignOnce(stmts []expr.Stmt, sc *expr.Scope, in map[*expr.Object]source.Pos) map[*expr.Object]source.Pos {
	cur := make(map[*expr.Object]source.Pos, len(in))
	for k, v := range in {
		cur[k] = v
	}
	for _, s := range stmts {
		switch s := s.(type) {
		case *expr.Assign:
			root := lvalueRoot(s.Target)
			if root == nil {
				continue
			}
			obj := sc.Lookup(root.Name)
			if obj == nil || obj.Kind != expr.ObjVar {
				continue // reported by the checker
			}
			if first, ok := cur[obj]; ok {
				al.l.errs.Add(root.Pos(), source.ErrModel,
					"state variable %q is assigned twice on one path (first at line %d): assignments are simultaneous; write %s := %s[i := a][j := b]",
					obj.Name, first.Line, obj.Name, obj.Name)
				continue
			}
			cur[obj] = root.Pos()
		case *expr.IfStmt:
			then := al.assignOnce(s.Then, sc, cur)
			els := al.assignOnce(s.Else, sc, cur)
			for k, v := range then {
				cur[k] = v
			}
			for k, v := range els {
				if _, ok := cur[k]; !ok {
					cur[k] = v
				}
			}
		}
	}
	return cur
}

// lvalueRoot returns the variable of an lvalue `x[i].f...`, or nil.
func lvalueRoot(e expr.Expr) *expr.Ident {
	for {
		switch x := e.(type) {
		case *expr.Ident:
			return x
		case *expr.Index:
			e = x.X
		case *expr.FieldSel:
			e = x.X
		default:
			return nil
		}
	}
}
