// This file implements traces: counterexamples and random executions, as
// data, text and JSON.

package explore

import (
	"bytes"
	"fmt"
	"io"

	"ladder/internal/safeio"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
)

// Trace is an execution: a start state and the steps after it.
type Trace struct {
	Automaton string `json:"automaton"` // the automaton's name
	Instance  string `json:"instance"`  // the instance, as "L=2,T=2,V=2"
	// Invariant names the condition the last state violates (an invariant,
	// or "<var>:Nat"), if any.
	Invariant string `json:"invariant,omitempty"`
	// Deadlock is set by Run when the last state enables no action, and
	// NotFinal when, besides, the automaton declares its final states
	// (`final:`) and that state is not one: a deadlock, as explore
	// reports it.
	Deadlock bool `json:"deadlock,omitempty"`
	NotFinal bool `json:"notFinal,omitempty"`
	// Final is set when the last state enables no action and is one of
	// the final states the automaton declares: a proper end.
	Final bool   `json:"final,omitempty"`
	Steps []Step `json:"steps"` // Steps[0] is the start state
}

// Step is one state of a trace and the action that led to it.
type Step struct {
	Action  string   `json:"action,omitempty"` // e.g. "DoRead(T#0, L#1, 0)"; empty for the start state
	Event   string   `json:"event,omitempty"`  // the action's event through the view, for external actions
	Vars    []Var    `json:"vars"`             // every state variable, in declaration order
	Changed []string `json:"changed"`          // the variables that differ from the previous state (all, for the start state)

	Act    *ioa.Action  `json:"-"` // nil for the start state
	Params []eval.Value `json:"-"` // the action's parameter values
	State  eval.State   `json:"-"` // the state after the action
}

// Var is a state variable's value in the language's notation.
type Var struct {
	Name  string `json:"name"`  // the variable
	Value string `json:"value"` // its value, printed
	// Text is the line of text reports: `name = value`, or a small map
	// entry by entry (eval.FormatVar).
	Text string `json:"-"`
}

// Len returns the number of steps after the start state (0 for a trace
// without a start state).
func (t *Trace) Len() int { return max(len(t.Steps)-1, 0) }

// newTrace builds a trace from a start state.
func newTrace(m *eval.Machine, s0 eval.State) *Trace {
	t := &Trace{Automaton: m.A.Name, Instance: m.Inst.String()}
	t.Steps = append(t.Steps, makeStep(m, nil, nil, nil, s0))
	return t
}

// add appends a step.
func (t *Trace) add(m *eval.Machine, act *ioa.Action, params []eval.Value, s eval.State) error {
	prev := t.Steps[len(t.Steps)-1].State
	st := makeStep(m, prev, act, params, s)
	ev, err := m.FormatEvent(act, params)
	if err != nil {
		return err
	}
	st.Event = ev
	t.Steps = append(t.Steps, st)
	return nil
}

func makeStep(m *eval.Machine, prev eval.State, act *ioa.Action, params []eval.Value, s eval.State) Step {
	st := Step{Act: act, Params: append([]eval.Value(nil), params...), State: s, Changed: []string{}}
	if act != nil {
		st.Action = m.FormatAction(act, params)
	}
	for i, v := range m.A.Vars {
		st.Vars = append(st.Vars, Var{Name: v.Name, Value: eval.Format(s[i], v.Sort), Text: eval.FormatVar(v.Name, s[i], v.Sort)})
		if prev == nil || !eval.Equal(prev[i], s[i]) {
			st.Changed = append(st.Changed, v.Name)
		}
	}
	return st
}

// trace rebuilds the trace along a path of state ids by replaying it: the
// start state and each step are found by matching encodings.
func (x *explorer) trace(path []int) (*Trace, error) {
	m := x.m
	inits, err := m.Init()
	if err != nil {
		return nil, err
	}
	var buf []byte
	var cur eval.State
	for _, s := range inits {
		buf, _ = x.stateKey(buf[:0], s)
		if bytes.Equal(buf, x.st.Key(path[0])) {
			cur = s
			break
		}
	}
	if cur == nil {
		return nil, fmt.Errorf("internal error: cannot replay the start state of a trace")
	}
	t := newTrace(m, cur)
	r := fast.NewRunner(m)
	for _, id := range path[1:] {
		want := x.st.Key(id)
		var next eval.State
		var act int
		var params []eval.Value
		err := r.Successors(cur, func(a int, ps []eval.Value, post eval.State) bool {
			buf, _ = x.stateKey(buf[:0], post)
			if bytes.Equal(buf, want) {
				next, act, params = post, a, append([]eval.Value(nil), ps...)
				return false
			}
			return true
		})
		if err != nil {
			return nil, err
		}
		if next == nil {
			return nil, fmt.Errorf("internal error: cannot replay step %d of a trace", len(t.Steps))
		}
		if err := t.add(m, m.A.Actions[act], params, next); err != nil {
			return nil, err
		}
		cur = next
	}
	return t, nil
}

// WriteText writes the trace: the whole start state, then for each step
// the action (and its event) and the variables it changed.
func (t *Trace) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	if len(t.Steps) == 0 {
		ew.printf("There is no start state.\n")
		return ew.err
	}
	for i, st := range t.Steps {
		if ew.err == nil {
			ew.err = st.WriteText(w, i)
		}
	}
	switch {
	case t.Invariant != "":
		ew.printf("The last state violates %s.\n", t.Invariant)
	case t.NotFinal:
		ew.printf("The last state enables no action and is not final: a deadlock.\n")
	case t.Final:
		ew.printf("The last state enables no action and is final: the execution ended properly.\n")
	case t.Deadlock:
		ew.printf("The last state enables no action.\n")
	}
	return ew.err
}

// count writes n with the noun, in the plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// WriteText writes the result: statistics, and the violation's trace if any.
func (r *Result) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	inst := r.Instance
	if inst == "" {
		inst = "no parameters"
	}
	ew.printf("%s (%s): %d states, %d transitions, depth %d, %s, %s\n",
		r.Automaton, inst, r.States, r.Transitions, r.MaxDepth, count(r.InitialStates, "start state"), count(r.Deadlocks, "terminal state"))
	ew.printf("%.3fs, %.0f states/s, %s, store %.1f MB\n", r.Elapsed, r.StatesPerSecond, count(r.Workers, "worker"), float64(r.MemoryBytes)/(1<<20))
	r.Symmetry.writeText(ew)
	writeDead(ew, r.Dead)
	switch {
	case r.Violation != nil && r.Violation.Deadlock:
		ew.printf("DEADLOCK after %d steps (a shortest trace to a state that enables no action and is not final):\n", r.Violation.Len())
		if ew.err == nil {
			ew.err = r.Violation.WriteText(w)
		}
	case r.Violation != nil:
		ew.printf("VIOLATION of %s after %d steps (a shortest trace; the search stopped at it, so the counts above are of the states found until then):\n", r.Violation.Invariant, r.Violation.Len())
		if ew.err == nil {
			ew.err = r.Violation.WriteText(w)
		}
	case r.Exhausted:
		ew.printf("INCOMPLETE: stopped at the %s after %d states, depth %d, %.1fs, peak memory %s; no violation among the states found\n",
			r.Limit, r.States, r.MaxDepth, r.Elapsed, safeio.FormatBytes(r.PeakMemoryBytes))
	case r.Limit != "":
		ew.printf("INCOMPLETE: stopped at the %s; no violation among the states found\n", r.Limit)
	default:
		n := len(r.Invariants)
		ew.printf("OK: all %d invariant(s) and the Nat conditions hold in every reachable state\n", n)
		if r.FinalChecked {
			ew.printf("OK: the terminal states (enabling no action: %d) are all final (no deadlock)\n", r.Deadlocks)
		}
	}
	return ew.err
}

// WriteText writes step i of a trace as Trace.WriteText does: the whole
// state for the start state (i = 0), otherwise the action, its event and
// the variables it changed.
func (st *Step) WriteText(w io.Writer, i int) error {
	ew := &errWriter{w: w}
	if i == 0 {
		ew.printf("  0: start state\n")
		for _, v := range st.Vars {
			ew.printf("       %s\n", v.text())
		}
		return ew.err
	}
	ew.printf("%3d: %s", i, st.Action)
	if st.Event != "" {
		ew.printf("    [event %s]", st.Event)
	}
	ew.printf("\n")
	changed := map[string]bool{}
	for _, c := range st.Changed {
		changed[c] = true
	}
	if len(st.Changed) == 0 {
		ew.printf("       (no change)\n")
	}
	for _, v := range st.Vars {
		if changed[v.Name] {
			ew.printf("       %s\n", v.text())
		}
	}
	return ew.err
}

// text is the line of a variable in text reports.
func (v Var) text() string {
	if v.Text != "" {
		return v.Text
	}
	return v.Name + " = " + v.Value
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
