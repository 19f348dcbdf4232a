// This file asks package simulation for every verdict: the obligations of
// the edge, evaluated at the point of a concrete step by the rules that
// also build the solver's problems (simulation.PointChecker). The rest of
// the package searches for the points and explains a failure; it does not
// decide one.

package crosscheck

import (
	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/simulation"
)

// stepVerdict evaluates the obligations about the concrete step tr at
// the point (c = tr.Pre, a, p = tr.Params), by one run of the rules per
// step (simulation.PointChecker.EvalStep). It returns the case whose
// guards select the step (-1 when none does), the first obligation, in
// Generate's order, that fails (nil when none does), and u_m, the
// abstract state the case's steps end in (nil when the rules did not
// take them all). For refinements a is unused (the rules compute f(c)).
func (x *checker) stepVerdict(tr *explore.Transition, a eval.State) (int, *simulation.Verdict, eval.State, error) {
	// Values memoized at a point are keyed by the identity of its
	// states and parameters, and the searches reuse their buffers: every
	// step starts afresh.
	x.rules.Reset()
	if x.pt == nil {
		x.pt = &simulation.Point{States: map[string]eval.State{}}
	}
	// The rules take the step's post-state from the explorer (the same
	// evaluator).
	x.pt.States["c"], x.pt.States["a"], x.pt.Params, x.pt.Related = tr.Pre, a, tr.Params, x.related
	if x.pt.Steps == nil {
		x.pt.Steps = make([]simulation.StepSeed, 1)
	}
	x.pt.Steps[0] = simulation.StepSeed{Action: tr.Action, From: tr.Pre, Params: tr.Params, Post: tr.Post}
	r, err := x.rules.EvalStep(tr.Action, x.pt)
	if err != nil {
		return -1, nil, nil, err
	}
	return r.Case, r.Failed, r.Last, nil
}

// firstFailing evaluates plans at the point of the given states and
// parameters, in order, and returns the verdict of the first that fails,
// or nil.
func (x *checker) firstFailing(states map[string]eval.State, params []eval.Value, plans []*simulation.PointPlan, steps ...simulation.StepSeed) (*simulation.Verdict, error) {
	x.rules.Reset() // the explorer reuses its buffers: start afresh
	pt := &simulation.Point{States: states, Params: params, Steps: steps}
	for _, pl := range plans {
		v, err := x.rules.Eval(pl, pt)
		if err != nil {
			return nil, err
		}
		if !v.Holds {
			return &v, nil
		}
	}
	return nil, nil
}

// plansOf returns the plans that are not about one action (start,
// totality) with clause, in Generate's order; with names, only those
// whose name is one of them.
func (x *checker) plansOf(clause string, names ...string) []*simulation.PointPlan {
	var out []*simulation.PointPlan
	for _, pl := range x.rules.StartPlans() {
		if pl.Clause != clause {
			continue
		}
		ok := len(names) == 0
		for _, n := range names {
			ok = ok || pl.Name == n
		}
		if ok {
			out = append(out, pl)
		}
	}
	return out
}

// actionPlans returns the plans of concrete action act with clause, in
// Generate's order.
func (x *checker) actionPlans(act *ioa.Action, clause string) []*simulation.PointPlan {
	type key struct {
		act    *ioa.Action
		clause string
	}
	k := key{act, clause}
	if ps, ok := x.planCache[k]; ok {
		return ps.([]*simulation.PointPlan)
	}
	if x.planCache == nil {
		x.planCache = map[any]any{}
	}
	var out []*simulation.PointPlan
	defer func() { x.planCache[k] = out }()
	for _, pl := range x.rules.StepPlans(act) {
		if pl.Clause == clause {
			out = append(out, pl)
		}
	}
	return out
}
