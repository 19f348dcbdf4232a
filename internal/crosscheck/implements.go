// This file implements Implements: bounded trace inclusion by a subset
// construction over the abstract automaton's reachable states.

package crosscheck

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"ladder/internal/explore"
	"ladder/internal/safeio"
	"ladder/ioa"
	"ladder/ioa/eval"
)

// TraceResult is the outcome of Implements. Its exported fields marshal
// to JSON.
type TraceResult struct {
	Concrete string `json:"concrete"` // C
	Abstract string `json:"abstract"` // A
	Instance string `json:"instance"`
	// Pairs counts the pairs (c, S) explored: a reachable state of C and
	// the set of states A can be in after the same events.
	Pairs          int    `json:"pairs"`
	ConcreteStates int    `json:"concreteStates"` // distinct states of C among the pairs
	AbstractStates int    `json:"abstractStates"` // distinct states of A met
	AbstractSets   int    `json:"abstractSets"`   // distinct sets S
	Transitions    int64  `json:"transitions"`    // steps of C followed
	MaxDepth       int    `json:"maxDepth"`       // the longest execution of C explored, the failing step's included
	Complete       bool   `json:"complete"`       // every trace of C in the instance was checked
	Limit          string `json:"limit,omitempty"`
	// Exhausted is set when a bound of Config.Budget (memory, time, an
	// interrupt) stopped the search; Limit then says which.
	Exhausted       bool    `json:"exhausted,omitempty"`
	PeakMemoryBytes int64   `json:"peakMemoryBytes"` // the most memory in use at a sample
	Elapsed         float64 `json:"elapsedSeconds"`
	// Symmetry describes the symmetry reduction, if Config.Symmetry asked
	// for one: Pairs then counts orbits of pairs (representatives).
	Symmetry *SymmetryInfo `json:"symmetry,omitempty"`
	// DeadConcrete and DeadAbstract list the registers of C and of A that
	// Config.ReduceDead reset where they are dead (empty lists when it
	// found none; absent without it): the states counted are then states
	// up to dead entries.
	DeadConcrete []explore.DeadRegister `json:"deadRegistersConcrete,omitempty"`
	DeadAbstract []explore.DeadRegister `json:"deadRegistersAbstract,omitempty"`
	// Failure is a shortest execution of C whose trace A cannot produce.
	Failure *TraceFailure `json:"failure,omitempty"`
}

// TraceFailure is a trace of C that A cannot produce: every event but the
// last is a trace of A, and no state A can be in after them (with internal
// steps) shows the last one.
type TraceFailure struct {
	Events []string       `json:"events"` // the events of Trace
	Trace  *explore.Trace `json:"trace"`  // a shortest execution of C showing them
	// Candidates is the number of states A can be in before the last
	// event (after internal steps).
	Candidates int `json:"candidates"`
	// Offered lists the events A can show from those states (sorted, at
	// most 20).
	Offered []string `json:"offered"`
}

// Implements checks that every trace of c in the instance of cfg (up to
// cfg.MaxStates pairs and cfg.MaxDepth steps) is a trace of a in the same
// instance. The two automata must share their events (one interface). A
// trace a cannot produce is returned in TraceResult.Failure with a nil
// error.
func Implements(c, a *ioa.Automaton, cfg Config) (*TraceResult, error) {
	if c == nil || a == nil {
		return nil, errors.New("no automaton")
	}
	if c.Interface != nil && a.Interface != nil && c.Interface != a.Interface {
		return nil, fmt.Errorf("%s and %s do not share their interface (%s and %s)", c.Name, a.Name, c.Interface.Name, a.Interface.Name)
	}
	start := time.Now()
	each, all, err := instances([]*ioa.Automaton{c, a}, cfg.Instance)
	if err != nil {
		return nil, err
	}
	mC, err := explore.Machine(c, explore.Config{Instance: each[0]})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	mA, err := explore.Machine(a, explore.Config{Instance: each[1]})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.Name, err)
	}
	res := &TraceResult{Concrete: c.Name, Abstract: a.Name, Instance: all.String()}
	// The abstract states are bounded by the memory budget, which the
	// search meters, unless a limit is given.
	limit := cfg.MaxAbstractStates
	if limit <= 0 {
		limit = math.MaxInt32
	}
	abs := newAbsSide(mA, limit)
	var gC *eval.Symmetry
	if len(cfg.Symmetry) > 0 {
		if res.Symmetry, gC, abs.g, err = traceSymmetry(c, a, mC, mA, cfg); err != nil {
			return nil, err
		}
		abs.perm = map[uint64]int32{}
	}
	var dC *eval.Dead
	if cfg.ReduceDead {
		var regs []ioa.Register
		if dC, regs, err = deadOf(mC); err != nil {
			return nil, err
		}
		res.DeadConcrete = explore.DescribeDead(regs)
		if abs.d, regs, err = deadOf(mA); err != nil {
			return nil, err
		}
		res.DeadAbstract = explore.DescribeDead(regs)
		if gC != nil {
			gC, abs.g = gC.WithDead(dC), abs.g.WithDead(abs.d)
		}
	}
	err = implements(res, mC, gC, dC, abs, cfg)
	if errors.Is(err, errAbstractLimit) {
		res.Limit = fmt.Sprintf("abstract state limit %d", abs.limit)
		err = nil
	}
	if err != nil {
		return nil, err
	}
	if res.Failure == nil { // a failure's counts are those before its trace was rebuilt
		res.AbstractStates = abs.st.Len()
		res.AbstractSets = abs.sets.Len()
	} else if res.Failure.Trace != nil {
		// the failing step leads to no pair, which the search did not store
		res.MaxDepth = max(res.MaxDepth, res.Failure.Trace.Len())
	}
	res.Complete = res.Failure == nil && res.Limit == ""
	res.Elapsed = time.Since(start).Seconds()
	return res, nil
}

// deadOf compiles the dead-register reduction of m's automaton.
func deadOf(m *eval.Machine) (*eval.Dead, []ioa.Register, error) {
	regs := ioa.DeadRegisters(m.A)
	d, err := m.NewDead(regs)
	return d, regs, err
}

// traceSymmetry checks that both automata treat the elements of
// cfg.Symmetry's sorts alike where trace inclusion evaluates them (their
// actions and views; explore's check, run through a one-state exploration
// that also says why an element is fixed) and compiles the group for each,
// the same permutations in the same order. A permutation π then maps the
// executions of C to executions of C, and the traces of A to traces of A,
// with the events' arguments permuted by π alike: the set of the states A
// can be in after π(trace) is π(S) when S is the set after the trace. A
// pair (c, S) is stored as its least image (π c, π S) under the group:
// first the least encoding of π c, then, among the permutations giving it,
// the image of S with the least set id (ids are given to sets by content,
// so this is a function of the orbit).
func traceSymmetry(c, a *ioa.Automaton, mC, mA *eval.Machine, cfg Config) (*SymmetryInfo, *eval.Symmetry, *eval.Symmetry, error) {
	sorts := cfg.Symmetry
	why := map[string]string{}
	for i, x := range []*ioa.Automaton{c, a} {
		// The subset construction checks no Nat condition: a Nat variable
		// is no lower bound to the symmetry check. Each automaton is
		// explored in its own instance (a bound may name a constant the
		// other does not declare).
		inst := []*eval.Instance{mC.Inst, mA.Inst}[i]
		r, err := explore.Explore(x, explore.Config{Instance: inst, Symmetry: sorts, Invariants: []string{}, MaxStates: 1, NatUnchecked: true})
		if err != nil {
			return nil, nil, nil, err
		}
		if r.Symmetry != nil {
			for _, ss := range r.Symmetry.Sorts {
				if _, ok := why[ss.Sort]; !ok && len(ss.Fixed) > 0 {
					why[ss.Sort] = ss.Why
				}
			}
		}
	}
	gC, gA, info, err := compileGroup(mC, mA, sorts, why, c.Pos, mC.Inst.Sizes)
	if err != nil {
		return nil, nil, nil, err
	}
	return info, gC, gA, nil
}

// WriteText writes the result and, on failure, the trace A cannot produce.
func (r *TraceResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	inst := r.Instance
	if inst == "" {
		inst = "no parameters"
	}
	ew.printf("traces of %s ⊆ traces of %s? in %s\n", r.Concrete, r.Abstract, inst)
	ew.printf("explored %d pairs (%d states of %s, %d sets of %d states of %s), %d steps, depth %d, %.3fs\n",
		r.Pairs, r.ConcreteStates, r.Concrete, r.AbstractSets, r.AbstractStates, r.Abstract, r.Transitions, r.MaxDepth, r.Elapsed)
	if r.Symmetry != nil {
		ew.printf("symmetry: %s; the pairs counted are orbit representatives\n", r.Symmetry)
		for _, s := range r.Symmetry.Sorts {
			if s.Why != "" {
				ew.printf("  %s fixed: %s\n", strings.Join(s.Fixed, ", "), s.Why)
			}
		}
	}
	if r.DeadConcrete != nil || r.DeadAbstract != nil {
		names := func(regs []explore.DeadRegister) string {
			if len(regs) == 0 {
				return "none"
			}
			return explore.DeadNames(regs)
		}
		ew.printf("dead registers reset where dead: %s of %s, %s of %s; the states counted are states up to dead entries\n",
			names(r.DeadConcrete), r.Concrete, names(r.DeadAbstract), r.Abstract)
	}
	switch f := r.Failure; {
	case f != nil:
		if len(f.Events) == 0 {
			ew.printf("FAILED: %s has no start state, so not even the empty trace is a trace of it\n", r.Abstract)
			return ew.err
		}
		ew.printf("FAILED: %s cannot produce this trace of %s (%d events; the last one is impossible):\n", r.Abstract, r.Concrete, len(f.Events))
		ew.printf("  %s\n", strings.Join(f.Events, ", "))
		ew.printf("after the other events %s can be in %d state(s), which offer: %s\n", r.Abstract, f.Candidates, strings.Join(f.Offered, ", "))
		ew.printf("a shortest execution of %s with this trace:\n", r.Concrete)
		writeTrace(ew, f.Trace, nil)
	case r.Exhausted:
		ew.printf("INCOMPLETE: stopped at the %s after %d pairs, depth %d, %.1fs, peak memory %s; every trace checked is a trace of %s\n",
			r.Limit, r.Pairs, r.MaxDepth, r.Elapsed, safeio.FormatBytes(r.PeakMemoryBytes), r.Abstract)
	case r.Limit != "":
		ew.printf("INCOMPLETE: stopped at the %s; every trace checked is a trace of %s\n", r.Limit, r.Abstract)
	default:
		ew.printf("OK: every trace of %s in the instance is a trace of %s\n", r.Concrete, r.Abstract)
	}
	return ew.err
}
