// This file implements what a run learns from the checks it makes: the
// order in which the kernel tries an obligation that has no prior attempt
// of its own.

package driver

import (
	"strings"
	"sync"

	"ladder/internal/kernel"
	"ladder/simulation"
)

// siblings holds, for each family of obligations (family), how this run's
// checks proved its members so far: by Z3's plain solver, which Check
// tries first (kernel.Session.Check, step 1), or only later by its default
// solver, after the plain solver exhausted its first limit. The members of
// a family are one invariant's obligations, one per action, or one
// relation clause's (or precondition's, ...) across the actions of an
// edge; they tend to be alike, and a family whose members the default
// solver proves makes the plain checks of the next ones a waste (in a
// cold run of the repository, a quarter of the solver's time).
//
// The hint it gives is a kernel.Attempt for Obligation.First: the first
// check of Check, whose unsat proves and whose failure only leads to the
// usual steps. It orders checks and decides nothing: each check is made in
// a fresh Z3 context (kernel's z3Solver), so its answer does not depend on
// the checks before it, and the verdict is the one the usual order gives
// unless the hinted check proves what the usual steps would leave unknown.
type siblings struct {
	mu  sync.Mutex
	fam map[string]*family
}

// family is what siblings knows of one family.
type family struct {
	plain, other int            // members proved by the plain solver, and by the default one
	hint         kernel.Attempt // the default solver's largest proof so far
}

// reset forgets every family: a run learns from its own checks.
func (s *siblings) reset() {
	s.mu.Lock()
	s.fam = nil
	s.mu.Unlock()
}

// familyOf returns ob's family: its group (an invariant's, or an edge's
// and kind) and, for an edge, the last part of its ID (the clause, such as
// "relation(owner)" or "pre(DoRead)").
func familyOf(ob *simulation.Obligation) string {
	if ob.Invariant != "" {
		return ob.Group
	}
	id := ob.ID
	if i := strings.LastIndex(id, " › "); i >= 0 {
		id = id[i+len(" › "):]
	}
	return ob.Group + " › " + id
}

// hint returns the attempt to begin ob's check with, or nil: the default
// solver's check that proved the family's members, once it proved at
// least two and more than the plain solver did.
func (s *siblings) hint(ob *simulation.Obligation) *kernel.Attempt {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.fam[familyOf(ob)]
	if f == nil || f.other < 2 || f.other <= f.plain || f.hint.Solver == "" {
		return nil
	}
	a := f.hint
	return &a
}

// note records how r, the result of a check of ob that began without a
// prior attempt of its own, was decided.
func (s *siblings) note(ob *simulation.Obligation, r kernel.Result) {
	if r.Verdict() == kernel.Proved {
		s.add(familyOf(ob), r.Solver, r.Slice, r.RLimitUsed)
	}
}

// add records a proof of a member of family fam by solver (on its slice
// n when n > 0) that used rlimit in all its checks.
func (s *siblings) add(fam, solver string, n int, rlimit uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fam == nil {
		s.fam = map[string]*family{}
	}
	f := s.fam[fam]
	if f == nil {
		f = &family{}
		s.fam[fam] = f
	}
	if solver != kernel.SolverDefault {
		f.plain++
		return
	}
	f.other++
	if rlimit >= f.hint.RLimit {
		f.hint = kernel.Attempt{Slice: n, Solver: kernel.SolverDefault, RLimit: rlimit}
	}
}
