// This file implements the entry point of the proof cross-check, its
// configuration and result, and the finite instance shared by the two
// automata of an edge.

package crosscheck

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// AbstractMode says which abstract post-states the backward cross-check
// tries at each concrete step (besides the totality witness τ(cpost),
// which is always tried).
type AbstractMode int

// The abstract modes.
const (
	// AbstractAuto is AbstractAll when the abstract automaton has finitely
	// many states in the instance, at most Config.MaxAbstractStates, and
	// AbstractReachable otherwise.
	AbstractAuto AbstractMode = iota
	// AbstractAll tries every state of A in the instance (reachable or
	// not) that the relation relates to cpost.
	AbstractAll
	// AbstractReachable tries every reachable state of A in the instance
	// (up to Config.MaxAbstractStates, or the memory budget) that the
	// relation relates to cpost.
	AbstractReachable
	// AbstractWitness tries the totality witness τ(cpost) only.
	AbstractWitness
)

var abstractModeNames = [...]string{"auto", "all", "reachable", "witness"}

// String returns "auto", "all", "reachable" or "witness".
func (m AbstractMode) String() string {
	if m >= 0 && int(m) < len(abstractModeNames) {
		return abstractModeNames[m]
	}
	return "auto"
}

// ParseAbstractMode returns the mode spelled s.
func ParseAbstractMode(s string) (AbstractMode, error) {
	if s == "" {
		return AbstractAuto, nil
	}
	for i, n := range abstractModeNames {
		if n == s {
			return AbstractMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown abstract mode %q (want auto, all, reachable or witness)", s)
}

// DefaultMaxAbstractStates is the default of Config.MaxAbstractStates.
const DefaultMaxAbstractStates = 1 << 20

// Config configures Check and Implements.
type Config struct {
	// Instance gives the sizes of parameter sorts and the values of
	// constants, as explore.ParseBounds returns it. An entry may name a
	// parameter sort or an Int, Nat or parameter-sort constant of either
	// automaton; a constant both automata declare gets the one value.
	Instance *eval.Instance
	// MaxStates stops the search after this many explored states (pairs,
	// for forward simulations and trace inclusion); 0: no limit.
	MaxStates int
	// MaxDepth stops the search at this depth (concrete steps); 0: no limit.
	MaxDepth int
	// Workers is the number of goroutines the explorer computes successors
	// on (see explore.Config.Workers); the result does not depend on it.
	Workers int
	// Abstract selects the abstract post-states of the backward check.
	Abstract AbstractMode
	// MaxAbstractStates bounds the abstract states the backward check
	// enumerates (0: DefaultMaxAbstractStates) or explores, and those trace
	// inclusion explores (for both, 0: no limit but the memory budget,
	// which the check meters). Reaching it makes the result incomplete.
	MaxAbstractStates int
	// Budget bounds the memory and time of the search (see
	// explore.Budget); reaching a bound makes the result incomplete, with
	// Exhausted set.
	Budget explore.Budget
	// Progress, if set, is called about once per second during the search.
	Progress func(explore.Progress)
	// Symmetry names parameter sorts whose elements both automata and the
	// proof treat alike: the search stores one node per orbit under the
	// permutations of their elements, the same permutation applied to both
	// states of a pair (symmetry.go); trace inclusion (Implements) stores
	// one pair (c, S) per orbit alike (traceSymmetry).
	Symmetry []string
	// ReduceDead makes trace inclusion (Implements) store the states of
	// both automata with their dead registers reset (ioa.DeadRegisters,
	// explore.Config.ReduceDead): a state and its reduction are
	// bisimilar, so they have the same traces. A forward simulation's
	// check stores its pairs with the dead registers of the abstract
	// state reset, checking as it goes that the proof never reads a
	// dead entry (dead.go); where it does, the edge is checked again
	// without the reduction, after a note. Other edges store their
	// states whole, after a note.
	ReduceDead bool
	// Probes are Bool expressions over c and a, sort-checked in the
	// proof's relation scope, that a forward check evaluates at every pair
	// it reaches without requiring them: Result.ProbesFalse lists those
	// false at some pair (or that cannot be evaluated at one). Relation
	// repair (package infer) keeps the candidate clauses that hold at
	// every reachable pair this way.
	Probes []expr.Expr
	// deadWhole are the registers a forward check with ReduceDead stores
	// whole because a read condition of theirs was found false (Check).
	deadWhole []wholeRegister

	// evalRelation makes a forward or backward check evaluate its
	// relation at every step, as if no pair were known related
	// (search.related, candidates.each): tests and benchmarks compare the
	// two.
	evalRelation bool
	// progressEvery, if set, is the least time between two progress
	// reports instead of a second: tests see every phase.
	progressEvery time.Duration
}

func (c *Config) maxAbstract() int {
	if c.MaxAbstractStates > 0 {
		return c.MaxAbstractStates
	}
	return DefaultMaxAbstractStates
}

// Result is the outcome of Check. Its exported fields marshal to JSON.
type Result struct {
	Proof    string `json:"proof"`    // the proof's name
	Edge     string `json:"edge"`     // "C→A", as obligation IDs begin
	Kind     string `json:"kind"`     // refinement, simple-refinement, forward, backward or history
	Instance string `json:"instance"` // the instance, as "L=1,T=2,V=2"
	// Explored says what was searched: the concrete automaton's states,
	// pairs of a concrete and an abstract state (forward), or the abstract
	// automaton's states (history).
	Explored    string `json:"explored"`
	States      int    `json:"states"`      // states (or pairs) found
	Transitions int64  `json:"transitions"` // steps checked
	// Checks counts the step checks: a step times the abstract states it
	// was checked from (backward: every candidate post-state).
	Checks int64 `json:"checks"`
	// MaxDepth is the largest depth reached: the steps of the longest
	// shortest execution to a node found, or to the post-state of the
	// failing step, so that a failure's depth is the number of steps of
	// its execution.
	MaxDepth int `json:"maxDepth"`
	// AbstractStates is, for the backward check, the number of abstract
	// states the candidates come from (all states of A in the instance,
	// or its reachable ones; 0 with AbstractWitness).
	AbstractStates int    `json:"abstractStates,omitempty"`
	Complete       bool   `json:"complete"`        // every reachable state (pair) was checked
	Limit          string `json:"limit,omitempty"` // why the search stopped early, if it did
	// Exhausted is set when a bound of Config.Budget (memory, time, an
	// interrupt) stopped the search; Limit then says which.
	Exhausted       bool  `json:"exhausted,omitempty"`
	PeakMemoryBytes int64 `json:"peakMemoryBytes"` // the most memory in use at a sample
	// Symmetry describes the symmetry reduction, if Config.Symmetry asked
	// for one: States then counts orbits (representatives).
	Symmetry *SymmetryInfo `json:"symmetry,omitempty"`
	// DeadAbstract lists the registers of the abstract automaton that
	// Config.ReduceDead reset in a forward check's pairs (empty when
	// none could be; absent without the reduction): States then counts
	// pairs up to dead entries. DeadRefused lists the registers stored
	// whole because the proof reads them otherwise than entry by entry,
	// each with why.
	DeadAbstract []explore.DeadRegister `json:"deadRegistersAbstract,omitempty"`
	DeadRefused  []string               `json:"deadRegistersStoredWhole,omitempty"`
	// Cases lists, per concrete action and case, how many checked steps
	// took the case: a case taken 0 times was not tested.
	Cases []CaseCount `json:"cases"`
	Notes []string    `json:"notes"` // what the check could not cover
	// ProbesFalse are the indices of the Config.Probes found false at
	// some pair, in increasing order.
	ProbesFalse []int    `json:"probesFalse,omitempty"`
	Elapsed     float64  `json:"elapsedSeconds"`
	Failure     *Failure `json:"failure,omitempty"` // the first failure found, if any
}

// CaseCount is how often one case of a step correspondence was taken.
type CaseCount struct {
	Action string `json:"action"`
	Case   int    `json:"case"` // 1-based
	Of     int    `json:"of"`   // the number of cases of the action
	Taken  int64  `json:"taken"`
}

// Failure is a failed check: the obligation it refutes, a shortest
// execution to it and the states of the failing step.
type Failure struct {
	// Obligation is the ID of the Z3 obligation the failure refutes, as
	// `ladder prove` names it (docs/proofs.md, "Obligation names").
	Obligation string   `json:"obligation"`
	Clause     string   `json:"clause"`           // e.g. "pre(DoRead)", "post(txns)", "relation(R1)", "event", "cases", "start", "totality › R1", "guard", "commute", "assume TMS2.P"
	Action     string   `json:"action,omitempty"` // the concrete action (history: the action of both), if any
	Case       int      `json:"case,omitempty"`   // the 1-based case, if one was selected
	Cases      int      `json:"cases,omitempty"`  // the number of cases of the action
	Message    string   `json:"message"`          // what fails, in the language's notation
	Details    []string `json:"details,omitempty"`
	// Step is the failing step, e.g. "DoRead(T#0, L#0, 1)", if any.
	Step string `json:"step,omitempty"`
	// Trace is a shortest execution of the explored automaton (the
	// concrete one; the abstract one for history mappings) that reaches
	// the failing state; when the failing step is a step of that
	// automaton it is the trace's last step.
	Trace *explore.Trace `json:"trace"`
	// Abstract are the abstract steps matched to each step of Trace, for
	// forward simulations (where the abstract state depends on the path).
	Abstract []MatchedStep `json:"abstract,omitempty"`
	// States are the states of the failing check, in the order they were
	// computed: "a = f(c)", "u1", "f(cpost)", "apre", ...
	States []NamedState `json:"states"`
	// Steps are the abstract steps of the selected case, as called.
	Steps []string `json:"abstractSteps,omitempty"`
}

// MatchedStep is the abstract side of one concrete step of a forward trace.
type MatchedStep struct {
	Case  int      `json:"case"`  // the case taken (0 for the start state)
	Steps []string `json:"steps"` // the abstract steps, as called
	// State is the abstract state after them.
	State NamedState `json:"state"`
}

// NamedState is a state of a failing check: its name, automaton and
// variables, or only the variables that differ from the state it was
// computed from (Base).
type NamedState struct {
	Name      string        `json:"name"`
	Automaton string        `json:"automaton"`
	Base      string        `json:"base,omitempty"` // the state it was computed from, when Vars lists only changes
	Vars      []explore.Var `json:"vars"`
	Value     eval.State    `json:"-"`
}

// errFailed is returned by a visitor to stop the search after a failure.
var errFailed = errors.New("cross-check failed")

// Check cross-checks the edge p in the finite instance of cfg: it explores
// the reachable states and checks the edge's obligations at every one of
// them and every enabled step (see the package documentation). A failure
// is returned in Result.Failure with a nil error; errors are for edges
// that cannot be evaluated in the instance (missing sizes, expressions
// over infinite sorts, run-time overflow).
func Check(p *ioa.Proof, cfg Config) (res *Result, err error) {
	if p == nil || p.Concrete == nil || p.Abstract == nil {
		return nil, errors.New("no proof, or a proof that did not load")
	}
	if err := complete(p); err != nil {
		return nil, err
	}
	// A read condition found false makes its register stored whole, and
	// the edge is checked again (dead.go), within what is left of the
	// time budget.
	var notes []string
	began, timeout := time.Now(), cfg.Budget.Timeout
	for {
		if timeout > 0 {
			cfg.Budget.Timeout = max((timeout - time.Since(began)).Round(time.Millisecond), time.Millisecond)
		}
		res, err = check(p, cfg)
		var dre *deadReadError
		if !cfg.ReduceDead || !errors.As(err, &dre) {
			break
		}
		again := "with " + dre.reg + " stored whole"
		if dre.reg == "" {
			cfg.ReduceDead, again = false, "with every pair stored whole"
		}
		notes = append(notes, "dead-register reduction: "+dre.msg+"; the edge was checked again "+again)
		cfg.deadWhole = append(cfg.deadWhole[:len(cfg.deadWhole):len(cfg.deadWhole)], wholeRegister{dre.reg, dre.why})
	}
	if res != nil {
		res.Notes = append(res.Notes, notes...)
	}
	return res, err
}

// check is Check of a complete proof.
func check(p *ioa.Proof, cfg Config) (res *Result, err error) {
	start := time.Now()
	x, err := newChecker(p, cfg)
	if err != nil {
		return nil, err
	}
	switch {
	case p.Kind.IsRefinement():
		x.kind = (*checker).refinement
	case p.Kind == ioa.ProofForward:
		x.kind = (*checker).forward
	case p.Kind == ioa.ProofBackward:
		x.kind = (*checker).backward
	case p.Kind == ioa.ProofHistory:
		x.kind = (*checker).history
	default:
		return nil, fmt.Errorf("proof %s has no kind", p.Name)
	}
	err = x.kind(x)
	if err != nil && !errors.Is(err, errFailed) {
		return nil, err
	}
	if f := x.failure; f != nil {
		if f.States == nil {
			f.States = []NamedState{}
		}
		if f.Details == nil {
			f.Details = []string{}
		}
	}
	x.res.Failure = x.failure
	if f := x.failure; f != nil && f.Trace != nil {
		// the failing step reached a state one step deeper than the node
		// it was checked from, which the search did not store
		x.res.MaxDepth = max(x.res.MaxDepth, f.Trace.Len())
	}
	if x.res.Limit == "" && x.failure == nil {
		x.res.Limit = x.absLimit
	}
	x.res.Complete = x.failure == nil && x.res.Limit == ""
	x.res.Elapsed = time.Since(start).Seconds()
	x.res.Cases = x.caseCounts()
	for i, f := range x.probeFalse {
		if f {
			x.res.ProbesFalse = append(x.res.ProbesFalse, i)
		}
	}
	return x.res, nil
}

// complete reports an error unless p has the sections its kind needs (a
// proof that loaded with errors may lack them).
func complete(p *ioa.Proof) error {
	var missing string
	switch {
	case p.Kind.IsRefinement() && p.Mapping == nil:
		missing = "mapping"
	case p.Kind == ioa.ProofForward && p.Start == nil:
		missing = "start"
	case p.Kind == ioa.ProofBackward && p.Total == nil:
		missing = "total"
	case p.Kind == ioa.ProofHistory && p.Mapping == nil:
		missing = "mapping"
	case p.Kind == ioa.ProofHistory && p.Start == nil:
		missing = "start"
	}
	if missing != "" {
		return fmt.Errorf("proof %s has no %s section", p.Name, missing)
	}
	for _, sm := range p.Steps {
		if sm == nil || sm.Action == nil || len(sm.Cases) == 0 {
			return fmt.Errorf("proof %s has an incomplete step correspondence", p.Name)
		}
	}
	return nil
}

// instances returns the instance of each automaton (its own parameter
// sorts; every constant of either) and the instance of proof expressions
// (every sort and constant), from the bounds in inst.
func instances(autos []*ioa.Automaton, inst *eval.Instance) (each []*eval.Instance, all *eval.Instance, err error) {
	all, err = explore.ResolveInstance(autos, inst)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range autos {
		one := &eval.Instance{Sizes: map[string]int{}, Consts: all.Consts, MaxEnum: all.MaxEnum}
		for _, s := range a.Sorts {
			if s != nil && s.Kind == expr.KParam {
				if n, ok := all.Sizes[s.Name]; ok {
					one.Sizes[s.Name] = n
				}
			}
		}
		each = append(each, one)
	}
	return each, all, nil
}

// join joins the components of an obligation ID as package simulation
// does.
func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " › ")
}

// edgeName is the name of an edge in obligation IDs, as package
// simulation names it (simulation.EdgeName).
func edgeName(p *ioa.Proof) string { return p.Concrete.Name + "→" + p.Abstract.Name }
