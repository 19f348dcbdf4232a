// This file implements the slice the driver proposes for each obligation
// (kernel.Obligation.Slice): a guess at the hypotheses a proof needs.

package driver

import (
	"strings"

	"ladder/internal/logic"
)

// relevantSlice returns the indices of p's assertions that a proof of the
// obligation most likely needs, or nil when that is all of them: every
// assertion except the assumed invariants ("assume …"), and the assumed
// invariants that mention a state variable the negated goal mentions.
// The kernel tries the slice when its first check fails; a slice that is
// too small costs one check, never a verdict. Assumed invariants that
// share nothing with the goal are what makes a hard obligation hard: on
// the DSTM→ReservationTMS2 steps the slice needs a fifth of the units.
func relevantSlice(p *logic.Problem) []int {
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
	if len(goal) == 0 {
		return nil
	}
	var keep []int
	for i, a := range p.Assertions {
		if !strings.HasPrefix(a.Name, "assume ") || mentionsAny(a.Term, goal) {
			keep = append(keep, i)
		}
	}
	if len(keep) == len(p.Assertions) {
		return nil
	}
	return keep
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
