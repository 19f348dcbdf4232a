// This file implements the rules of invariant obligations (I0, I1) and of
// the start conditions of edges.

package simulation

import (
	"fmt"

	"ladder/ioa/eval"
)

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
		tau, err := w.stateOf(pr.Total, "τ(c)", w.env(nil).with(pr.C, c))
		if s.fail(err) {
			return
		}
		b, err := w.holds(p.clause.Body, w.env(nil).with(pr.C, c).with(pr.A, tau))
		s.fail(err)
		s.out.goal, s.out.what = b, p.clause.Name+"(c, τ(c))"
		return
	}
	b, err := w.init(pr.Concrete, c)
	s.hyp("init "+pr.Concrete.Name+"(c)", b, err)
	switch p.rule {
	case ruleRefStart:
		fc, err := w.stateOf(pr.Mapping, "f(c)", w.env(nil).with(pr.C, c))
		if s.fail(err) {
			return
		}
		b, err := w.init(pr.Abstract, fc)
		s.fail(err)
		s.out.goal, s.out.what = b, "init "+pr.Abstract.Name+"(f(c))"
	case ruleFwdStartInit, ruleFwdStartRel:
		a0, err := w.stateOf(pr.Start, "a₀", w.env(nil).with(pr.C, c))
		if s.fail(err) {
			return
		}
		if p.rule == ruleFwdStartInit {
			b, err := w.init(pr.Abstract, a0)
			s.fail(err)
			s.out.goal, s.out.what = b, "init "+pr.Abstract.Name+"(a₀)"
			return
		}
		b, err := w.holds(p.clause.Body, w.env(nil).with(pr.C, c).with(pr.A, a0))
		s.fail(err)
		s.out.goal, s.out.what = b, p.clause.Name+"(c, a₀)"
	case ruleBwdStart:
		s.assumed(pr.Concrete, pr.AssumeConcrete, c, "c")
		a, err := w.freshState(pr.Abstract, "a")
		if s.fail(err) {
			return
		}
		for _, cl := range pr.Relation {
			b, err := w.holds(cl.Body, w.env(nil).with(pr.C, c).with(pr.A, a))
			s.hyp(cl.Name+"(c, a)", b, err)
		}
		b, err := w.init(pr.Abstract, a)
		s.fail(err)
		s.out.goal, s.out.what = b, "init "+pr.Abstract.Name+"(a)"
	}
}
