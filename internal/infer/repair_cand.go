// This file implements the templates of relation repair: candidate
// clauses of a forward simulation's relation, each comparing a term over
// the abstract state a with a term over the concrete state c or a
// constant, optionally under a guard over c (docs/infer.md, "Repairing
// an edge").

package infer

import (
	"fmt"
	"sort"
	"strings"

	"ladder/ioa"
	"ladder/ioa/expr"
)

// rterm is a term of a relation template: its text (with hole for the
// bound variable), its sort, and whether it mentions the bound variable.
type rterm struct {
	text  string
	sort  *expr.Sort
	bound bool
}

// relCand is a candidate clause: its text and its size, by which
// smaller candidates come first: 2 per atom (1 unguarded, 2 guarded),
// plus 1 for an inequality, so that of two clauses an equality is tried
// first (repair's minimal set prefers the earlier of equal candidates).
type relCand struct {
	text string
	size int
}

// relationCandidates returns the candidate clauses of proof p's relation
// whose abstract terms read only the variables in relevant (every
// variable of the abstract automaton when relevant is nil), in a fixed
// order: per context (scalar, then each parameter sort), unguarded before
// guarded.
func relationCandidates(p *ioa.Proof, relevant map[string]bool) []relCand {
	C, A := p.Concrete, p.Abstract
	var sorts []*expr.Sort
	seen := map[string]bool{}
	for _, v := range A.Vars {
		if relevant != nil && !relevant[v.Name] {
			continue
		}
		if s := v.Sort; s.Kind == expr.KMap && s.Key.Kind == expr.KParam && !seen[s.Key.Name] {
			seen[s.Key.Name] = true
			sorts = append(sorts, s.Key)
		}
	}
	sort.Slice(sorts, func(i, j int) bool { return sorts[i].Name < sorts[j].Name })
	var out []relCand
	dup := map[string]bool{}
	add := func(text string, size int) {
		if !dup[text] {
			dup[text] = true
			out = append(out, relCand{text, size})
		}
	}
	for _, k := range append([]*expr.Sort{nil}, sorts...) {
		x := ""
		if k != nil {
			x = boundName(p, k)
		}
		cts := relTerms(C, "c", k, nil, nil)
		ats := relTerms(A, "a", k, relevant, cts)
		atoms := relAtoms(ats, cts, k != nil)
		guards := relGuards(cts, k != nil)
		wrap := func(body string) string {
			if k == nil {
				return body
			}
			return fmt.Sprintf("forall %s: %s. %s", x, k.Name, body)
		}
		for _, at := range atoms {
			add(wrap(fill(at, x)), 2+inequality(at))
		}
		for _, at := range atoms {
			for _, g := range guards {
				add(wrap(fill(g+" => "+at, x)), 4+inequality(at))
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].size < out[j].size })
	return out
}

// inequality is 1 for an atom that compares by <= or >=, else 0.
func inequality(atom string) int {
	if strings.Contains(atom, " <= ") || strings.Contains(atom, " >= ") {
		return 1
	}
	return 0
}

// boundName picks the name of the bound variable over sort k: its
// lower-case initial, numbered when either automaton's scope uses it.
func boundName(p *ioa.Proof, k *expr.Sort) string {
	base := strings.ToLower(k.Name[:1])
	for i := 0; ; i++ {
		n := base
		if i > 0 {
			n = fmt.Sprintf("%s%d", base, i)
		}
		if n != "c" && n != "a" && p.Concrete.Scope.Lookup(n) == nil && p.Abstract.Scope.Lookup(n) == nil &&
			!expr.IsKeyword(n) && !expr.IsBuiltin(n) {
			return n
		}
	}
}

// relTerms returns the terms over the state object obj ("c" or "a") of
// automaton au in the context of the parameter sort k (nil: scalar): its
// variables, their lookups at the bound variable and their lengths, and
// lookups of maps over another parameter sort at a key term of keys (the
// concrete terms) or of au's own. relevant, when non-nil, limits the
// variables.
func relTerms(au *ioa.Automaton, obj string, k *expr.Sort, relevant map[string]bool, keys []rterm) []rterm {
	var out []rterm
	for _, v := range au.Vars {
		if relevant != nil && !relevant[v.Name] {
			continue
		}
		s, name := v.Sort, obj+"."+v.Name
		if k != nil && s.Kind == expr.KMap && expr.Identical(s.Key, k) {
			out = append(out, rterm{name + "[" + hole + "]", s.Elem, true})
			continue
		}
		out = append(out, rterm{name, s, false})
		if s.Kind == expr.KSeq {
			out = append(out, rterm{"len(" + name + ")", expr.IntSort, false})
		}
	}
	if k != nil && obj == "c" {
		out = append(out, rterm{hole, k, true})
	}
	// m[key] for a map m over a parameter sort P and a bound key term of
	// sort P: wrSet[t][addr[t]], mem[addr[t]].
	direct := append([]rterm(nil), out...)
	if keys == nil {
		keys = direct
	}
	for _, m := range direct {
		if m.sort.Kind != expr.KMap || m.sort.Key.Kind != expr.KParam {
			continue
		}
		for _, key := range keys {
			if !key.bound || key.text == hole && m.bound || !expr.Identical(key.sort, m.sort.Key) || strings.Contains(key.text, "][") {
				continue
			}
			out = append(out, rterm{m.text + "[" + key.text + "]", m.sort.Elem, true})
		}
	}
	return out
}

// comparable reports whether terms of sorts s and t may be compared.
func comparable(s, t *expr.Sort) bool {
	if s.IsNumeric() || t.IsNumeric() {
		return s.IsNumeric() && t.IsNumeric()
	}
	return expr.Identical(s, t)
}

// relAtoms returns the atoms comparing an abstract term with a concrete
// term or a constant; in a quantified context each mentions the bound
// variable.
func relAtoms(ats, cts []rterm, quantified bool) []string {
	var out []string
	for _, a := range ats {
		for _, c := range cts {
			if !comparable(a.sort, c.sort) || quantified && !a.bound && !c.bound {
				continue
			}
			out = append(out, a.text+" = "+c.text)
			if a.sort.IsNumeric() {
				out = append(out, a.text+" <= "+c.text, a.text+" >= "+c.text,
					a.text+" = "+c.text+" - 1", a.text+" = "+c.text+" + 1")
			}
		}
		if quantified && !a.bound {
			continue
		}
		switch s := a.sort; {
		case s.Kind == expr.KEnum:
			for _, e := range s.Elems {
				out = append(out, a.text+" = "+e)
			}
		case s.Kind == expr.KBool:
			out = append(out, a.text, "not "+a.text)
		case s.Kind == expr.KOption:
			out = append(out, "isNone("+a.text+")", "isSome("+a.text+")")
		case isPartialMap(s):
			out = append(out, a.text+" = const(None)")
		case s.Kind == expr.KSet:
			out = append(out, a.text+" = {}")
		case s.IsNumeric():
			out = append(out, a.text+" = 0")
		}
	}
	return out
}

// relGuards returns the guards over the concrete terms: an enum term equal
// to a constant, a Bool term or its negation, an option's isSome and
// isNone; in a quantified context those mentioning the bound variable.
func relGuards(cts []rterm, quantified bool) []string {
	var out []string
	for _, c := range cts {
		if quantified && !c.bound || strings.Contains(c.text, "][") {
			continue
		}
		switch s := c.sort; s.Kind {
		case expr.KEnum:
			for _, e := range s.Elems {
				out = append(out, c.text+" = "+e)
			}
		case expr.KBool:
			out = append(out, c.text, "not "+c.text)
		case expr.KOption:
			out = append(out, "isSome("+c.text+")", "isNone("+c.text+")")
		}
	}
	return out
}
