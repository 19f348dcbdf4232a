// This file implements what the checks share to report a failure: the
// start condition of an automaton as a predicate on states, the parent
// links of a search (to rebuild a shortest execution), and the building
// of explore.Trace values.

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

// tree records how a search found each state: its parent, the action and
// the parameters, or (for a start state) the state itself.
type tree struct {
	parent []int32
	act    []*ioa.Action
	p0, p1 []int32 // the parameters of id are params[p0[id]:p1[id]]
	params []eval.Value
	roots  map[int]eval.State
}

func newTree() *tree { return &tree{roots: map[int]eval.State{}} }

func (t *tree) grow(id int) {
	for len(t.parent) <= id {
		t.parent = append(t.parent, -1)
		t.act = append(t.act, nil)
		t.p0 = append(t.p0, 0)
		t.p1 = append(t.p1, 0)
	}
}

// root records start state s under id (s is cloned).
func (t *tree) root(id int, s eval.State) {
	t.grow(id)
	t.roots[id] = s.Clone()
}

// child records that id was found from parent by act(params).
func (t *tree) child(id, parent int, act *ioa.Action, params []eval.Value) {
	t.grow(id)
	t.parent[id] = int32(parent)
	t.act[id] = act
	t.p0[id] = int32(len(t.params))
	for _, v := range params {
		t.params = append(t.params, eval.Clone(v))
	}
	t.p1[id] = int32(len(t.params))
}

// known reports whether the tree knows how id was found.
func (t *tree) known(id int) bool {
	if id < 0 || id >= len(t.parent) {
		return false
	}
	_, isRoot := t.roots[id]
	return isRoot || t.act[id] != nil
}

// trace rebuilds a shortest execution to id by replaying the recorded
// steps from its start state with m.
func (t *tree) trace(m *eval.Machine, id int) (*explore.Trace, error) {
	var path []int
	for cur := id; ; {
		if !t.known(cur) {
			return nil, fmt.Errorf("internal error: no path to state %d", id)
		}
		path = append(path, cur)
		if _, ok := t.roots[cur]; ok {
			break
		}
		cur = int(t.parent[cur])
		if len(path) > len(t.parent) {
			return nil, fmt.Errorf("internal error: a cycle in the search tree")
		}
	}
	tr := newTrace(m, t.roots[path[len(path)-1]])
	cur := t.roots[path[len(path)-1]]
	for i := len(path) - 2; i >= 0; i-- {
		id := path[i]
		ps := t.params[t.p0[id]:t.p1[id]]
		next, ok, err := m.Step(t.act[id], cur, ps)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("internal error: cannot replay %s", m.FormatAction(t.act[id], ps))
		}
		if err := addStep(tr, m, t.act[id], ps, next); err != nil {
			return nil, err
		}
		cur = next
	}
	return tr, nil
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
