// This file implements unsat cores: the indices of the assertions a
// tracked check's refutation used (Result.Used), and Session.Core, which
// finds and proves the core of a query proved otherwise.

package kernel

import (
	"context"
	"time"

	"ladder/internal/logic"
)

// coreOf returns core, the indices of a tracked check's unsat core among n
// assertions, when it is a strictly increasing list of valid indices; nil
// otherwise.
func coreOf(core []int, n int) []int {
	for i, x := range core {
		if x < 0 || x >= n || i > 0 && x <= core[i-1] {
			return nil
		}
	}
	return core
}

// corer is a solver that can report an unsat core (z3Solver).
type corer interface {
	// core checks p, whose canonical text is text, with every assertion
	// tracked, and on unsat also returns the indices of the assertions
	// in the solver's unsat core.
	core(p *logic.Problem, text string, cfg Config) (answer, []int, error)
}

// Core is what Session.Core found: a proper subset of a proved query's
// assertions and its own proof.
type Core struct {
	// Query is the problem with the query's declarations and the core's
	// assertions, with its own text and fingerprint.
	Query *Query
	// Indices lists the core's assertions, increasing, as indices into
	// the proved query's.
	Indices []int
	// Proof is Query's own Proved result, for the caller to cache under
	// Query's text: a later text of the obligation whose proposed slices
	// include this subset is proved from it by Kernel.AdmitSlice.
	Proof Result
}

// Core looks for a smaller proof of q, which r, the result of Check in
// this session, proved: it checks the problem that proved q (q, or the
// slice r names) again in the same solver with each assertion tracked by
// an assumption literal, takes the assertions in Z3's unsat core, and
// checks that subset of q's assertions as a problem of its own, in the
// plain solver with the first limit, then in the default solver. Each
// check has a budget of twice the units r used, but no more than the
// slice limit and no less than the first limit; a proof that used more
// than twice the slice limit gets none. The core is a hint, like a
// slice: only the subset's own unsat answer proves it. ok is false when
// there is no such proof: no core, a core that is not a proper subset, or
// a subset the checks do not prove.
func (s *Session) Core(q *Query, r Result) (c Core, ok bool) {
	return s.CoreContext(context.Background(), q, r)
}

// CoreContext is Core that stops when ctx is done (and then finds
// nothing).
func (s *Session) CoreContext(ctx context.Context, q *Query, r Result) (c Core, ok bool) {
	if sc, ok := s.s.(interface{ setContext(context.Context) }); ok {
		sc.setContext(ctx)
		defer sc.setContext(context.Background())
	}
	cs, can := s.s.(corer)
	if !can || r.verdict != Proved || r.fingerprint != q.fingerprint || r.Solver == "" {
		return Core{}, false
	}
	if r.RLimitUsed > 2*s.k.cfg.SliceRLimit {
		// the tracked check would not fit in its budget
		return Core{}, false
	}
	base, proved := []int(nil), q
	if r.Slice > 0 {
		idx, err := q.sliceIndices()
		if err != nil || r.Slice > len(idx) {
			return Core{}, false
		}
		sq, err := q.Slice(r.Slice)
		if err != nil || sq == nil {
			return Core{}, false
		}
		base, proved = idx[r.Slice-1], sq
	}
	cfg := s.k.cfg
	deadline := time.Now().Add(cfg.Timeout)
	cfg.plain, cfg.proofOnly = r.Solver == SolverPlain, true
	// at most twice what the proof used and the slice limit: a core is
	// worth no more than a slice's check
	budget := max(cfg.FirstRLimit, min(2*r.RLimitUsed, cfg.SliceRLimit))
	cfg.RLimit = min(cfg.RLimit, budget)
	cfg.Timeout = remaining(deadline)
	ans, local, err := cs.core(proved.problem, proved.text, cfg)
	if ans.release != nil {
		ans.release()
	}
	var cost costs // the tracked check's and the subset's: Proof's costs
	cost.add(ans)
	local = coreOf(local, len(proved.problem.Assertions))
	if err != nil || ans.status != statusUnsat || len(local) == 0 {
		return Core{}, false
	}
	idx := local
	if base != nil {
		idx = make([]int, len(local))
		for k, i := range local {
			idx[k] = base[i] // base is increasing: so is idx
		}
	}
	if len(idx) >= len(q.problem.Assertions) {
		return Core{}, false
	}
	cq, err := q.subset(idx, q.ob.ID+" (core)")
	if err != nil {
		return Core{}, false
	}
	for _, plain := range []bool{true, false} {
		cfg := s.k.cfg
		cfg.RLimit, cfg.plain, cfg.proofOnly = cfg.FirstRLimit, plain, true
		if !plain {
			if budget <= cfg.FirstRLimit {
				break
			}
			cfg.RLimit = budget
		}
		if pr, _ := s.decide(cq, cfg, deadline, &cost); pr.verdict == Proved {
			pr.RLimitUsed, pr.SolverSeconds, pr.Z3Seconds = cost.rlimit, seconds(cost.seconds), seconds(cost.z3secs)
			return Core{Query: cq, Indices: idx, Proof: pr}, true
		}
	}
	return Core{}, false
}
