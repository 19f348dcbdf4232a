// This file builds the scopes names resolve in, and the checker; the proof
// loader reuses NewChecker and NewStateScope.

package load

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// NewUniverse returns a new universe scope: the predeclared sorts Bool, Int
// and Nat. Interfaces, and automata without an interface, declare their
// names in a child scope of it.
func NewUniverse() *expr.Scope {
	u := expr.NewScope(nil)
	for _, s := range []*expr.Sort{expr.BoolSort, expr.IntSort, expr.NatSort} {
		u.Insert(&expr.Object{Kind: expr.ObjSort, Name: s.String(), Sort: s})
	}
	return u
}

// NewChecker returns a sort checker reporting to errs whose StateScope
// resolves `c.f(args)`, for a whole state c of an automaton, in that
// automaton's scope.
func NewChecker(errs *source.ErrorList) *expr.Checker {
	return &expr.Checker{Errors: errs, StateScope: AutomatonScope}
}

// AutomatonScope returns the scope of the automaton whose state sort is
// stateSort, or nil if stateSort is not the state sort of an automaton.
func AutomatonScope(stateSort *expr.Sort) *expr.Scope {
	if stateSort == nil {
		return nil
	}
	if a, ok := stateSort.State.(*ioa.Automaton); ok && a != nil {
		return a.Scope
	}
	return nil
}

// NewStateScope returns a child scope of parent declaring name as a whole
// state of automaton a (an ObjState object of sort a.StateSort, owned by a),
// as proof files do for the concrete and abstract states `c` and `a`.
func NewStateScope(parent *expr.Scope, name string, a *ioa.Automaton, pos source.Pos) (*expr.Scope, *expr.Object) {
	sc := expr.NewScope(parent)
	obj := &expr.Object{Kind: expr.ObjState, Name: name, Sort: a.StateSort, Pos: pos, Owner: a}
	sc.Insert(obj)
	return sc, obj
}

// objKindName describes what an object is, for messages.
func objKindName(o *expr.Object) string {
	switch o.Kind {
	case expr.ObjVar:
		return "a state variable"
	case expr.ObjParam:
		return "a parameter"
	case expr.ObjBound:
		return "a bound variable"
	case expr.ObjConst:
		return "a constant"
	case expr.ObjEnum:
		return "an enum constant"
	case expr.ObjDef:
		return "a definition"
	case expr.ObjState:
		return "a state"
	case expr.ObjEvent:
		return "an event"
	case expr.ObjBuiltin:
		return "a built-in function"
	case expr.ObjSort:
		return "a sort"
	}
	return "a name"
}

// where describes a declaration position relative to the current file.
func (fl *fileLoader) where(p source.Pos) string {
	switch {
	case !p.IsValid():
		return "in the language"
	case p.File == fl.f.path:
		return fmt.Sprintf("at line %d", p.Line)
	}
	return "at " + p.String()
}

// declare inserts obj, declared at key k, into sc. It reports a name already
// declared in sc or in an enclosing scope (the interface, the universe) and
// returns false then.
func (fl *fileLoader) declare(sc *expr.Scope, obj *expr.Object, k *yaml.Node) bool {
	if old := sc.Lookup(obj.Name); old != nil {
		if sc.LookupLocal(obj.Name) == nil {
			owner := ""
			if it, ok := old.Owner.(*ioa.Interface); ok {
				owner = fmt.Sprintf(" by interface %s", it.Name)
			}
			if !old.Pos.IsValid() {
				fl.errorf(k, source.ErrName, "%q is predeclared as %s", obj.Name, objKindName(old))
			} else {
				fl.errorf(k, source.ErrName, "%q is already declared as %s%s %s", obj.Name, objKindName(old), owner, fl.where(old.Pos))
			}
			return false
		}
		fl.errorf(k, source.ErrName, "%q is already declared as %s %s", obj.Name, objKindName(old), fl.where(old.Pos))
		return false
	}
	sc.Insert(obj)
	return true
}
