// This file implements deciding one job: printing its obligation, looking
// its verdict up, and checking it with a worker's kernel session.

package driver

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"ladder/internal/cache"
	"ladder/internal/kernel"
	"ladder/simulation"
)

// prepare prints one job's obligation, computes its key and reuses its
// cached verdict when the cache holds one.
func (p *Prover) prepare(j *job, solve bool) {
	t := time.Now()
	defer func() { j.secs += time.Since(t).Seconds() }()
	p.built.Add(1)
	if err := j.ob.Encode(); err != nil {
		j.encErr = err
		return
	}
	kob := KernelObligation(j.ob)
	j.priorCore = p.keys.priorCore(j.ob.ID)
	if c := j.priorCore; c != nil && len(c.Names) > 0 {
		// the assertions of the last text's core, a further slice: its
		// proof proves this text when their text is unchanged. The
		// slices are worked out when first asked for (a verdict found
		// by its key needs none), and j.coreSlice with them.
		orig, prob := kob.Slices, j.ob.Problem
		kob.Slices = sync.OnceValue(func() [][]int {
			idx := assertionsNamed(prob, c.Names)
			var base [][]int
			if orig != nil {
				base = orig()
			}
			sl := withSlice(base, idx, len(prob.Assertions))
			j.coreSlice = slices.IndexFunc(sl, func(s []int) bool { return slices.Equal(s, idx) }) + 1
			return sl
		})
	}
	j.slices = kob.Slices
	q, err := p.kernel.Prepare(kob)
	if err != nil {
		j.res, j.done = kernel.Failed(err), true
		return
	}
	j.query, j.key, j.qfp = q, cache.KeyOf(q.Text(), p.solver), q.Fingerprint()
	if r, ok := p.kernel.Trivial(q); ok {
		j.res, j.done = r, true
		return
	}
	if r, ok := p.lookup(q, j.key); ok {
		j.res, j.cached, j.done = r, true, true
		if r.Slice > 0 {
			j.slice = p.keys.sliceOf(j.key)
		}
		j.core = p.keys.coreOf(j.key) // the same text: the same core
		j.keepPriorCore()
	} else if r, sr, ok := p.lookupSlice(q); ok {
		j.res, j.cached, j.done, j.bySlice, j.slice = r, true, true, true, sr
		j.keepCore()
		j.keepPriorCore()
	} else if solve {
		// read by Check, which the query's obligation is for: the
		// prior core's assertions first (a small problem, and the proof
		// that keeps the core), else the check that proved the last text
		kob.First = p.priorAttempt(j.ob.ID)
		if c := j.priorCore; c != nil && len(c.Names) > 0 {
			kob.Slices() // sets j.coreSlice (without a prior core, the kernel asks when it needs them)
		}
		if a, ok := kernel.PriorAttempt(j.priorCore.record()); ok && j.coreSlice > 0 {
			kob.First = &kernel.Attempt{Slice: j.coreSlice, Solver: a.Solver, RLimit: a.RLimit}
		} else if j.coreSlice > 0 {
			// a core without a proof of its own (one the last proof's
			// tracked check reported: usedCore): the plain solver's
			// first check
			kob.First = &kernel.Attempt{Slice: j.coreSlice, Solver: kernel.SolverPlain}
		}
		j.first = kob.First
		if kob.First == nil {
			j.kob = kob // Check begins as this run's siblings suggest (check)
		}
	}
}

// decide prepares j and, when solving, checks it with w's session unless
// it was decided on the way (cached, trivial), then dumps it under
// --dump-smt.
func (p *Prover) decide(ctx context.Context, w *worker, j *job, solve bool, prog *progress) {
	p.prepare(j, solve)
	if solve {
		p.solve(ctx, w, j, prog)
	}
}

// solve checks the prepared job j with w's session unless it was decided
// on the way (cached, trivial), then dumps it under --dump-smt.
func (p *Prover) solve(ctx context.Context, w *worker, j *job, prog *progress) {
	if j.query == nil || j.err != nil {
		return
	}
	if !j.done {
		s, err := w.session()
		if err != nil {
			j.err = err
			return
		}
		prog.begin(j.ob.ID)
		p.check(ctx, s, j)
	}
	if p.cfg.DumpSMT != "" {
		p.dump(j)
	}
}

// dump writes j's query into the --dump-smt directory, for the solver that
// proved it when it is proved (kernel.Query.ScriptFor).
func (p *Prover) dump(j *job) {
	if _, err := j.query.WriteScriptFor(p.cfg.DumpSMT, j.res); err != nil {
		j.err = fmt.Errorf("--dump-smt: %v", err)
	}
}

// check checks a prepared job with the session. A check that ctx
// interrupts leaves the job undecided.
func (p *Prover) check(ctx context.Context, s *kernel.Session, j *job) {
	t := time.Now()
	defer func() { j.secs += time.Since(t).Seconds() }()
	if j.kob != nil {
		j.kob.First = p.siblings.hint(j.ob)
	}
	r := s.CheckContext(ctx, j.query)
	if ctx.Err() != nil {
		return // interrupted: the answer may be the interrupt's
	}
	if j.kob != nil {
		p.siblings.note(j.ob, r)
	}
	if sq, sr, ok := r.TakeSliceProof(); ok {
		if data, err := sr.Encode(); err == nil {
			j.slice = &unitResult{Key: cache.KeyOf(sq.Text(), p.solver), Query: sq.Fingerprint(), Record: data}
		}
	}
	j.res, j.done = r, true
	j.keepCore()
	if j.core != nil || r.Verdict() != kernel.Proved || p.cfg.NoCores || p.cfg.Kernel.NoSlices || j.usedCore() {
		return
	}
	switch {
	case j.first == nil || p.cfg.NoCoreSearch:
	case p.cfg.DeferCoreSearch:
		j.deferCore = true // for FindCores, its query kept until then
	default:
		p.findCore(ctx, s, j) // proved again after an edit, without a core
	}
}

// KernelObligation is what the kernel needs of a generated obligation: its
// name, position, problem and replay.
func KernelObligation(o *simulation.Obligation) *kernel.Obligation {
	p := o.Problem
	return &kernel.Obligation{ID: o.ID, Pos: o.Pos, Problem: p, Replay: o.Replay,
		Slices: func() [][]int { return relevantSlices(p, o.AssumeChosen) }}
}
