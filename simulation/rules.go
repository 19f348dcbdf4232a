// This file implements the verification-condition rules: for each kind of
// obligation, the scenario that computes its hypotheses and its goal in a
// world (world.go). docs/proofs.md, "Obligations", states the same rules
// for users; each function cites its definition.

package simulation

import (
	"errors"
	"fmt"
	"strings"

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
	// related: a forward simulation's hypotheses R_i(c, a) are taken as
	// true (PointChecker, whose caller established them as the goals of
	// the step that reached the point).
	related bool
	// guards holds, in an all-goals scenario, the value of each case's
	// guard once computed (known[j]): the coverage goal and every case
	// tried read them.
	guards []B
	known  []bool
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
func (s *sc[S, V, B]) goal(p *plan, id goalID, b B) {
	if goalMutation != nil && goalMutation(goalClause(p, id)) {
		b = s.w.not(s.w.tt())
	}
	if s.all {
		s.out.goals = append(s.out.goals, goalB[B]{id: id, n: len(s.out.hyps), b: b})
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
// of refinements and P are proved (Derive checks both before the edge
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
		b, err := s.w.holds(body, newEnv[S, V](nil).with(obj, st))
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
	case ruleStepPre, ruleStepPost, ruleStepRel, ruleStepEvent, ruleStepCases:
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

// invariantRule is invariant induction (LLM12 Fig. 1, `invariantInduction`;
// LV95 §2):
//
//	I0 (start):  Init(s) ⇒ P(s)
//	I1 (step α): J(s) ∧ Nat(s) ∧ Pre_α(s, p) ⇒ P(Post_α(s, p))
//
// where J is the conjunction of the invariants P assumes and Nat the
// implicit Nat conditions (themselves invariants, proved jointly). The
// redundant reachable(s1) of the PVS lemma is not used: the post-state
// assumes nothing.
func invariantRule[S, V, B any](s *sc[S, V, B], p *plan) {
	w, a := s.w, p.auto
	st, err := w.freshState(a, "s")
	if s.fail(err) {
		return
	}
	goal := func(x S, name string) {
		var b B
		var err error
		if p.inv != nil {
			b, err = w.invariant(p.inv.Body, x)
			s.out.what = fmt.Sprintf("%s(%s)", p.inv.Name, name)
		} else {
			b, err = w.natFact(a, x, p.natVar)
			s.out.what = fmt.Sprintf("%s(%s)", eval.NatInvariant(a.Vars[p.natVar].Name), name)
		}
		s.fail(err)
		s.out.goal = b
	}
	if p.rule == ruleInvStart {
		b, err := w.init(a, st)
		s.hyp("init(s)", b, err)
		goal(st, "s")
		return
	}
	s.invariants(a, p.assume, st, "s")
	s.nats(a, st, "s")
	ps, err := w.freshParams(p.action, "p")
	if s.fail(err) {
		return
	}
	b, err := w.pre(p.action, st, ps)
	s.hyp(hypNamePreConcrete+p.action.Name+"(s, p)", b, err)
	post, err := w.post(p.action, st, ps, "s'")
	if s.fail(err) {
		return
	}
	goal(post, "s'")
}

// startRule is the start condition of refinements, forward and backward
// simulations:
//
//	refinement (LV95 Def. 3.3):   Init_C(c) ⇒ Init_A(f(c))
//	forward (LV95 Def. 3.5, start condition):
//	                              Init_C(c) ⇒ Init_A(a₀),  Init_C(c) ⇒ R_i(c, a₀)
//	backward (LV95 Def. 3.11, start condition):
//	                              Init_C(c) ∧ I_C(c) ∧ R(c, a) ⇒ Init_A(a)
//	totality (LV95 Def. 3.11, totality of R):
//	                              I_C(c) ∧ Nat(c) ⇒ R_i(c, τ(c))
func startRule[S, V, B any](s *sc[S, V, B], p *plan) {
	w, pr := s.w, p.proof
	c, err := w.freshState(pr.Concrete, "c")
	if s.fail(err) {
		return
	}
	if p.rule == ruleBwdTotal {
		s.assumed(pr.Concrete, pr.AssumeConcrete, c, "c")
		s.nats(pr.Concrete, c, "c")
		tau, err := w.stateOf(pr.Total, "τ(c)", newEnv[S, V](nil).with(pr.C, c))
		if s.fail(err) {
			return
		}
		b, err := w.holds(p.clause.Body, newEnv[S, V](nil).with(pr.C, c).with(pr.A, tau))
		s.fail(err)
		s.out.goal, s.out.what = b, p.clause.Name+"(c, τ(c))"
		return
	}
	b, err := w.init(pr.Concrete, c)
	s.hyp("init "+pr.Concrete.Name+"(c)", b, err)
	switch p.rule {
	case ruleRefStart:
		fc, err := w.stateOf(pr.Mapping, "f(c)", newEnv[S, V](nil).with(pr.C, c))
		if s.fail(err) {
			return
		}
		b, err := w.init(pr.Abstract, fc)
		s.fail(err)
		s.out.goal, s.out.what = b, "init "+pr.Abstract.Name+"(f(c))"
	case ruleFwdStartInit, ruleFwdStartRel:
		a0, err := w.stateOf(pr.Start, "a₀", newEnv[S, V](nil).with(pr.C, c))
		if s.fail(err) {
			return
		}
		if p.rule == ruleFwdStartInit {
			b, err := w.init(pr.Abstract, a0)
			s.fail(err)
			s.out.goal, s.out.what = b, "init "+pr.Abstract.Name+"(a₀)"
			return
		}
		b, err := w.holds(p.clause.Body, newEnv[S, V](nil).with(pr.C, c).with(pr.A, a0))
		s.fail(err)
		s.out.goal, s.out.what = b, p.clause.Name+"(c, a₀)"
	case ruleBwdStart:
		s.assumed(pr.Concrete, pr.AssumeConcrete, c, "c")
		a, err := w.freshState(pr.Abstract, "a")
		if s.fail(err) {
			return
		}
		for _, cl := range pr.Relation {
			b, err := w.holds(cl.Body, newEnv[S, V](nil).with(pr.C, c).with(pr.A, a))
			s.hyp(cl.Name+"(c, a)", b, err)
		}
		b, err := w.init(pr.Abstract, a)
		s.fail(err)
		s.out.goal, s.out.what = b, "init "+pr.Abstract.Name+"(a)"
	}
}

// caseGuards adds the hypotheses that select case k (¬g_1 … ¬g_{k−1}, g_k)
// and returns false after an error. env gives the guards' names; for
// backward simulations envFor(j) gives the environment of case j (its
// own apre).
func caseGuards[S, V, B any](s *sc[S, V, B], step *ioa.StepMatch, k int, envFor func(j int) *wenv[S, V]) bool {
	for j := 0; j <= k && j < len(step.Cases); j++ {
		g := step.Cases[j].When
		if g == nil {
			continue
		}
		b, err := s.guard(step, j, envFor)
		if j < k {
			s.hypf(func() string { return fmt.Sprintf("case %d guard false", j+1) }, s.w.not(b), err)
		} else {
			s.hypf(func() string { return fmt.Sprintf("case %d guard", j+1) }, b, err)
		}
		if s.err != nil {
			return false
		}
	}
	return s.err == nil
}

// eachCase runs body for the plan's case once its guards are assumed;
// an all-goals scenario (in a stopping world) tries every case in
// order and runs body for the first one whose guards select it: the
// later cases assume the negation of a true guard, so their goals hold
// vacuously. It records the case run in s.out.kase.
func eachCase[S, V, B any](s *sc[S, V, B], p *plan, envFor func(j int) *wenv[S, V], body func(k int)) {
	if !s.all {
		if caseGuards(s, p.step, p.kase, envFor) {
			s.out.kase = p.kase
			body(p.kase)
		}
		return
	}
	mark := len(s.out.hyps)
	for k := range p.step.Cases {
		s.out.hyps = s.out.hyps[:mark]
		if !caseGuards(s, p.step, k, envFor) {
			if errors.Is(s.err, errVacuous) {
				s.err = nil // a guard does not select case k
				continue
			}
			return
		}
		s.out.kase = k
		body(k)
		return
	}
}

// abstractSteps adds the hypotheses Pre_β1 … Pre_βn of the first n steps
// of case k, c, from u0, with the arguments evaluated in env, and returns
// the states u_0 … u_n and the arguments of every step. In an all-goals
// scenario each Pre_βj is first the goal pre(β_j), with the hypotheses
// before it.
func abstractSteps[S, V, B any](s *sc[S, V, B], p *plan, k int, c *ioa.Case, u0 S, env *wenv[S, V], n int) ([]S, [][]V) {
	us := make([]S, 1, n+1)
	us[0] = u0
	args := make([][]V, 0, len(c.Steps))
	for j, st := range c.Steps {
		th, err := s.w.values(st.Args, env)
		if s.fail(err) {
			return nil, nil
		}
		args = append(args, th)
		if j >= n {
			continue
		}
		b, err := s.w.pre(st.Action, us[j], th)
		if s.all && err == nil {
			s.goal(p, goalID{rule: ruleStepPre, kase: k, j: j}, b)
		}
		s.hypf(func() string { return fmt.Sprintf("pre %s(u%d)", st.Action.Name, j) }, b, err)
		if s.err != nil {
			return nil, nil
		}
		u, err := s.w.post(st.Action, us[j], th, fmt.Sprintf("u%d", j+1))
		if s.fail(err) {
			return nil, nil
		}
		us = append(us, u)
	}
	return us, args
}

// preGoal sets the goal pre(β_j) of case k of a plan that is not an
// all-goals scenario: the precondition of its step j after the steps
// before it (abstractSteps with n = j), the hypothesis Pre_βj of the
// later clauses.
func preGoal[S, V, B any](s *sc[S, V, B], p *plan, k int, c *ioa.Case, us []S, args [][]V) {
	st := c.Steps[p.j]
	b, err := s.w.pre(st.Action, us[p.j], args[p.j])
	s.fail(err)
	s.goal(p, goalID{rule: ruleStepPre, kase: k, j: p.j}, b)
}

// eventGoal sets the goal that the concrete step α(ps) and the external
// abstract step of case k, c, show the same event arguments (the event
// names are equal by the loader's check).
func eventGoal[S, V, B any](s *sc[S, V, B], p *plan, k int, act *ioa.Action, ps []V, c *ioa.Case, args [][]V) {
	for j, st := range c.Steps {
		if !st.Action.Kind.External() || st.Action.View == nil || act.View == nil {
			continue
		}
		cv, err := s.w.values(act.View.Args, newEnv[S, V](ps))
		if s.fail(err) {
			return
		}
		av, err := s.w.values(st.Action.View.Args, newEnv[S, V](args[j]))
		if s.fail(err) {
			return
		}
		s.goal(p, goalID{rule: ruleStepEvent, kase: k, j: j, act: st.Action}, s.w.valsEq(cv, av))
		return
	}
	s.goal(p, goalID{rule: ruleStepEvent, kase: k, j: -1}, s.w.tt())
}

// allGuarded reports whether every case of sm has a guard (then case
// coverage is an obligation).
func allGuarded(sm *ioa.StepMatch) bool {
	for _, c := range sm.Cases {
		if c.When == nil {
			return false
		}
	}
	return len(sm.Cases) > 0
}

// forwardStep is the step condition of refinements and forward
// simulations, per concrete action α, case k and clause (LV95 Def. 3.3
// and 3.5, step condition):
//
//	I_C(c) ∧ Nat(c) ∧ I_A(a) ∧ Nat(a) ∧ [R(c, a)] ∧ Pre_α(c, p) ∧ G_k
//	  ⇒ Pre_β1(u_0, θ_1) ∧ … ∧ Pre_βm(u_{m−1}, θ_m)
//	    ∧ u_m = f(cpost)         (refinement, per variable)
//	    ∧ R_i(cpost, u_m)        (forward, per clause)
//	    ∧ event arguments agree
//
// with a = f(c) for refinements, u_0 = a, cpost = Post_α(c, p). Each
// conjunct is one obligation assuming the previous ones. Case coverage:
// the same hypotheses up to Pre_α imply ⋁ g_k.
func forwardStep[S, V, B any](s *sc[S, V, B], p *plan) {
	w, pr := s.w, p.proof
	c, err := w.freshState(pr.Concrete, "c")
	if s.fail(err) {
		return
	}
	ps, err := w.freshParams(p.action, "p")
	if s.fail(err) {
		return
	}
	var a S
	if pr.Kind.IsRefinement() {
		a, err = w.stateOf(pr.Mapping, "a", newEnv[S, V](nil).with(pr.C, c))
	} else {
		a, err = w.freshState(pr.Abstract, "a")
	}
	if s.fail(err) {
		return
	}
	s.assumed(pr.Concrete, pr.AssumeConcrete, c, "c")
	s.nats(pr.Concrete, c, "c")
	s.assumed(pr.Abstract, pr.AssumeAbstract, a, "a")
	s.nats(pr.Abstract, a, "a")
	if pr.Kind == ioa.ProofForward && !s.related {
		for _, cl := range pr.Relation {
			b, err := w.holds(cl.Body, newEnv[S, V](nil).with(pr.C, c).with(pr.A, a))
			s.hypf(func() string { return cl.Name + "(c, a)" }, b, err)
			if s.stop != nil && s.err != nil {
				return
			}
		}
	}
	b, err := w.pre(p.action, c, ps)
	s.hypf(func() string { return hypNamePreConcrete + p.action.Name + "(c, p)" }, b, err)
	if s.err != nil {
		return
	}
	cpost, err := w.post(p.action, c, ps, "cpost")
	if s.fail(err) {
		return
	}
	env := newEnv[S, V](ps).with(pr.C, c).with(pr.A, a).with(pr.CPost, cpost)
	if p.rule == ruleStepCases || (s.all && allGuarded(p.step)) {
		gs := make([]B, 0, len(p.step.Cases))
		for j := range p.step.Cases {
			g, err := s.guard(p.step, j, func(int) *wenv[S, V] { return env })
			if s.fail(err) {
				return
			}
			gs = append(gs, g)
		}
		s.goal(p, goalID{rule: ruleStepCases}, w.or(gs...))
		if !s.all {
			return
		}
	}
	eachCase(s, p, func(int) *wenv[S, V] { return env }, func(k int) {
		cs := p.step.Cases[k]
		n := len(cs.Steps)
		if !s.all && p.rule == ruleStepPre {
			n = p.j
		}
		us, args := abstractSteps(s, p, k, cs, a, env, n)
		if s.err != nil {
			return
		}
		m := len(us) - 1
		if !s.all && p.rule == ruleStepPre {
			preGoal(s, p, k, cs, us, args)
			return
		}
		if s.all {
			s.out.last = us[m]
		}
		if pr.Kind.IsRefinement() && s.wants(p, ruleStepPost) {
			fpost, err := w.stateOf(pr.Mapping, "f(cpost)", newEnv[S, V](nil).with(pr.C, cpost))
			if s.fail(err) {
				return
			}
			for i := range pr.Abstract.Vars {
				if s.all || i == p.j {
					s.goal(p, goalID{rule: ruleStepPost, kase: k, j: i, m: m}, w.varEq(us[m], fpost, i))
				}
			}
		}
		if pr.Kind == ioa.ProofForward && s.wants(p, ruleStepRel) {
			for _, cl := range pr.Relation {
				if s.all || cl == p.clause {
					b, err := w.holds(cl.Body, newEnv[S, V](nil).with(pr.C, cpost).with(pr.A, us[m]))
					if s.fail(err) {
						return
					}
					s.goal(p, goalID{rule: ruleStepRel, kase: k, clause: cl, m: m}, b)
				}
			}
		}
		if s.wants(p, ruleStepEvent) {
			eventGoal(s, p, k, p.action, ps, cs, args)
		}
	})
}

// backwardStep is the step condition of backward simulations, per concrete
// action α, case k and clause (LV95 Def. 3.11, step condition):
//
//	I_C(c) ∧ Nat(c) ∧ Pre_α(c, p) ∧ I_C(cpost) ∧ Nat(cpost) ∧ R(cpost, a) ∧ G_k
//	  ⇒ R_i(c, apre)                                  (per clause)
//	    ∧ Pre_β1(u_0, θ_1) ∧ … ∧ Pre_βm(u_{m−1}, θ_m)  (u_0 = apre)
//	    ∧ u_m = a                                      (per variable)
//	    ∧ event arguments agree
//
// where apre is case k's pre-state witness. I_C(cpost) may be assumed
// because cpost is reachable. No abstract invariant is assumed: a and
// apre need not be reachable.
func backwardStep[S, V, B any](s *sc[S, V, B], p *plan) {
	w, pr := s.w, p.proof
	c, err := w.freshState(pr.Concrete, "c")
	if s.fail(err) {
		return
	}
	ps, err := w.freshParams(p.action, "p")
	if s.fail(err) {
		return
	}
	a, err := w.freshState(pr.Abstract, "a")
	if s.fail(err) {
		return
	}
	s.assumed(pr.Concrete, pr.AssumeConcrete, c, "c")
	s.nats(pr.Concrete, c, "c")
	b, err := w.pre(p.action, c, ps)
	s.hypf(func() string { return hypNamePreConcrete + p.action.Name + "(c, p)" }, b, err)
	if s.err != nil {
		return
	}
	cpost, err := w.post(p.action, c, ps, "cpost")
	if s.fail(err) {
		return
	}
	s.assumed(pr.Concrete, pr.AssumeConcrete, cpost, "cpost")
	s.nats(pr.Concrete, cpost, "cpost")
	for _, cl := range pr.Relation {
		b, err := w.holds(cl.Body, newEnv[S, V](nil).with(pr.C, cpost).with(pr.A, a))
		s.hypf(func() string { return cl.Name + "(cpost, a)" }, b, err)
		if s.stop != nil && s.err != nil {
			return
		}
	}
	if s.err != nil {
		return
	}
	base := newEnv[S, V](ps).with(pr.C, c).with(pr.A, a).with(pr.CPost, cpost)
	envFor := func(j int) *wenv[S, V] {
		apre, err := w.stateOf(p.step.Cases[j].Pre, "apre", base)
		if s.fail(err) {
			return base
		}
		return newEnv[S, V](ps).with(pr.C, c).with(pr.A, a).with(pr.CPost, cpost).with(pr.APre, apre)
	}
	if p.rule == ruleStepCases || (s.all && allGuarded(p.step)) {
		gs := make([]B, 0, len(p.step.Cases))
		for j := range p.step.Cases {
			g, err := s.guard(p.step, j, envFor)
			if s.fail(err) {
				return
			}
			gs = append(gs, g)
		}
		s.goal(p, goalID{rule: ruleStepCases}, w.or(gs...))
		if !s.all {
			return
		}
	}
	eachCase(s, p, envFor, func(k int) {
		env := envFor(k)
		if s.err != nil {
			return
		}
		apre, _ := env.state(pr.APre)
		if s.wants(p, ruleStepRel) {
			// The plan's own relation clause assumes no abstract step,
			// whose arguments are evaluated first (n = 0).
			if !s.all {
				if abstractSteps(s, p, k, p.step.Cases[k], apre, env, 0); s.err != nil {
					return
				}
			}
			for _, cl := range pr.Relation {
				if s.all || cl == p.clause {
					b, err := w.holds(cl.Body, newEnv[S, V](nil).with(pr.C, c).with(pr.A, apre))
					if s.fail(err) {
						return
					}
					s.goal(p, goalID{rule: ruleStepRel, kase: k, clause: cl}, b)
				}
			}
			if !s.all {
				return
			}
		}
		cs := p.step.Cases[k]
		n := len(cs.Steps)
		if !s.all && p.rule == ruleStepPre {
			n = p.j
		}
		us, args := abstractSteps(s, p, k, cs, apre, env, n)
		if s.err != nil {
			return
		}
		m := len(us) - 1
		if !s.all && p.rule == ruleStepPre {
			preGoal(s, p, k, cs, us, args)
			return
		}
		if s.wants(p, ruleStepPost) {
			for i := range pr.Abstract.Vars {
				if s.all || i == p.j {
					s.goal(p, goalID{rule: ruleStepPost, kase: k, j: i, m: m}, w.varEq(us[m], a, i))
				}
			}
		}
		if s.wants(p, ruleStepEvent) {
			eventGoal(s, p, k, p.action, ps, cs, args)
		}
	})
}

// historyRule is the combined rule for history mappings (LV95 §5: a
// history relation is a forward simulation C → A whose inverse f is a
// refinement A → C; LLM12 §4.1; HOLCF/IOA is_history_relation):
//
//	start › refinement:  Init_A(a) ⇒ Init_C(f(a))
//	start › init:        Init_C(c) ⇒ Init_A(a₀)
//	start › mapping:     Init_C(c) ⇒ f(a₀) = c
//	guard (per α):       I_A(a) ∧ Nat(a) ∧ I_C(f(a)) ∧ Nat(f(a)) ⇒ (Pre_C,α(f(a), p) ⇔ Pre_A,α(a, p))
//	commute (per α):     … ∧ Pre_A,α(a, p) ∧ Pre_C,α(f(a), p) ⇒ f(Post_A,α(a, p)) = Post_C,α(f(a), p)
//	event (per α):       the views of α agree on p
//
// Together: for (c, a) with c = f(a), every C-step from c is matched by the
// same A-step from a with f of its post-state the C post-state (forward
// simulation with R = {(f(a), a)}), and every A-step from a by the same
// C-step from f(a) (refinement f). I_A may be assumed since a is
// reachable in both directions; I_C(f(a)) since f maps reachable states to
// reachable states (induction on the same obligations).
func historyRule[S, V, B any](s *sc[S, V, B], p *plan) {
	w, pr := s.w, p.proof
	switch p.rule {
	case ruleHistStartRef:
		a, err := w.freshState(pr.Abstract, "a")
		if s.fail(err) {
			return
		}
		b, err := w.init(pr.Abstract, a)
		s.hyp("init "+pr.Abstract.Name+"(a)", b, err)
		fa, err := w.stateOf(pr.Mapping, "f(a)", newEnv[S, V](nil).with(pr.A, a))
		if s.fail(err) {
			return
		}
		b, err = w.init(pr.Concrete, fa)
		s.fail(err)
		s.out.goal, s.out.what = b, "init "+pr.Concrete.Name+"(f(a))"
		return
	case ruleHistStartInit, ruleHistStartMap:
		c, err := w.freshState(pr.Concrete, "c")
		if s.fail(err) {
			return
		}
		b, err := w.init(pr.Concrete, c)
		s.hyp("init "+pr.Concrete.Name+"(c)", b, err)
		a0, err := w.stateOf(pr.Start, "a₀", newEnv[S, V](nil).with(pr.C, c))
		if s.fail(err) {
			return
		}
		if p.rule == ruleHistStartInit {
			b, err := w.init(pr.Abstract, a0)
			s.fail(err)
			s.out.goal, s.out.what = b, "init "+pr.Abstract.Name+"(a₀)"
			return
		}
		fa0, err := w.stateOf(pr.Mapping, "f(a₀)", newEnv[S, V](nil).with(pr.A, a0))
		if s.fail(err) {
			return
		}
		var eqs []B
		for i := range pr.Concrete.Vars {
			eqs = append(eqs, w.varEq(fa0, c, i))
		}
		s.out.goal, s.out.what = w.and(eqs...), "f(a₀) = c"
		return
	}
	aa := pr.Abstract.Action(p.action.Name)
	a, err := w.freshState(pr.Abstract, "a")
	if s.fail(err) {
		return
	}
	ps, err := w.freshParams(p.action, "p")
	if s.fail(err) {
		return
	}
	if p.rule == ruleHistEvent {
		eventGoal(s, p, 0, p.action, ps, &ioa.Case{Steps: []*ioa.AbstractStep{{Action: aa, Args: nil}}}, [][]V{ps})
		return
	}
	fa, err := w.stateOf(pr.Mapping, "f(a)", newEnv[S, V](nil).with(pr.A, a))
	if s.fail(err) {
		return
	}
	s.assumed(pr.Abstract, pr.AssumeAbstract, a, "a")
	s.nats(pr.Abstract, a, "a")
	s.assumed(pr.Concrete, pr.AssumeConcrete, fa, "f(a)")
	s.nats(pr.Concrete, fa, "f(a)")
	preA, err := w.pre(aa, a, ps)
	if s.fail(err) {
		return
	}
	preC, err := w.pre(p.action, fa, ps)
	if s.fail(err) {
		return
	}
	if p.rule == ruleHistGuard {
		s.out.goal = w.iff(preC, preA)
		s.out.what = fmt.Sprintf("pre %s(f(a), p) <=> pre %s(a, p)", p.action.Name, aa.Name)
		return
	}
	s.hyp("pre "+aa.Name+"(a, p)", preA, nil)
	s.hyp("pre "+p.action.Name+"(f(a), p)", preC, nil)
	ap, err := w.post(aa, a, ps, "apost")
	if s.fail(err) {
		return
	}
	cp, err := w.post(p.action, fa, ps, "cpost")
	if s.fail(err) {
		return
	}
	fap, err := w.stateOf(pr.Mapping, "f(apost)", newEnv[S, V](nil).with(pr.A, ap))
	if s.fail(err) {
		return
	}
	var eqs []B
	for i := range pr.Concrete.Vars {
		eqs = append(eqs, w.varEq(fap, cp, i))
	}
	s.out.goal, s.out.what = w.and(eqs...), "f(Post_A(a, p)) = Post_C(f(a), p)"
}

// stepPreName describes the precondition goal of abstract step j of a case
// for people: "precondition of Acquire(p) in a", or "… after abstract step j"
// when earlier abstract steps of the case come first.
func stepPreName(st *ioa.AbstractStep, j int) string {
	args := make([]string, len(st.Args))
	for i, a := range st.Args {
		args[i] = expr.Print(a)
	}
	call := st.Action.Name + "(" + strings.Join(args, ", ") + ")"
	if j == 0 {
		return "precondition of " + call + " in a"
	}
	return fmt.Sprintf("precondition of %s after abstract step %d", call, j)
}
