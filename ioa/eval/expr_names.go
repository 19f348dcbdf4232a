// This file implements the compilation of names: parameter-sort elements
// (T#i), identifiers (state variables, action parameters, bound variables,
// named states, constants, enum constants) and the values of declared
// constants. Its twins are internal/encode/expr_names.go (the SMT
// encoding) and fast/expr_names.go (the explorer's engine on encodings).

package eval

import (
	"ladder/internal/source"
	"ladder/ioa/expr"
)

func (c *compiler) elemLit(e *expr.ElemLit) (fn, error) {
	n := 0
	if c.inst != nil {
		n = c.inst.Sizes[e.SortName]
	}
	if n <= 0 {
		return nil, errorf(e.Pos(), "no size for parameter sort %s (give %s=n)", e.SortName, e.SortName)
	}
	if e.Index < 0 || e.Index >= n {
		return nil, errorf(e.Pos(), "%s#%d does not exist in the instance %s=%d", e.SortName, e.Index, e.SortName, n)
	}
	return konst(Elem(e.Index)), nil
}

func (c *compiler) ident(e *expr.Ident) (fn, error) {
	obj := e.Obj
	if obj == nil {
		if e.Name == "None" {
			return konst(None()), nil
		}
		return nil, errorf(e.Pos(), "unresolved name %s", e.Name)
	}
	switch obj.Kind {
	case expr.ObjVar:
		return c.stateVar(e.Pos(), obj)
	case expr.ObjParam:
		i := obj.Index
		if i < 0 || (c.nparams >= 0 && i >= c.nparams) {
			return nil, errorf(e.Pos(), "no value for parameter %s", obj.Name)
		}
		if c.nparams < 0 {
			return func(f *frame) Value {
				if i >= len(f.params) {
					f.fail(e.Pos(), "no value for parameter %s", obj.Name)
					return Value{}
				}
				return f.params[i]
			}, nil
		}
		return func(f *frame) Value { return f.params[i] }, nil
	case expr.ObjBound, expr.ObjState:
		s, ok := c.slots[obj]
		if !ok {
			return nil, errorf(e.Pos(), "no value for %s", obj.Name)
		}
		return func(f *frame) Value { return f.locals[s] }, nil
	case expr.ObjConst:
		v, err := c.constant(e.Pos(), obj)
		if err != nil {
			return nil, err
		}
		return konst(v), nil
	case expr.ObjEnum:
		return konst(Enum(obj.Index)), nil
	case expr.ObjDef:
		return c.callDef(e.Pos(), obj, nil, nil)
	case expr.ObjBuiltin:
		if obj.Name == "None" {
			return konst(None()), nil
		}
		return nil, errorf(e.Pos(), "built-in %s used as a value", obj.Name)
	}
	return nil, errorf(e.Pos(), "%s is not a value", obj.Name)
}

// stateVar compiles a reference to a state variable of the current state.
func (c *compiler) stateVar(pos source.Pos, obj *expr.Object) (fn, error) {
	i := obj.Index
	if i < 0 {
		return nil, errorf(pos, "state variable %s has no index", obj.Name)
	}
	if c.stateSlot >= 0 {
		s := c.stateSlot
		return func(f *frame) Value {
			st := f.locals[s].vs
			if i >= len(st) {
				f.fail(pos, "the state has no variable %s", obj.Name)
				return Value{}
			}
			return st[i]
		}, nil
	}
	if c.nstate >= 0 && i >= c.nstate {
		return nil, errorf(pos, "no state in which to evaluate variable %s", obj.Name)
	}
	if c.nstate < 0 {
		return func(f *frame) Value {
			if i >= len(f.state) {
				f.fail(pos, "the state has no variable %s", obj.Name)
				return Value{}
			}
			return f.state[i]
		}, nil
	}
	return func(f *frame) Value { return f.state[i] }, nil
}

// constant returns the value of a constant.
func (c *compiler) constant(pos source.Pos, obj *expr.Object) (Value, error) {
	if v, ok := c.consts[obj]; ok {
		return v, nil
	}
	if obj.Sort.IsInvalid() {
		return Value{}, errorf(pos, "constant %s has no sort", obj.Name)
	}
	if v, ok := c.inst.Consts[obj.Name]; ok {
		if !c.inst.Conforms(v, obj.Sort) {
			return Value{}, errorf(pos, "the value given for constant %s is not of sort %s", obj.Name, obj.Sort)
		}
		c.consts[obj] = v
		return v, nil
	}
	if obj.Body == nil {
		if _, finite := c.inst.Card(obj.Sort); !finite {
			return Value{}, errorf(obj.Pos, "constant %s of sort %s has no value (give %s=n)", obj.Name, obj.Sort, obj.Name)
		}
		v, err := c.def(obj.Pos, obj.Sort)
		if err != nil {
			return Value{}, err
		}
		c.consts[obj] = v
		return v, nil
	}
	if c.busy[obj] {
		return Value{}, errorf(obj.Pos, "constant %s is defined in terms of itself", obj.Name)
	}
	c.busy[obj] = true
	defer delete(c.busy, obj)
	sub := &compiler{inst: c.inst, consts: c.consts, busy: c.busy, slots: make(map[*expr.Object]int), stateSlot: -1, nstate: 0, nparams: 0, closed: c.closed, closedDef: c.closedDef}
	body, err := sub.expr(obj.Body)
	if err != nil {
		return Value{}, err
	}
	f := &frame{locals: make([]Value, sub.nlocals)}
	v := body(f)
	if f.err != nil {
		return Value{}, f.err
	}
	c.consts[obj] = v
	return v, nil
}
