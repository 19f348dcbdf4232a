// This file implements the compilation of effects: the variable an
// assignment target writes, the check that no path assigns a variable
// twice, and the closures that compute the assigned values in the
// pre-state (x[i].f := v is x := x[i := x[i] with {f := v})).

package eval

import (
	"errors"
	"fmt"

	"ladder/ioa/expr"
)

// targetVar returns the state variable an lvalue assigns.
func targetVar(t expr.Expr) (*expr.Object, error) {
	for {
		switch x := t.(type) {
		case *expr.Ident:
			if x.Obj == nil || x.Obj.Kind != expr.ObjVar {
				return nil, errorf(x.Pos(), "%s is not a state variable", x.Name)
			}
			return x.Obj, nil
		case *expr.Index:
			t = x.X
		case *expr.FieldSel:
			t = x.X
		default:
			if t == nil {
				return nil, errors.New("missing assignment target")
			}
			return nil, errorf(t.Pos(), "cannot assign to this expression")
		}
	}
}

// assigned returns the variables that some path through ss assigns, and an
// error if a path assigns one twice.
func assigned(ss []expr.Stmt) (map[*expr.Object]bool, error) {
	out := make(map[*expr.Object]bool)
	for _, s := range ss {
		var these map[*expr.Object]bool
		switch s := s.(type) {
		case *expr.Assign:
			v, err := targetVar(s.Target)
			if err != nil {
				return nil, err
			}
			these = map[*expr.Object]bool{v: true}
		case *expr.IfStmt:
			th, err := assigned(s.Then)
			if err != nil {
				return nil, err
			}
			el, err := assigned(s.Else)
			if err != nil {
				return nil, err
			}
			for v := range el {
				th[v] = true
			}
			these = th
		default:
			return nil, fmt.Errorf("unknown statement %T", s)
		}
		for v := range these {
			if out[v] {
				return nil, errorf(s.Pos(), "%s is assigned twice on one path of the effect (write x := x[i := a][j := b])", v.Name)
			}
			out[v] = true
		}
	}
	return out, nil
}

// stmts compiles an effect.
func (m *Machine) stmts(ss []expr.Stmt) (effFn, error) {
	var fns []effFn
	for _, s := range ss {
		switch s := s.(type) {
		case *expr.Assign:
			val, err := m.c.expr(s.Value)
			if err != nil {
				return nil, err
			}
			idx, newVal, err := m.lvalue(s.Target, val)
			if err != nil {
				return nil, err
			}
			if idx >= len(m.A.Vars) {
				return nil, errorf(s.Pos(), "assignment to unknown variable #%d", idx)
			}
			fns = append(fns, func(f *frame, post []Value) { post[idx] = newVal(f) })
		case *expr.IfStmt:
			cond, err := m.c.expr(s.Cond)
			if err != nil {
				return nil, err
			}
			th, err := m.stmts(s.Then)
			if err != nil {
				return nil, err
			}
			el, err := m.stmts(s.Else)
			if err != nil {
				return nil, err
			}
			fns = append(fns, func(f *frame, post []Value) {
				if cond(f).n != 0 {
					th(f, post)
				} else {
					el(f, post)
				}
			})
		default:
			return nil, fmt.Errorf("unknown statement %T", s)
		}
	}
	switch len(fns) {
	case 0:
		return func(*frame, []Value) {}, nil
	case 1:
		return fns[0], nil
	}
	return func(f *frame, post []Value) {
		for _, s := range fns {
			s(f, post)
		}
	}, nil
}

// lvalue compiles the assignment target := val into the index of the
// variable assigned and its new value, both computed in the pre-state.
func (m *Machine) lvalue(target expr.Expr, val fn) (int, fn, error) {
	c := m.c
	switch t := target.(type) {
	case *expr.Ident:
		if t.Obj == nil || t.Obj.Kind != expr.ObjVar {
			return 0, nil, errorf(t.Pos(), "%s is not a state variable", t.Name)
		}
		return t.Obj.Index, val, nil
	case *expr.Index:
		xs, err := sortOf(t.X)
		if err != nil {
			return 0, nil, err
		}
		x, err := c.expr(t.X)
		if err != nil {
			return 0, nil, err
		}
		i, err := c.expr(t.Index)
		if err != nil {
			return 0, nil, err
		}
		nx, err := c.updateFn(t.Pos(), xs, t.X, t.Index, x, i, val)
		if err != nil {
			return 0, nil, err
		}
		return m.lvalue(t.X, nx)
	case *expr.FieldSel:
		xs, err := sortOf(t.X)
		if err != nil {
			return 0, nil, err
		}
		k, err := fieldIndex(t.Pos(), xs, t.Name)
		if err != nil {
			return 0, nil, err
		}
		x, err := c.expr(t.X)
		if err != nil {
			return 0, nil, err
		}
		n := len(xs.Fields)
		nx := func(f *frame) Value {
			r := x(f)
			vs := f.mk(n)
			copy(vs, r.vs)
			vs[k] = val(f)
			return Value{vs: vs}
		}
		return m.lvalue(t.X, nx)
	}
	if target == nil {
		return 0, nil, errors.New("missing assignment target")
	}
	return 0, nil, errorf(target.Pos(), "cannot assign to this expression")
}
