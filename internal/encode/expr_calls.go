// This file implements the encoding of calls: definitions (expanded at
// each call with the encodings of the arguments shared), qualified
// definitions expanded on another state, and the built-in functions. Its
// twins are ioa/eval/expr_calls.go (the reference evaluator) and
// ioa/eval/fast/expr_calls.go (the explorer's engine on encodings).

package encode

import (
	"ladder/internal/logic"
	"ladder/internal/source"
	"ladder/ioa/expr"
)

func (e *Encoder) call(x *expr.Call, env *Env) (Value, error) {
	if x.Fun == nil {
		return Value{}, errAt(x.Pos(), "malformed call")
	}
	obj := x.Fun.Obj
	args := make([]Value, len(x.Args))
	for i, a := range x.Args {
		var err error
		if args[i], err = e.expr(a, env); err != nil {
			return Value{}, err
		}
	}
	if obj != nil && obj.Kind == expr.ObjDef {
		var recv *State
		if x.Recv != nil {
			if x.Recv.Obj == nil || x.Recv.Obj.Kind != expr.ObjState {
				return Value{}, errAt(x.Pos(), "%s is not a state", x.Recv.Name)
			}
			st, ok := env.States[x.Recv.Obj]
			if !ok || st == nil {
				return Value{}, errAt(x.Pos(), "no state for %s", x.Recv.Name)
			}
			recv = st
		}
		return e.callDef(x.Pos(), obj, recv, args, env)
	}
	if x.Recv != nil {
		return Value{}, errAt(x.Pos(), "%s.%s is not a definition", x.Recv.Name, x.Fun.Name)
	}
	if obj != nil && obj.Kind != expr.ObjBuiltin {
		return Value{}, errAt(x.Pos(), "%s cannot be encoded as a function", x.Fun.Name)
	}
	return e.builtin(x, args)
}

// callDef expands definition obj: its body encoded with its parameters
// bound to the argument values (macro substitution; the argument values
// are shared, not copied). A receiver state replaces the state the body
// reads.
func (e *Encoder) callDef(pos source.Pos, obj *expr.Object, recv *State, args []Value, env *Env) (Value, error) {
	if obj.Body == nil {
		return Value{}, errAt(pos, "definition %s has no body", obj.Name)
	}
	if len(args) != len(obj.Params) {
		return Value{}, errAt(pos, "%s takes %d arguments, not %d", obj.Name, len(obj.Params), len(args))
	}
	if e.busy[obj] {
		return Value{}, errAt(pos, "definition %s calls itself", obj.Name)
	}
	e.busy[obj] = true
	defer delete(e.busy, obj)
	inner := &Env{State: env.State, States: env.States}
	if recv != nil {
		inner.State = recv
	}
	inner.Vars = map[*expr.Object]Value{}
	for i, p := range obj.Params {
		inner.Vars[p] = withSort(args[i], p.Sort)
	}
	v, err := e.expr(obj.Body, inner)
	if err != nil {
		return Value{}, err
	}
	return withSort(v, obj.Sort), nil
}

func (e *Encoder) builtin(x *expr.Call, args []Value) (Value, error) {
	name := x.Fun.Name
	s := x.Sort()
	want := map[string]int{
		"len": 1, "last": 1, "append": 2, "const": 1, "Some": 1, "isSome": 1, "isNone": 1,
		"get": 1, "dom": 1, "override": 2, "min": 2, "max": 2, "abs": 1, "even": 1, "odd": 1,
	}
	n, ok := want[name]
	if !ok {
		return Value{}, errAt(x.Pos(), "unknown function %s", name)
	}
	if len(args) != n {
		return Value{}, errAt(x.Pos(), "%s takes %d arguments, not %d", name, n, len(args))
	}
	a := args[0]
	wrap := func(v Value, err error) (Value, error) {
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return v, nil
	}
	switch name {
	case "len":
		if a.sort.Kind != expr.KSeq {
			return Value{}, errAt(x.Pos(), "len needs a sequence, not %s", a.sort)
		}
		return withSort(a.parts[0], s), nil
	case "last":
		if a.sort.Kind != expr.KSeq {
			return Value{}, errAt(x.Pos(), "last needs a sequence, not %s", a.sort)
		}
		i := leafValue(expr.IntSort, logic.Sub(a.parts[0].leaf, logic.IntVal(1)))
		return wrap(e.seqIndex(a, i))
	case "append":
		if a.sort.Kind != expr.KSeq {
			return Value{}, errAt(x.Pos(), "append needs a sequence, not %s", a.sort)
		}
		return wrap(e.seqAppend(withSort(a, s), withSort(args[1], s.Elem)))
	case "const":
		if s.Kind != expr.KMap {
			return Value{}, errAt(x.Pos(), "const has sort %s, not a map sort", s)
		}
		if err := checkKey(s.Key); err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return wrap(e.mapConst(s, withSort(a, s.Elem)))
	case "Some":
		if s.Kind != expr.KOption {
			return Value{}, errAt(x.Pos(), "Some has sort %s", s)
		}
		dt, err := e.optionDatatype(s)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		pa, err := e.Pack(withSort(a, s.Elem))
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return leafValue(s, logic.Ctor(dt, 1, pa)), nil
	case "isSome", "isNone", "get":
		if a.sort.Kind != expr.KOption {
			return Value{}, errAt(x.Pos(), "%s needs an Option, not %s", name, a.sort)
		}
		dt, err := e.optionDatatype(a.sort)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		switch name {
		case "isSome":
			return leafValue(s, logic.Is(dt, 1, a.leaf)), nil
		case "isNone":
			return leafValue(s, logic.Is(dt, 0, a.leaf)), nil
		}
		v, err := e.unpack(logic.Access(dt, 1, 0, a.leaf), a.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		d, err := e.Default(a.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return withSort(ite(logic.Is(dt, 1, a.leaf), v, d), s), nil
	case "dom":
		if a.sort.Kind != expr.KMap || a.sort.Elem.Kind != expr.KOption {
			return Value{}, errAt(x.Pos(), "dom needs a partial map Map[K, Option[V]], not %s", a.sort)
		}
		dt, err := e.optionDatatype(a.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		kv, err := e.keyVar(a.sort.Key)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return leafValue(s, logic.Lambda(kv, logic.Is(dt, 1, logic.Select(a.leaf, kv)))), nil
	case "override":
		p := args[1]
		if a.sort.Kind != expr.KMap || p.sort.Kind != expr.KMap || p.sort.Elem.Kind != expr.KOption {
			return Value{}, errAt(x.Pos(), "override needs a map and a partial map, not %s and %s", a.sort, p.sort)
		}
		dt, err := e.optionDatatype(p.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		kv, err := e.keyVar(a.sort.Key)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		k, err := e.unpack(kv, a.sort.Key)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		mk, err := e.mapSelect(a, k)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		pk := logic.Select(p.leaf, kv)
		pv, err := e.unpack(logic.Access(dt, 1, 0, pk), a.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		body := ite(logic.Is(dt, 1, pk), withSort(pv, a.sort.Elem), mk)
		return e.mapLambda(withSortMap(s, a.sort), kv, body), nil
	case "min", "max":
		b := args[1]
		if name == "min" {
			return leafValue(s, logic.Ite(logic.Le(a.leaf, b.leaf), a.leaf, b.leaf)), nil
		}
		return leafValue(s, logic.Ite(logic.Ge(a.leaf, b.leaf), a.leaf, b.leaf)), nil
	case "abs":
		return leafValue(s, logic.Ite(logic.Ge(a.leaf, logic.IntVal(0)), a.leaf, logic.Neg(a.leaf))), nil
	case "even":
		return leafValue(s, logic.Eq(logic.Mod(a.leaf, logic.IntVal(2)), logic.IntVal(0))), nil
	case "odd":
		return leafValue(s, logic.Eq(logic.Mod(a.leaf, logic.IntVal(2)), logic.IntVal(1))), nil
	}
	return Value{}, errAt(x.Pos(), "unknown function %s", name)
}

func withSortMap(s, fallback *expr.Sort) *expr.Sort {
	if s != nil && s.Kind == expr.KMap {
		return s
	}
	return fallback
}
