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

// qctx is a quantifier context: no bound variable (scalar facts), or one
// parameter sort K with the names of its bound variables.
type qctx struct {
	sort *expr.Sort // nil: scalar
	x, y string     // the names of the bound variables (y for pair candidates)
	// atoms over x (or scalar atoms), and pair atoms over x and y.
	atoms []*atom
	pairs []*atom
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
}

// atom is a Bool formula over the terms of a context.
type atom struct {
	id    int
	tmpl  string // the text with hole (and hole2 for pair atoms)
	terms []string
	vars  []string
	// enumTerm and enumConst are set for an enum guard `e = C` with e a
	// term over the bound variable (the `pc[t] = X` guards).
	enumTerm, enumConst string
	enumSort            *expr.Sort
	guard               bool // may be the guard of an implication
	falsum              bool // the pair atom `false` (mutual exclusion)
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
func templates(a *ioa.Automaton, pairs bool) []*qctx {
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
	for _, c := range out {
		terms := buildTerms(a, c)
		c.atoms = buildAtoms(c, terms)
		if pairs && c.sort != nil {
			c.pairs = buildPairs(c, terms)
		}
	}
	return out
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
	if c.sort != nil {
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
	// Constants: 0 and 1, the declared constants of parameter and enum
	// sorts and those with a value, const(None) and {}.
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
	for _, t := range append(append([]*term(nil), bound...), scalar...) {
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
	all := append(append(bound, scalar...), consts...)
	return all
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
			at.vars = union(at.vars, t.vars)
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
			// Unary atoms.
			if !x.konst && relevant(c, x) {
				switch {
				case x.sort.Kind == expr.KBool:
					add(x.tmpl, true, x)
					add("not "+x.tmpl, true, x)
				case x.sort.Kind == expr.KEnum:
					for _, e := range x.sort.Elems {
						at := add(x.tmpl+" = "+e, true, x)
						if x.bound {
							at.enumTerm, at.enumConst, at.enumSort = x.tmpl, e, x.sort
						}
					}
				case x.sort.IsNumeric():
					add("even("+x.tmpl+")", false, x)
					add("odd("+x.tmpl+")", false, x)
				case x.sort.Kind == expr.KOption:
					add("isSome("+x.tmpl+")", true, x)
					add("isNone("+x.tmpl+")", true, x)
				}
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
				if !relevant(c, l, r) || l.tmpl == r.tmpl {
					continue
				}
				if k == numericClass {
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
					continue
				}
				add(l.tmpl+" = "+r.tmpl, false, l, r)
				add(l.tmpl+" != "+r.tmpl, false, l, r)
			}
		}
	}
	// Atoms across classes: o = Some(y), p subset m, x in s.
	for _, o := range usable {
		for _, y := range usable {
			if o == y || !relevant(c, o, y) || o.konst {
				continue
			}
			switch {
			case o.sort.Kind == expr.KOption && expr.Identical(o.sort.Elem, y.sort):
				add(o.tmpl+" = Some("+y.tmpl+")", false, o, y)
			case isPartialMap(o.sort) && !y.konst && y.sort.Kind == expr.KMap && expr.Identical(o.sort.Key, y.sort.Key) &&
				(expr.Identical(o.sort.Elem, y.sort.Elem) || expr.Identical(o.sort.Elem.Elem, y.sort.Elem)):
				add(o.tmpl+" subset "+y.tmpl, false, o, y)
			case o.sort.Kind == expr.KSet && !y.konst && y.sort.Kind == expr.KSet && expr.Identical(o.sort, y.sort):
				add(o.tmpl+" subset "+y.tmpl, false, o, y)
			case y.sort.Kind == expr.KSet && !y.konst && expr.Identical(y.sort.Elem, o.sort):
				add(o.tmpl+" in "+y.tmpl, true, o, y)
			}
		}
	}
	return out
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
		out = append(out, &atom{id: len(out), tmpl: tmpl, terms: []string{t.tmpl}, vars: t.vars})
	}
	return out
}
