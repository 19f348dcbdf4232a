// This file implements the rules of history mappings: guard, commute and
// event.

package simulation

import (
	"fmt"
	"strings"

	"ladder/ioa"
	"ladder/ioa/expr"
)

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
		fa, err := w.stateOf(pr.Mapping, "f(a)", w.env(nil).with(pr.A, a))
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
		a0, err := w.stateOf(pr.Start, "a₀", w.env(nil).with(pr.C, c))
		if s.fail(err) {
			return
		}
		if p.rule == ruleHistStartInit {
			b, err := w.init(pr.Abstract, a0)
			s.fail(err)
			s.out.goal, s.out.what = b, "init "+pr.Abstract.Name+"(a₀)"
			return
		}
		fa0, err := w.stateOf(pr.Mapping, "f(a₀)", w.env(nil).with(pr.A, a0))
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
	fa, err := w.stateOf(pr.Mapping, "f(a)", w.env(nil).with(pr.A, a))
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
	fap, err := w.stateOf(pr.Mapping, "f(apost)", w.env(nil).with(pr.A, ap))
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
