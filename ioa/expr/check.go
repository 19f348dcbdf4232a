// This file implements the sort checker for expressions: the Checker, the
// helpers for expected sorts and sort hints, and the dispatch on the kind
// of expression (check1) with identifiers. Sort expressions and binder
// scopes are resolved in check_sorts.go; operators, lambdas, indexing,
// updates and fields are checked in check_ops.go.

package expr

import (
	"fmt"

	"ladder/internal/source"
)

// A Checker resolves names and checks sorts. It reports into Errors and
// resolves names in the scopes it is given; the built-in functions of
// docs/language.md are known to it (a name that is not found in scope but
// is a built-in resolves to an ObjBuiltin object of this checker).
//
// The checker infers sorts bidirectionally: the sort wanted by the context
// is a hint that gives `{}`, `[]`, `None` and `const(v)` their sorts, and in
// `x = {}` the side whose sort can be inferred is checked first. An
// ill-sorted expression gets InvalidSort, which suppresses follow-on errors.
//
// A Checker is not safe for concurrent use. The zero value is ready to use
// (with a nil Errors, errors are collected in a list the checker allocates).
type Checker struct {
	// Errors receives the diagnostics.
	Errors *source.ErrorList
	// StateScope returns the scope of the automaton whose state sort is
	// given, for qualified calls c.f(args) in proof files. It may be nil
	// when no expression has such calls.
	StateScope func(stateSort *Sort) *Scope

	builtins map[string]*Object
}

func (c *Checker) errorf(pos source.Pos, code source.Code, format string, args ...any) {
	if c.Errors == nil {
		c.Errors = new(source.ErrorList)
	}
	c.Errors.Add(pos, code, format, args...)
}

// guard turns a panic into an internal error at pos (the checker must not
// crash the tool on unexpected trees).
func (c *Checker) guard(pos source.Pos, result **Sort) {
	if r := recover(); r != nil {
		c.errorf(pos, source.ErrInternal, "internal error: sort checker panic: %v", r)
		if result != nil {
			*result = InvalidSort
		}
	}
}

// lookup resolves name in sc, falling back to the built-ins.
func (c *Checker) lookup(name string, sc *Scope) *Object {
	if o := sc.Lookup(name); o != nil {
		return o
	}
	return c.builtin(name)
}

// sortOf returns o's sort, InvalidSort when it has none.
func sortOf(o *Object) *Sort {
	if o == nil || o.Sort == nil {
		return InvalidSort
	}
	return o.Sort
}

// orInvalid returns s, or InvalidSort if s is nil.
func orInvalid(s *Sort) *Sort {
	if s == nil {
		return InvalidSort
	}
	return s
}

// compatible reports whether values of sorts a and b may be compared.
func compatible(a, b *Sort) bool { return Assignable(a, b) || Assignable(b, a) }

// join returns the sort of a value that is of sort a or of sort b, for
// compatible a and b: Int when Int and Nat mix.
func join(a, b *Sort) *Sort {
	switch {
	case a.IsInvalid():
		return b
	case b.IsInvalid():
		return a
	case a.IsNumeric() && b.IsNumeric():
		if a.Kind == KNat && b.Kind == KNat {
			return a
		}
		return IntSort
	case a.Kind != b.Kind:
		return a
	}
	switch a.Kind {
	case KMap:
		return MapOf(a.Key, join(a.Elem, b.Elem))
	case KSet:
		return SetOf(join(a.Elem, b.Elem))
	case KSeq:
		return SeqOf(join(a.Elem, b.Elem))
	case KOption:
		return OptionOf(join(a.Elem, b.Elem))
	}
	return a
}

// short prints e for a message, cut to a reasonable length.
func short(e Expr) string {
	s := Print(e)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// CheckExpr checks e in scope sc. want, the sort the context expects, may
// be nil; when it is not, it guides the inference of `{}`, `[]`, `None` and
// `const(v)`, and an e whose sort is not Assignable to want is reported as
// "expected W, found S". CheckExpr sets Sort() on every node, Obj on every
// Ident (an ObjBad object for an undefined name), Field on every FieldSel
// and FieldInit, and the sorts of bound variables. It returns e's sort:
// InvalidSort when it cannot be determined (the error has been reported).
//
// An event term E(args) (a view entry) is accepted at the root only: its
// arguments are checked against the event's parameters and its sort is the
// event object's Sort, or EventSort if that is nil. The event is the
// ObjEvent object already in E's Obj, if any, else E's name in sc.
func (c *Checker) CheckExpr(e Expr, sc *Scope, want *Sort) (s *Sort) {
	if e == nil {
		return InvalidSort
	}
	defer c.guard(e.Pos(), &s)
	if s, ok := c.checkEvent(e, sc); ok {
		return s
	}
	s = c.check(e, sc, want)
	if want != nil && !Assignable(s, want) {
		w, f := Distinct(want, s)
		c.errorf(e.Pos(), source.ErrSort, "expected %s, found %s", w, f)
	}
	return s
}

// checkEvent checks e if it is an event term E or E(args).
func (c *Checker) checkEvent(e Expr, sc *Scope) (*Sort, bool) {
	var id *Ident
	var args []Expr
	switch e := e.(type) {
	case *Ident:
		id = e
	case *Call:
		if e.Recv != nil || e.Fun == nil {
			return nil, false
		}
		id, args = e.Fun, e.Args
	default:
		return nil, false
	}
	obj := id.Obj // the loader may resolve the event itself
	if obj == nil || obj.Kind != ObjEvent {
		obj = sc.Lookup(id.Name)
	}
	if obj == nil || obj.Kind != ObjEvent {
		return nil, false
	}
	id.Obj = obj
	s := obj.Sort
	if s == nil {
		s = EventSort
	}
	c.checkArgs(e, id.Name, obj.Params, args, sc)
	id.setSort(s)
	e.setSort(s)
	return s, true
}

// checkArgs checks args against the parameters of a definition or event.
func (c *Checker) checkArgs(call Expr, name string, params []*Object, args []Expr, sc *Scope) {
	if len(args) != len(params) {
		c.errorf(call.Pos(), source.ErrSort, "wrong number of arguments to %q: want %d, have %d", name, len(params), len(args))
		for _, a := range args {
			c.check(a, sc, nil)
		}
		return
	}
	for i, a := range args {
		c.expect(a, sc, sortOf(params[i]), fmt.Sprintf("argument %d of %q", i+1, name))
	}
}

// check infers e's sort, using hint (which may be nil) for the literals
// that need one, sets it on e and returns it.
func (c *Checker) check(e Expr, sc *Scope, hint *Sort) *Sort {
	s := c.check1(e, sc, hint)
	if s == nil {
		s = InvalidSort
	}
	e.setSort(s)
	return s
}

// expect checks e and reports an error unless its sort is assignable to want.
func (c *Checker) expect(e Expr, sc *Scope, want *Sort, context string) *Sort {
	s := c.check(e, sc, want)
	if !Assignable(s, want) {
		if context != "" {
			context = " in " + context
		}
		c.errorf(e.Pos(), source.ErrSort, "expected %s, found %s%s", want, s, context)
	}
	return s
}

// expectNum checks that e is an Int or Nat.
func (c *Checker) expectNum(e Expr, sc *Scope) *Sort {
	s := c.check(e, sc, IntSort)
	if !s.IsInvalid() && !s.IsNumeric() {
		c.errorf(e.Pos(), source.ErrSort, "expected Int, found %s", s)
	}
	return s
}

// checkPair checks two expressions that must have compatible sorts,
// checking first the one whose sort can be inferred without a hint.
func (c *Checker) checkPair(x, y Expr, sc *Scope, hint *Sort) (xs, ys *Sort) {
	if hint == nil && c.needsHint(x, sc) && !c.needsHint(y, sc) {
		ys = c.check(y, sc, nil)
		xs = c.check(x, sc, ys)
		return xs, ys
	}
	xs = c.check(x, sc, hint)
	if hint == nil {
		hint = xs // if invalid, it silences "cannot infer" for y
	}
	ys = c.check(y, sc, hint)
	return xs, ys
}

func validOrNil(s *Sort) *Sort {
	if s.IsInvalid() {
		return nil
	}
	return s
}

// checkSame checks a list of expressions that must have compatible sorts
// (set and sequence elements) and returns their joined sort.
func (c *Checker) checkSame(es []Expr, sc *Scope, hint *Sort, what string) *Sort {
	sorts := make([]*Sort, len(es))
	if hint == nil {
		// Infer from the elements that need no hint, then check the others.
		invalid := false
		for i, x := range es {
			if !c.needsHint(x, sc) {
				sorts[i] = c.check(x, sc, hint)
				invalid = invalid || sorts[i].IsInvalid()
				if hint == nil {
					hint = validOrNil(sorts[i])
				}
			}
		}
		if hint == nil && invalid {
			hint = InvalidSort // an error was reported: no "cannot infer"
		}
	}
	for i, x := range es {
		if sorts[i] == nil {
			sorts[i] = c.check(x, sc, hint)
		}
	}
	var joined *Sort
	for i, s := range sorts {
		switch {
		case s.IsInvalid():
		case joined == nil:
			joined = s
		case !compatible(joined, s):
			c.errorf(es[i].Pos(), source.ErrSort, "mismatched sorts %s and %s in %s", joined, s, what)
			return InvalidSort
		default:
			joined = join(joined, s)
		}
	}
	for _, s := range sorts {
		if s.IsInvalid() {
			return InvalidSort
		}
	}
	return joined
}

// needsHint reports whether e's sort can only come from its context.
func (c *Checker) needsHint(e Expr, sc *Scope) bool {
	switch e := e.(type) {
	case *SetLit:
		for _, x := range e.Elems {
			if !c.needsHint(x, sc) {
				return false
			}
		}
		return true
	case *SeqLit:
		for _, x := range e.Elems {
			if !c.needsHint(x, sc) {
				return false
			}
		}
		return true
	case *Ident:
		return e.Name == "None" && sc.Lookup("None") == nil
	case *Call:
		if e.Recv != nil || e.Fun == nil || sc.Lookup(e.Fun.Name) != nil {
			return false
		}
		switch e.Fun.Name {
		case "const":
			return true
		case "Some":
			return len(e.Args) == 1 && c.needsHint(e.Args[0], sc)
		case "append":
			return len(e.Args) == 2 && c.needsHint(e.Args[0], sc) && c.needsHint(e.Args[1], sc)
		}
	case *Ite:
		return c.needsHint(e.Then, sc) && c.needsHint(e.Else, sc)
	case *Let:
		return c.needsHint(e.Body, sc)
	case *Update:
		return c.needsHint(e.X, sc)
	}
	return false
}

// cannotInfer reports a literal whose sort comes from a missing or
// unsuitable context.
func (c *Checker) cannotInfer(e Expr, hint *Sort) *Sort {
	if hint == nil {
		c.errorf(e.Pos(), source.ErrSort, "cannot infer the sort of %s", short(e))
	} else if !hint.IsInvalid() {
		c.errorf(e.Pos(), source.ErrSort, "expected %s, found %s", hint, short(e))
	}
	return InvalidSort
}

func (c *Checker) check1(e Expr, sc *Scope, hint *Sort) *Sort {
	switch e := e.(type) {
	case *Ident:
		return c.checkIdent(e, sc, hint)
	case *IntLit:
		return IntSort
	case *BoolLit:
		return BoolSort
	case *ElemLit:
		obj := sc.Lookup(e.SortName)
		switch {
		case obj == nil:
			c.errorf(e.P, source.ErrName, "undefined sort %q", e.SortName)
			return InvalidSort
		case obj.Kind != ObjSort || sortOf(obj).Kind != KParam:
			if !sortOf(obj).IsInvalid() {
				c.errorf(e.P, source.ErrSort, "%s#%d needs a param sort, and %q is not one", e.SortName, e.Index, e.SortName)
			}
			return InvalidSort
		}
		return obj.Sort
	case *Unary:
		if e.Op == OpNot {
			c.expect(e.X, sc, BoolSort, "")
			return BoolSort
		}
		if e.Op != OpNeg {
			c.errorf(e.P, source.ErrInternal, "internal error: bad unary operator %v", e.Op)
			return InvalidSort
		}
		s := c.check(e.X, sc, IntSort)
		switch {
		case s.IsInvalid():
			return InvalidSort
		case !s.IsNumeric():
			c.errorf(e.P, source.ErrSort, "operator - is not defined on %s", s)
			return InvalidSort // no follow-on error in the context
		}
		return IntSort
	case *Binary:
		return c.checkBinary(e, sc, hint)
	case *Ite:
		c.expect(e.Cond, sc, BoolSort, "")
		ts, es := c.checkPair(e.Then, e.Else, sc, hint)
		if !compatible(ts, es) {
			c.errorf(e.Else.Pos(), source.ErrSort, "mismatched sorts %s and %s in if-then-else", ts, es)
			return InvalidSort
		}
		return join(ts, es)
	case *Let:
		vs := c.check(e.Value, sc, nil)
		if e.Var == nil {
			c.errorf(e.P, source.ErrInternal, "internal error: let without a variable")
			c.check(e.Body, sc, hint)
			return InvalidSort
		}
		e.Var.Sort = vs
		inner := NewScope(sc)
		inner.Insert(e.Var)
		return c.check(e.Body, inner, hint)
	case *Quant:
		inner := c.NewBinderScope(e.Binders, sc)
		c.expect(e.Body, inner, BoolSort, "")
		return BoolSort
	case *Lambda:
		return c.checkLambda(e, sc, hint)
	case *Call:
		return c.checkCall(e, sc, hint)
	case *Index:
		return c.checkIndex(e, sc)
	case *Update:
		return c.checkUpdate(e, sc, hint)
	case *FieldSel:
		return c.checkFieldSel(e, sc)
	case *RecordUpdate:
		xs := c.check(e.X, sc, hint)
		if xs.IsInvalid() || xs.Kind != KRecord {
			if !xs.IsInvalid() {
				c.errorf(e.P, source.ErrSort, "cannot update fields of a value of sort %s", xs)
			}
			c.checkFields(e.P, e.Fields, nil, sc, "")
			return InvalidSort
		}
		c.checkFields(e.P, e.Fields, xs, sc, "")
		return xs
	case *RecordLit:
		obj := sc.Lookup(e.SortName)
		var rs *Sort
		switch {
		case obj == nil:
			c.errorf(e.P, source.ErrName, "undefined sort %q", e.SortName)
		case obj.Kind != ObjSort || sortOf(obj).Kind != KRecord || obj.Sort.State != nil:
			if !sortOf(obj).IsInvalid() {
				c.errorf(e.P, source.ErrSort, "%q is not a record sort", e.SortName)
			}
		default:
			rs = obj.Sort
		}
		c.checkFields(e.P, e.Fields, rs, sc, e.SortName)
		if rs == nil {
			return InvalidSort
		}
		return rs
	case *SetLit:
		var eh *Sort
		if hint != nil && hint.Kind == KSet {
			eh = hint.Elem
		}
		if len(e.Elems) == 0 {
			if eh == nil {
				return c.cannotInfer(e, hint)
			}
			return hint
		}
		es := c.checkSame(e.Elems, sc, eh, "set literal")
		if es.IsInvalid() {
			return InvalidSort
		}
		return SetOf(es)
	case *SeqLit:
		var eh *Sort
		if hint != nil && hint.Kind == KSeq {
			eh = hint.Elem
		}
		if len(e.Elems) == 0 {
			if eh == nil {
				return c.cannotInfer(e, hint)
			}
			return hint
		}
		es := c.checkSame(e.Elems, sc, eh, "sequence literal")
		if es.IsInvalid() {
			return InvalidSort
		}
		return SeqOf(es)
	case *BadExpr:
		return InvalidSort
	}
	c.errorf(e.Pos(), source.ErrInternal, "internal error: unknown expression %T", e)
	return InvalidSort
}

func (c *Checker) checkIdent(e *Ident, sc *Scope, hint *Sort) *Sort {
	obj := c.lookup(e.Name, sc)
	if obj == nil {
		e.Obj = &Object{Kind: ObjBad, Name: e.Name, Pos: e.P}
		c.errorf(e.P, source.ErrName, "undefined name %q", e.Name)
		return InvalidSort
	}
	e.Obj = obj
	switch obj.Kind {
	case ObjVar, ObjParam, ObjBound, ObjConst, ObjEnum, ObjState:
		return sortOf(obj)
	case ObjDef:
		if len(obj.Params) > 0 {
			c.errorf(e.P, source.ErrSort, "missing arguments to %q (it takes %d)", e.Name, len(obj.Params))
			return InvalidSort
		}
		if obj.Sort == nil {
			c.errorf(e.P, source.ErrSort, "definition %q is used before its sort is known", e.Name)
		}
		return sortOf(obj)
	case ObjBuiltin:
		if e.Name == "None" {
			if hint != nil && hint.Kind == KOption {
				return hint
			}
			return c.cannotInfer(e, hint)
		}
		c.errorf(e.P, source.ErrSort, "missing arguments to %q", e.Name)
		return InvalidSort
	case ObjEvent:
		c.errorf(e.P, source.ErrSort, "event %q is not a value", e.Name)
	case ObjBad:
		if msg, ok := obj.Owner.(Ambiguous); ok {
			c.errorf(e.P, source.ErrName, "%s", string(msg))
		}
	case ObjSort:
		c.errorf(e.P, source.ErrSort, "%q is a sort, not a value", e.Name)
	}
	return InvalidSort
}
