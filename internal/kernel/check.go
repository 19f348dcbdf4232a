// This file implements the kernel proper: preparing queries, and checking
// them on a per-worker session.

package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"ladder/internal/counterexample"
	"ladder/internal/logic"
	"ladder/internal/proposal"
	"ladder/internal/smt"
	"ladder/internal/source"
)

// DefaultUnknownDir is where unknown queries are dumped unless the kernel
// is given another directory: .ladder/unknown/ under the working directory.
var DefaultUnknownDir = filepath.Join(".ladder", "unknown")

// status is a solver answer.
type status int

const (
	statusUnknown status = iota
	statusSat
	statusUnsat
)

// answer is what the solver says about one problem.
type answer struct {
	status  status
	model   logic.Model // sat: valid until release is called
	reason  string      // unknown: Z3's reason_unknown
	timeout bool        // unknown: stopped by the wall-clock limit or an interrupt
	rlimit  uint64      // resource units used
	seconds float64     // wall-clock time of the solver's check alone
	z3secs  float64     // wall-clock time of every Z3 call for the problem
	release func()      // frees the model; may be nil
	core    []int       // unsat of a tracked check: the indices of the assertions in Z3's core
}

// solver is one worker's access to the SMT solver: package smt over a fresh
// Z3 context per check in production, a scripted fake in the kernel's tests.
// Both checks use cfg's Seed, RLimit and Timeout only.
type solver interface {
	// check decides p, whose canonical text is text, as the kernel's
	// verdicts require (z3Solver: from that text, exactly as hashed), with
	// a model on sat.
	check(p *logic.Problem, text string, cfg Config) (answer, error)
	// model decides p in one check that keeps the model on sat
	// (z3Solver: through the API). The refuter's problems are checked
	// with it: its answers are never a proof, so they need not come from
	// the text.
	model(p *logic.Problem, cfg Config) (answer, error)
	close()
}

// Kernel checks and admits obligations under one Config. It is safe for
// concurrent use; each worker checks through its own Session.
type Kernel struct {
	cfg        Config
	identity   Identity
	unknownDir string
	newSolver  func() (solver, error)
	refuter    proposal.Refuter // the bounded search; nil when Config.Search.Off
}

// Identity returns the solver identity every query is checked under.
func (k *Kernel) Identity() Identity { return k.identity }

// newKernel validates cfg and returns a kernel using the given solver
// factory, identity and refuter (which may be nil only when the search is
// off).
func newKernel(cfg Config, unknownDir, name, version string, newSolver func() (solver, error), r proposal.Refuter) (*Kernel, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if r == nil && !cfg.Search.Off {
		return nil, errors.New("the bounded search needs a refuter (refute.New), or Config.Search.Off")
	}
	if unknownDir == "" {
		unknownDir = DefaultUnknownDir
	}
	return &Kernel{
		cfg:        cfg,
		identity:   Identity{Name: name, Version: version, Params: cfg.Params()},
		unknownDir: unknownDir,
		newSolver:  newSolver,
		refuter:    r,
	}, nil
}

// Obligation is what the kernel decides: one problem, whose unsat answer
// proves the obligation, and the replay of a model of it by the reference
// evaluator, whose counterexample refutes it. Package simulation generates
// them; the kernel needs nothing else of it.
type Obligation struct {
	ID      string     // the stable name, printed in dumps and reports
	Pos     source.Pos // the YAML it is blamed on
	Problem *logic.Problem
	// Replay decodes a model of Problem and re-checks it with the
	// evaluator: a counterexample, or an error when the model does not
	// replay (then the verdict is an internal error, never Refuted).
	Replay func(logic.Model) (*counterexample.Counterexample, error)
	// Slices, when not nil, returns proper subsets of Problem.Assertions,
	// each as increasing indices, to try in this order; Check calls it at
	// most once, when its first check did not prove the obligation, and
	// tries each subset alone: unsat of a subset is unsat of the whole
	// (weakening), while sat of a subset says nothing. Which subsets are
	// hints from outside the kernel; they cannot make a false obligation
	// proved.
	Slices func() [][]int
	// First, when not nil, is the check Check tries before all others:
	// the one that proved an earlier text of the obligation (PriorAttempt
	// of its record), so that an obligation re-checked after an edit does
	// not pay again for the cheaper checks that failed on it before. A
	// hint from outside the kernel like Slices: only its unsat counts,
	// and when it does not prove the obligation Check goes on as without
	// it.
	First *Attempt
}

// Attempt names one check of Check's procedure: the problem's n-th slice
// (Slice = n > 0) or the whole problem (Slice = 0), in Z3's plain solver
// (Solver = SolverPlain) or its default solver (SolverDefault), with a
// resource limit no larger than that step's (Session.first).
type Attempt struct {
	Slice  int
	Solver string
	// RLimit is what the proof it repeats used (its record's RLimitUsed,
	// summed over every check of that run); 0 means the step's limit.
	RLimit uint64
}

// PriorAttempt returns the check that proved the query of data, a Proved
// record of this kernel's format for any query: a hint for
// Obligation.First. ok is false for any other record.
func PriorAttempt(data []byte) (a Attempt, ok bool) {
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil || rec.Kernel != Format || rec.Verdict != "proved" || rec.Slice < 0 {
		return Attempt{}, false
	}
	if rec.Solver != SolverPlain && rec.Solver != SolverDefault {
		return Attempt{}, false
	}
	return Attempt{Slice: rec.Slice, Solver: rec.Solver, RLimit: rec.RLimitUsed}, true
}

// Prepare prints ob's problem canonically and returns the query to check or
// admit. The query keeps its own copy of the problem's declaration and
// assertion lists (terms are immutable), so the problem checked is the one
// printed even if ob is modified afterwards. An error means the problem is
// ill-formed, a bug in the generator (report it with Failed).
func (k *Kernel) Prepare(ob *Obligation) (*Query, error) {
	if ob == nil || ob.Problem == nil {
		return nil, errors.New("obligation without a problem")
	}
	p := &logic.Problem{
		Decls:      append([]*logic.Term(nil), ob.Problem.Decls...),
		Assertions: append([]logic.Named(nil), ob.Problem.Assertions...),
	}
	text, memo, err := p.TextMemo()
	if err != nil {
		return nil, fmt.Errorf("obligation %s: ill-formed problem: %v", ob.ID, err)
	}
	q := &Query{ob: ob, problem: p, text: text, memo: memo, identity: k.identity, cfg: k.cfg}
	q.fingerprint = fingerprintOf(k.identity, text)
	return q, nil
}

// sliceIndices calls the obligation's Slices once and returns them (nil
// when it has none), or an error when one of them does not name a proper
// subset of the query's assertions in increasing order.
func (q *Query) sliceIndices() ([][]int, error) {
	if q.ob.Slices == nil {
		return nil, nil
	}
	q.sliceOnce.Do(func() {
		for _, sl := range q.ob.Slices() {
			q.slices = append(q.slices, append([]int(nil), sl...))
		}
	})
	n := len(q.problem.Assertions)
	for _, sl := range q.slices {
		for i, a := range sl {
			if a < 0 || a >= n || i > 0 && a <= sl[i-1] || len(sl) >= n {
				return nil, fmt.Errorf("the slice %v is not a proper subset of its %d assertions", sl, n)
			}
		}
	}
	return q.slices, nil
}

// Slice returns the query of q's n-th slice (from 1; Obligation.Slices):
// the problem with q's declarations and the assertions the slice lists,
// its canonical text, and its own fingerprint, with no slices of its own.
// Its Proved result proves q by weakening (Session.Check, Kernel.AdmitSlice).
// It returns nil when the obligation proposes no n-th slice.
func (q *Query) Slice(n int) (*Query, error) {
	idx, err := q.sliceIndices()
	if err != nil || n < 1 || n > len(idx) {
		return nil, err
	}
	q.sliceMu.Lock()
	defer q.sliceMu.Unlock()
	if q.sliced == nil {
		q.sliced = make([]*Query, len(idx))
	}
	if q.sliced[n-1] != nil {
		return q.sliced[n-1], nil
	}
	sq, err := q.subset(idx[n-1], fmt.Sprintf("%s (slice %d)", q.ob.ID, n))
	if err != nil {
		return nil, err
	}
	q.sliced[n-1] = sq
	return sq, nil
}

// subset returns the query, named id, of the problem with q's
// declarations and the assertions idx lists (valid indices, increasing),
// its canonical text and its own fingerprint, with no slices of its own.
func (q *Query) subset(idx []int, id string) (*Query, error) {
	p := &logic.Problem{Decls: q.problem.Decls}
	for _, i := range idx {
		p.Assertions = append(p.Assertions, q.problem.Assertions[i])
	}
	text, err := p.TextFrom(q.memo) // the text Text prints, without printing q's assertions again
	if err != nil {
		return nil, err
	}
	sq := &Query{ob: &Obligation{ID: id, Pos: q.ob.Pos, Problem: p},
		problem: p, text: text, identity: q.identity, cfg: q.cfg}
	sq.fingerprint = fingerprintOf(sq.identity, text)
	return sq, nil
}

// Trivial returns the Trivial result for q when one of its problem's
// assertions is the literal false (logic.Term.IsFalse): a conjunction with
// a false conjunct has no model, so the problem is unsat and the
// obligation holds whatever the rest of it says. The result's Reason names
// the assertion. No solver is involved; the rule is this syntactic check
// alone, and the simplifications that produce the literal (package logic's
// constructors) are in the kernel's trusted closure.
func (k *Kernel) Trivial(q *Query) (Result, bool) {
	if q.identity != k.identity {
		return Result{}, false
	}
	for _, a := range q.problem.Assertions {
		if a.Term != nil && a.Term.IsFalse() {
			return Result{verdict: Trivial, fingerprint: q.fingerprint,
				Reason: fmt.Sprintf("the assertion %q is the constant false", a.Name)}, true
		}
	}
	return Result{}, false
}

// Session is one worker's connection to the solver; in production every
// Check runs in a fresh Z3 context owned by the session while it runs. A
// Session is not safe for concurrent use; close it when done.
type Session struct {
	k *Kernel
	s solver
}

// NewSession returns a new session.
func (k *Kernel) NewSession() (*Session, error) {
	s, err := k.newSolver()
	if err != nil {
		return nil, err
	}
	return &Session{k: k, s: s}, nil
}

// Close releases the session's solver resources.
func (s *Session) Close() {
	if s.s != nil {
		s.s.close()
		s.s = nil
	}
}

// CheckContext is Check that stops when ctx is done: the solver is
// interrupted, and the result (Unknown, or an internal error) must then be
// discarded by the caller, not recorded; Proved still requires an unsat
// answer and Refuted a replayed model.
func (s *Session) CheckContext(ctx context.Context, q *Query) Result {
	if c, ok := s.s.(interface{ setContext(context.Context) }); ok {
		c.setContext(ctx)
		defer c.setContext(context.Background())
	}
	return s.Check(q)
}

// Check decides q (see the package documentation). It never returns Proved
// unless the solver answered unsat for q's problem under q's configuration,
// and returns Trivial, without calling the solver, exactly when
// Kernel.Trivial does.
func (s *Session) Check(q *Query) Result {
	if q.identity != s.k.identity {
		return internalResult("", "query prepared under another configuration")
	}
	if r, ok := s.k.Trivial(q); ok {
		return r
	}
	cfg := s.k.cfg
	deadline := time.Now().Add(cfg.Timeout)
	var cost costs // of every check, summed

	// 0. The check that proved an earlier text of the obligation, when
	// the caller knows it (Obligation.First). Only unsat counts.
	if q.ob.First != nil {
		if r := s.first(q, *q.ob.First, deadline, &cost); ends(r) {
			return s.finish(q, r, cost)
		}
	}

	// 1. The problem in Z3's plain SMT solver, with the first resource
	// limit: most obligations are proved there for a fraction of what
	// the default solver's preprocessing costs. Only unsat counts: the
	// plain solver's models (huge sequence lengths, say) are left to the
	// default solver, so that every counterexample comes from step 2.
	// Before it (1a), the obligation's first slice, likewise: a smaller
	// problem, and one whose proof an edit outside the slice keeps. The
	// untracked repetition of step 1 waits for step 2s (shortRound).
	slices := !cfg.NoSlices && q.ob.Slices != nil
	staged := !cfg.Search.Off && cfg.PreSearchRLimit < cfg.RLimit
	early := cfg
	if staged {
		early.RLimit = cfg.PreSearchRLimit
	}
	short := cfg.ShortRLimit > cfg.FirstRLimit && cfg.ShortRLimit < early.RLimit
	var sat satSlices // the slices known to be satisfiable
	if slices {
		sr := s.slice(q, 1, cfg.FirstRLimit, true, deadline, &cost)
		if ends(sr) {
			return s.finish(q, sr, cost)
		}
		sat.note(1, sr)
	}
	r := s.plain(q, cfg.FirstRLimit, true, !short, deadline, &cost)
	if ends(r) {
		return s.finish(q, r, cost)
	}

	// 2s. The short round: the slices, then the whole problem, in Z3's
	// default solver with the short limit, so that a proof the default
	// solver finds quickly does not wait for slices that fail at the
	// larger limits of step 2a. Slices and the whole are decided as in
	// steps 2a and 2b. Then the untracked check of step 1 that waited.
	if short {
		var done bool
		if r, done = s.shortRound(q, r, slices, &sat, deadline, &cost); done {
			return s.finish(q, r, cost)
		}
	}

	// 2a. Each of the obligation's slices in Z3's default solver with the
	// slice limit. Only unsat counts: a subset of the assertions that is
	// unsat makes the whole unsat.
	if slices && cfg.SliceRLimit > cfg.FirstRLimit {
		if sr := s.slices(q, cfg.SliceRLimit, &sat, deadline, &cost); ends(sr) {
			return s.finish(q, sr, cost)
		}
	}

	// 2b. The problem again, in Z3's default solver with the pre-search
	// limit: a true obligation reaches it without paying for the bounded
	// search first, and a false one that Z3 leaves unknown does not pay
	// the full limit before the search.
	r, done := s.whole(q, early, deadline, &cost)
	if done {
		return s.finish(q, r, cost)
	}

	// 3. The bounded search, for a counterexample the solver did not
	// find.
	var note string
	if !cfg.Search.Off {
		o := s.oracle(q, deadline, "", &cost)
		f := s.k.refuter.Search(q.problem, nil, s.k.cfg.Search.limits(), o)
		if fr := o.result(f); fr != nil {
			return s.finish(q, *fr, cost)
		}
		note = f.Note
		r.Timeout = r.Timeout || f.Timeout
	}

	// 3b. No counterexample: the whole problem in the default solver
	// with the full limit, when step 2b had less.
	if staged && !r.Timeout {
		full, done := s.whole(q, cfg, deadline, &cost)
		if done {
			return s.finish(q, full, cost)
		}
		r = full
	}
	if note != "" {
		r.Reason += "; " + note
	}

	// 4. No counterexample: the plain solver again, with the retry limit.
	// Z3's default solver gives up on some true obligations after a
	// change that does not change their meaning (reordering a
	// conjunction), which the plain solver proves within a few million
	// units. Only unsat counts.
	if !r.Timeout && cfg.RetryRLimit > cfg.FirstRLimit {
		rr := s.plain(q, cfg.RetryRLimit, false, false, deadline, &cost)
		if rr.verdict == Proved || rr.Internal {
			return s.finish(q, rr, cost)
		}
		r.Timeout = r.Timeout || rr.Timeout
	}
	return s.finish(q, r, cost)
}

// whole checks q's whole problem in Z3's default solver under cfg (steps
// 2b and 3b of Check) and minimizes a large counterexample; done is false
// when the result is Unknown and not an internal error, so that Check goes
// on.
func (s *Session) whole(q *Query, cfg Config, deadline time.Time, cost *costs) (r Result, done bool) {
	r, ext := s.decide(q, cfg, deadline, cost)
	if r.verdict == Refuted && !cfg.Search.Off && !cfg.Search.NoMinimize && large(ext) {
		r = s.minimize(q, r, ext, deadline, cost)
	}
	return r, r.verdict != Unknown || r.Internal
}

// first is step 0 of Check: the attempt a, with the limit of the step
// that makes that check (the first or retry limit for the plain solver,
// the slice limit for a slice in the default solver, the full limit for
// the whole problem in the default solver), but no more than four times
// what the proof it repeats used, and no less than the first limit: an
// edit that makes the obligation harder, or false, costs at most that
// much more before the usual procedure. Only unsat counts; an attempt
// naming a slice the query does not have, or made with slices off, is
// not tried.
func (s *Session) first(q *Query, a Attempt, deadline time.Time, cost *costs) Result {
	cfg := s.k.cfg
	none := Result{verdict: Unknown, fingerprint: q.fingerprint}
	switch {
	case a.Solver != SolverPlain && a.Solver != SolverDefault || a.Slice < 0:
		return none
	case a.Slice > 0:
		if cfg.NoSlices || q.ob.Slices == nil {
			return none
		}
		if idx, err := q.sliceIndices(); err != nil || a.Slice > len(idx) {
			return none // an improper slice is reported by the steps that follow
		}
	}
	plain := a.Solver == SolverPlain
	var limit uint64
	switch {
	case a.Slice > 0 && plain:
		limit = cfg.FirstRLimit
	case a.Slice > 0:
		limit = cfg.SliceRLimit
	case plain:
		limit = max(cfg.FirstRLimit, cfg.RetryRLimit)
	default:
		limit = cfg.RLimit
	}
	if a.RLimit > 0 {
		limit = min(limit, max(cfg.FirstRLimit, 4*a.RLimit))
	}
	if a.Slice > 0 {
		return s.slice(q, a.Slice, limit, plain, deadline, cost)
	}
	cfg.RLimit, cfg.plain, cfg.proofOnly = limit, plain, true
	cfg.track = plain && limit <= cfg.FirstRLimit
	r, _ := s.decide(q, cfg, deadline, cost)
	return r
}

// shortRound is step 2s of Check: q's slices that sat does not hold (when
// slices is set), then its whole problem, in Z3's default solver with the
// short limit, then, when step 1's tracked check r exhausted the first
// limit, its untracked repetition, which waits until now because the
// short round proves most such obligations for less than it costs. It
// returns the result that decides q and true, or step 1's result (the
// untracked one when made) and false.
func (s *Session) shortRound(q *Query, r Result, slices bool, sat *satSlices, deadline time.Time, cost *costs) (Result, bool) {
	cfg := s.k.cfg
	if slices && cfg.ShortRLimit < cfg.SliceRLimit {
		if sr := s.slices(q, cfg.ShortRLimit, sat, deadline, cost); ends(sr) {
			return sr, true
		}
	}
	sc := cfg
	sc.RLimit = cfg.ShortRLimit
	if wr, done := s.whole(q, sc, deadline, cost); done || wr.Timeout {
		return wr, true
	}
	if exhausted(r) {
		r = s.plain(q, cfg.FirstRLimit, false, false, deadline, cost)
		return r, ends(r)
	}
	return r, false
}

// plain checks q's problem in Z3's plain SMT solver with resource limit
// rlimit (steps 1 and 4 of Check): only its unsat decides; its sat is
// Unknown, since its models are not replayed. With track, and a limit of
// at most the first one, every assertion is tracked (Config.track); with
// retry too, a tracked check that exhausts the limit is repeated
// untracked.
func (s *Session) plain(q *Query, rlimit uint64, track, retry bool, deadline time.Time, cost *costs) Result {
	cfg := s.k.cfg
	cfg.RLimit, cfg.plain, cfg.proofOnly = rlimit, true, true
	cfg.track = track && rlimit <= cfg.FirstRLimit
	r, _ := s.decide(q, cfg, deadline, cost)
	if retry && cfg.track && exhausted(r) {
		// Tracking changes Z3's search: a few problems it proves within
		// the limit only untracked, and they would otherwise go on to
		// the slices' and the default solver's larger limits
		cfg.track = false
		r, _ = s.decide(q, cfg, deadline, cost)
	}
	return r
}

// reasonSatProofOnly is the reason of the Unknown that a sat answer gives
// in a check whose models are not replayed.
const reasonSatProofOnly = "sat in a check whose models are not replayed"

// reasonNoSlice is the reason of the Unknown of a slice the query does not
// have (Session.slice), for which no check is made.
const reasonNoSlice = "no slice"

// ends reports whether a check's result r ends Check: a proof, or the
// timeout or an internal error, after which no further check is made.
func ends(r Result) bool { return r.verdict == Proved || r.Internal || r.Timeout }

// exhausted reports whether r is the Unknown of a check that used up its
// resource limit: neither an answer, nor the timeout or an internal error,
// nor a slice that was not checked.
func exhausted(r Result) bool {
	return r.verdict == Unknown && !r.Timeout && !r.Internal && r.Reason != reasonSatProofOnly && r.Reason != reasonNoSlice
}

// slices is steps 2s and 2a of Check: each of q's slices that sat does not
// hold, in Z3's default solver with limit rlimit, until one is unsat;
// anything else is Unknown. A slice that answers sat is added to sat.
func (s *Session) slices(q *Query, rlimit uint64, sat *satSlices, deadline time.Time, cost *costs) Result {
	idx, err := q.sliceIndices()
	if err != nil {
		return internalResult(q.fingerprint, "slice: %v", err)
	}
	for n := 1; n <= len(idx); n++ {
		if sat.has(n) {
			continue
		}
		r := s.slice(q, n, rlimit, false, deadline, cost)
		if ends(r) {
			return r
		}
		sat.note(n, r)
	}
	return Result{verdict: Unknown, fingerprint: q.fingerprint}
}

// satSlices is the set of the slices of one query that a check answered
// sat for: a satisfiable set of assertions stays satisfiable under any
// limit and in either solver, so Check does not check them again. It only
// skips checks that cannot prove anything; it decides nothing.
type satSlices uint64

// note adds slice n to the set when r is the Unknown of a sat answer.
func (s *satSlices) note(n int, r Result) {
	if n < 64 && r.verdict == Unknown && r.Reason == reasonSatProofOnly {
		*s |= 1 << n
	}
}

// has reports whether slice n is in the set.
func (s *satSlices) has(n int) bool { return n < 64 && *s&(1<<n) != 0 }

// slice checks q's n-th slice with resource limit rlimit, in Z3's plain
// solver when plain is set (step 1a of Check), else in its default solver
// (step 2a): its unsat proves q, with Slice set to n and the slice's own
// proof kept for the cache (Result.TakeSliceProof); anything else is
// Unknown.
func (s *Session) slice(q *Query, n int, rlimit uint64, plain bool, deadline time.Time, cost *costs) Result {
	sq, err := q.Slice(n)
	if err != nil {
		return internalResult(q.fingerprint, "slice: %v", err)
	}
	if sq == nil {
		return Result{verdict: Unknown, fingerprint: q.fingerprint, Reason: reasonNoSlice}
	}
	cfg := s.k.cfg
	cfg.RLimit, cfg.plain, cfg.proofOnly = rlimit, plain, true
	cfg.track = plain && rlimit <= cfg.FirstRLimit
	sr, _ := s.decide(sq, cfg, deadline, cost)
	r := sr
	r.fingerprint, r.Used = q.fingerprint, nil
	if sr.verdict == Proved {
		r.Slice, r.sliceQuery, r.sliceResult = n, sq, &sr
		if idx, err := q.sliceIndices(); err == nil && n <= len(idx) && sr.Used != nil {
			// the slice's assertions are the query's at idx[n-1], in order
			for _, i := range sr.Used {
				r.Used = append(r.Used, idx[n-1][i])
			}
		}
	}
	return r
}

// decide checks q's problem under cfg (its RLimit; the time left before
// deadline) and turns the answer into a result, adding the costs to cost.
// On sat it also returns the extent of the model, as the refuter measures
// it (nil without a refuter).
func (s *Session) decide(q *Query, cfg Config, deadline time.Time, cost *costs) (Result, proposal.Extent) {
	limits := cfg.Limits()
	cfg.Timeout = remaining(deadline)
	var ans answer
	var err error
	if cs, ok := s.s.(corer); ok && cfg.track && !strings.Contains(q.text, smt.CorePrefix) {
		// (a constant of the text named like a tracking literal would be
		// assumed true with them: such a text is checked untracked)
		ans, ans.core, err = cs.core(q.problem, q.text, cfg)
	} else {
		ans, err = s.s.check(q.problem, q.text, cfg)
	}
	if ans.release != nil {
		defer ans.release()
	}
	cost.add(ans)
	switch {
	case err != nil:
		return internalResult(q.fingerprint, "solver error: %v", err), nil
	case ans.status == statusUnsat:
		solver := SolverDefault
		if cfg.plain {
			solver = SolverPlain
		}
		return Result{verdict: Proved, fingerprint: q.fingerprint, Solver: solver, Used: coreOf(ans.core, len(q.problem.Assertions))}, nil
	case ans.status == statusSat && cfg.proofOnly:
		return Result{verdict: Unknown, fingerprint: q.fingerprint, Reason: reasonSatProofOnly}, nil
	case ans.status == statusSat:
		r := replay(q, ans.model, "", "")
		var ext proposal.Extent
		if s.k.refuter != nil {
			ext = s.k.refuter.Measure(q.problem, ans.model)
		}
		return r, ext
	}
	reason := ans.reason
	if reason == "" {
		reason = "no reason given"
	}
	return Result{verdict: Unknown, fingerprint: q.fingerprint, Timeout: ans.timeout,
		Reason: fmt.Sprintf("z3: %s (%s)", reason, limits)}, nil
}

// finish fills in r's costs and dumps the query of an Unknown.
func (s *Session) finish(q *Query, r Result, cost costs) Result {
	r.RLimitUsed = cost.rlimit
	r.SolverSeconds = seconds(cost.seconds)
	r.Z3Seconds = seconds(cost.z3secs)
	if r.verdict == Unknown {
		r.Dump = s.k.dump(q)
	}
	return r
}

// replay asks the obligation to decode and re-check the model. Only a
// replayed counterexample is a refutation. bounded names the bounded
// instance the model comes from, "" for a model of the problem itself;
// from, when not "", the extent of the larger counterexample of the
// problem itself that the bounded one replaces (see Session.minimize).
func replay(q *Query, m logic.Model, bounded, from string) (r Result) {
	const disagree = "solver model does not replay"
	if q.ob.Replay == nil {
		return internalResult(q.fingerprint, "%s: the obligation has no replay", disagree)
	}
	defer func() {
		if p := recover(); p != nil {
			r = internalResult(q.fingerprint, "%s: replay panicked: %v", disagree, p)
		}
	}()
	cex, err := q.ob.Replay(m)
	var unshowable *counterexample.Unshowable
	switch {
	case errors.As(err, &unshowable):
		return Result{verdict: Unknown, fingerprint: q.fingerprint,
			Reason: "z3 found a model that ladder cannot replay: " + unshowable.Reason}
	case err != nil:
		return internalResult(q.fingerprint, "%s: %v", disagree, err)
	case cex == nil:
		return internalResult(q.fingerprint, "%s: no counterexample", disagree)
	}
	return Result{verdict: Refuted, fingerprint: q.fingerprint, Counterexample: render(cex, bounded, from)}
}

// render turns a replayed counterexample into its printable form: the text
// of its String method and a JSON object with its fields (states as text).
// A counterexample found by the bounded search names its instance in a last
// line "found in the bounded instance …" and in the field "bounded"; one
// that replaces a larger counterexample of the problem itself adds
// "(minimized: the solver's first counterexample had …)" to that line and
// the field "minimized_from".
func render(c *counterexample.Counterexample, bounded, from string) *Counterexample {
	type state struct {
		Name      string `json:"name"`
		Automaton string `json:"automaton"`
		Text      string `json:"text"`
		Base      string `json:"base,omitempty"` // Text lists only what differs from Base
	}
	data := struct {
		Clause    string   `json:"clause"`
		Action    string   `json:"action,omitempty"`
		Case      string   `json:"case,omitempty"`
		Goal      string   `json:"goal"`
		Step      string   `json:"step,omitempty"`
		Abstract  []string `json:"abstract,omitempty"`
		States    []state  `json:"states"`
		Constants []string `json:"constants,omitempty"`
		Instance  string   `json:"instance,omitempty"`
		Bounded   string   `json:"bounded,omitempty"`
		Minimized string   `json:"minimized_from,omitempty"`
	}{Clause: c.Clause, Action: c.Action, Case: c.Case, Goal: c.Goal, Step: c.Step,
		Abstract: c.Abstract, Constants: c.Constants, Instance: c.Instance, Bounded: bounded, Minimized: from, States: []state{}}
	for _, s := range c.States {
		st := state{Name: s.Name, Automaton: s.Automaton, Text: s.Text}
		if s.Partial {
			st.Base = s.Base
		}
		data.States = append(data.States, st)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		raw = nil // only strings: cannot happen
	}
	text := strings.TrimRight(c.String(), "\n")
	if bounded != "" {
		text += "\n  found in the bounded instance " + bounded
		if from != "" {
			text += " (minimized: the solver's first counterexample had " + from + ")"
		}
	}
	return &Counterexample{Text: text, Data: raw}
}

// dump writes q's script into the unknown directory and returns its path,
// or a note saying why it could not.
func (k *Kernel) dump(q *Query) string {
	path, err := q.WriteScript(k.unknownDir)
	if err != nil {
		return fmt.Sprintf("(not written: %v)", err)
	}
	return path
}
