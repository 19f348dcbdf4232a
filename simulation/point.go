// This file implements PointChecker: the obligations of one edge
// evaluated at concrete points of a finite instance, by the same rules
// (rules*.go) that build the solver's problems, in the concrete world
// (world.go). The bounded cross-checker (package crosscheck) asks it for
// every verdict, so that a cross-check failure is, by construction, a
// point at which the obligation of the same name has true hypotheses and
// a false goal.

package simulation

import (
	"errors"
	"fmt"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// PointPlan is one obligation of an edge, as Generate names it, without
// its solver problem.
type PointPlan struct {
	ID     string // the obligation's ID
	Clause string // one of the Clause* constants
	Name   string // the last part of the ID, e.g. "relation(R1)", "pre(Acquire)", "post(x)"
	Action string // the concrete action, or "" for a start clause
	Case   int    // 0-based case index of step obligations (0 when the action has one case)
	// Index is, for a pre clause, the 0-based index of its abstract step;
	// for a post clause, the index of its variable of the abstract
	// automaton.
	Index int
	// CaseSteps is the number of abstract steps of the case.
	CaseSteps int
	Pos       source.Pos // the YAML the obligation blames
	p         *plan
}

// PointChecker evaluates the obligations of one proof edge at concrete
// points: assignments of the rules' free states ("c", "a"; "s" for
// invariants) and parameters ("p"). It is not safe for concurrent use.
type PointChecker struct {
	proof    *ioa.Proof
	plans    []*PointPlan
	byAction map[*ioa.Action][]int // step plans of each concrete action, in Generate's order
	start    []int                 // start, totality and history start plans
	w        *conWorld
	// all is, per concrete action, the plan of its all-goals scenario,
	// and goals the index of the plan of each goal it computes.
	all   map[*ioa.Action]*plan
	goals map[goalKey]int
	sc    *sc[eval.State, eval.Value, bool] // EvalStep's scenario, reused
	// transfers are the predicates of the invariants assumed by transfer,
	// which Violated checks states with.
	transfers map[*ioa.InvariantRef]*eval.Func
}

// goalKey identifies the plan of a goal of an all-goals scenario.
type goalKey struct {
	action *ioa.Action
	rule   string
	kase   int
	j      int
	clause *ioa.Clause
}

func keyOfGoal(act *ioa.Action, id goalID) goalKey {
	k := goalKey{action: act, rule: id.rule, kase: id.kase, j: id.j, clause: id.clause}
	switch id.rule {
	case ruleStepEvent, ruleStepRel:
		k.j = 0
	case ruleStepCases:
		k.kase, k.j = 0, 0
	}
	return k
}

// NewPointChecker returns the checker of edge p in instance inst (which
// gives every parameter sort of p's automata a size). The plans are the
// obligations Generate produces for p without strategies.
func NewPointChecker(p *ioa.Proof, inst *eval.Instance) (*PointChecker, error) {
	g := &generator{owners: map[*ioa.Action]*ioa.Automaton{}}
	autos := []*ioa.Automaton{p.Concrete, p.Abstract}
	for _, refs := range [][]*ioa.InvariantRef{p.AssumeConcrete, p.AssumeAbstract} {
		for _, r := range refs {
			for _, q := range r.Chain {
				autos = append(autos, q.Concrete, q.Abstract)
			}
		}
	}
	for _, a := range autos {
		for _, act := range a.Actions {
			g.owners[act] = a
		}
	}
	g.edge(p)
	if len(g.errs) > 0 {
		return nil, g.errs
	}
	pc := &PointChecker{proof: p, byAction: map[*ioa.Action][]int{}, all: map[*ioa.Action]*plan{}, goals: map[goalKey]int{}}
	group := join(EdgeName(p), p.Kind.String())
	for i, po := range g.pending {
		o := po.o
		pp := &PointPlan{ID: o.ID, Clause: o.Clause, Action: o.Action, Pos: o.Pos, Case: po.p.kase, Index: po.p.j, p: po.p}
		if st := po.p.step; st != nil && po.p.kase < len(st.Cases) {
			pp.CaseSteps = len(st.Cases[po.p.kase].Steps)
		}
		pp.Name = lastPart(o.ID, group)
		pc.plans = append(pc.plans, pp)
		if po.p.action != nil {
			pc.byAction[po.p.action] = append(pc.byAction[po.p.action], i)
			switch po.p.rule {
			case ruleStepCases, ruleStepPre, ruleStepPost, ruleStepRel, ruleStepEvent, ruleLoopStart, ruleLoopPre, ruleLoopStep:
				if pc.all[po.p.action] == nil {
					all := *po.p
					all.kase, all.j, all.clause = 0, 0, nil
					pc.all[po.p.action] = &all
				}
				pc.goals[keyOfGoal(po.p.action, goalID{rule: po.p.rule, kase: po.p.kase, j: po.p.j, clause: po.p.clause})] = i
			}
		} else {
			pc.start = append(pc.start, i)
		}
	}
	objs := []*expr.Object{}
	for _, o := range []*expr.Object{p.C, p.A, p.CPost, p.APre} {
		if o != nil {
			objs = append(objs, o)
		}
	}
	for _, sm := range p.Steps {
		for _, c := range sm.Cases {
			for _, st := range c.Steps {
				if st.Loop != nil {
					objs = append(objs, st.Loop.State)
				}
			}
		}
	}
	pc.w = &conWorld{inst: inst, states: map[string]eval.State{}, params: map[string][]eval.Value{"p": nil},
		autos: map[*ioa.Automaton]*eval.Machine{}, owner: g.owners, concrete: p.Concrete,
		fast: newFastEval(inst, objs)}
	return pc, nil
}

// lastPart returns what follows the last " › " of id (the clause name),
// with the case when the ID names one.
func lastPart(id, group string) string {
	rest := id
	if len(id) > len(group) && id[:len(group)] == group {
		rest = id[len(group):]
	}
	const sep = " › "
	for i := len(rest) - len(sep); i >= 0; i-- {
		if rest[i:i+len(sep)] == sep {
			return rest[i+len(sep):]
		}
	}
	return rest
}

// Plans returns every plan of the edge, in Generate's order.
func (pc *PointChecker) Plans() []*PointPlan { return pc.plans }

// StepPlans returns the step plans of concrete action act (history: the
// guard, commute and event plans of act), in Generate's order.
func (pc *PointChecker) StepPlans(act *ioa.Action) []*PointPlan {
	out := make([]*PointPlan, 0, len(pc.byAction[act]))
	for _, i := range pc.byAction[act] {
		out = append(out, pc.plans[i])
	}
	return out
}

// StartPlans returns the plans that are not about one action: start
// conditions, totality clauses.
func (pc *PointChecker) StartPlans() []*PointPlan {
	out := make([]*PointPlan, 0, len(pc.start))
	for _, i := range pc.start {
		out = append(out, pc.plans[i])
	}
	return out
}

// Point is an assignment of an obligation's free variables: the states
// the rules call "c", "a" (and "s"), and the parameters "p".
type Point struct {
	States map[string]eval.State
	Params []eval.Value
	// Steps are steps the caller performed with the evaluator (e.g.
	// Runner.Successors): when a rule asks for one of them (the same
	// action, state and parameters), it takes its post-state instead of
	// performing the step again.
	Steps []StepSeed
	// Related, if set, reports whether the caller knows that every clause
	// of the relation holds at (c, a), for a pair of states of the two
	// automata: a forward cross-check passes the pairs it has stored, each
	// stored only after the rules found R true at it; a backward one the
	// candidates it found R true at. A relation clause evaluated with the
	// proof's c and a bound to such a pair is then true without being
	// evaluated again: in a forward step the hypothesis R(c, a) and the
	// goal R(cpost, u_m) (forwardStep), in a backward step the hypothesis
	// R(cpost, a) and the goal R(c, apre) (backwardStep). A clause's
	// value depends on the two states alone.
	Related func(c, a eval.State) bool
	// loop is the loop variable of an iteration of a repeated step (with
	// its state u in States), for a loop obligation's own evaluation.
	loop []eval.Value
}

// at returns pt with the free u and k of a loop obligation bound to the
// iteration it.
func (pt *Point) at(it *loopAt[eval.State, eval.Value]) *Point {
	out := *pt
	out.States = make(map[string]eval.State, len(pt.States)+1)
	for k, v := range pt.States {
		out.States[k] = v
	}
	out.States[loopState] = it.u
	out.loop = []eval.Value{it.k}
	return &out
}

// StepSeed is a step Action(Params) from From, enabled, to Post.
type StepSeed struct {
	Action *ioa.Action
	From   eval.State
	Params []eval.Value
	Post   eval.State
}

// Verdict is the value of one obligation at a point.
type Verdict struct {
	Plan *PointPlan
	// Vacuous names the first hypothesis that is false at the point (the
	// obligation holds there vacuously), or "".
	Vacuous string
	// Holds is false exactly when every hypothesis is true and the goal
	// is false: the point is a counterexample to the obligation.
	Holds bool
	// What describes the goal, e.g. "R1(cpost, u2)".
	What string
	// States are the states the rule computed, by the rules' names ("cpost",
	// "u1", "f(c)", "apre", …), with the state each was computed from by a
	// step (Base, or "").
	States []PointState
	// Calls are the abstract steps taken, as the evaluator prints them
	// (e.g. "DoRead(T#0, L#0)"), in order.
	Calls []string
	// Run is, for a step obligation, the abstract steps of its case as
	// the rule took them, or nil.
	Run *Run
	// Why is, for a start obligation whose goal is that a state is a
	// start state, the first reason it is not ("x = 1, not its init 0",
	// "initially predicate 2 is false"), or "".
	Why string
}

// Run is the abstract steps of a case of a step correspondence as a rule
// took them at a point.
type Run struct {
	Case  int                 // the 0-based case
	Steps []*ioa.AbstractStep // the case's abstract steps β_1 … β_m
	Args  [][]eval.Value      // the arguments of every step, evaluated in the pre-states
	// States are u_0 … u_n, the states the steps reached from u_0 (a;
	// apre for backward simulations): all of them (n = m), or, when the
	// rule stopped before step n+1 (the goal pre(β_n+1)), the first n+1.
	States []eval.State
}

// newRun returns the Run of r, a run of a case of sm, or nil.
func newRun(sm *ioa.StepMatch, r caseRun, ran bool) *Run {
	us, _ := r.us.([]eval.State)
	args, _ := r.args.([][]eval.Value)
	if !ran || sm == nil || r.kase < 0 || r.kase >= len(sm.Cases) {
		return nil
	}
	steps := sm.Cases[r.kase].Steps
	if r.steps != nil {
		steps = r.steps
	}
	return &Run{Case: r.kase, Steps: steps, Args: args, States: us}
}

// PointState is a state a rule computed at a point.
type PointState struct {
	Name, Base string
	Automaton  *ioa.Automaton
	State      eval.State
}

// State returns the computed state of that name, or nil.
func (v *Verdict) State(name string) eval.State {
	for i := len(v.States) - 1; i >= 0; i-- {
		if v.States[i].Name == name {
			return v.States[i].State
		}
	}
	return nil
}

// Reset starts a new point: values memoized for the previous point by the
// identity of its states are forgotten. Call it whenever the states of the
// point change. (A refinement mapping applied to the point's c, and the
// conditions of the point's pair (c, a) alone, are also remembered by the
// content of c and a; those are checked against the new point's states
// before they are used.)
//
// With scratch memory (UseScratch), Reset also makes the memory of every
// state and value computed since the last Reset available again.
func (pc *PointChecker) Reset() { pc.w.fast.reset() }

// UseScratch makes pc compute the states and values of a point (the
// states the rules map and step to, the values they evaluate) in scratch
// memory that the next Reset reuses, instead of allocating them: no state
// that a Verdict or StepResult returned before a Reset holds may be used
// after it (Clone one to keep it). Values memoized across points (a
// mapped state, the pair's conditions) are kept as copies or verdicts, so
// they do not refer to the scratch memory.
func (pc *PointChecker) UseScratch() {
	f := pc.w.fast
	if f.ar == nil {
		f.ar = eval.NewArena()
		f.scratch.Arena = f.ar
	}
}

// Eval evaluates plan pl at pt. The hypotheses that assume invariants and
// Nat conditions of the point's given states are taken as true: the
// caller checks them once per state (a cross-check explores reachable
// states only and checks the assumed invariants in each). Every other
// hypothesis is evaluated, in the rule's order, and the first false one
// makes the verdict vacuous. The States, Calls, Run and Why of the
// verdict are recorded when the obligation fails.
func (pc *PointChecker) Eval(pl *PointPlan, pt *Point) (Verdict, error) {
	v, err := pc.eval(pl, pt, true)
	if err != nil || v.Holds {
		return v, err
	}
	return pc.eval(pl, pt, false)
}

// eval is Eval, without recording states and calls when quiet.
func (pc *PointChecker) eval(pl *PointPlan, pt *Point, quiet bool) (Verdict, error) {
	w := pc.w
	w.states = pt.States
	w.params["p"] = pt.Params
	w.params[loopFresh] = pt.loop
	w.trace, w.calls, w.sawConcrete, w.quiet, w.why = w.trace[:0], w.calls[:0], false, quiet, ""
	w.fast.seeds, w.fast.related = pt.Steps, pt.Related
	defer func() { w.quiet, w.fast.seeds, w.fast.related = false, nil, nil }()
	w.fast.vacuous = ""
	v := Verdict{Plan: pl}
	scn, err := run[eval.State, eval.Value, bool](w, pl.p)
	switch {
	case errors.Is(err, errVacuous) || (err != nil && errors.Is(err, errDisabled) && w.fast.vacuous != ""):
		v.Vacuous, v.Holds = w.fast.vacuous, true
	case err != nil:
		return v, fmt.Errorf("%s: %w", pl.ID, err)
	default:
		v.Holds, v.What = scn.goal, scn.what
		for _, h := range scn.hyps {
			if !h.b {
				v.Vacuous, v.Holds = h.name, true
				break
			}
		}
	}
	for _, t := range w.trace {
		v.States = append(v.States, PointState{Name: t.name, Base: t.base, Automaton: t.auto, State: t.st})
	}
	for _, c := range w.calls {
		if !c.concrete {
			v.Calls = append(v.Calls, c.text)
		}
	}
	if !quiet && scn != nil {
		v.Run, v.Why = newRun(pl.p.step, scn.run, scn.ran), w.why
	}
	return v, nil
}

// StepResult is the value of the step obligations of one concrete
// action at a point.
type StepResult struct {
	// Case is the 0-based case whose guards select the step (the
	// obligations of the other cases hold vacuously), or -1 when none
	// does.
	Case int
	// Failed is the verdict of the first obligation, in Generate's
	// order, that fails at the point, or nil when every one holds.
	Failed *Verdict
	// Last is u_m, the abstract state the case's steps end in, when the
	// rules took every step of the case (refinements and forward
	// simulations), or nil.
	Last eval.State
	// Run is, from Match, the abstract steps of the case as the rules
	// took them, or nil.
	Run *Run
}

// EvalStep evaluates every step obligation of concrete action act at pt
// by running, once, the rule's all-goals scenario: the hypotheses the
// obligations share are computed once, and each goal is read off where
// its obligation's hypotheses end (so its verdict is the one Eval gives).
// A failing obligation's verdict is then computed by Eval, with its
// states and calls. Like Eval, it trusts the invariant and Nat
// hypotheses of the point's given states.
func (pc *PointChecker) EvalStep(act *ioa.Action, pt *Point) (StepResult, error) {
	return pc.evalStep(act, pt, false)
}

// Match is EvalStep that also returns the abstract steps of the case the
// rules took (StepResult.Run): the steps a concrete step is matched with.
func (pc *PointChecker) Match(act *ioa.Action, pt *Point) (StepResult, error) {
	return pc.evalStep(act, pt, true)
}

// evalStep is EvalStep, keeping the case's run when record is set.
func (pc *PointChecker) evalStep(act *ioa.Action, pt *Point, record bool) (StepResult, error) {
	res := StepResult{Case: -1}
	p := pc.all[act]
	if p == nil {
		return res, nil
	}
	w := pc.w
	w.states = pt.States
	w.params["p"] = pt.Params
	w.trace, w.calls, w.sawConcrete, w.quiet = w.trace[:0], w.calls[:0], false, true
	w.fast.vacuous = ""
	w.fast.seeds, w.fast.related = pt.Steps, pt.Related
	s := pc.sc
	if s == nil {
		s = newSc[eval.State, eval.Value, bool](w)
		s.all = true
		pc.sc = s
	}
	s.err, s.out.hyps, s.out.goals, s.out.goal, s.out.what, s.out.kase, s.out.last = nil, s.out.hyps[:0], s.out.goals[:0], false, "", -1, nil
	s.out.ran, s.record = false, record
	clear(s.known)
	defer func() { w.fast.seeds, w.fast.related = nil, nil }()
	if p.proof.Kind == ioa.ProofBackward {
		backwardStep(s, p)
	} else {
		forwardStep(s, p)
	}
	w.quiet = false
	switch err := s.err; {
	case err == nil, errors.Is(err, errVacuous), errors.Is(err, errDisabled) && w.fast.vacuous != "":
	default:
		return res, fmt.Errorf("%s: %w", act.Name, err)
	}
	res.Case = s.out.kase
	if st, ok := s.out.last.(eval.State); ok {
		res.Last = st
	}
	if record {
		res.Run = newRun(p.step, s.out.run, s.out.ran)
	}
	first := -1
	var at any
	for _, g := range s.out.goals {
		if g.b {
			continue
		}
		i, ok := pc.goals[keyOfGoal(act, g.id)]
		if !ok {
			continue // a goal of no obligation (an event goal of a case without one)
		}
		if first < 0 || i < first {
			first, at = i, g.at
		}
	}
	if first < 0 {
		return res, nil
	}
	it, _ := at.(*loopAt[eval.State, eval.Value])
	if it != nil {
		pt = pt.at(it)
	}
	v, err := pc.Eval(pc.plans[first], pt)
	if err == nil && it != nil {
		pl := pc.plans[first].p
		v.What += fmt.Sprintf(", where %s = %d", pl.step.Cases[pl.kase].Steps[pl.j].Loop.Var.Name, it.k.Int())
	}
	if err != nil {
		return res, err
	}
	if v.Holds {
		return res, fmt.Errorf("internal error: %s fails in the all-goals scenario but holds alone", pc.plans[first].ID)
	}
	res.Failed = &v
	return res, nil
}

// errVacuous stops a scenario at a false hypothesis (PointChecker).
var errVacuous = errors.New("a hypothesis is false")

// Clone returns a checker of the same edge and instance for another
// goroutine: the plans are shared, since evaluation does not change them;
// the world, its compiled expressions and memo, and the scenario are its
// own.
func (pc *PointChecker) Clone() *PointChecker {
	w := pc.w
	out := &PointChecker{proof: pc.proof, plans: pc.plans, byAction: pc.byAction, start: pc.start, all: pc.all, goals: pc.goals,
		w: &conWorld{inst: w.inst, states: map[string]eval.State{}, params: map[string][]eval.Value{"p": nil},
			autos: map[*ioa.Automaton]*eval.Machine{}, owner: w.owner, concrete: w.concrete,
			fast: newFastEval(w.fast.inst, w.fast.objs)}}
	if w.fast.ar != nil {
		out.UseScratch()
	}
	return out
}
