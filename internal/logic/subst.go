package logic

import (
	"fmt"
	"sort"
	"strconv"
)

// FreeConsts returns the free symbols (KindConst) of ts, sorted by name,
// each name once (the first occurrence wins if one name has two sorts;
// Problem.Check reports that).
func FreeConsts(ts ...*Term) []*Term {
	byName := map[string]*Term{}
	eachConst(ts, func(c *Term) bool {
		if _, ok := byName[c.name]; !ok {
			byName[c.name] = c
		}
		return false
	})
	out := make([]*Term, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// ConstNames adds to names the name of every free symbol (KindConst) of
// ts: FreeConsts' names, without sorting them.
func ConstNames(names map[string]bool, ts ...*Term) {
	eachConst(ts, func(c *Term) bool {
		names[c.name] = true
		return false
	})
}

// AnyConst reports whether one of t's free symbols (KindConst) satisfies
// f, stopping at the first that does.
func AnyConst(t *Term, f func(name string) bool) bool {
	return eachConst([]*Term{t}, func(c *Term) bool { return f(c.name) })
}

// eachConst calls f with every occurrence of a free symbol (KindConst) in
// ts (nil terms skipped), walking each compound subterm once, until f
// returns true; it reports whether f did.
func eachConst(ts []*Term, f func(c *Term) bool) bool {
	var seen termSet
	var walk func(t *Term) bool
	walk = func(t *Term) bool {
		if t.leaf() {
			return t.kind == KindConst && f(t)
		}
		if !seen.add(t) {
			return false
		}
		for _, a := range t.args {
			if walk(a) {
				return true
			}
		}
		for _, p := range t.pats {
			for _, x := range p {
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	for _, t := range ts {
		if t != nil && walk(t) {
			return true
		}
	}
	return false
}

// FreeVars returns the bound variables that occur free in t (not under a
// binder of theirs), sorted by name.
func FreeVars(t *Term) []*Term { return append([]*Term(nil), t.loose...) }

// Pair is one binding of a substitution: From (a constant or a variable) is
// replaced by To, which must have the same sort.
type Pair struct {
	From, To *Term
}

type symKey struct {
	kind Kind
	name string
}

// Subst replaces, simultaneously, every free occurrence of each pair's From
// (a KindConst or KindVar term) in t by its To. It is capture-avoiding: a
// binder whose variable occurs free in a replacement is renamed. Shared
// subterms stay shared. A pair whose sides differ in sort, or whose From is
// not a constant or variable, gives a term whose Err says so.
func Subst(t *Term, pairs ...Pair) *Term {
	if t == nil {
		return bad(nil, "subst: %v", ErrNil)
	}
	m := map[symKey]*Term{}
	for _, p := range pairs {
		if p.From == nil || p.To == nil {
			return bad(t.sort, "subst: %v", ErrNil)
		}
		if p.From.kind != KindConst && p.From.kind != KindVar {
			return bad(t.sort, "subst: cannot replace a non-symbol")
		}
		if !Same(p.From.sort, p.To.sort) {
			return bad(t.sort, "subst: %s of sort %s replaced by a term of sort %s", p.From.name, p.From.sort, p.To.sort)
		}
		if p.To.err != nil {
			return finish(&Term{kind: KindBad, sort: t.sort, err: p.To.err})
		}
		m[symKey{p.From.kind, p.From.name}] = p.To
	}
	if len(m) == 0 {
		return t
	}
	s := &substituter{memo: map[*Term]*Term{}, used: map[string]bool{}}
	var mark func(x *Term)
	seen := map[*Term]bool{}
	mark = func(x *Term) {
		if seen[x] {
			return
		}
		seen[x] = true
		if x.kind == KindVar {
			s.used[x.name] = true
		}
		for _, v := range x.vars {
			s.used[v.name] = true
		}
		for _, a := range x.args {
			mark(a)
		}
	}
	mark(t)
	for _, r := range m {
		mark(r)
	}
	return s.subst(t, m)
}

type substituter struct {
	memo map[*Term]*Term // valid for one substitution map; binders use their own substituter
	used map[string]bool // every variable name in sight, for fresh names
	n    int
}

func (s *substituter) fresh(base string) string {
	for {
		s.n++
		name := base + "'" + strconv.Itoa(s.n)
		if !s.used[name] {
			s.used[name] = true
			return name
		}
	}
}

// relevant reports whether any symbol of m occurs free in t.
func relevant(t *Term, m map[symKey]*Term, seen map[*Term]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.kind {
	case KindConst:
		_, ok := m[symKey{KindConst, t.name}]
		return ok
	case KindVar:
		_, ok := m[symKey{KindVar, t.name}]
		return ok
	}
	for _, a := range t.args {
		if relevant(a, m, seen) {
			return true
		}
	}
	for _, p := range t.pats {
		for _, x := range p {
			if relevant(x, m, seen) {
				return true
			}
		}
	}
	return false
}

func (s *substituter) subst(t *Term, m map[symKey]*Term) *Term {
	if r, ok := s.memo[t]; ok {
		return r
	}
	r := s.subst1(t, m)
	s.memo[t] = r
	return r
}

func (s *substituter) subst1(t *Term, m map[symKey]*Term) *Term {
	switch t.kind {
	case KindConst, KindVar:
		if r, ok := m[symKey{t.kind, t.name}]; ok {
			return r
		}
		return t
	case KindInt, KindBool, KindBad:
		return t
	case KindApp:
		changed := false
		args := make([]*Term, len(t.args))
		for i, a := range t.args {
			args[i] = s.subst(a, m)
			changed = changed || args[i] != a
		}
		if !changed {
			return t
		}
		return rebuild(t, args)
	}
	// a binder: drop shadowed bindings, rename variables that a
	// replacement would capture, and substitute in a fresh scope.
	inner := map[symKey]*Term{}
	for k, v := range m {
		inner[k] = v
	}
	for _, v := range t.vars {
		delete(inner, symKey{KindVar, v.name})
	}
	if !relevant(t, inner, map[*Term]bool{}) {
		return t
	}
	captured := map[string]bool{}
	for _, r := range inner {
		for _, lv := range r.loose {
			captured[lv.name] = true
		}
	}
	vars := make([]*Term, len(t.vars))
	for i, v := range t.vars {
		vars[i] = v
		if captured[v.name] {
			nv := Var(s.fresh(v.name), v.sort)
			inner[symKey{KindVar, v.name}] = nv
			vars[i] = nv
		}
	}
	sub := &substituter{memo: map[*Term]*Term{}, used: s.used, n: s.n}
	body := sub.subst(t.args[0], inner)
	var pats [][]*Term
	for _, p := range t.pats {
		np := make([]*Term, len(p))
		for j, x := range p {
			np[j] = sub.subst(x, inner)
		}
		pats = append(pats, np)
	}
	s.n = sub.n
	switch t.kind {
	case KindForall:
		return Forall(vars, body, pats...)
	case KindExists:
		return Exists(vars, body, pats...)
	case KindLambda:
		return Lambda(vars[0], body)
	}
	return bad(t.sort, "subst: unknown term kind %d", t.kind)
}

// rebuild applies t's operator to new arguments through the checked
// constructors (so simplifications apply again).
func rebuild(t *Term, args []*Term) *Term {
	switch t.op {
	case OpNot:
		return Not(args[0])
	case OpAnd:
		return And(args...)
	case OpOr:
		return Or(args...)
	case OpImplies:
		return Implies(args[0], args[1])
	case OpEq:
		return Eq(args[0], args[1])
	case OpDistinct:
		return Distinct(args...)
	case OpIte:
		return Ite(args[0], args[1], args[2])
	case OpAdd:
		return Add(args...)
	case OpSub:
		return Sub(args[0], args[1])
	case OpNeg:
		return Neg(args[0])
	case OpMul:
		return Mul(args...)
	case OpDiv:
		return Div(args[0], args[1])
	case OpMod:
		return Mod(args[0], args[1])
	case OpLt:
		return Lt(args[0], args[1])
	case OpLe:
		return Le(args[0], args[1])
	case OpGt:
		return Gt(args[0], args[1])
	case OpGe:
		return Ge(args[0], args[1])
	case OpSelect:
		return Select(args[0], args[1])
	case OpStore:
		return Store(args[0], args[1], args[2])
	case OpConstArray:
		return ConstArray(t.sort.dom, args[0])
	case OpCtor:
		return Ctor(t.dt, t.ci, args...)
	case OpIs:
		return Is(t.dt, t.ci, args[0])
	case OpField:
		return Access(t.dt, t.ci, t.fi, args[0])
	}
	return bad(t.sort, "%v", fmt.Errorf("subst: unknown operator %v", t.op))
}

// Rebuild returns t's operator applied to args through the checked
// constructors; it is how clients map over applications. t must be a
// KindApp term.
func Rebuild(t *Term, args []*Term) *Term {
	if t.kind != KindApp {
		return bad(t.sort, "rebuild of a non-application")
	}
	if len(args) != len(t.args) {
		return bad(t.sort, "rebuild with %d arguments, want %d", len(args), len(t.args))
	}
	return rebuild(t, args)
}
