// This file implements the slice the driver proposes for each obligation
// (kernel.Obligation.Slices): a guess at the hypotheses a proof needs.

package driver

import (
	"slices"
	"strings"

	"ladder/internal/logic"
)

// relevantSlices returns the slices the kernel tries, in order, when the
// first check of p does not prove it (kernel.Obligation.Slices): subsets
// of p's assertions that a proof most likely needs, narrowest first. The
// narrow slice drops the assumed invariants ("assume …") and the relation
// clauses assumed of the pre-states ("R(c, a)") that mention no state
// variable the negated goal mentions; the wide one drops only such
// invariants. A slice that is all of p is left out, and so is the wide
// one when it is the narrow one. When keepInvariants is set (a strategy
// chose the invariants, Obligation.AssumeChosen), both keep every one of
// them. A goal that mentions no state variable (a bound on a parameter,
// say) keeps none of them. A slice that is too small costs one check,
// never a verdict. Hypotheses that share nothing with the goal are
// what makes a hard obligation hard: on the repository's 640 obligations
// that the first check leaves open, the narrow slice proves 615, 600 of
// them within 5 million units. Dropping unrelated relation clauses also
// keeps a slice's text, and so its cached proof (Kernel.AdmitSlice),
// unchanged by an edit of those clauses.
func relevantSlices(p *logic.Problem, keepInvariants bool) [][]int {
	goal := map[string]bool{}
	for _, a := range p.Assertions {
		if !strings.HasPrefix(a.Name, "goal") {
			continue
		}
		for _, c := range logic.FreeConsts(a.Term) {
			if stateVar(c.Name()) {
				goal[c.Name()] = true
			}
		}
	}
	var narrow, wide []int
	for i, a := range p.Assertions {
		inv, rel := strings.HasPrefix(a.Name, "assume ") && !keepInvariants, strings.HasSuffix(a.Name, "(c, a)")
		if !inv && !rel {
			narrow, wide = append(narrow, i), append(wide, i)
			continue
		}
		relevant := mentionsAny(a.Term, goal)
		if relevant {
			narrow = append(narrow, i)
		}
		if relevant || !inv {
			wide = append(wide, i)
		}
	}
	var out [][]int
	if len(narrow) < len(p.Assertions) {
		out = append(out, narrow)
	}
	if len(wide) < len(p.Assertions) && len(wide) > len(narrow) {
		out = append(out, wide)
	}
	return out
}

// mentionsAny reports whether t has a free constant named in names.
func mentionsAny(t *logic.Term, names map[string]bool) bool {
	for _, c := range logic.FreeConsts(t) {
		if names[c.Name()] {
			return true
		}
	}
	return false
}

// stateVar reports whether a constant of an obligation is a state
// variable (s.x, c.x, a.x, …; a record's fields too, c.mems.len): its name
// has a dot after a state's name, and it is not an action parameter (p.t)
// nor an automaton's constant (TMS2::v0).
func stateVar(name string) bool {
	head, _, ok := strings.Cut(name, ".")
	return ok && head != "p" && !strings.Contains(name, "::")
}

// assertionsNamed returns the indices of p's assertions whose names are
// among names, in increasing order.
func assertionsNamed(p *logic.Problem, names []string) []int {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	var idx []int
	for i, a := range p.Assertions {
		if want[a.Name] {
			idx = append(idx, i)
		}
	}
	return idx
}

// withSlice returns proposed with idx, a subset of n assertions, added
// last when it is a proper, non-empty subset that proposed does not already
// hold.
func withSlice(proposed [][]int, idx []int, n int) [][]int {
	if len(idx) == 0 || len(idx) >= n {
		return proposed
	}
	if slices.ContainsFunc(proposed, func(sl []int) bool { return slices.Equal(sl, idx) }) {
		return proposed
	}
	return append(proposed, idx)
}
