// This file implements the slices the driver proposes for each obligation
// (kernel.Obligation.Slices), guesses at the hypotheses a proof needs; the
// lookup of their cached proofs; and the unsat cores of edited
// obligations, proposed as a slice of their next text.

package driver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"ladder/internal/cache"
	"ladder/internal/kernel"
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
	return logic.AnyConst(t, func(name string) bool { return names[name] })
}

// stateVar reports whether a constant of an obligation is a state
// variable (s.x, c.x, a.x, …; a record's fields too, c.mems.len): its name
// has a dot after a state's name, and it is not an action parameter (p.t)
// nor an automaton's constant (TMS2::v0).
func stateVar(name string) bool {
	head, _, ok := strings.Cut(name, ".")
	return ok && head != "p" && !strings.Contains(name, "::")
}

// assertionNames returns the names of p's assertions at the indices idx,
// those in range, in order: the converse of assertionsNamed.
func assertionNames(p *logic.Problem, idx []int) []string {
	names := make([]string, 0, len(idx))
	for _, i := range idx {
		if i >= 0 && i < len(p.Assertions) {
			names = append(names, p.Assertions[i].Name)
		}
	}
	return names
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

// lookupSlice returns q's result proved by weakening from the cached proof
// of one of its slices (kernel.AdmitSlice), and that proof: after an edit,
// an obligation whose text changed only outside a slice that proved it
// before (an edited relation clause its goal does not mention, say) is
// not checked again. The kernel admits only a proof of exactly the fresh
// slice's text.
func (p *Prover) lookupSlice(q *kernel.Query) (kernel.Result, *unitResult, bool) {
	if p.cache == nil {
		return kernel.Result{}, nil, false
	}
	for n := 1; ; n++ {
		sq, err := q.Slice(n)
		if err != nil || sq == nil {
			return kernel.Result{}, nil, false
		}
		skey := cache.KeyOf(sq.Text(), p.solver)
		var rec []byte
		if u, ok := p.keys.get(skey); ok {
			rec = u.Record
		} else if row, ok := p.cache.Lookup(skey); ok {
			if rec, ok = p.sig.open(skey, row.Detail); !ok {
				continue
			}
		} else {
			continue
		}
		r, err := p.kernel.AdmitSlice(q, n, rec)
		if err != nil {
			p.warn(fmt.Sprintf("cache: entry for %s (slice %d) not admitted (%v); re-checking", q.ID(), n, err))
			continue
		}
		return r, &unitResult{Key: skey, Query: sq.Fingerprint(), Record: rec}, true
	}
}

// keepCore keeps the prior core's assertions with the verdict, and the
// proof of their current text, when the slice that proved it is that
// core: the next edit outside the core finds that proof.
func (j *job) keepCore() {
	if j.priorCore != nil && j.slice != nil && j.coreSlice > 0 && j.res.Slice == j.coreSlice {
		j.core = &unitResult{Key: j.slice.Key, Query: j.slice.Query, Record: j.slice.Record, Names: j.priorCore.Names}
	}
}

// keepPriorCore keeps, for j decided from the cache with no core of its
// own text (a verdict the cache holds, but no unit record any longer does),
// the core recorded with the obligation's last verdict: its names are a
// hint for the next text as good as any, and its proof, if any, proves only
// the text of that subset, which the kernel checks before admitting it.
func (j *job) keepPriorCore() {
	if j.core == nil && j.priorCore != nil && len(j.priorCore.Names) > 0 {
		j.core, j.coreCarried = j.priorCore, true
	}
}

// usedCore sets j.core to the names of the assertions that the check
// proving j used (kernel.Result.Used, the unsat core of a tracked check),
// without a proof of their own, when they are a proper subset of its
// problem's; it reports whether it did. The next text of the obligation
// proposes them as a slice and checks that first (prepare): an edit
// outside them then costs one small check instead of the whole problem and
// a search for its core (findCore), and that check's proof is kept with
// the names (keepCore), so that a further edit outside them costs none.
func (j *job) usedCore() bool {
	used := j.res.Used
	if len(used) == 0 || j.ob.Problem == nil || len(used) >= len(j.ob.Problem.Assertions) {
		return false
	}
	j.core = &unitResult{Names: assertionNames(j.ob.Problem, used)}
	return true
}

// findCore sets j.core for j, whose text was proved before and changed,
// and which the session has just proved: it may change again, and the
// proof of its unsat core makes the next edit outside the core cost no
// check at all. Where none was found for its last text, none is looked
// for again (an empty Core says so); an interrupted search leaves nothing.
func (p *Prover) findCore(ctx context.Context, s *kernel.Session, j *job) {
	if j.priorCore != nil && len(j.priorCore.Names) == 0 {
		j.core = j.priorCore
		return
	}
	c, ok := s.CoreContext(ctx, j.query, j.res)
	j.coreZ3 = c.Proof.Z3Seconds
	switch {
	case ctx.Err() != nil:
	case !ok:
		j.core = &unitResult{}
	default:
		data, err := c.Proof.Encode()
		if err != nil {
			return
		}
		names := assertionNames(j.ob.Problem, c.Indices)
		j.core = &unitResult{Key: cache.KeyOf(c.Query.Text(), p.solver), Query: c.Query.Fingerprint(), Record: data, Names: names}
	}
}
