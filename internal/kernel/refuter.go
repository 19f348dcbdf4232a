// This file implements the kernel's side of the bounded counterexample
// search (package refute, through the contract of package proposal): the
// oracle that checks the problems the refuter proposes and replays the
// models it finds, and the minimization of a large counterexample.

package kernel

import (
	"fmt"
	"time"

	"ladder/internal/logic"
	"ladder/internal/proposal"
)

// costs are the resources of a query's checks, summed.
type costs struct {
	rlimit  uint64
	seconds float64
	z3secs  float64
}

// add adds the costs of one answer.
func (c *costs) add(a answer) {
	c.rlimit += a.rlimit
	c.seconds += seconds(a.seconds)
	c.z3secs += seconds(a.z3secs)
}

// limits returns the limits of one search.
func (c SearchConfig) limits() proposal.Limits {
	return proposal.Limits{MaxSize: c.MaxSize, RLimit: c.RLimit, Budget: c.Budget}
}

// large reports whether a counterexample of extent ext is worth
// minimizing; nil (not measured) is not.
func large(ext proposal.Extent) bool { return ext != nil && ext.Large() }

// oracle is the kernel's side of one search for q (proposal.Oracle): it
// checks the refuter's problems with the session's solver, counting their
// costs, and replays the models the refuter hands back through q's
// obligation, keeping every result it made. from is passed to replay: the
// extent of the counterexample a found one would replace, "" when there
// is none.
type oracle struct {
	s        *Session
	q        *Query
	deadline time.Time
	from     string
	cost     *costs
	replays  []Result
}

var _ proposal.Oracle = (*oracle)(nil)

// oracle returns the oracle of a search for q that adds its costs to cost.
func (s *Session) oracle(q *Query, deadline time.Time, from string, cost *costs) *oracle {
	return &oracle{s: s, q: q, deadline: deadline, from: from, cost: cost}
}

// Check decides p through the solver's API check (which keeps the model),
// with the resource limit rlimit and the time left.
func (o *oracle) Check(p *logic.Problem, rlimit uint64) (proposal.Answer, error) {
	cfg := o.s.k.cfg
	cfg.RLimit = rlimit
	cfg.Timeout = remaining(o.deadline)
	ans, err := o.s.s.model(p, cfg)
	o.cost.add(ans)
	if err != nil {
		if ans.release != nil {
			ans.release()
		}
		return proposal.Answer{}, err
	}
	out := proposal.Answer{Model: ans.model, RLimit: ans.rlimit, Timeout: ans.timeout, Release: ans.release}
	switch ans.status {
	case statusSat:
		out.Status = proposal.Sat
	case statusUnsat:
		out.Status = proposal.Unsat
	}
	return out, nil
}

// Replay replays m as a model of q's problem (see replay) and keeps the
// result, Refuted or an internal error, which names the bounded instance.
func (o *oracle) Replay(m logic.Model, instance string) (int, bool) {
	r := replay(o.q, m, instance, o.from)
	if r.Internal {
		r.Reason += fmt.Sprintf(" (a model of the bounded instance %s)", instance)
	}
	o.replays = append(o.replays, r)
	return len(o.replays), r.verdict == Refuted
}

// Expired reports whether the wall-clock deadline has passed.
func (o *oracle) Expired() bool { return time.Until(o.deadline) <= 0 }

// result returns the result a search's outcome stands for: an internal
// error for a failure of the search, the kernel's own result of the replay
// it names, or nil when it names neither. Only results this oracle made
// are returned: a refuter cannot make a verdict.
func (o *oracle) result(f proposal.Found) *Result {
	switch {
	case f.Err != nil && f.Instance != "":
		r := internalResult(o.q.fingerprint, "bounded search in the instance %s: %v", f.Instance, f.Err)
		return &r
	case f.Err != nil:
		r := internalResult(o.q.fingerprint, "bounded search: %v", f.Err)
		return &r
	case f.Replay >= 1 && f.Replay <= len(o.replays):
		r := o.replays[f.Replay-1]
		return &r
	}
	return nil
}

// minimize looks for a counterexample to q smaller than r, the replayed
// counterexample of extent ext that the solver found: the refuter searches
// the instances no larger than ext, smallest first, under the search's
// resource limits and budget, and stops at the first model, which the
// kernel replays. That counterexample is a model of q's problem replayed
// by the obligation's Replay exactly like r, so it is equally a genuine
// counterexample; it replaces r when the refuter reports it smaller: fewer
// elements in all, or as many and smaller integer constants. Its text
// ends with the bounded instance and ext. Otherwise r is kept. The costs
// are added to cost.
//
// A bounded model that does not replay is a bug in ladder, and its
// internal result is returned, as in the search itself. When the wall
// clock cut the search short, the result returned is marked Timeout and
// so not cached: another run might have found another counterexample.
func (s *Session) minimize(q *Query, r Result, ext proposal.Extent, deadline time.Time, cost *costs) Result {
	o := s.oracle(q, deadline, ext.String(), cost)
	f := s.k.refuter.Search(q.problem, ext, s.k.cfg.Search.limits(), o)
	out := r
	switch fr := o.result(f); {
	case fr == nil:
	case fr.Internal:
		out = *fr
	case fr.verdict == Refuted && f.Smaller:
		out = *fr
	}
	out.Timeout = out.Timeout || f.Timeout
	return out
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
