// This file implements the sort checker's resolution of sort expressions
// (the built-in sorts, declared enums and records, parameter sorts,
// Option, Seq, Set and Map) and the scopes of binders.

package expr

import (
	"ladder/internal/source"
)

// ResolveSort returns the sort that se denotes. Bool, Int, Nat and the
// constructors Map, Set, Seq and Option are built in; other names must
// resolve in sc to ObjSort objects, whose Sort is the declared sort.
func (c *Checker) ResolveSort(se *SortExpr, sc *Scope) (s *Sort) {
	if se == nil {
		return InvalidSort
	}
	defer c.guard(se.P, &s)
	return c.resolveSort(se, sc)
}

func (c *Checker) resolveSort(se *SortExpr, sc *Scope) *Sort {
	if se.Name == "" {
		c.errorf(se.P, source.ErrSyntax, "missing sort")
		return InvalidSort
	}
	nargs := func(n int) bool {
		if len(se.Args) != n {
			if n == 0 {
				c.errorf(se.P, source.ErrSort, "%s takes no sort arguments", se.Name)
			} else {
				c.errorf(se.P, source.ErrSort, "%s takes %d sort argument%s, found %d", se.Name, n, plural(n), len(se.Args))
			}
			return false
		}
		return true
	}
	switch se.Name {
	case "Bool", "Int", "Nat":
		if !nargs(0) {
			return InvalidSort
		}
		switch se.Name {
		case "Bool":
			return BoolSort
		case "Int":
			return IntSort
		}
		return NatSort
	case "Map":
		if !nargs(2) {
			return InvalidSort
		}
		k, v := c.resolveSort(se.Args[0], sc), c.resolveSort(se.Args[1], sc)
		if k.IsInvalid() || v.IsInvalid() {
			return InvalidSort
		}
		return MapOf(k, v)
	case "Set", "Seq", "Option":
		if !nargs(1) {
			return InvalidSort
		}
		e := c.resolveSort(se.Args[0], sc)
		if e.IsInvalid() {
			return InvalidSort
		}
		switch se.Name {
		case "Set":
			return SetOf(e)
		case "Seq":
			return SeqOf(e)
		}
		return OptionOf(e)
	}
	obj := sc.Lookup(se.Name)
	switch {
	case obj == nil:
		c.errorf(se.P, source.ErrName, "undefined sort %q", se.Name)
		return InvalidSort
	case obj.Kind != ObjSort:
		c.errorf(se.P, source.ErrSort, "%q is not a sort", se.Name)
		return InvalidSort
	case !nargs(0):
		return InvalidSort
	}
	return sortOf(obj)
}

// IsBuiltinSortName reports whether name is a built-in sort or sort
// constructor (Bool, Int, Nat, Map, Set, Seq, Option).
func IsBuiltinSortName(name string) bool {
	switch name {
	case "Bool", "Int", "Nat", "Map", "Set", "Seq", "Option":
		return true
	}
	return false
}

// NewBinderScope resolves the binders' sorts (a range binder `x in lo..hi`
// has sort Int, and its bounds must be integers), sets the sorts of their
// variables and returns a scope over sc holding the variables. Binders are
// bound in order: a range may mention the binders before it.
func (c *Checker) NewBinderScope(bs []*Binder, sc *Scope) (inner *Scope) {
	inner = NewScope(sc)
	defer func() {
		if r := recover(); r != nil {
			c.errorf(source.NoPos, source.ErrInternal, "internal error: sort checker panic: %v", r)
		}
	}()
	for _, b := range bs {
		if b == nil || b.Var == nil {
			c.errorf(source.NoPos, source.ErrInternal, "internal error: binder without a variable")
			continue
		}
		var s *Sort
		if b.Lo != nil || b.Hi != nil {
			for _, bound := range []Expr{b.Lo, b.Hi} {
				if bound == nil {
					c.errorf(b.P, source.ErrSyntax, "range binder %q needs both bounds", b.Var.Name)
					continue
				}
				c.expectNum(bound, inner)
			}
			s = IntSort
		} else {
			s = c.resolveSort(&b.SortExpr, sc)
		}
		b.Var.Sort = s
		if old := inner.Insert(b.Var); old != nil {
			c.errorf(b.P, source.ErrName, "%q bound twice (first at %s)", b.Var.Name, old.Pos)
		}
	}
	return inner
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
