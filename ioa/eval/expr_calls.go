// This file implements the compilation of calls: definitions (expanded
// with their parameters in fresh slots), qualified definitions evaluated
// on another state, and the built-in functions. Its twins are
// internal/encode/expr_calls.go (the SMT encoding) and fast/expr_calls.go
// (the explorer's engine on encodings).

package eval

import (
	"math"

	"ladder/internal/source"
	"ladder/ioa/expr"
)

// Builtins returns the names of the built-in functions the evaluator
// implements.
func Builtins() []string {
	return []string{
		"len", "last", "append", "const", "Some", "isSome", "isNone", "get", "dom",
		"override", "min", "max", "abs", "even", "odd",
	}
}

func (c *compiler) call(e *expr.Call) (fn, error) {
	if e.Fun == nil {
		return nil, errorf(e.Pos(), "malformed call")
	}
	args := make([]fn, len(e.Args))
	for i, a := range e.Args {
		var err error
		if args[i], err = c.expr(a); err != nil {
			return nil, err
		}
	}
	obj := e.Fun.Obj
	if obj != nil && obj.Kind == expr.ObjDef {
		var recv fn
		if e.Recv != nil {
			var err error
			if recv, err = c.expr(e.Recv); err != nil {
				return nil, err
			}
		}
		return c.callDef(e.Pos(), obj, recv, args)
	}
	if e.Recv != nil {
		return nil, errorf(e.Pos(), "%s.%s is not a definition", e.Recv.Name, e.Fun.Name)
	}
	if obj != nil && obj.Kind != expr.ObjBuiltin {
		return nil, errorf(e.Pos(), "%s cannot be evaluated as a function", e.Fun.Name)
	}
	return c.builtin(e, args)
}

// argSort returns the sort of argument i of call e.
func argSort(e *expr.Call, i int) (*expr.Sort, error) { return sortOf(e.Args[i]) }

func (c *compiler) builtin(e *expr.Call, args []fn) (fn, error) {
	name := e.Fun.Name
	pos := e.Pos()
	want := map[string]int{
		"len": 1, "last": 1, "append": 2, "const": 1, "Some": 1, "isSome": 1, "isNone": 1,
		"get": 1, "dom": 1, "override": 2, "min": 2, "max": 2, "abs": 1, "even": 1, "odd": 1,
	}
	n, ok := want[name]
	if !ok {
		return nil, errorf(pos, "unknown function %s", name)
	}
	if len(args) != n {
		return nil, errorf(pos, "%s takes %d arguments, not %d", name, n, len(args))
	}
	x := args[0]
	switch name {
	case "len":
		return func(f *frame) Value { return Value{n: int64(len(x(f).vs))} }, nil
	case "last":
		s, err := argSort(e, 0)
		if err != nil {
			return nil, err
		}
		if s.Kind != expr.KSeq {
			return nil, errorf(pos, "last needs a sequence, not %s", s)
		}
		d, err := c.def(pos, s.Elem)
		if err != nil {
			return nil, err
		}
		return func(f *frame) Value {
			vs := x(f).vs
			if len(vs) == 0 {
				return d
			}
			return vs[len(vs)-1]
		}, nil
	case "append":
		y := args[1]
		return func(f *frame) Value {
			s, v := x(f), y(f)
			vs := f.mk(len(s.vs) + 1)
			copy(vs, s.vs)
			vs[len(s.vs)] = v
			return Value{vs: vs}
		}, nil
	case "const":
		s, err := sortOf(e)
		if err != nil {
			return nil, err
		}
		if s.Kind != expr.KMap {
			return nil, errorf(pos, "const has sort %s, not a map sort", s)
		}
		if err := c.inst.checkSizes(s); err != nil {
			return nil, errorf(pos, "%v", err)
		}
		inst, K := c.inst, s.Key
		return func(f *frame) Value { return inst.tconst(f, K, x(f)) }, nil
	case "Some":
		return func(f *frame) Value { return f.some(x(f)) }, nil
	case "isSome":
		return func(f *frame) Value { return Value{n: x(f).n} }, nil
	case "isNone":
		return func(f *frame) Value { return Value{n: 1 - x(f).n} }, nil
	case "get":
		s, err := argSort(e, 0)
		if err != nil {
			return nil, err
		}
		if s.Kind != expr.KOption {
			return nil, errorf(pos, "get needs an Option, not %s", s)
		}
		d, err := c.def(pos, s.Elem)
		if err != nil {
			return nil, err
		}
		return func(f *frame) Value {
			o := x(f)
			if o.n == 0 {
				return d
			}
			return o.vs[0]
		}, nil
	case "dom":
		s, err := argSort(e, 0)
		if err != nil {
			return nil, err
		}
		if s.Kind != expr.KMap || s.Elem.Kind != expr.KOption {
			return nil, errorf(pos, "dom needs a partial map Map[K, Option[V]], not %s", s)
		}
		if err := c.inst.checkSizes(s); err != nil {
			return nil, errorf(pos, "%v", err)
		}
		K := s.Key
		return func(f *frame) Value { return tmap(f, K, x(f), func(o Value) Value { return Value{n: o.n} }) }, nil
	case "override":
		s, err := argSort(e, 0)
		if err != nil {
			return nil, err
		}
		if s.Kind != expr.KMap {
			return nil, errorf(pos, "override needs a map, not %s", s)
		}
		if err := c.inst.checkSizes(s); err != nil {
			return nil, errorf(pos, "%v", err)
		}
		K, y := s.Key, args[1]
		return func(f *frame) Value {
			return tzip(f, K, x(f), y(f), func(m, p Value) Value {
				if p.n != 0 {
					return p.vs[0]
				}
				return m
			})
		}, nil
	case "min":
		y := args[1]
		return func(f *frame) Value { return Value{n: min(x(f).n, y(f).n)} }, nil
	case "max":
		y := args[1]
		return func(f *frame) Value { return Value{n: max(x(f).n, y(f).n)} }, nil
	case "abs":
		return func(f *frame) Value {
			a := x(f).n
			if a == math.MinInt64 {
				f.fail(pos, "integer overflow in abs(%d)", a)
				return Value{}
			}
			if a < 0 {
				a = -a
			}
			return Value{n: a}
		}, nil
	case "even":
		return func(f *frame) Value { return Value{n: 1 - x(f).n&1} }, nil
	case "odd":
		return func(f *frame) Value { return Value{n: x(f).n & 1} }, nil
	}
	return nil, errorf(pos, "unknown function %s", name)
}

// callDef compiles a use of definition obj with compiled arguments; recv, if
// not nil, gives the state its body reads its variables from.
func (c *compiler) callDef(pos source.Pos, obj *expr.Object, recv fn, args []fn) (fn, error) {
	if obj.Body == nil {
		return nil, errorf(pos, "definition %s has no body", obj.Name)
	}
	if len(args) != len(obj.Params) {
		return nil, errorf(pos, "%s takes %d arguments, not %d", obj.Name, len(obj.Params), len(args))
	}
	if c.busy[obj] {
		return nil, errorf(pos, "definition %s calls itself", obj.Name)
	}
	c.busy[obj] = true
	defer delete(c.busy, obj)
	slots := make([]int, len(args))
	for i, p := range obj.Params {
		var undo func()
		slots[i], undo = c.bind(p)
		defer undo()
	}
	savedState, savedN := c.stateSlot, c.nstate
	recvSlot := -1
	if recv != nil {
		recvSlot = c.slot()
		c.stateSlot = recvSlot
	}
	body, err := c.expr(obj.Body)
	c.stateSlot, c.nstate = savedState, savedN
	if err != nil {
		return nil, err
	}
	switch {
	case recv == nil && len(args) == 0:
		return body, nil
	case recv == nil && len(args) == 1:
		a0, s0 := args[0], slots[0]
		return func(f *frame) Value {
			f.locals[s0] = a0(f)
			return body(f)
		}, nil
	}
	return func(f *frame) Value {
		if recv != nil {
			f.locals[recvSlot] = recv(f)
		}
		for i, a := range args {
			f.locals[slots[i]] = a(f)
		}
		return body(f)
	}, nil
}
