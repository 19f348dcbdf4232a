// This file implements the bounded counterexample search: the checks of an
// obligation's problem restricted to small universes (bound.go) that the
// kernel runs when the first checks of the problem are unknown.

package refute

import (
	"fmt"
	"sort"
	"strings"

	"ladder/internal/logic"
	"ladder/internal/proposal"
)

// maxInstances caps the instances of one search: with many sorts the
// schedule grows as MaxSize^sorts, and even quick unsat instances cost
// building a Z3 context each.
const maxInstances = 64

// splitInts is the Split of every bounded instance: each quantifier over
// Int gets its instances at 0 … splitInts. Small sequences and counters
// are what small universes need; the instances are an equivalence, so the
// value only affects how fast Z3 finds a model.
const splitInts = 3

// minimizeInts are the bounds on integer constants tried, in order, once
// an instance has a counterexample with a larger integer constant, for a
// smaller one: left alone, Z3 often picks sequence lengths and indices in
// the thousands. Bounding the constants makes some instances harder for
// Z3, so it is not done before a counterexample is found.
var minimizeInts = []int{2, 4, 8}

// minimizeShare divides the search's resource limit per check for the
// checks that look for a smaller counterexample.
const minimizeShare = 5

// largestInt returns the largest absolute value of an integer constant of
// p in the model m (0 when it has none or on an evaluation error).
func largestInt(p *logic.Problem, m logic.Model) int64 {
	sig, err := p.Signature()
	if err != nil {
		return 0
	}
	var big int64
	for _, c := range sig.Consts {
		if c.Sort().Kind() != logic.SortInt {
			continue
		}
		v, err := m.Eval(c)
		if err != nil || v.Kind() != logic.KindInt {
			continue
		}
		n := v.Int64()
		if n < 0 {
			n = -n
		}
		big = max(big, n)
	}
	return big
}

// schedule returns the instances of the search over the uninterpreted
// sorts sorts (names), every sort from 1 to maxSize elements: by total
// size, then by the sizes in the order of the sorts (smaller first), so
// that the first counterexample found is in a smallest universe.
func schedule(sorts []string, maxSize int) []instance {
	if len(sorts) == 0 {
		return nil
	}
	var vecs [][]int
	var walk func(v []int)
	walk = func(v []int) {
		if len(v) == len(sorts) {
			vecs = append(vecs, append([]int(nil), v...))
			return
		}
		for k := 1; k <= maxSize; k++ {
			walk(append(v, k))
		}
	}
	walk(nil)
	sum := func(v []int) int {
		n := 0
		for _, k := range v {
			n += k
		}
		return n
	}
	sort.SliceStable(vecs, func(i, j int) bool { return sum(vecs[i]) < sum(vecs[j]) })
	out := make([]instance, len(vecs))
	for i, v := range vecs {
		in := instance{Sizes: map[string]int{}, Split: splitInts}
		for j, s := range sorts {
			in.Sizes[s] = v[j]
		}
		out[i] = in
	}
	return out
}

// search is the state of one search: the kernel's oracle, the limits,
// and the resources the search's checks used so far.
type search struct {
	o      proposal.Oracle
	lim    proposal.Limits
	rlimit uint64 // resource units used by the checks so far, for the budget
}

// result is the outcome of a bounded search: a proposal.Found, with the
// instance and the largest integer constant of the counterexample it
// names, for minimization.
type result struct {
	proposal.Found
	found instance // the instance of a refutation
	big   int64    // the largest integer constant of a refutation
}

// instances returns the schedule of the search over the parameter sorts
// of p, nil when it has none.
func instances(p *logic.Problem, maxSize int) ([]instance, error) {
	sig, err := p.Signature()
	if err != nil {
		return nil, err
	}
	var sorts []string
	for _, st := range sig.Sorts {
		sorts = append(sorts, st.Name())
	}
	return schedule(sorts, maxSize), nil
}

// run looks for a counterexample to p in the instances insts, in order,
// each checked with the search's resource limit, until one is sat, the
// budget is spent, maxInstances were checked or the deadline passes. A sat
// instance is handed to the kernel to replay like any model (the models
// of a bounded problem are models of p, bound.go); it is then checked
// again with the integer constants bounded (minimizeInts), and the first
// of those that is sat is replayed and gives the counterexample instead,
// being smaller. The kernel's replay gives a refutation or an internal
// error; the search stops at the first replay either way.
func (s *search) run(p *logic.Problem, insts []instance) result {
	var res result
	var unsat int
	var unknowns []string
	done := 0
	for _, in := range insts {
		if s.rlimit >= s.lim.Budget || done == maxInstances {
			break
		}
		if s.o.Expired() {
			res.Timeout = true
			break
		}
		ans, bp, err := s.attempt(p, in, s.lim.RLimit)
		done++
		if err != nil {
			res.Err, res.Instance = err, in.String()
			return res
		}
		switch ans.Status {
		case proposal.Unsat:
			unsat++
			continue
		case proposal.Unknown:
			unknowns = append(unknowns, in.String())
			if ans.Timeout {
				res.Timeout = true
			}
			continue
		}
		// sat: replay, then look for a smaller model
		big := largestInt(bp.problem, ans.Model)
		n, refuted := s.o.Replay(boundedModel{tr: bp.tr, m: ans.Model}, in.String())
		if ans.Release != nil {
			ans.Release()
		}
		res.Replay, res.found, res.big = n, in, big
		for _, k := range minimizeInts {
			if !refuted || int64(k) >= big || s.rlimit >= s.lim.Budget || s.o.Expired() {
				break
			}
			tight := instance{Sizes: in.Sizes, Split: in.Split, Ints: k}
			// A failure here only loses a smaller counterexample: the
			// same instance without the bound gave one.
			a2, bp2, err := s.attempt(p, tight, s.lim.RLimit/minimizeShare)
			if err != nil || a2.Status != proposal.Sat {
				if a2.Release != nil {
					a2.Release()
				}
				continue
			}
			big2 := largestInt(bp2.problem, a2.Model)
			n2, _ := s.o.Replay(boundedModel{tr: bp2.tr, m: a2.Model}, tight.String())
			if a2.Release != nil {
				a2.Release()
			}
			// The kernel's replay refutes or fails internally: either
			// replaces the first.
			res.Replay, res.found, res.big = n2, tight, big2
			break
		}
		return res
	}
	res.Note = searchNote(insts, done, unsat, unknowns)
	return res
}

// attempt bounds p to in and has the kernel check it, through the
// solver's API check (which keeps the model), counting its resources
// toward the budget.
func (s *search) attempt(p *logic.Problem, in instance, rlimit uint64) (proposal.Answer, *boundedProblem, error) {
	bp, err := bound(p, in)
	if err != nil {
		return proposal.Answer{}, nil, err
	}
	ans, err := s.o.Check(bp.problem, rlimit)
	s.rlimit += ans.RLimit
	return ans, bp, err
}

// searchNote summarizes a search that found nothing, for people. It says
// which universes have no counterexample only when every instance up to
// them was checked unsat.
func searchNote(insts []instance, done, unsat int, unknowns []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "bounded search: no counterexample in %d of %d instances", unsat, len(insts))
	if done == len(insts) && unsat == len(insts) {
		fmt.Fprintf(&b, " (none with %s)", maxInstance(insts))
	}
	switch {
	case len(unknowns) == 1:
		fmt.Fprintf(&b, "; unknown in %s", unknowns[0])
	case len(unknowns) > 1:
		fmt.Fprintf(&b, "; unknown in %d, the first %s", len(unknowns), unknowns[0])
	}
	if done < len(insts) {
		why := "search budget spent"
		if done == maxInstances {
			why = fmt.Sprintf("at most %d instances are checked", maxInstances)
		}
		fmt.Fprintf(&b, "; %d not checked (%s)", len(insts)-done, why)
	}
	return b.String()
}

// maxInstance renders the largest sizes of the schedule: "L<=3, T<=3, V<=3".
func maxInstance(insts []instance) string {
	last := insts[len(insts)-1]
	names := make([]string, 0, len(last.Sizes))
	for s := range last.Sizes {
		names = append(names, s)
	}
	sort.Strings(names)
	for i, s := range names {
		names[i] = fmt.Sprintf("%s<=%d", s, last.Sizes[s])
	}
	return strings.Join(names, ", ")
}
