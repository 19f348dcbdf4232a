// This file implements Prover.Minimize: which of the invariants an
// obligation assumes its proof needs, as a strategy to paste.

package driver

import (
	"context"
	"fmt"
	"strings"

	"ladder/internal/kernel"
	"ladder/internal/logic"
	"ladder/internal/refute"
	"ladder/simulation"
)

// Minimal is what Minimize found for one obligation.
type Minimal struct {
	ID string
	// Keep are the assumed invariants the proof keeps, named as a
	// strategy's assume: list names them (P for the concrete automaton's
	// invariant P, a.P for the abstract one's); Dropped the others.
	Keep, Dropped []string
	// Before and After are the resource units of the kernel's check with
	// every assumed invariant and with Keep.
	Before, After uint64
	// Strategy is the strategy entry to paste, and Where where it goes.
	Strategy, Where string
	// Err says why nothing was found: the obligation is not proved with
	// every invariant it assumes, or assumes none.
	Err string
}

// Minimize finds, for each obligation the configuration's Only selects,
// a small set of the invariants it assumes with which the kernel still
// proves it: it checks the obligation with every invariant (within the
// configured resource limit), then drops the invariants one at a time, in
// the order the obligation assumes them, and keeps a drop when the kernel
// proves the rest within twice the units of the first check (at least a
// million), with neither slices nor the bounded search. Every check is the
// kernel's, on a problem with a subset of the obligation's hypotheses;
// nothing it finds is a verdict or is cached. The strategy it prints is
// the user's to paste, and the proof is then checked as any other.
func (p *Prover) Minimize(ctx context.Context, in *Input) ([]Minimal, error) {
	jobs, err := p.selectJobs(in)
	if err != nil {
		return nil, err
	}
	out := make([]Minimal, len(jobs))
	err = runPool(ctx, p.cfg.Jobs, len(jobs),
		func() (struct{}, error) { return struct{}{}, nil }, func(struct{}) {},
		func(_ struct{}, i int) { out[i] = p.minimize(ctx, jobs[i].ob) })
	return out, err
}

// checker checks subsets of an obligation's hypotheses in the kernel under
// the prover's configuration with the given resource limit, without
// slices or the bounded search.
type checker struct {
	k *kernel.Kernel
	s *kernel.Session
}

func (p *Prover) checker(rlimit uint64) (*checker, error) {
	cfg := p.cfg.Kernel
	cfg.NoSlices, cfg.Search = true, kernel.SearchConfig{Off: true}
	if rlimit > 0 {
		cfg.RLimit = rlimit
	}
	k, err := kernel.New(cfg, p.cfg.UnknownDir, refute.New())
	if err != nil {
		return nil, err
	}
	s, err := k.NewSession()
	if err != nil {
		return nil, err
	}
	return &checker{k, s}, nil
}

// check reports whether the kernel proves ob without the hypotheses of
// the invariants drop names, and the units it used.
func (c *checker) check(ctx context.Context, ob *simulation.Obligation, drop map[string]bool, concrete, abstract string) (uint64, bool) {
	sub := &logic.Problem{Decls: ob.Problem.Decls}
	for _, a := range ob.Problem.Assertions {
		if name, ok := assumedName(a.Name, concrete, abstract); !ok || !drop[name] {
			sub.Assertions = append(sub.Assertions, a)
		}
	}
	q, err := c.k.Prepare(&kernel.Obligation{ID: ob.ID, Pos: ob.Pos, Problem: sub})
	if err != nil {
		return 0, false
	}
	r := c.s.CheckContext(ctx, q)
	return r.RLimitUsed, r.Verdict().Discharged()
}

// minimize is Minimize for one obligation.
func (p *Prover) minimize(ctx context.Context, ob *simulation.Obligation) Minimal {
	m := Minimal{ID: ob.ID}
	if err := ob.Encode(); err != nil {
		m.Err = err.Error()
		return m
	}
	concrete, abstract, _ := strings.Cut(ob.Edge, "→")
	var names []string
	seen := map[string]bool{}
	for _, a := range ob.Problem.Assertions {
		if name, ok := assumedName(a.Name, concrete, abstract); ok && !seen[name] {
			names, seen[name] = append(names, name), true
		}
	}
	if len(names) == 0 {
		m.Err = "the obligation assumes no invariant"
		return m
	}
	full, err := p.checker(0)
	if err != nil {
		m.Err = err.Error()
		return m
	}
	drop := map[string]bool{}
	units, ok := full.check(ctx, ob, drop, concrete, abstract)
	full.s.Close()
	if !ok {
		m.Err = "not proved with every invariant it assumes"
		return m
	}
	m.Before, m.After = units, units
	trial, err := p.checker(max(2*units, 1_000_000))
	if err != nil {
		m.Err = err.Error()
		return m
	}
	defer trial.s.Close()
	for _, name := range names {
		if ctx.Err() != nil {
			break
		}
		drop[name] = true
		if u, ok := trial.check(ctx, ob, drop, concrete, abstract); ok {
			m.After = u
			m.Dropped = append(m.Dropped, name)
			continue
		}
		delete(drop, name)
		m.Keep = append(m.Keep, name)
	}
	m.Strategy, m.Where = strategyEntry(ob, m.Keep)
	return m
}

// assumedName returns the name of the invariant an "assume A.P(s)"
// hypothesis assumes, as a strategy's assume: list writes it: P for an
// invariant of the concrete automaton (or of the automaton of an invariant
// obligation), a.P for one of the abstract automaton.
func assumedName(hyp, concrete, abstract string) (string, bool) {
	rest, ok := strings.CutPrefix(hyp, "assume ")
	if !ok {
		return "", false
	}
	if i := strings.LastIndexByte(rest, '('); i > 0 {
		rest = rest[:i]
	}
	auto, name, ok := strings.Cut(rest, ".")
	if !ok {
		return "", false
	}
	if auto == abstract && auto != concrete {
		return "a." + name, true
	}
	return name, true
}

// strategyEntry returns the strategy entry that assumes keep for ob, and
// where it goes in the proof file.
func strategyEntry(ob *simulation.Obligation, keep []string) (entry, where string) {
	parts := strings.Split(ob.ID, " › ")
	clause := parts[len(parts)-1]
	list := "[" + strings.Join(keep, ", ") + "]"
	switch {
	case ob.Edge == "":
		return fmt.Sprintf("- assume: %s\n  actions: [%s]", list, ob.Action), "the invariant's strategy: list"
	case ob.Case != "":
		return fmt.Sprintf("- assume: %s\n  clauses: [%s]", list, clause),
			fmt.Sprintf("the strategy: list of %s of steps › %s", ob.Case, ob.Action)
	}
	actions := ""
	if ob.Action != "" {
		actions = fmt.Sprintf("\n  actions: [%s]", ob.Action)
	}
	return fmt.Sprintf("- assume: %s%s\n  clauses: [%s]", list, actions, clause), "the proof's strategy: list"
}
