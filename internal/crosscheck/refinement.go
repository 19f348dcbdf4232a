// This file implements the cross-check of refinement mappings
// (refinement and simple-refinement): the concrete automaton is explored
// and every start state and step is checked against the mapping.

package crosscheck

import (
	"fmt"
	"strings"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// searchConcrete explores C with a visitor that records the search tree,
// checks the assumed concrete invariants in every new state and calls
// state for every new state (after recording how it was found) and step
// for every transition.
func (x *checker) searchConcrete(state func(id int, root, vouched bool, s eval.State) error, step func(tr *explore.Transition) error) error {
	return x.search(false, state, step)
}

// search is searchConcrete, or with abstract set the same search of A.
func (x *checker) search(abstract bool, state func(id int, root, vouched bool, s eval.State) error, step func(tr *explore.Transition) error) error {
	if x.capture != nil {
		x.capture(state, step)
		return errCaptured
	}
	s := x.newSearch(abstract, false)
	s.node = func(id int, root bool, f nodeFacts, st, _ eval.State) error {
		name := f.inv
		if !f.invDone {
			var err error
			if name, err = x.violated(abstract, st); err != nil {
				return err
			}
		}
		if name != "" {
			return x.assumeFailure(id, s.auto, name, "", nil)
		}
		return state(id, root, f.vouched, st)
	}
	if !x.cfg.evalRelation {
		s.inv = func(w *checker, st eval.State) (string, error) { return w.violated(abstract, st) }
	}
	s.step = step
	inits, err := s.m.Init()
	if err != nil {
		return err
	}
	for _, s0 := range inits {
		if err := s.addRoot(s0, nil); err != nil {
			return err
		}
	}
	return s.run()
}

// assumeFailure reports that state id of the explored automaton (or,
// with s given, a state computed from it, named sName) violates the
// assumed invariant or Nat condition inv of automaton a.
func (x *checker) assumeFailure(id int, a *ioa.Automaton, inv, sName string, s eval.State) error {
	tr, matched, err := x.traceOf(id)
	if err != nil {
		return err
	}
	clause := "assume " + a.Name + "." + inv
	f := &Failure{Obligation: join(x.group, clause), Clause: clause, Trace: tr, Abstract: matched, States: []NamedState{}}
	if s == nil {
		f.Message = fmt.Sprintf("the last state violates %s, which the obligations assume", inv)
	} else {
		f.Message = fmt.Sprintf("%s, computed from the last state, violates the invariant %s of %s, which the obligations assume", sName, inv, a.Name)
		f.States = append(f.States, named(sName, a, s, "", nil))
	}
	x.failure = f
	return errFailed
}

// refinement cross-checks a refinement mapping.
func (x *checker) refinement() error {
	p := x.p
	return x.searchConcrete(func(id int, root, _ bool, c eval.State) error {
		fc, err := x.stateOf(x.mapping, &env{c: c})
		if err != nil {
			return err
		}
		if root {
			v, err := x.firstFailing(map[string]eval.State{"c": c}, nil, x.plansOf(simulation.ClauseStart))
			if err != nil {
				return err
			}
			if v != nil {
				tr, _, err := x.traceOf(id)
				if err != nil {
					return err
				}
				x.failure = &Failure{Obligation: join(x.group, "start"), Clause: "start", Trace: tr,
					Message: fmt.Sprintf("f(c) is not a start state of %s: %s", p.Abstract.Name, v.Why),
					States:  []NamedState{named("f(c)", p.Abstract, fc, "", nil)}}
				return errFailed
			}
		}
		name, err := x.violated(true, fc)
		if err != nil {
			return err
		}
		if name != "" {
			return x.assumeFailure(id, p.Abstract, name, "f(c)", fc)
		}
		return nil
	}, func(tr *explore.Transition) error {
		// f(c) and f(cpost) are the states the rules computed.
		_, err := x.matchStep(tr, nil, "f(c)", func(v *simulation.Verdict) ([]string, []NamedState, error) {
			fc, fpost := v.State("a"), v.State("f(cpost)")
			m := len(v.Run.States) - 1
			_, ds := diffs(p.Abstract, fmt.Sprintf("u%d", m), v.Run.States[m], "f(cpost)", fpost)
			return ds, []NamedState{named("f(cpost)", p.Abstract, fpost, "f(c)", fc)}, nil
		})
		return err
	})
}

// matchStep checks a concrete step from abstract state a (named aName)
// for refinements and forward simulations, and returns u_m, the abstract
// state the step is matched with. The verdicts are the rules'
// (stepVerdict), and so is the explanation of a failure: the case's
// abstract steps as the rules took them (simulation.Verdict.Run), with,
// for a failing post or relation clause, the details and further states
// that post gives.
func (x *checker) matchStep(tr *explore.Transition, a eval.State, aName string,
	post func(v *simulation.Verdict) ([]string, []NamedState, error)) (eval.State, error) {
	p := x.p
	sm := x.steps[tr.Action]
	if sm == nil {
		return nil, fmt.Errorf("no step correspondence for %s", tr.Action.Name)
	}
	x.res.Checks++
	pa := a
	if p.Kind.IsRefinement() {
		pa = nil // the rules compute a = f(c)
	}
	k, v, um, err := x.stepVerdict(tr, pa)
	if err != nil {
		return nil, err
	}
	if k < 0 && v == nil {
		return nil, fmt.Errorf("internal error: no case of %s was evaluated", tr.Action.Name)
	}
	if v == nil {
		x.countCase(tr.Action, k)
		if um == nil {
			return nil, fmt.Errorf("internal error: the rules did not take the abstract steps of %s case %d", tr.Action.Name, k+1)
		}
		return um, nil
	}
	if a == nil {
		a = v.State("a") // f(c)
	}
	if v.Plan.Clause == simulation.ClauseCases {
		return nil, x.verdictFailure(tr, sm, v, -1, "no case's guard holds", nil,
			[]NamedState{named(aName, p.Abstract, a, "", nil)}, nil)
	}
	x.countCase(tr.Action, k)
	r := v.Run
	if r == nil {
		return nil, fmt.Errorf("internal error: the rules did not record the abstract steps of %s", v.Plan.ID)
	}
	switch v.Plan.Clause {
	case simulation.ClausePre:
		j := v.Plan.Index
		return nil, x.verdictFailure(tr, sm, v, k,
			fmt.Sprintf("the abstract step %s is not enabled in %s", x.call(r, j), uName(aName, j)),
			whyDisabled(x.mA, r.Steps[j].Action, r.States[j], r.Args[j]), x.runStates(aName, r), x.calls(r))
	case simulation.ClauseEvent:
		msg, err := x.eventCheck(tr.Action, tr.Params, r)
		if err != nil {
			return nil, err
		}
		if msg == "" { // the events differ in the values the rules compare
			msg = v.What + " is false"
		}
		return nil, x.verdictFailure(tr, sm, v, k, msg, nil, x.runStates(aName, r), x.calls(r))
	case simulation.ClauseLoop:
		// the iteration's state u, and u' after its step (loop(step))
		states := x.runStates(aName, r)
		for _, st := range v.States {
			if st.Automaton == p.Abstract && (st.Name == "u" || st.Name == "u'") {
				states = append(states, named(st.Name, p.Abstract, st.State, "", nil))
			}
		}
		return nil, x.verdictFailure(tr, sm, v, k, v.What+" is false", nil, states, x.calls(r))
	}
	// post(x) or relation(R): the explanation lists every differing
	// variable or failing clause, the first being the obligation's.
	ds, more, err := post(v)
	if err != nil {
		return nil, err
	}
	return nil, x.verdictFailure(tr, sm, v, k, postMessage(v.Plan.Name, len(r.States)-1), ds,
		append(x.runStates(aName, r), more...), x.calls(r))
}

// postMessage describes a failed post or relation clause.
func postMessage(clause string, m int) string {
	c, err := ioa.ParseStepClause(clause)
	switch {
	case err != nil:
	case c.Kind == ioa.ClausePost:
		return fmt.Sprintf("u%d.%s = f(cpost).%s is false: the abstract steps do not end in the mapping of the concrete post-state", m, c.Arg, c.Arg)
	case c.Kind == ioa.ClauseRelation:
		return fmt.Sprintf("%s(cpost, u%d) is false", c.Arg, m)
	}
	return clause + " fails"
}

// uName is the name of state u_j of a run from a state named aName.
func uName(aName string, j int) string {
	if j == 0 {
		return "u0 = " + aName
	}
	return fmt.Sprintf("u%d", j)
}

// runStates returns the states of a run: u0 in full, the others as changes.
func (x *checker) runStates(aName string, r *simulation.Run) []NamedState {
	a := x.p.Abstract
	out := []NamedState{named(uName(aName, 0), a, r.States[0], "", nil)}
	for j := 1; j < len(r.States); j++ {
		prev := aName
		if j > 1 {
			prev = fmt.Sprintf("u%d", j-1)
		}
		out = append(out, named(fmt.Sprintf("u%d", j), a, r.States[j], prev, r.States[j-1]))
	}
	return out
}

// verdictFailure records the failure of the obligation of verdict v (in
// case k, or -1 for case coverage), explained by msg, details, states and
// calls.
func (x *checker) verdictFailure(tr *explore.Transition, sm *ioa.StepMatch, v *simulation.Verdict, k int, msg string, details []string, states []NamedState, calls []string) error {
	err := x.stepFailure(tr, sm, k, v.Plan.Name, msg, details, states, calls)
	if x.failure != nil {
		x.failure.Obligation = v.Plan.ID
	}
	return err
}

// stepFailure records the failure of a concrete step (k < 0: no case).
func (x *checker) stepFailure(tr *explore.Transition, sm *ioa.StepMatch, k int, clause, msg string, details []string, states []NamedState, calls []string) error {
	trace, matched, err := x.traceOf(tr.From)
	if err != nil {
		return err
	}
	if err := addStep(trace, x.mC, tr.Action, tr.Params, tr.Post); err != nil {
		return err
	}
	f := &Failure{Clause: clause, Action: tr.Action.Name, Cases: len(sm.Cases), Message: msg, Details: details,
		Step: x.mC.FormatAction(tr.Action, tr.Params), Trace: trace, Abstract: matched, States: states, Steps: calls}
	if k >= 0 {
		f.Case = k + 1
		f.Obligation = join(x.group, tr.Action.Name, caseName(sm, k), clause)
	} else {
		f.Obligation = join(x.group, tr.Action.Name, clause)
	}
	if f.States == nil {
		f.States = []NamedState{}
	}
	x.failure = f
	return errFailed
}

// whyDisabled explains why act(params) is not enabled in s: the Int
// parameters outside their ranges and the top-level conjuncts of the
// precondition that are false, in the language's notation.
func whyDisabled(m *eval.Machine, act *ioa.Action, s eval.State, params []eval.Value) []string {
	var out []string
	for i, b := range act.Params {
		if b == nil || b.Lo == nil || b.Hi == nil || i >= len(params) {
			continue
		}
		lo, err1 := evalIn(m, b.Lo, s, params[:i])
		hi, err2 := evalIn(m, b.Hi, s, params[:i])
		if err1 != nil || err2 != nil {
			continue
		}
		if v := params[i].Int(); v < lo.Int() || v >= hi.Int() {
			out = append(out, fmt.Sprintf("parameter %s = %d is outside its range %d..%d", b.Var.Name, v, lo.Int(), hi.Int()))
		}
	}
	if act.Pre != nil {
		for _, c := range splitAnd(act.Pre, nil) {
			v, err := evalIn(m, c, s, params)
			if err == nil && !v.Bool() {
				out = append(out, "false: "+expr.Print(c))
			}
		}
	}
	if len(out) == 0 {
		out = append(out, "(no false conjunct found)")
	}
	if len(act.Params) > 0 && len(params) == len(act.Params) {
		var ps []string
		for i, b := range act.Params {
			ps = append(ps, b.Var.Name+" = "+eval.Format(params[i], paramSort(b)))
		}
		out = append(out, "where "+strings.Join(ps, ", "))
	}
	return out
}

// paramSort returns the sort of an action parameter (Int for a range).
func paramSort(b *expr.Binder) *expr.Sort {
	if b.Var != nil && b.Var.Sort != nil {
		return b.Var.Sort
	}
	return expr.IntSort
}

// evalIn evaluates e over the state and parameters of m's automaton.
func evalIn(m *eval.Machine, e expr.Expr, s eval.State, params []eval.Value) (eval.Value, error) {
	f, err := m.Compile(e)
	if err != nil {
		return eval.Value{}, err
	}
	return f.Eval(s, params)
}

// splitAnd splits e at its top-level `and`s.
func splitAnd(e expr.Expr, out []expr.Expr) []expr.Expr {
	if b, ok := e.(*expr.Binary); ok && b.Op == expr.OpAnd {
		return splitAnd(b.Y, splitAnd(b.X, out))
	}
	return append(out, e)
}
