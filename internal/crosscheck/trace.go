// This file implements what the checks share to report a failure: the
// start condition of an automaton as a predicate on states and the
// building of explore.Trace values.

package crosscheck

import (
	"fmt"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
)

// initCode decides whether a state is a start state: every variable with
// an init has its value, and every `initially` predicate holds.
type initCode struct {
	m     *eval.Machine
	inits []*eval.Value // per variable; nil: any value
	preds []*eval.Func
}

func newInitCode(m *eval.Machine) (*initCode, error) {
	ic := &initCode{m: m}
	for _, v := range m.A.Vars {
		if v.Init == nil {
			ic.inits = append(ic.inits, nil)
			continue
		}
		f, err := m.Compile(v.Init)
		if err != nil {
			return nil, fmt.Errorf("%s: init of %s: %v", m.A.Name, v.Name, err)
		}
		x, err := f.Eval(nil, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: init of %s: %v", m.A.Name, v.Name, err)
		}
		ic.inits = append(ic.inits, &x)
	}
	for _, p := range m.A.Initially {
		f, err := m.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("%s: initially: %v", m.A.Name, err)
		}
		ic.preds = append(ic.preds, f)
	}
	return ic, nil
}

// why returns "" when s is a start state, and otherwise the first reason
// it is not ("x = 1, not its init 0", "an initially predicate is false").
func (ic *initCode) why(s eval.State) (string, error) {
	if err := ic.m.CheckState(s); err != nil {
		return "", err
	}
	for i, v := range ic.inits {
		if v != nil && !v.Equal(s[i]) {
			vr := ic.m.A.Vars[i]
			return fmt.Sprintf("%s = %s, not its init %s", vr.Name, eval.Format(s[i], vr.Sort), eval.Format(*v, vr.Sort)), nil
		}
	}
	for k, f := range ic.preds {
		v, err := f.Eval(s, nil)
		if err != nil {
			return "", err
		}
		if !v.Bool() {
			return fmt.Sprintf("initially predicate %d is false", k+1), nil
		}
	}
	return "", nil
}

// newTrace returns a trace with start state s0.
func newTrace(m *eval.Machine, s0 eval.State) *explore.Trace {
	tr := &explore.Trace{Automaton: m.A.Name, Instance: m.Inst.String()}
	tr.Steps = append(tr.Steps, makeStep(m, nil, nil, nil, s0))
	return tr
}

// addStep appends act(params) leading to s.
func addStep(tr *explore.Trace, m *eval.Machine, act *ioa.Action, params []eval.Value, s eval.State) error {
	prev := tr.Steps[len(tr.Steps)-1].State
	st := makeStep(m, prev, act, params, s)
	ev, err := m.FormatEvent(act, params)
	if err != nil {
		return err
	}
	st.Event = ev
	tr.Steps = append(tr.Steps, st)
	return nil
}

// makeStep builds one step of a trace, as package explore does.
func makeStep(m *eval.Machine, prev eval.State, act *ioa.Action, params []eval.Value, s eval.State) explore.Step {
	s = s.Clone()
	st := explore.Step{Act: act, State: s, Changed: []string{}}
	for _, v := range params {
		st.Params = append(st.Params, eval.Clone(v))
	}
	if act != nil {
		st.Action = m.FormatAction(act, params)
	}
	for i, v := range m.A.Vars {
		st.Vars = append(st.Vars, explore.Var{Name: v.Name, Value: eval.Format(s[i], v.Sort)})
		if prev == nil || !eval.Equal(prev[i], s[i]) {
			st.Changed = append(st.Changed, v.Name)
		}
	}
	return st
}
