// This file implements calls: of definitions, of another automaton's
// definitions (c.f(args)) and of the built-in functions.

package expr

import (
	"sort"

	"ladder/internal/source"
)

// builtinArity gives the number of arguments of each built-in function.
var builtinArity = map[string]int{
	"len": 1, "last": 1, "append": 2, "const": 1, "Some": 1, "None": 0,
	"isSome": 1, "isNone": 1, "get": 1, "dom": 1, "override": 2,
	"min": 2, "max": 2, "abs": 1, "even": 1, "odd": 1,
}

// IsBuiltin reports whether name is a built-in function (len, last, append,
// const, Some, None, isSome, isNone, get, dom, override, min, max, abs,
// even, odd). A name declared in scope hides the built-in of that name (the
// checker looks in scope first), so `max` may be a constant.
func IsBuiltin(name string) bool {
	_, ok := builtinArity[name]
	return ok
}

// BuiltinNames returns the names of the built-in functions, sorted.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtinArity))
	for n := range builtinArity {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// builtin returns this checker's object for the named built-in, or nil.
func (c *Checker) builtin(name string) *Object {
	if !IsBuiltin(name) {
		return nil
	}
	if o, ok := c.builtins[name]; ok {
		return o
	}
	if c.builtins == nil {
		c.builtins = make(map[string]*Object)
	}
	o := &Object{Kind: ObjBuiltin, Name: name}
	switch name {
	case "len", "min", "max", "abs":
		o.Sort = IntSort
	case "isSome", "isNone", "even", "odd":
		o.Sort = BoolSort
	}
	c.builtins[name] = o
	return o
}

func (c *Checker) checkCall(e *Call, sc *Scope, hint *Sort) *Sort {
	if e.Fun == nil {
		c.errorf(e.P, source.ErrInternal, "internal error: call without a function")
		c.checkAll(e.Args, sc)
		return InvalidSort
	}
	s := c.checkCall1(e, sc, hint)
	e.Fun.setSort(orInvalid(s))
	return s
}

func (c *Checker) checkAll(es []Expr, sc *Scope) {
	for _, a := range es {
		c.check(a, sc, nil)
	}
}

func (c *Checker) checkCall1(e *Call, sc *Scope, hint *Sort) *Sort {
	name := e.Fun.Name
	if e.Recv != nil {
		rs := c.check(e.Recv, sc, nil)
		e.Fun.Obj = &Object{Kind: ObjBad, Name: name, Pos: e.Fun.P}
		switch {
		case rs.IsInvalid():
			c.checkAll(e.Args, sc)
			return InvalidSort
		case e.Recv.Obj.Kind != ObjState || rs.Kind != KRecord || rs.State == nil:
			c.errorf(e.P, source.ErrSort, "cannot call %q on %q: it is not an automaton state", name, e.Recv.Name)
			c.checkAll(e.Args, sc)
			return InvalidSort
		}
		var fsc *Scope
		if c.StateScope != nil {
			fsc = c.StateScope(rs)
		}
		obj := fsc.Lookup(name)
		if obj == nil || obj.Kind != ObjDef {
			c.errorf(e.Fun.P, source.ErrName, "%s has no definition %q", e.Recv.Name, name)
			c.checkAll(e.Args, sc)
			return InvalidSort
		}
		e.Fun.Obj = obj
		return c.callDef(e, obj, sc)
	}
	obj := c.lookup(name, sc)
	if obj == nil {
		e.Fun.Obj = &Object{Kind: ObjBad, Name: name, Pos: e.Fun.P}
		c.errorf(e.Fun.P, source.ErrName, "undefined name %q", name)
		c.checkAll(e.Args, sc)
		return InvalidSort
	}
	e.Fun.Obj = obj
	switch obj.Kind {
	case ObjDef:
		return c.callDef(e, obj, sc)
	case ObjBuiltin:
		if n := builtinArity[name]; n != len(e.Args) {
			c.errorf(e.P, source.ErrSort, "wrong number of arguments to %q: want %d, have %d", name, n, len(e.Args))
			c.checkAll(e.Args, sc)
			if obj.Sort != nil {
				return obj.Sort
			}
			return InvalidSort
		}
		return c.callBuiltin(e, name, sc, hint)
	case ObjEvent:
		c.errorf(e.P, source.ErrSort, "event %q cannot be used inside an expression", name)
	case ObjBad:
		if msg, ok := obj.Owner.(Ambiguous); ok {
			c.errorf(e.Fun.P, source.ErrName, "%s", string(msg))
		}
	default:
		c.errorf(e.Fun.P, source.ErrSort, "%q is not a function", name)
	}
	c.checkAll(e.Args, sc)
	return InvalidSort
}

// callDef checks a call of definition obj.
func (c *Checker) callDef(e *Call, obj *Object, sc *Scope) *Sort {
	c.checkArgs(e, e.Fun.Name, obj.Params, e.Args, sc)
	if obj.Sort == nil {
		c.errorf(e.Fun.P, source.ErrSort, "definition %q is used before its sort is known", e.Fun.Name)
	}
	return sortOf(obj)
}

// callBuiltin checks a call of a built-in with the right number of arguments.
func (c *Checker) callBuiltin(e *Call, name string, sc *Scope, hint *Sort) *Sort {
	a := e.Args
	// wrong reports an argument of the wrong kind of sort.
	wrong := func(i int, want string, got *Sort) {
		c.errorf(a[i].Pos(), source.ErrSort, "%s expects %s, found %s", name, want, got)
	}
	switch name {
	case "len":
		s := c.check(a[0], sc, nil)
		if !s.IsInvalid() && s.Kind != KSeq {
			wrong(0, "a Seq", s)
		}
		return IntSort
	case "last":
		var h *Sort
		if hint != nil {
			h = SeqOf(hint)
		}
		s := c.check(a[0], sc, h)
		switch {
		case s.IsInvalid():
		case s.Kind != KSeq:
			wrong(0, "a Seq", s)
		default:
			return s.Elem
		}
		return InvalidSort
	case "append":
		var h *Sort
		if hint != nil && hint.Kind == KSeq {
			h = hint
		}
		var ss, xs *Sort
		if h == nil && c.needsHint(a[0], sc) && !c.needsHint(a[1], sc) {
			xs = c.check(a[1], sc, nil)
			if !xs.IsInvalid() {
				h = SeqOf(xs)
			}
			ss = c.check(a[0], sc, h)
		} else {
			ss = c.check(a[0], sc, h)
			var xh *Sort
			if !ss.IsInvalid() && ss.Kind == KSeq {
				xh = ss.Elem
			}
			xs = c.check(a[1], sc, xh)
		}
		switch {
		case ss.IsInvalid():
		case ss.Kind != KSeq:
			wrong(0, "a Seq", ss)
		case !Assignable(xs, ss.Elem):
			c.errorf(a[1].Pos(), source.ErrSort, "expected %s, found %s in argument 2 of \"append\"", ss.Elem, xs)
			return ss
		default:
			return ss
		}
		return InvalidSort
	case "const":
		if hint == nil || hint.Kind != KMap {
			c.check(a[0], sc, nil)
			return c.cannotInfer(e, hint)
		}
		vs := c.check(a[0], sc, hint.Elem)
		if vs.IsInvalid() {
			return InvalidSort
		}
		return MapOf(hint.Key, vs)
	case "Some":
		var h *Sort
		if hint != nil && hint.Kind == KOption {
			h = hint.Elem
		}
		s := c.check(a[0], sc, h)
		if s.IsInvalid() {
			return InvalidSort
		}
		return OptionOf(s)
	case "None":
		return c.cannotInfer(e, hint) // unreachable: arity 0 calls are `None()`
	case "isSome", "isNone":
		s := c.check(a[0], sc, nil)
		if !s.IsInvalid() && s.Kind != KOption {
			wrong(0, "an Option", s)
		}
		return BoolSort
	case "get":
		var h *Sort
		if hint != nil {
			h = OptionOf(hint)
		}
		s := c.check(a[0], sc, h)
		switch {
		case s.IsInvalid():
		case s.Kind != KOption:
			wrong(0, "an Option", s)
		default:
			return s.Elem
		}
		return InvalidSort
	case "dom":
		s := c.check(a[0], sc, nil)
		switch {
		case s.IsInvalid():
		case !isPartialMap(s):
			wrong(0, "a Map[K, Option[V]]", s)
		default:
			return SetOf(s.Key)
		}
		return InvalidSort
	case "override":
		return c.callOverride(e, sc, hint)
	case "min", "max":
		c.expectNum(a[0], sc)
		c.expectNum(a[1], sc)
		return IntSort
	case "abs":
		c.expectNum(a[0], sc)
		return IntSort
	case "even", "odd":
		c.expectNum(a[0], sc)
		return BoolSort
	}
	c.errorf(e.P, source.ErrInternal, "internal error: unknown built-in %q", name)
	return InvalidSort
}

// callOverride checks override(m, p): Map[K, V] × Map[K, Option[V]] → Map[K, V].
func (c *Checker) callOverride(e *Call, sc *Scope, hint *Sort) *Sort {
	m, p := e.Args[0], e.Args[1]
	var h *Sort
	if hint != nil && hint.Kind == KMap {
		h = hint
	}
	var ms, ps *Sort
	if h == nil && c.needsHint(m, sc) && !c.needsHint(p, sc) {
		ps = c.check(p, sc, nil)
		if isPartialMap(ps) {
			h = MapOf(ps.Key, ps.Elem.Elem)
		}
		ms = c.check(m, sc, h)
	} else {
		ms = c.check(m, sc, h)
		var ph *Sort
		if !ms.IsInvalid() && ms.Kind == KMap {
			ph = MapOf(ms.Key, OptionOf(ms.Elem))
		}
		ps = c.check(p, sc, ph)
	}
	switch {
	case ms.IsInvalid():
		return InvalidSort
	case ms.Kind != KMap:
		c.errorf(m.Pos(), source.ErrSort, "override expects a Map, found %s", ms)
		return InvalidSort
	case ps.IsInvalid():
	case !isPartialMap(ps):
		c.errorf(p.Pos(), source.ErrSort, "override expects a Map[K, Option[V]], found %s", ps)
	case !Identical(ms.Key, ps.Key) || !Assignable(ps.Elem.Elem, ms.Elem):
		c.errorf(p.Pos(), source.ErrSort, "mismatched sorts %s and %s in override", ms, ps)
	}
	return ms
}
