// This file implements the step rules of refinement mappings, forward and
// backward simulations: the case guards, the abstract steps of a case, and
// their pre, post, relation, event, cases and totality goals.

package simulation

import (
	"errors"
	"fmt"

	"ladder/ioa"
)

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
	var ran *loopRun[S, V] // a concrete world's iterations, for the case's run
	for j, st := range c.Steps {
		if st.Loop != nil {
			args = append(args, nil) // per iteration; an internal step shows no event
			if j >= n {
				continue
			}
			u, it := passLoop(s, p, k, j, st, us[j], env)
			if s.err != nil {
				return nil, nil
			}
			us, ran = append(us, u), it
			continue
		}
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
		u, err := s.w.post(st.Action, us[j], th, stepStateName(j+1))
		if s.fail(err) {
			return nil, nil
		}
		us = append(us, u)
	}
	if s.record {
		s.out.run, s.out.ran = caseRun{kase: k, us: us, args: args}, true
		if ran != nil {
			s.out.run = ran.expand(k, c, us, args)
		}
	}
	return us, args
}

// caseSteps takes the abstract steps of case k, c, from u0 for a step
// rule (abstractSteps): all of them, or, for the goal pre(β_j) of a plan
// that is not an all-goals scenario, the first j, then sets that goal
// (preGoal). It returns the states and arguments, and false when the rule
// is done: an error, or the pre goal set.
func caseSteps[S, V, B any](s *sc[S, V, B], p *plan, k int, c *ioa.Case, u0 S, env *wenv[S, V]) ([]S, [][]V, bool) {
	pre := !s.all && p.rule == ruleStepPre
	loop := !s.all && (p.rule == ruleLoopStart || p.rule == ruleLoopPre || p.rule == ruleLoopStep)
	n := len(c.Steps)
	if pre || loop {
		n = p.j
	}
	us, args := abstractSteps(s, p, k, c, u0, env, n)
	if s.err != nil {
		return nil, nil, false
	}
	if pre {
		preGoal(s, p, k, c, us, args)
		return nil, nil, false
	}
	if loop {
		loopGoal(s, p, k, c.Steps[p.j], us[p.j], env)
		return nil, nil, false
	}
	return us, args, true
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
		cv, err := s.w.values(act.View.Args, s.w.env(ps))
		if s.fail(err) {
			return
		}
		av, err := s.w.values(st.Action.View.Args, s.w.env(args[j]))
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
//
// A world may know that R holds at a pair (world.related: a cross-check's
// stored pairs, Point.Related); the symbolic world knows none. There the
// hypothesis R(c, a) is true and not added, and the goals R_i(cpost, u_m)
// are true: an all-goals scenario, which reports its false goals, adds
// none, and a single plan's goal is true. A world that knows R(c, a) may
// also know that a clause R_i reads only variables the steps left alone
// (world.framed, frame.go); then R_i(cpost, u_m) = R_i(c, a) is true.
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
		a, err = w.stateOf(pr.Mapping, "a", w.env(nil).with(pr.C, c))
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
	preRelated := pr.Kind == ioa.ProofForward && w.related(c, a)
	if pr.Kind == ioa.ProofForward && !preRelated {
		for _, cl := range pr.Relation {
			b, err := w.holds(cl.Body, w.env(nil).with(pr.C, c).with(pr.A, a))
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
	env := w.env(ps).with(pr.C, c).with(pr.A, a).with(pr.CPost, cpost)
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
		us, args, ok := caseSteps(s, p, k, cs, a, env)
		if !ok {
			return
		}
		m := len(us) - 1
		if s.all {
			s.out.last = us[m]
		}
		if pr.Kind.IsRefinement() && s.wants(p, ruleStepPost) {
			fpost, err := w.stateOf(pr.Mapping, "f(cpost)", w.env(nil).with(pr.C, cpost))
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
			known := w.related(cpost, us[m])
			for i, cl := range pr.Relation {
				if s.all && known || !s.all && cl != p.clause {
					continue
				}
				b := w.tt()
				// known: R(cpost, u_m) holds; framed: R_i(c, a) holds,
				// and R_i reads nothing the steps changed
				if !known && !(preRelated && w.framed(i, cl, c, a, cpost, us[m])) {
					var err error
					if b, err = w.holds(cl.Body, w.env(nil).with(pr.C, cpost).with(pr.A, us[m])); s.fail(err) {
						return
					}
				}
				s.goal(p, goalID{rule: ruleStepRel, kase: k, clause: cl, m: m}, b)
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
// apre need not be reachable. A world that knows R(cpost, a) or
// R(c, apre) (world.related: a cross-check's candidates, Point.Related)
// leaves that true hypothesis out, or takes that goal as true; the
// symbolic world knows none.
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
	if !w.related(cpost, a) {
		for _, cl := range pr.Relation {
			b, err := w.holds(cl.Body, w.env(nil).with(pr.C, cpost).with(pr.A, a))
			s.hypf(func() string { return cl.Name + "(cpost, a)" }, b, err)
			if s.stop != nil && s.err != nil {
				return
			}
		}
	}
	if s.err != nil {
		return
	}
	base := w.env(ps).with(pr.C, c).with(pr.A, a).with(pr.CPost, cpost)
	envs := make([]*wenv[S, V], len(p.step.Cases)) // per case, once
	envFor := func(j int) *wenv[S, V] {
		if envs[j] != nil {
			return envs[j]
		}
		apre, err := w.stateOf(p.step.Cases[j].Pre, "apre", base)
		if s.fail(err) {
			return base
		}
		envs[j] = w.env(ps).with(pr.C, c).with(pr.A, a).with(pr.CPost, cpost).with(pr.APre, apre)
		return envs[j]
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
			known := w.related(c, apre)
			for _, cl := range pr.Relation {
				if s.all && known || !s.all && cl != p.clause {
					continue
				}
				b := w.tt()
				if !known {
					var err error
					if b, err = w.holds(cl.Body, w.env(nil).with(pr.C, c).with(pr.A, apre)); s.fail(err) {
						return
					}
				}
				s.goal(p, goalID{rule: ruleStepRel, kase: k, clause: cl}, b)
			}
			if !s.all {
				return
			}
		}
		cs := p.step.Cases[k]
		us, args, ok := caseSteps(s, p, k, cs, apre, env)
		if !ok {
			return
		}
		m := len(us) - 1
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

// stepStateName returns "u<j>", the name of the state after the j-th
// abstract step of a case (without formatting for the usual few steps).
func stepStateName(j int) string {
	switch j {
	case 1:
		return "u1"
	case 2:
		return "u2"
	case 3:
		return "u3"
	}
	return fmt.Sprintf("u%d", j)
}
