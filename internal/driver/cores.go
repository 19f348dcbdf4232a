// This file implements the core searches a run leaves for later
// (Config.DeferCoreSearch): ladder watch shows a run's verdicts first and
// looks for the cores of its re-proved obligations while it waits for
// the next edit.

package driver

import (
	"context"
	"time"

	"ladder/internal/theorems"
)

// deferredCores is what a run left for FindCores: the jobs whose core is
// to be looked for (their queries kept), and the run's input, decided
// jobs and derivation, with which the cores found are recorded as the run
// recorded its results.
type deferredCores struct {
	in   *Input
	done []*job
	d    *theorems.Derivation
	jobs []*job
}

// deferCores keeps, for FindCores, the jobs of the run over in whose core
// search was deferred; it releases the queries a previous run kept.
func (p *Prover) deferCores(in *Input, done []*job, d *theorems.Derivation) {
	p.dropDeferred()
	var jobs []*job
	for _, j := range done {
		if j.deferCore {
			jobs = append(jobs, j)
		}
	}
	if len(jobs) > 0 {
		p.deferred = &deferredCores{in: in, done: done, d: d, jobs: jobs}
	}
}

// dropDeferred releases the queries kept for FindCores, which will not
// look for their cores.
func (p *Prover) dropDeferred() {
	if p.deferred != nil {
		p.deferred.release()
	}
	p.deferred = nil
}

// release releases the queries of the jobs left, whose core search is
// over or will not be made, once.
func (dc *deferredCores) release() {
	for _, j := range dc.jobs {
		j.deferCore = false
		j.release()
	}
	dc.jobs = nil
}

// Deferred returns the number of obligations whose core search the last
// run left for FindCores.
func (p *Prover) Deferred() int {
	if p.deferred == nil {
		return 0
	}
	return len(p.deferred.jobs)
}

// FindCores looks for the cores of the obligations the last run proved
// again without one and left for later (Config.DeferCoreSearch), as that
// run would have (findCore), and records them in the cache with the run's
// results: a further edit outside a core then costs no check of its
// obligation. It returns the number of searches that ended (a core found,
// or none to be found for that text). When ctx is done it stops, records
// what ended, and drops the rest: the next run of an edit proves them
// again and looks again. A Prover runs one method at a time: FindCores
// must return before the next run starts.
func (p *Prover) FindCores(ctx context.Context) (int, error) {
	dc := p.deferred
	if dc == nil {
		return 0, nil
	}
	p.deferred = nil
	defer dc.release() // on every path (it releases once)
	s, err := p.kernel.NewSession()
	if err != nil {
		return 0, err
	}
	ended := 0
	for _, j := range dc.jobs {
		if ctx.Err() != nil {
			break
		}
		p.findCore(ctx, s, j)
		if j.core != nil {
			ended++
		}
	}
	s.Close()
	if ended == 0 || p.cache == nil {
		return ended, nil
	}
	dc.release() // their used names now their cores'
	dc.in.used = usedOf(dc.done)
	p.recordResults(dc.in, dc.done, dc.d, time.Now())
	return ended, p.cache.Save()
}
