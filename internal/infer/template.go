// This file implements the templates: the terms over an automaton's state
// and the atoms (comparisons of same-sorted terms) that candidates are
// built from. docs/infer.md lists them.

package infer

import (
	"fmt"
	"sort"
	"strings"

	"ladder/ioa"
	"ladder/ioa/expr"
)

// hole stands for the bound variable in the text of a term or atom
// (no expression contains it); fill substitutes a name for it.
const hole = "$"

func fill(tmpl, name string) string { return strings.ReplaceAll(tmpl, hole, name) }

// hole2 stands for the second bound variable of a pair atom.
const hole2 = "@"

// qctx is a quantifier context: no bound variable (scalar facts), one
// parameter sort K with the names of its bound variables, or a product of
// two parameter sorts K1 × K2 that a state variable relates (a map from
// one to the other, or to sets, options or maps of the other), with one
// bound variable over each.
type qctx struct {
	sort *expr.Sort // nil: scalar
	// sort2 is the second sort of a product context (y ranges over it);
	// nil otherwise.
	sort2 *expr.Sort
	x, y  string // the names of the bound variables (y for pair candidates and over sort2)
	// atoms over x (or scalar atoms; in a product context over x, y or
	// both), and pair atoms over x and y.
	atoms []*atom
	pairs []*atom
}

// binders returns the binders of the context's quantifier: `x: K` or, in
// a product context, `x: K1, y: K2`.
func (c *qctx) binders() string {
	if c.sort2 != nil {
		return fmt.Sprintf("%s: %s, %s: %s", c.x, c.sort.Name, c.y, c.sort2.Name)
	}
	return fmt.Sprintf("%s: %s", c.x, c.sort.Name)
}

// term is a term of a template: a state variable, a lookup at the bound
// variable, a nested lookup, len/last of a sequence, or a constant.
type term struct {
	tmpl  string // the text, with hole for the bound variable
	sort  *expr.Sort
	bound bool // mentions the bound variable
	konst bool // a literal or a declared constant
	// direct is set for v[x], a lookup of a state variable at the bound
	// variable (the terms pair atoms compare).
	direct bool
	vars   []string // the state variables it reads
	// mask records which bound variables of a product context it
	// mentions: 1 for x, 2 for y.
	mask uint8
	// single is set for the singleton {x} of a bound variable: only
	// a superset of what it is compared with (X subset {x}), since
	// x in {y} is x = y and {x} subset X is x in X.
	single bool
	// succ is set for x + 1: compared by equality alone (y = x + 1), with
	// a term that is not a constant.
	succ bool
	// def is set for a definition applied to the bound variable
	// (writer(t)): a Bool one guards pair candidates too.
	def bool
}

// atom is a Bool formula over the terms of a context.
type atom struct {
	id    int
	tmpl  string // the text with hole (and hole2 for pair atoms)
	terms []string
	// vterms are the terms that are not constants, in terms' order.
	vterms []string
	// enumTerm and enumConst are set for an enum guard `e = C` with e a
	// term over the bound variable (the `pc[t] = X` guards).
	enumTerm, enumConst string
	enumSort            *expr.Sort
	guard               bool  // may be the guard of an implication
	falsum              bool  // the pair atom `false` (mutual exclusion)
	pairGuard           bool  // a guard of pair candidates besides the enum guards (writer(t))
	def                 bool  // over a definition's term: not the second guard of E and G => A
	mask                uint8 // the bound variables of a product context it mentions (term.mask)
	single              bool  // over a singleton {x} (term.single)
	// checked is the sort-checked body (of `forall x: K. atom` for a
	// context with a bound variable) and its bound objects, compiled per
	// instance by the filter.
	body  expr.Expr
	bound []*expr.Object
	// eq is the index of the first atom with the same truth values on
	// every point of the instances (itself when none); set by the filter.
	eq int
	// implies lists atoms this one implies syntactically (a < b implies
	// a <= b and a != b).
	implies []int
}

// numericClass is the class of Int and Nat terms, which compare freely.
const numericClass = "#num"

// class is the key under which terms of one comparable sort are grouped.
func class(s *expr.Sort) string {
	if s.IsNumeric() {
		return numericClass
	}
	return s.String()
}

func isPartialMap(s *expr.Sort) bool {
	return s != nil && s.Kind == expr.KMap && s.Elem != nil && s.Elem.Kind == expr.KOption
}

// templates builds the contexts of automaton a: the scalar one, and one per
// parameter sort that indexes a state variable, each with its atoms. The
// atoms' texts are not checked yet (see compileAtoms).
func templates(a *ioa.Automaton, pairs, products bool) []*qctx {
	var out []*qctx
	out = append(out, &qctx{})
	for _, s := range a.Sorts {
		if s == nil || s.Kind != expr.KParam {
			continue
		}
		used := false
		for _, v := range a.Vars {
			if v.Sort.Kind == expr.KMap && expr.Identical(v.Sort.Key, s) {
				used = true
			}
		}
		if !used {
			continue
		}
		x, y := boundNames(a, s)
		out = append(out, &qctx{sort: s, x: x, y: y})
	}
	if products {
		keys := out[1:]
		for i, c1 := range keys {
			for _, c2 := range keys[i+1:] {
				if !linked(a, c1.sort, c2.sort) {
					continue
				}
				y, y2 := boundNames(a, c2.sort)
				if y == c1.x {
					y = y2
				}
				out = append(out, &qctx{sort: c1.sort, sort2: c2.sort, x: c1.x, y: y})
			}
		}
	}
	for _, c := range out {
		var terms []*term
		if c.sort2 != nil {
			terms = productTerms(a, c)
		} else {
			terms = buildTerms(a, c)
		}
		c.atoms = buildAtoms(c, terms)
		if pairs && c.sort != nil && c.sort2 == nil {
			c.pairs = buildPairs(c, terms)
		}
	}
	return out
}

// linked reports whether a state variable of a relates parameter sorts s1
// and s2: a map from one whose values are the other, or options, sets or
// maps of it.
func linked(a *ioa.Automaton, s1, s2 *expr.Sort) bool {
	inner := func(e, k *expr.Sort) bool {
		switch e.Kind {
		case expr.KOption, expr.KSet:
			return expr.Identical(e.Elem, k)
		case expr.KMap:
			return expr.Identical(e.Key, k)
		}
		return expr.Identical(e, k)
	}
	for _, v := range a.Vars {
		s := v.Sort
		if s.Kind != expr.KMap {
			continue
		}
		if expr.Identical(s.Key, s1) && inner(s.Elem, s2) || expr.Identical(s.Key, s2) && inner(s.Elem, s1) {
			return true
		}
	}
	return false
}

// productTerms returns the terms of product context c: the bound
// variables, the lookups of state variables at either (v[x], w[y]), the
// two-level lookups at both (m[x][y], m[y][x]), and the constants;
// no scalar state variables (the other contexts relate those).
func productTerms(a *ioa.Automaton, c *qctx) []*term {
	var out []*term
	type side struct {
		key, other *expr.Sort
		h, oh      string
		m, om      uint8
	}
	sides := []side{{c.sort, c.sort2, hole, hole2, 1, 2}, {c.sort2, c.sort, hole2, hole, 2, 1}}
	for _, v := range a.Vars {
		s := v.Sort
		if s.Kind != expr.KMap {
			continue
		}
		for _, sd := range sides {
			if !expr.Identical(s.Key, sd.key) {
				continue
			}
			look := v.Name + "[" + sd.h + "]"
			out = append(out, &term{tmpl: look, sort: s.Elem, bound: true, direct: true, vars: []string{v.Name}, mask: sd.m})
			if s.Elem.Kind == expr.KMap && expr.Identical(s.Elem.Key, sd.other) {
				out = append(out, &term{tmpl: look + "[" + sd.oh + "]", sort: s.Elem.Elem, bound: true, vars: []string{v.Name}, mask: 3})
			}
		}
	}
	// definitions over both: holds(t, l), conflict(t, l)
	for _, d := range a.Defs {
		if len(d.Params) != 2 || !defTerm(a, d) {
			continue
		}
		for _, sd := range sides {
			if expr.Identical(d.Params[0].Sort, sd.key) && expr.Identical(d.Params[1].Sort, sd.other) {
				out = append(out, &term{tmpl: d.Name + "(" + sd.h + ", " + sd.oh + ")", sort: d.Sort, bound: true, vars: defVars(d), mask: 3})
				break
			}
		}
	}
	out = append(out, &term{tmpl: hole, sort: c.sort, bound: true, mask: 1}, &term{tmpl: hole2, sort: c.sort2, bound: true, mask: 2})
	// {x} and {y}, where a set of their sort is looked up: rlock[l]
	// subset {t} (no other holds the lock)
	for _, sd := range sides {
		for _, t := range out {
			if t.sort.Kind == expr.KSet && expr.Identical(t.sort.Elem, sd.key) {
				out = append(out, &term{tmpl: "{" + sd.h + "}", sort: t.sort, bound: true, mask: sd.m, single: true})
				break
			}
		}
	}
	return append(out, constTerms(a, out)...)
}

// boundNames picks the names of the bound variables over s: its lower-case
// name and the next letter (t, u; p, q), avoiding every name in a's scope.
func boundNames(a *ioa.Automaton, s *expr.Sort) (string, string) {
	free := func(n string) bool {
		return a.Scope.Lookup(n) == nil && !expr.IsKeyword(n) && !expr.IsBuiltin(n) && n != "c" && n != "a"
	}
	pick := func(base string, not string) string {
		for i := 0; ; i++ {
			n := base
			if i > 0 {
				n = fmt.Sprintf("%s%d", base, i)
			}
			if free(n) && n != not {
				return n
			}
		}
	}
	base := strings.ToLower(s.Name[:1])
	x := pick(base, "")
	next := string(rune(base[0] + 1))
	if base[0] >= 'z' || base[0] < 'a' {
		next = base + "2"
	}
	return x, pick(next, x)
}

// buildTerms returns the terms of context c.
func buildTerms(a *ioa.Automaton, c *qctx) []*term {
	var bound, scalar, consts []*term
	add := func(list *[]*term, t *term) { *list = append(*list, t) }
	for _, v := range a.Vars {
		s := v.Sort
		if c.sort != nil && s.Kind == expr.KMap && expr.Identical(s.Key, c.sort) {
			add(&bound, &term{tmpl: v.Name + "[" + hole + "]", sort: s.Elem, bound: true, direct: true, vars: []string{v.Name}})
			continue
		}
		add(&scalar, &term{tmpl: v.Name, sort: s, vars: []string{v.Name}})
		if s.Kind == expr.KSeq {
			add(&scalar, &term{tmpl: "len(" + v.Name + ")", sort: expr.IntSort, vars: []string{v.Name}})
			add(&scalar, &term{tmpl: "last(" + v.Name + ")", sort: s.Elem, vars: []string{v.Name}})
		}
	}
	if c.sort == nil {
		// Lookups at a scalar key: pc[writer], loc[writer].
		var lookups []*term
		for _, m := range scalar {
			if m.sort.Kind != expr.KMap || m.sort.Key.Kind != expr.KParam {
				continue
			}
			for _, k := range scalar {
				// the key a state variable (writer), not last(order)
				if k != m && expr.Identical(k.sort, m.sort.Key) && len(k.vars) == 1 && k.tmpl == k.vars[0] {
					lookups = append(lookups, &term{tmpl: m.tmpl + "[" + k.tmpl + "]", sort: m.sort.Elem, vars: union(m.vars, k.vars)})
				}
			}
		}
		// x + 1 of a numeric lookup at a scalar key (glb = loc[writer] + 1,
		// the lock word one past its holder's snapshot)
		for _, l := range lookups {
			if l.sort.IsNumeric() {
				scalar = append(scalar, &term{tmpl: l.tmpl + " + 1", sort: expr.IntSort, vars: l.vars, succ: true})
			}
		}
		scalar = append(lookups, scalar...)
	}
	if c.sort != nil {
		for _, d := range a.Defs {
			if len(d.Params) == 1 && expr.Identical(d.Params[0].Sort, c.sort) && defTerm(a, d) {
				add(&bound, &term{tmpl: d.Name + "(" + hole + ")", sort: d.Sort, bound: true, direct: true, vars: defVars(d), def: true})
			}
		}
		add(&bound, &term{tmpl: hole, sort: c.sort, bound: true})
		// Nested lookups m[k] with k a direct lookup (or the bound
		// variable) of a parameter sort: wrSet[t][argL[t]], mem[addr[t]].
		var keys []*term
		for _, k := range bound {
			if k.sort.Kind == expr.KParam && (k.direct || k.tmpl == hole) {
				keys = append(keys, k)
			}
		}
		var nested []*term
		for _, m := range append(append([]*term(nil), bound...), scalar...) {
			if m.sort.Kind != expr.KMap || m.sort.Key.Kind != expr.KParam {
				continue
			}
			if !m.direct && m.bound {
				continue
			}
			for _, k := range keys {
				if k == m || !expr.Identical(k.sort, m.sort.Key) {
					continue
				}
				if m.direct && k.tmpl == hole {
					continue // v[t][t]: rarely meaningful
				}
				nested = append(nested, &term{tmpl: m.tmpl + "[" + k.tmpl + "]", sort: m.sort.Elem, bound: true,
					vars: union(m.vars, k.vars)})
			}
		}
		bound = append(bound, nested...)
	}
	consts = constTerms(a, append(append([]*term(nil), bound...), scalar...))
	all := append(append(bound, scalar...), consts...)
	return all
}

// constTerms returns the constants of the terms ts: 0 and 1, the declared
// constants of parameter and enum sorts and those with a value, and
// const(None) and {} of the partial maps and sets among ts.
func constTerms(a *ioa.Automaton, ts []*term) []*term {
	var consts []*term
	add := func(list *[]*term, t *term) { *list = append(*list, t) }
	add(&consts, &term{tmpl: "0", sort: expr.IntSort, konst: true})
	add(&consts, &term{tmpl: "1", sort: expr.IntSort, konst: true})
	for _, k := range a.Consts {
		if k.Sort == nil {
			continue
		}
		if k.Sort.Kind == expr.KParam || k.Body != nil && (k.Sort.IsNumeric() || k.Sort.Kind == expr.KParam) {
			add(&consts, &term{tmpl: k.Name, sort: k.Sort, konst: true})
		}
	}
	seen := map[string]bool{}
	for _, t := range ts {
		s := t.sort
		switch {
		case isPartialMap(s) && !seen[s.String()]:
			seen[s.String()] = true
			add(&consts, &term{tmpl: "const(None)", sort: s, konst: true})
		case s.Kind == expr.KSet && !seen[s.String()]:
			seen[s.String()] = true
			add(&consts, &term{tmpl: "{}", sort: s, konst: true})
		}
	}
	return consts
}

func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, x := range b {
		found := false
		for _, y := range out {
			found = found || x == y
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

// relevant reports whether an atom over terms ts belongs to context c: in
// a quantified context it mentions the bound variable, in the scalar one it
// mentions some state variable.
func relevant(c *qctx, ts ...*term) bool {
	for _, t := range ts {
		if c.sort != nil && t.bound {
			return true
		}
		if c.sort == nil && !t.konst && !t.bound {
			return true
		}
	}
	return false
}

// buildAtoms returns the atoms of context c over terms.
func buildAtoms(c *qctx, terms []*term) []*atom {
	var out []*atom
	index := map[string]int{}
	add := func(tmpl string, guard bool, ts ...*term) *atom {
		if i, dup := index[tmpl]; dup {
			return out[i]
		}
		at := &atom{id: len(out), tmpl: tmpl, guard: guard}
		for _, t := range ts {
			at.terms = append(at.terms, t.tmpl)
			if !t.konst {
				at.vterms = append(at.vterms, t.tmpl)
			}
			at.mask |= t.mask
			at.single = at.single || t.single
		}
		index[tmpl] = at.id
		out = append(out, at)
		return at
	}
	var usable []*term
	for _, t := range terms {
		if c.sort == nil && t.bound {
			continue
		}
		usable = append(usable, t)
	}
	byClass := map[string][]*term{}
	var classes []string
	for _, t := range usable {
		k := class(t.sort)
		if _, ok := byClass[k]; !ok {
			classes = append(classes, k)
		}
		byClass[k] = append(byClass[k], t)
	}
	sort.Strings(classes)
	for _, k := range classes {
		ts := byClass[k]
		for i, x := range ts {
			if !x.konst && relevant(c, x) {
				unaryAtoms(c, x, add)
			}
			if x.sort.Kind == expr.KEnum || x.sort.Kind == expr.KBool {
				continue
			}
			// Binary atoms between same-class terms.
			for _, y := range ts[i+1:] {
				l, r := x, y
				if l.konst && r.konst {
					continue
				}
				if l.konst {
					l, r = r, l
				}
				if !relevant(c, l, r) || l.tmpl == r.tmpl || l.single || r.single {
					continue
				}
				if (l.succ || r.succ) && (r.konst || l.succ && r.succ) {
					continue
				}
				if k == numericClass {
					numericAtoms(l, r, add)
					continue
				}
				add(l.tmpl+" = "+r.tmpl, false, l, r)
				add(l.tmpl+" != "+r.tmpl, false, l, r)
			}
		}
	}
	crossAtoms(c, usable, add)
	if c.sort == nil {
		// A scalar guard is over one term (pc[writer] = C4, locked,
		// isSome(owner)): the guards relating two of them (len(order) =
		// nSucc) multiply the scalar implications, and recovered no
		// written invariant that these do not.
		for _, at := range out {
			at.guard = at.guard && len(at.vterms) == 1
		}
	}
	if c.sort2 != nil {
		// A product context relates its two variables: atoms over both,
		// and the enum guards of either (pc[t] = C and wlock[l] = Some(t)
		// => …); the atoms over one alone are the other contexts'.
		out = keepAtoms(out, func(at *atom) bool { return at.mask == 3 || at.enumTerm != "" })
	}
	return out
}

// addFunc adds an atom with its text, whether it may guard, and its terms
// (buildAtoms).
type addFunc func(tmpl string, guard bool, ts ...*term) *atom

// unaryAtoms adds, through add, the atoms of context c over the term x
// alone: x and not x of a Bool, x = C for each constant of an enum,
// even(x) and odd(x) of a number, isSome(x) and isNone(x) of an option.
func unaryAtoms(c *qctx, x *term, add addFunc) {
	switch {
	case x.sort.Kind == expr.KBool:
		pos, neg := add(x.tmpl, true, x), add("not "+x.tmpl, true, x)
		pos.pairGuard = x.def && c.sort2 == nil
		pos.def, neg.def = x.def, x.def
	case x.sort.Kind == expr.KEnum:
		for _, e := range x.sort.Elems {
			at := add(x.tmpl+" = "+e, true, x)
			if x.bound || c.sort == nil {
				at.enumTerm, at.enumConst, at.enumSort = x.tmpl, e, x.sort
			}
		}
	case x.sort.IsNumeric() && !x.succ:
		add("even("+x.tmpl+")", false, x)
		add("odd("+x.tmpl+")", false, x)
	case x.sort.Kind == expr.KOption:
		add("isSome("+x.tmpl+")", true, x)
		add("isNone("+x.tmpl+")", true, x)
	}
}

// numericAtoms adds, through add, the comparisons of the numeric terms l
// and r (r a constant when either is), with the implications among them;
// only l = r when one of them is a successor x + 1.
func numericAtoms(l, r *term, add addFunc) {
	if l.succ || r.succ {
		if l.succ {
			l, r = r, l
		}
		add(l.tmpl+" = "+r.tmpl, false, l, r)
		return
	}
	eq := add(l.tmpl+" = "+r.tmpl, !r.konst, l, r)
	ne := add(l.tmpl+" != "+r.tmpl, false, l, r)
	lt := add(l.tmpl+" < "+r.tmpl, false, l, r)
	le := add(l.tmpl+" <= "+r.tmpl, false, l, r)
	gt := add(l.tmpl+" > "+r.tmpl, false, l, r)
	lt.implies = []int{le.id, ne.id}
	eq.implies = []int{le.id}
	gt.implies = []int{ne.id}
	// x >= 0 holds of every Nat and every length: no candidate.
	if !(r.tmpl == "0" && (l.sort.Kind == expr.KNat || strings.HasPrefix(l.tmpl, "len("))) {
		ge := add(l.tmpl+" >= "+r.tmpl, false, l, r)
		gt.implies = append(gt.implies, ge.id)
		eq.implies = append(eq.implies, ge.id)
	}
}

// buildPairs returns the pair atoms of context c: `false` (two distinct
// elements are never both guarded) and f[x] != f[y] for the direct lookups
// f of numeric, parameter and Option sorts.
func buildPairs(c *qctx, terms []*term) []*atom {
	out := []*atom{{id: 0, tmpl: "false", falsum: true}}
	for _, t := range terms {
		if !t.direct {
			continue
		}
		s := t.sort
		if !(s.IsNumeric() || s.Kind == expr.KParam || s.Kind == expr.KOption) {
			continue
		}
		tmpl := t.tmpl + " != " + strings.ReplaceAll(t.tmpl, hole, hole2)
		out = append(out, &atom{id: len(out), tmpl: tmpl, terms: []string{t.tmpl}})
	}
	return out
}

// keepAtoms returns the atoms of list that keep holds of, numbered again
// in order, with their implications among those kept.
func keepAtoms(list []*atom, keep func(*atom) bool) []*atom {
	var out []*atom
	remap := map[int]int{}
	for _, at := range list {
		if !keep(at) {
			continue
		}
		remap[at.id] = len(out)
		at.id = len(out)
		out = append(out, at)
	}
	for _, at := range out {
		var imp []int
		for _, j := range at.implies {
			if k, ok := remap[j]; ok {
				imp = append(imp, k)
			}
		}
		at.implies = imp
	}
	return out
}

// crossAtoms adds, through add, the atoms of context c between terms of
// different classes: o = Some(y), p subset m, x in s.
func crossAtoms(c *qctx, usable []*term, add addFunc) {
	for _, o := range usable {
		for _, y := range usable {
			if o == y || !relevant(c, o, y) || o.konst || o.single {
				continue
			}
			switch {
			case o.sort.Kind == expr.KOption && expr.Identical(o.sort.Elem, y.sort):
				// a guard when it relates the two variables of a
				// product context (wlock[l] = Some(t))
				add(o.tmpl+" = Some("+y.tmpl+")", o.mask|y.mask == 3, o, y)
			case isPartialMap(o.sort) && !y.konst && y.sort.Kind == expr.KMap && expr.Identical(o.sort.Key, y.sort.Key) &&
				(expr.Identical(o.sort.Elem, y.sort.Elem) || expr.Identical(o.sort.Elem.Elem, y.sort.Elem)):
				add(o.tmpl+" subset "+y.tmpl, false, o, y)
			case o.sort.Kind == expr.KSet && !y.konst && y.sort.Kind == expr.KSet && expr.Identical(o.sort, y.sort):
				add(o.tmpl+" subset "+y.tmpl, false, o, y)
			case y.sort.Kind == expr.KSet && !y.konst && !y.single && expr.Identical(y.sort.Elem, o.sort):
				add(o.tmpl+" in "+y.tmpl, true, o, y)
			}
		}
	}
}

// defTerm reports whether definition d of a, applied to bound variables,
// makes a term of the templates: its result is of a sort that atoms
// compare or guard with (Bool, numbers, enums, parameter sorts, options,
// sets), its body has no quantifier, lambda or set comprehension, dom(m)
// included (each would make every check of a candidate over it one with
// quantifiers: with ws(t) = dom(wrSet[t]) a term, Opacity's search did not
// end in two minutes; without, in 72.9 s), and it reads a state variable
// that is not of an enum sort: one that reads only program counters
// (holdsLock(t) = pc[t] in {…}) says what the enum guards and their merges
// say.
func defTerm(a *ioa.Automaton, d *expr.Object) bool {
	s := d.Sort
	if s == nil {
		return false
	}
	switch s.Kind {
	case expr.KBool, expr.KEnum, expr.KParam, expr.KOption, expr.KSet:
	default:
		if !s.IsNumeric() {
			return false
		}
	}
	quant := false
	forBody(d, func(e expr.Expr) {
		switch x := e.(type) {
		case *expr.Quant, *expr.Lambda:
			quant = true
		case *expr.Call:
			// dom(m) is the comprehension {k | isSome(m[k])}
			if x.Fun.Obj != nil && x.Fun.Obj.Kind == expr.ObjBuiltin && x.Fun.Name == "dom" {
				quant = true
			}
		}
	})
	if quant {
		return false
	}
	for _, name := range defVars(d) {
		for _, v := range a.Vars {
			if v.Name != name {
				continue
			}
			el := v.Sort
			if el.Kind == expr.KMap {
				el = el.Elem
			}
			if el.Kind != expr.KEnum {
				return true
			}
		}
	}
	return false
}

// forBody calls f on every node of d's body and of the bodies of the
// definitions it calls, each definition once.
func forBody(d *expr.Object, f func(expr.Expr)) {
	seen := map[*expr.Object]bool{d: true}
	var walk func(e expr.Expr)
	walk = func(e expr.Expr) {
		expr.Inspect(e, func(e expr.Expr) bool {
			f(e)
			if id, ok := e.(*expr.Ident); ok && id.Obj != nil && id.Obj.Kind == expr.ObjDef && !seen[id.Obj] {
				seen[id.Obj] = true
				walk(id.Obj.Body)
			}
			return true
		})
	}
	walk(d.Body)
}

// defVars returns the state variables definition d reads, through the
// definitions it calls too.
func defVars(d *expr.Object) []string {
	var out []string
	forBody(d, func(e expr.Expr) {
		if id, ok := e.(*expr.Ident); ok && id.Obj != nil && id.Obj.Kind == expr.ObjVar {
			out = union(out, []string{id.Obj.Name})
		}
	})
	return out
}
