// This file implements the frame of the verification-condition rules: the
// plan of an obligation, the scenario that collects its hypotheses and
// goals in a world (world.go), and run, which dispatches to the rules:
// rules_start.go (invariants, start conditions), rules_step.go (refinement,
// forward and backward steps), rules_history.go (history mappings).
// docs/proofs.md, "Obligations", states the same rules for users; each
// rule function cites its definition.

package simulation

import (
	"fmt"

	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// plan identifies one obligation: which rule, for which invariant or
// edge, action, case and clause.
type plan struct {
	rule string // one of the rule* constants

	auto   *ioa.Automaton // invariants: the automaton
	inv    *ioa.Invariant // invariants: the invariant, or nil for a Nat invariant
	natVar int            // Nat invariants: the variable's index
	assume []*ioa.Invariant

	proof  *ioa.Proof
	action *ioa.Action    // the concrete action (history: of C)
	step   *ioa.StepMatch // its correspondence
	kase   int            // 0-based case index
	j      int            // pre(β_j): 0-based step index; post(x): variable index
	clause *ioa.Clause    // relation and totality clauses

	hint *hintCase // a strategy's hint, applied after the rule (strategy.go)
}

// The rules.
const (
	ruleInvStart       = "invariant start"    // I0
	ruleInvStep        = "invariant step"     // I1
	ruleRefStart       = "refinement start"   // Init_C(c) ⇒ Init_A(f(c))
	ruleFwdStartInit   = "forward start init" // Init_C(c) ⇒ Init_A(a₀)
	ruleFwdStartRel    = "forward start R"    // Init_C(c) ⇒ R_i(c, a₀)
	ruleBwdStart       = "backward start"     // Init_C(c) ∧ R(c, a) ⇒ Init_A(a)
	ruleBwdTotal       = "backward totality"  // I_C(c) ⇒ R_i(c, τ(c))
	ruleStepPre        = "step pre"           // Pre_βj(u_{j−1}, θ_j)
	ruleStepPost       = "step post"          // u_m.x = f(cpost).x (refinement), u_m.x = a.x (backward)
	ruleStepRel        = "step relation"      // R_i(cpost, u_m) (forward), R_i(c, apre) (backward)
	ruleStepEvent      = "step event"         // equal event arguments
	ruleStepCases      = "step cases"         // ⋁ g_k
	ruleLoopStart      = "loop start"         // lo ≤ hi ∧ J(u_j, lo)
	ruleLoopPre        = "loop pre"           // J(u, k) ∧ lo ≤ k < hi ⇒ Pre_β(u, θ(k))
	ruleLoopStep       = "loop step"          // … ⇒ J(Post_β(u, θ(k)), k + 1)
	ruleHistStartRef   = "history start refinement"
	ruleHistStartInit  = "history start init"
	ruleHistStartMap   = "history start mapping"
	ruleHistGuard      = "history guard"
	ruleHistCommute    = "history commute"
	ruleHistEvent      = "history event"
	hypPrefixAssume    = "assume "
	hypPrefixNat       = "nat "
	hypNamePreConcrete = "pre "
)

// scenario is an obligation computed in a world: named hypotheses and a
// goal, and the description of the goal for reports.
type scenario[B any] struct {
	hyps []namedB[B]
	goal B
	what string // the goal, e.g. "R1(cpost, u2)"

	// An all-goals scenario (runAll) computes every goal of one concrete
	// action at once; goals holds them in order, each with the
	// hypotheses of its obligation (hyps[:n]). kase is the case whose
	// guards select it (-1: none), last is u_m of that case (forward and
	// refinement steps) once every abstract step is taken.
	goals []goalB[B]
	kase  int
	last  any
	// run is the abstract steps of the case as the scenario took them
	// (abstractSteps), when ran and the world records them (sc.record).
	run caseRun
	ran bool
}

// caseRun is the abstract steps of case kase of a step rule as a scenario
// took them: the states u_0 … u_n reached and the arguments of every
// step of the case, as the world's []S and [][]V.
type caseRun struct {
	kase     int
	us, args any
	// steps, when set, are the steps of us and args, a repeated step
	// expanded into its iterations (loopRun.expand); else the case's.
	steps []*ioa.AbstractStep
}

type namedB[B any] struct {
	name string
	b    B
}

// goalID names a goal of a step rule: the rule, the case, the abstract
// step (pre) or variable (post) or external step (event, -1: no event),
// the relation clause, and m, the index of the last abstract state
// u_m (for the description).
type goalID struct {
	rule   string
	kase   int
	j      int
	clause *ioa.Clause
	m      int
	act    *ioa.Action // event: the external abstract step's action
}

// goalB is a goal of an all-goals scenario.
type goalB[B any] struct {
	id goalID
	n  int // the obligation's hypotheses are hyps[:n]
	b  B
	// at is, for loop(pre) and loop(step), the iteration (a *loopAt)
	// whose state and k are the obligation's free u and k.
	at any
}

// sc accumulates a scenario; the first error sticks.
type sc[S, V, B any] struct {
	w   world[S, V, B]
	out *scenario[B]
	err error
	// all: an all-goals scenario (runAll).
	all bool
	// stop, when set, stops the scenario at a false hypothesis
	// (PointChecker's world): the obligation holds there vacuously.
	stop stopper
	// trust: hypotheses that assume invariants and Nat conditions are
	// taken as true (PointChecker, whose caller checks them once per
	// state) and not added.
	trust bool
	// guards holds, in an all-goals scenario, the value of each case's
	// guard once computed (known[j]): the coverage goal and every case
	// tried read them.
	guards []B
	known  []bool
	// record: the abstract steps taken are kept in out.run, for the
	// caller's explanation of a verdict (PointChecker).
	record bool
}

// guard returns the value of the guard of case j of sm in envFor(j),
// computed once in an all-goals scenario.
func (s *sc[S, V, B]) guard(sm *ioa.StepMatch, j int, envFor func(j int) *wenv[S, V]) (B, error) {
	if !s.all {
		return s.w.holds(sm.Cases[j].When, envFor(j))
	}
	if len(s.known) < len(sm.Cases) {
		s.guards, s.known = make([]B, len(sm.Cases)), make([]bool, len(sm.Cases))
	}
	if s.known[j] {
		return s.guards[j], nil
	}
	b, err := s.w.holds(sm.Cases[j].When, envFor(j))
	if err == nil {
		s.guards[j], s.known[j] = b, true
	}
	return b, err
}

// stopper is a world that may stop a scenario at its first false
// hypothesis (when stops), whose name it records (stopAt).
type stopper interface {
	stops() bool
	stopAt(name string)
}

func newSc[S, V, B any](w world[S, V, B]) *sc[S, V, B] {
	s := &sc[S, V, B]{w: w, out: &scenario[B]{kase: -1}}
	if st, ok := any(w).(stopper); ok && st.stops() {
		s.stop = st
	}
	if r, ok := any(w).(interface{ records() bool }); ok {
		s.record = r.records()
	}
	if t, ok := any(w).(interface{ trustsInvariants() bool }); ok {
		s.trust = t.trustsInvariants()
	}
	return s
}

func (s *sc[S, V, B]) hyp(name string, b B, err error) { s.addHyp(name, nil, b, err) }

// hypf is hyp with a name computed only when it is read (a stopping
// world reads the name of a false hypothesis only).
func (s *sc[S, V, B]) hypf(name func() string, b B, err error) { s.addHyp("", name, b, err) }

func (s *sc[S, V, B]) addHyp(name string, lazy func() string, b B, err error) {
	if err != nil {
		if s.err == nil {
			if lazy != nil {
				name = lazy()
			}
			s.err = fmt.Errorf("%s: %w", name, err)
		}
		return
	}
	if s.stop != nil {
		if s.err != nil {
			return
		}
		if bb, ok := any(b).(bool); ok && !bb {
			if lazy != nil {
				name = lazy()
			}
			s.stop.stopAt(name)
			s.err = errVacuous
		}
		s.out.hyps = append(s.out.hyps, namedB[B]{name, b})
		return
	}
	if lazy != nil {
		name = lazy()
	}
	s.out.hyps = append(s.out.hyps, namedB[B]{name, b})
}

// trusted reports whether the world takes hypotheses that assume
// invariants and Nat conditions as true: they are then not added.
func (s *sc[S, V, B]) trusted() bool { return s.trust }

func (s *sc[S, V, B]) fail(err error) bool {
	if err != nil && s.err == nil {
		s.err = err
	}
	return s.err != nil
}

// wants reports whether the scenario computes goals of rule: every
// applicable one in an all-goals scenario, else the plan's own.
func (s *sc[S, V, B]) wants(p *plan, rule string) bool { return s.all || p.rule == rule }

// goal sets the goal id to b: in an all-goals scenario it is appended
// to the goals, with the hypotheses so far; otherwise it is the
// scenario's goal, described by goalWhat.
func (s *sc[S, V, B]) goal(p *plan, id goalID, b B) { s.goalAt(p, id, b, nil) }

// goalAt is goal, with the iteration of a loop goal in an all-goals
// scenario (goalB.at).
func (s *sc[S, V, B]) goalAt(p *plan, id goalID, b B, at any) {
	if goalMutation != nil && goalMutation(goalClause(p, id)) {
		b = s.w.not(s.w.tt())
	}
	if s.all {
		s.out.goals = append(s.out.goals, goalB[B]{id: id, n: len(s.out.hyps), b: b, at: at})
		return
	}
	s.out.goal, s.out.what = b, goalWhat(p, id)
}

// goalMutation is nil except in this package's tests, which set it
// (MutateGoalsForTesting in export_test.go) to make the goals of the step
// clauses it selects false, in every world at once.
var goalMutation func(clause, name string) bool

// goalClause returns the clause and name of goal id of p's action.
func goalClause(p *plan, id goalID) (string, string) {
	switch id.rule {
	case ruleStepPre:
		return ClausePre, p.step.Cases[id.kase].Steps[id.j].Action.Name
	case ruleStepPost:
		return ClausePost, p.proof.Abstract.Vars[id.j].Name
	case ruleStepRel:
		return ClauseRelation, id.clause.Name
	case ruleStepEvent:
		return ClauseEvent, ""
	case ruleLoopStart:
		return ClauseLoop, ioa.LoopStart
	case ruleLoopPre:
		return ClauseLoop, ioa.LoopPre
	case ruleLoopStep:
		return ClauseLoop, ioa.LoopStep
	}
	return ClauseCases, ""
}

// goalWhat describes goal id of a step rule of p's action.
func goalWhat(p *plan, id goalID) string {
	pr := p.proof
	switch id.rule {
	case ruleStepCases:
		return "some case's guard holds"
	case ruleStepPre:
		return stepPreName(p.step.Cases[id.kase].Steps[id.j], id.j)
	case ruleStepPost:
		v := pr.Abstract.Vars[id.j]
		if pr.Kind == ioa.ProofBackward {
			return fmt.Sprintf("u%d.%s = a.%s", id.m, v.Name, v.Name)
		}
		return fmt.Sprintf("u%d.%s = f(cpost).%s", id.m, v.Name, v.Name)
	case ruleStepRel:
		if pr.Kind == ioa.ProofBackward {
			return id.clause.Name + "(c, apre)"
		}
		return fmt.Sprintf("%s(cpost, u%d)", id.clause.Name, id.m)
	case ruleLoopStart, ruleLoopPre, ruleLoopStep:
		return loopWhat(p, id)
	case ruleStepEvent:
		if id.act == nil {
			return "no event"
		}
		return fmt.Sprintf("event %s: arguments of %s and %s agree", p.action.View.Event.Name, p.action.Name, id.act.Name)
	}
	return id.rule
}

// invariants assumes each invariant of auto in state st.
func (s *sc[S, V, B]) invariants(auto *ioa.Automaton, invs []*ioa.Invariant, st S, name string) {
	if s.trusted() {
		return
	}
	for _, inv := range invs {
		b, err := s.w.invariant(inv.Body, st)
		s.hyp(fmt.Sprintf("%s%s.%s(%s)", hypPrefixAssume, auto.Name, inv.Name, name), b, err)
	}
}

// nats assumes the implicit Nat conditions of st.
func (s *sc[S, V, B]) nats(auto *ioa.Automaton, st S, name string) {
	if s.trusted() {
		return
	}
	for i, v := range auto.Vars {
		if !v.Sort.HasNat() {
			continue
		}
		b, err := s.w.natFact(auto, st, i)
		s.hyp(fmt.Sprintf("%s%s.%s(%s)", hypPrefixNat, auto.Name, eval.NatInvariant(v.Name), name), b, err)
	}
}

// assumed assumes each invariant a proof lists for auto in state st: its
// body, or, for an invariant X.P assumed by transfer, P∘g (Transferred;
// LLM12 §5.3), which holds in every reachable state of auto once g's chain
// of refinements and P are proved (theorems.Derive checks both before the edge
// counts as proved).
func (s *sc[S, V, B]) assumed(auto *ioa.Automaton, rs []*ioa.InvariantRef, st S, name string) {
	if s.trusted() {
		return
	}
	for _, r := range rs {
		hname := fmt.Sprintf("%s%s.%s(%s)", hypPrefixAssume, auto.Name, r.Name, name)
		if !r.Transferred() {
			b, err := s.w.invariant(r.Inv.Body, st)
			s.hyp(hname, b, err)
			continue
		}
		obj := &expr.Object{Kind: expr.ObjState, Name: "s", Sort: auto.StateSort}
		body, err := Transferred(r, auto, obj)
		if err != nil {
			s.hyp(hname, s.w.tt(), err)
			continue
		}
		b, err := s.w.holds(body, s.w.env(nil).with(obj, st))
		s.hyp(hname, b, err)
	}
}

// run computes the scenario of p in w.
func run[S, V, B any](w world[S, V, B], p *plan) (*scenario[B], error) {
	if p.hint != nil {
		return runHinted(w, p) // strategy.go
	}
	s := newSc(w)
	switch p.rule {
	case ruleInvStart, ruleInvStep:
		invariantRule(s, p)
	case ruleRefStart, ruleFwdStartInit, ruleFwdStartRel, ruleBwdStart, ruleBwdTotal:
		startRule(s, p)
	case ruleStepPre, ruleStepPost, ruleStepRel, ruleStepEvent, ruleStepCases, ruleLoopStart, ruleLoopPre, ruleLoopStep:
		if p.proof.Kind == ioa.ProofBackward {
			backwardStep(s, p)
		} else {
			forwardStep(s, p)
		}
	case ruleHistStartRef, ruleHistStartInit, ruleHistStartMap, ruleHistGuard, ruleHistCommute, ruleHistEvent:
		historyRule(s, p)
	default:
		return nil, fmt.Errorf("internal: unknown rule %q", p.rule)
	}
	if s.err != nil {
		return nil, s.err
	}
	return s.out, nil
}
