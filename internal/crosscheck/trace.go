// This file implements what the checks share to report a failure: the
// building of explore.Trace values.

package crosscheck

import (
	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
)

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
