// This file implements the rule of a repeated abstract step (ioa.Loop):
// a forward simulation's case may match a concrete step with an abstract
// step β(θ(k)) taken for k = lo, …, hi−1, proved with a loop invariant J
// instead of step by step (docs/proofs.md, "Repeated steps").

package simulation

import (
	"fmt"
	"strings"

	"ladder/ioa"
	"ladder/ioa/expr"
)

// maxLoopIterations bounds the iterations a concrete world runs for one
// repeated step: a cross-check's instance is small, and a range beyond it
// is a mistake in the proof (an error, not a verdict).
const maxLoopIterations = 1 << 16

// loopFresh is the name of the free loop variable of an iteration's
// obligations (its parameter list), and loopState the free state u.
const (
	loopFresh = "loop"
	loopState = "u"
)

// loopEnv returns env with the loop variable bound to kv (as the
// parameter after the concrete action's) and the loop state object to u.
func loopEnv[S, V, B any](w world[S, V, B], env *wenv[S, V], kv V, obj *expr.Object, u S) *wenv[S, V] {
	ps := make([]V, len(env.params), len(env.params)+1)
	copy(ps, env.params)
	out := w.env(append(ps, kv))
	for i := 0; i < env.n; i++ {
		out.with(env.objs[i], env.sts[i])
	}
	return out.with(obj, u)
}

// loopGoal sets the goal of a loop plan (not an all-goals scenario) of
// case k, whose step st repeats from u_j, the state the case's earlier
// steps reached (Hoa69's rule for while, over the finite range lo..hi):
//
//	loop(start)  H ⇒ lo ≤ hi ∧ J(u_j, lo)
//	loop(pre)    H ∧ lo ≤ k < hi ∧ J(u, k) ∧ I_A(u) ∧ Nat(u) ⇒ Pre_β(u, θ(k))
//	loop(step)   … ∧ Pre_β(u, θ(k)) ⇒ J(Post_β(u, θ(k)), k + 1)
//
// where H are the hypotheses of the case up to step j, and u, k are
// fresh. Every u the iterations reach is reachable in A (it is reached
// from a reachable state by steps of A), so the abstract invariants and
// Nat conditions may be assumed of it, as forwardStep assumes them of a.
func loopGoal[S, V, B any](s *sc[S, V, B], p *plan, k int, st *ioa.AbstractStep, uj S, env *wenv[S, V]) {
	w, lp, pr := s.w, st.Loop, p.proof
	id := goalID{rule: p.rule, kase: k, j: p.j}
	if p.rule == ruleLoopStart {
		lo, err := w.values([]expr.Expr{lp.From}, env)
		if s.fail(err) {
			return
		}
		b, err := w.holds(lp.Bounds, env)
		if s.fail(err) {
			return
		}
		j, err := w.holds(lp.Invariant, loopEnv(w, env, lo[0], lp.State, uj))
		if s.fail(err) {
			return
		}
		s.goal(p, id, w.and(b, j))
		return
	}
	kv, err := w.freshParams(lp.Counter, loopFresh)
	if s.fail(err) {
		return
	}
	u, err := w.freshState(pr.Abstract, loopState)
	if s.fail(err) {
		return
	}
	ienv := loopEnv(w, env, kv[0], lp.State, u)
	b, err := w.holds(lp.InRange, ienv)
	s.hypf(func() string { return "loop range " + lp.Var.Name }, b, err)
	b, err = w.holds(lp.Invariant, ienv)
	s.hypf(func() string { return "J(u, " + lp.Var.Name + ")" }, b, err)
	s.assumed(pr.Abstract, pr.AssumeAbstract, u, loopState)
	s.nats(pr.Abstract, u, loopState)
	if s.err != nil {
		return
	}
	th, err := w.values(st.Args, ienv)
	if s.fail(err) {
		return
	}
	pre, err := w.pre(st.Action, u, th)
	if p.rule == ruleLoopPre {
		if !s.fail(err) {
			s.goal(p, id, pre)
		}
		return
	}
	s.hypf(func() string { return "pre " + st.Action.Name + "(u)" }, pre, err)
	if s.err != nil {
		return
	}
	next, err := w.post(st.Action, u, th, loopState+"'")
	if s.fail(err) {
		return
	}
	kn, err := w.values([]expr.Expr{lp.Next}, ienv)
	if s.fail(err) {
		return
	}
	j, err := w.holds(lp.Invariant, loopEnv(w, env, kn[0], lp.State, next))
	if !s.fail(err) {
		s.goal(p, id, j)
	}
}

// passLoop takes the repeated step st, step j of case k, from u_j for the
// goals after it, and returns the state after the loop. In a symbolic
// scenario that is a fresh state u_{j+1} of which the loop's conclusion
// is assumed: lo ≤ hi, J(u_{j+1}, hi), and, being reachable, I_A and Nat
// (loop(start), loop(pre) and loop(step) prove the loop reaches such a
// state). A concrete world that runs every goal (a cross-check) runs the
// iterations instead, with their loop goals, and returns them too.
func passLoop[S, V, B any](s *sc[S, V, B], p *plan, k, j int, st *ioa.AbstractStep, uj S, env *wenv[S, V]) (S, *loopRun[S, V]) {
	w, lp, pr := s.w, st.Loop, p.proof
	var zero S
	bounds, err := w.values([]expr.Expr{lp.From, lp.To}, env)
	if s.fail(err) {
		return zero, nil
	}
	if s.all {
		return runLoop(s, p, k, j, st, uj, env, bounds[0], bounds[1])
	}
	b, err := w.holds(lp.Bounds, env)
	s.hypf(func() string { return "loop bounds" }, b, err)
	name := stepStateName(j + 1)
	u, err := w.freshState(pr.Abstract, name)
	if s.fail(err) {
		return zero, nil
	}
	b, err = w.holds(lp.Invariant, loopEnv(w, env, bounds[1], lp.State, u))
	s.hypf(func() string { return "J(" + name + ", hi)" }, b, err)
	s.assumed(pr.Abstract, pr.AssumeAbstract, u, name)
	s.nats(pr.Abstract, u, name)
	return u, nil
}

// runLoop runs the iterations of st from u_j in a concrete world, in an
// all-goals scenario: the goal loop(start) at lo, then per iteration
// loop(pre) and loop(step) (the invariant after it), each with the
// iteration as its witness (goalB.at) for the plan's own evaluation.
func runLoop[S, V, B any](s *sc[S, V, B], p *plan, k, j int, st *ioa.AbstractStep, uj S, env *wenv[S, V], from, to V) (S, *loopRun[S, V]) {
	w, lp := s.w, st.Loop
	var zero S
	lo, hi, ok := w.loopRange(from, to)
	if !ok {
		s.fail(fmt.Errorf("internal: a repeated step in an all-goals scenario of a symbolic world"))
		return zero, nil
	}
	run := &loopRun[S, V]{j: j, step: st}
	u := uj
	var at *loopAt[S, V] // the iteration that reached u
	for kk := lo; ; kk++ {
		if kk-lo > maxLoopIterations {
			s.fail(fmt.Errorf("the repeated step %s runs more than %d times from %d", st.Action.Name, maxLoopIterations, lo))
			return zero, nil
		}
		kv := w.intVal(kk)
		ienv := loopEnv(w, env, kv, lp.State, u)
		b, err := w.holds(lp.Invariant, ienv)
		if s.fail(err) {
			return zero, nil
		}
		id := goalID{rule: ruleLoopStep, kase: k, j: j}
		if kk == lo {
			bb, err := w.holds(lp.Bounds, env)
			if s.fail(err) {
				return zero, nil
			}
			b, id.rule = w.and(bb, b), ruleLoopStart
		}
		s.goalAt(p, id, b, at)
		s.hypf(func() string { return fmt.Sprintf("J(u, %d)", kk) }, b, nil)
		if s.err != nil || kk >= hi {
			break
		}
		th, err := w.values(st.Args, ienv)
		if s.fail(err) {
			return zero, nil
		}
		pre, err := w.pre(st.Action, u, th)
		if s.fail(err) {
			return zero, nil
		}
		at = &loopAt[S, V]{u: u, k: kv}
		s.goalAt(p, goalID{rule: ruleLoopPre, kase: k, j: j}, pre, at)
		s.hypf(func() string { return fmt.Sprintf("pre %s(u) at %d", st.Action.Name, kk) }, pre, nil)
		if s.err != nil {
			break
		}
		if u, err = w.post(st.Action, u, th, loopState); s.fail(err) {
			return zero, nil
		}
		run.us, run.args = append(run.us, u), append(run.args, th)
	}
	return u, run
}

// loopAt is an iteration of a repeated step: the state u before it and
// the value of k, the free variables of its loop(pre) and loop(step)
// obligations.
type loopAt[S, V any] struct {
	u S
	k V
}

// loopRun is the iterations a concrete world ran for step j of a case:
// the state after each and the arguments of each.
type loopRun[S, V any] struct {
	j    int
	step *ioa.AbstractStep
	us   []S
	args [][]V
}

// expand returns the run of case k, c, with the repeated step replaced
// by its iterations: us and args are the case's states and arguments as
// abstractSteps computed them (one state and no arguments for the loop).
func (r *loopRun[S, V]) expand(k int, c *ioa.Case, us []S, args [][]V) caseRun {
	steps := make([]*ioa.AbstractStep, 0, len(c.Steps)+len(r.us))
	xs := append(make([]S, 0, len(us)+len(r.us)), us[0])
	as := make([][]V, 0, len(args)+len(r.us))
	for j, st := range c.Steps {
		if j == r.j {
			for i := range r.us {
				steps, as, xs = append(steps, st), append(as, r.args[i]), append(xs, r.us[i])
			}
			continue
		}
		steps, as = append(steps, st), append(as, args[j])
		if j+1 < len(us) {
			xs = append(xs, us[j+1])
		}
	}
	return caseRun{kase: k, us: xs, args: as, steps: steps}
}

// loopWhat describes the goal id of a loop plan of p.
func loopWhat(p *plan, id goalID) string {
	st := p.step.Cases[id.kase].Steps[id.j]
	lp := st.Loop
	args := make([]string, len(st.Args))
	for i, a := range st.Args {
		args[i] = expr.Print(a)
	}
	call := st.Action.Name + "(" + strings.Join(args, ", ") + ")"
	switch id.rule {
	case ruleLoopStart:
		return fmt.Sprintf("%s and the loop invariant at %s = %s", expr.Print(lp.Bounds), lp.Var.Name, expr.Print(lp.From))
	case ruleLoopPre:
		return fmt.Sprintf("the precondition of %s in u", call)
	}
	return fmt.Sprintf("the loop invariant at %s + 1, after %s from u", lp.Var.Name, call)
}
