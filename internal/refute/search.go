// This file implements the bounded counterexample search: the checks of an
// obligation's problem restricted to small universes (bound.go) that the
// kernel runs when the first check of the problem is unknown.

package kernel

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"ladder/internal/logic"
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

// searchResult is the outcome of a bounded search.
type searchResult struct {
	result  *Result  // a refutation, or an internal failure; nil if neither
	note    string   // what was searched, for an Unknown's reason
	found   instance // the instance of a refutation
	big     int64    // the largest integer constant of a refutation
	rlimit  uint64
	seconds float64
	z3secs  float64
	timeout bool // the wall clock ran out
}

// search looks for a counterexample to q in the instances of schedule
// (see run).
func (s *Session) search(q *Query, deadline time.Time) searchResult {
	insts, err := s.instances(q)
	if err != nil {
		r := internalResult(q.fingerprint, "bounded search: %v", err)
		return searchResult{result: &r}
	}
	if len(insts) == 0 {
		return searchResult{note: "no bounded search: the problem has no parameter sort"}
	}
	return s.run(q, insts, deadline, "")
}

// instances returns the schedule of the search over the parameter sorts
// of q's problem, nil when it has none.
func (s *Session) instances(q *Query) ([]instance, error) {
	sig, err := q.problem.Signature()
	if err != nil {
		return nil, err
	}
	var sorts []string
	for _, st := range sig.Sorts {
		sorts = append(sorts, st.Name())
	}
	return schedule(sorts, s.k.cfg.Search.MaxSize), nil
}

// run looks for a counterexample to q in the instances insts, in order,
// each checked with the search's resource limit, until one is sat, the
// budget is spent, maxInstances were checked or the deadline passes. A sat
// instance is replayed like any model (the models of a bounded problem
// are models of q's problem, bound.go); it is then checked again with the
// integer constants bounded (minimizeInts), and the first of those that
// is sat and replays gives the counterexample instead, being smaller.
// from is passed to replay: the extent of the counterexample a found one
// replaces, "" when there is none.
func (s *Session) run(q *Query, insts []instance, deadline time.Time, from string) searchResult {
	cfg := s.k.cfg.Search
	var sr searchResult
	var unsat int
	var unknowns []string
	done := 0
	for _, in := range insts {
		if sr.rlimit >= cfg.Budget || done == maxInstances {
			break
		}
		if time.Until(deadline) <= 0 {
			sr.timeout = true
			break
		}
		ans, bp, err := s.attempt(q, in, cfg.RLimit, deadline, &sr)
		done++
		if err != nil {
			r := internalResult(q.fingerprint, "bounded search in the instance %s: %v", in, err)
			sr.result = &r
			return sr
		}
		switch ans.status {
		case statusUnsat:
			unsat++
			continue
		case statusUnknown:
			unknowns = append(unknowns, in.String())
			if ans.timeout {
				sr.timeout = true
			}
			continue
		}
		// sat: replay, then look for a smaller model
		big := largestInt(bp.problem, ans.model)
		r := replayBounded(q, bp, ans.model, in, from)
		if ans.release != nil {
			ans.release()
		}
		sr.found, sr.big = in, big
		for _, n := range minimizeInts {
			if r.verdict != Refuted || int64(n) >= big || sr.rlimit >= cfg.Budget || time.Until(deadline) <= 0 {
				break
			}
			tight := instance{Sizes: in.Sizes, Split: in.Split, Ints: n}
			// A failure here only loses a smaller counterexample: the
			// same instance without the bound gave one.
			a2, bp2, err := s.attempt(q, tight, cfg.RLimit/minimizeShare, deadline, &sr)
			if err != nil || a2.status != statusSat {
				if a2.release != nil {
					a2.release()
				}
				continue
			}
			big2 := largestInt(bp2.problem, a2.model)
			r2 := replayBounded(q, bp2, a2.model, tight, from)
			if a2.release != nil {
				a2.release()
			}
			if r2.verdict == Refuted || r2.Internal {
				r = r2
				sr.found, sr.big = tight, big2
				break
			}
		}
		sr.result = &r
		return sr
	}
	sr.note = searchNote(insts, done, unsat, unknowns)
	return sr
}

// attempt checks q's problem bounded to in, through the solver's API
// check (which keeps the model), adding its costs to sr.
func (s *Session) attempt(q *Query, in instance, rlimit uint64, deadline time.Time, sr *searchResult) (answer, *boundedProblem, error) {
	bp, err := bound(q.problem, in)
	if err != nil {
		return answer{}, nil, err
	}
	cfg := s.k.cfg
	cfg.RLimit = rlimit
	cfg.Timeout = remaining(deadline)
	ans, err := s.s.model(bp.problem, cfg)
	sr.rlimit += ans.rlimit
	sr.seconds += seconds(ans.seconds)
	sr.z3secs += seconds(ans.z3secs)
	if err != nil && ans.release != nil {
		ans.release()
	}
	return ans, bp, err
}

// replayBounded replays a model of the bounded problem bp as a model of
// q's problem and, on success, records the instance in the
// counterexample.
func replayBounded(q *Query, bp *boundedProblem, m logic.Model, in instance, from string) Result {
	r := replay(q, boundedModel{tr: bp.tr, m: m}, in.String(), from)
	if r.Internal {
		r.Reason += fmt.Sprintf(" (a model of the bounded instance %s)", in)
	}
	return r
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

// remaining returns the wall-clock time left before deadline, in whole
// milliseconds, at least one.
func remaining(deadline time.Time) time.Duration {
	d := time.Until(deadline).Truncate(time.Millisecond)
	if d < time.Millisecond {
		d = time.Millisecond
	}
	return d
}
