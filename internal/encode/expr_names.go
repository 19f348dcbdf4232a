// This file implements the encoding of names: parameter-sort elements
// (T#i), identifiers (state variables, action parameters, bound variables,
// named states, constants, enum constants, definitions without
// parameters), declared constants and the fresh symbols that stand for
// arbitrary ones. Its twins are ioa/eval/expr_names.go (the reference
// evaluator) and ioa/eval/fast/expr_names.go (the explorer's engine on
// encodings).

package encode

import (
	"fmt"

	"ladder/internal/logic"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// elemLit encodes T#i as the constant T#i (Problem makes the ones used
// pairwise distinct).
func (e *Encoder) elemLit(x *expr.ElemLit) (Value, error) {
	s := x.Sort()
	if x.Index < 0 {
		return Value{}, errAt(x.Pos(), "negative element index")
	}
	return leafValue(s, e.elem(x.SortName, x.Index)), nil
}

func (e *Encoder) ident(x *expr.Ident, env *Env) (Value, error) {
	s := x.Sort()
	obj := x.Obj
	if obj == nil {
		if x.Name == "None" {
			return e.Default(s) // None is the default Option
		}
		return Value{}, errAt(x.Pos(), "unresolved name %s", x.Name)
	}
	switch obj.Kind {
	case expr.ObjVar:
		st := env.State
		if st == nil {
			return Value{}, errAt(x.Pos(), "no state in which to encode variable %s", obj.Name)
		}
		if a, ok := obj.Owner.(*ioa.Automaton); ok && a != nil && st.Automaton != nil && a != st.Automaton {
			return Value{}, errAt(x.Pos(), "variable %s of %s read in a state of %s", obj.Name, a.Name, st.Automaton.Name)
		}
		if obj.Index < 0 || obj.Index >= len(st.Vars) {
			return Value{}, errAt(x.Pos(), "the state has no variable %s", obj.Name)
		}
		return st.Vars[obj.Index], nil
	case expr.ObjParam:
		if obj.Index < 0 || obj.Index >= len(env.Params) {
			return Value{}, errAt(x.Pos(), "no value for parameter %s", obj.Name)
		}
		return withSort(env.Params[obj.Index], s), nil
	case expr.ObjBound:
		v, ok := env.Vars[obj]
		if !ok {
			return Value{}, errAt(x.Pos(), "no value for %s", obj.Name)
		}
		return v, nil
	case expr.ObjState:
		st, ok := env.States[obj]
		if !ok || st == nil {
			return Value{}, errAt(x.Pos(), "no state for %s", obj.Name)
		}
		return st.Value(), nil
	case expr.ObjConst:
		return e.constant(x.Pos(), obj)
	case expr.ObjEnum:
		if s.Kind != expr.KEnum {
			return Value{}, errAt(x.Pos(), "enum constant %s of sort %s", obj.Name, s)
		}
		dt, err := e.enumDatatype(s)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		if obj.Index < 0 || obj.Index >= dt.NumConstructors() {
			return Value{}, errAt(x.Pos(), "enum constant %s has no index", obj.Name)
		}
		return leafValue(s, logic.Ctor(dt, obj.Index)), nil
	case expr.ObjDef:
		return e.callDef(x.Pos(), obj, nil, nil, env)
	case expr.ObjBuiltin:
		if obj.Name == "None" {
			return e.Default(s)
		}
		return Value{}, errAt(x.Pos(), "built-in %s used as a value", obj.Name)
	}
	return Value{}, errAt(x.Pos(), "%s is not a value", obj.Name)
}

// Constant returns the encoding of the declared constant obj (ObjConst):
// its defining expression, or the symbol standing for it.
func (e *Encoder) Constant(obj *expr.Object) (Value, error) {
	if obj == nil || obj.Kind != expr.ObjConst {
		return Value{}, fmt.Errorf("Constant: not a constant")
	}
	return e.constant(obj.Pos, obj)
}

// constant returns a declared constant: the encoding of its defining
// expression, or a fresh symbol named Automaton::name (with background
// facts: well-formedness and Nat).
func (e *Encoder) constant(pos source.Pos, obj *expr.Object) (Value, error) {
	if v, ok := e.consts[obj]; ok {
		return v, nil
	}
	if e.busy[obj] {
		return Value{}, errAt(pos, "constant %s is defined in terms of itself", obj.Name)
	}
	e.busy[obj] = true
	defer delete(e.busy, obj)
	var v Value
	var err error
	if obj.Body != nil {
		v, err = e.expr(obj.Body, &Env{})
		v = withSort(v, obj.Sort)
	} else {
		owner := ""
		if a, ok := obj.Owner.(*ioa.Automaton); ok && a != nil {
			owner = a.Name + "::"
		}
		v, err = e.freshSymbols(obj.Sort, owner+obj.Name, true)
	}
	if err != nil {
		return Value{}, err
	}
	e.consts[obj] = v
	return v, nil
}

// freshSymbols returns a value of fresh constants called name (flattened
// parts get suffixes) and records its background facts: structural
// well-formedness, and the Nat facts when nat is set.
func (e *Encoder) freshSymbols(s *expr.Sort, name string, nat bool) (Value, error) {
	var clash error
	v, err := e.fresh(s, name, func(n string, ls *logic.Sort) *logic.Term {
		if _, ok := e.symbols[n]; ok && clash == nil {
			clash = fmt.Errorf("symbol %s is already used", n)
		}
		c := logic.Const(n, ls)
		e.symbols[n] = c
		return c
	})
	if err != nil {
		return Value{}, err
	}
	if clash != nil {
		return Value{}, clash
	}
	var about []string
	for _, l := range v.Leaves() {
		about = append(about, l.Name())
	}
	wf, err := e.wellFormed(v)
	if err != nil {
		return Value{}, err
	}
	if !wf.IsTrue() {
		e.facts = append(e.facts, fact{name: "wf(" + name + ")", about: about, term: wf})
	}
	if nat {
		nf, err := e.natFacts(v)
		if err != nil {
			return Value{}, err
		}
		if !nf.IsTrue() {
			e.facts = append(e.facts, fact{name: "nat(" + name + ")", about: about, term: nf})
		}
	}
	return v, nil
}
