// This file implements counterexample replay: a model of an obligation's
// problem is decoded into states and parameters and the obligation's
// scenario is re-run by the reference evaluator (style.md §11: compute
// counterexamples as data, check them, then render them).

package simulation

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"ladder/internal/counterexample"
	"ladder/internal/encode"
	"ladder/internal/logic"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// Counterexample is a replayed refutation of an obligation (package
// counterexample holds the type, which the kernel renders).
type Counterexample = counterexample.Counterexample

// CexState is one state of a counterexample.
type CexState = counterexample.State

// replayer holds what replaying one obligation needs: the symbolic world
// it was built in (its fresh symbols) and its plan.
type replayer struct {
	mu     sync.Mutex // the encoder is not safe for concurrent use
	o      *Obligation
	p      *plan
	w      *symWorld
	autos  []*ioa.Automaton
	owners map[*ioa.Action]*ioa.Automaton
}

// notReplayed returns the internal error for a model the evaluator does
// not confirm.
func notReplayed(o *Obligation, format string, args ...any) error {
	return &source.Error{Pos: o.Pos, Code: source.ErrInternal,
		Msg: fmt.Sprintf("solver model does not replay for %s: %s", o.ID, fmt.Sprintf(format, args...))}
}

// showable returns a *counterexample.Unshowable when a state variable or
// an action parameter of the obligation has a sort the evaluator cannot
// represent: no model of it can be replayed (the kernel then reports the
// obligation unknown, with the reason, and not as an internal error).
func (r *replayer) showable() error {
	names := make([]string, 0, len(r.w.states))
	for name := range r.w.states {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := eval.RepresentableAutomaton(r.w.states[name].Automaton); err != nil {
			return &counterexample.Unshowable{Reason: err.Error() + ", which counterexamples cannot show (a Seq indexed from 0 or a map over a finite sort can)"}
		}
	}
	return nil
}

// replay decodes m and re-runs the scenario with the evaluator.
func (r *replayer) replay(m logic.Model) (*Counterexample, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	o := r.o
	dec := r.w.enc.NewDecoder(m)
	cw := &conWorld{states: map[string]eval.State{}, params: map[string][]eval.Value{},
		autos: map[*ioa.Automaton]*eval.Machine{}, owner: r.owners, concrete: r.p.auto}
	if r.p.proof != nil {
		cw.concrete = r.p.proof.Concrete
	}
	if err := r.showable(); err != nil {
		return nil, err
	}
	for name, st := range r.w.states {
		s, err := dec.State(st)
		if err != nil {
			return nil, notReplayed(o, "cannot decode state %s: %v", name, err)
		}
		cw.states[name] = s
	}
	for name, ps := range r.w.params {
		vs, err := dec.Values(ps)
		if err != nil {
			return nil, notReplayed(o, "cannot decode parameters %s: %v", name, err)
		}
		cw.params[name] = vs
	}
	consts := map[string]eval.Value{}
	for name, v := range r.w.consts {
		x, err := dec.Value(v)
		if err != nil {
			return nil, notReplayed(o, "cannot decode constant %s: %v", name, err)
		}
		consts[name] = x
	}
	inst := dec.Instance()
	inst.Consts = consts
	for _, a := range r.autos {
		for _, s := range a.Sorts {
			if s.Kind == expr.KParam && inst.Sizes[s.Name] == 0 {
				inst.Sizes[s.Name] = 1
			}
		}
	}
	// An arbitrary integer constant that the obligation does not mention
	// has no value in the model, but the evaluator needs one to run the
	// automaton's other actions: any value will do, the default.
	for _, a := range r.autos {
		for _, c := range a.Consts {
			if _, ok := consts[c.Name]; ok || c.Body != nil {
				continue
			}
			if _, finite := inst.Card(c.Sort); finite {
				continue
			}
			if v, err := inst.Default(c.Sort); err == nil {
				consts[c.Name] = v
			}
		}
	}
	cw.inst = inst

	scn, err := run[eval.State, eval.Value, bool](cw, r.p)
	if errors.Is(err, errDisabled) {
		return nil, notReplayed(o, "a step the hypotheses enable is not enabled in the evaluator")
	}
	if err != nil {
		return nil, notReplayed(o, "the evaluator fails: %v", err)
	}
	for _, h := range scn.hyps {
		if !h.b {
			return nil, notReplayed(o, "hypothesis %q is false in the decoded states", h.name)
		}
	}
	if scn.goal {
		return nil, notReplayed(o, "the goal %s holds in the decoded states", scn.what)
	}
	return r.counterexample(cw, scn), nil
}

// counterexample renders the replayed world.
func (r *replayer) counterexample(cw *conWorld, scn *scenario[bool]) *Counterexample {
	o := r.o
	cex := &Counterexample{Obligation: o.ID, Clause: o.Clause, Action: o.Action, Case: o.Case,
		Goal: o.Clause + ": " + scn.what, Instance: cw.inst.String()}
	if ks := cw.params[loopFresh]; len(ks) == 1 && (r.p.rule == ruleLoopPre || r.p.rule == ruleLoopStep) {
		lp := r.p.step.Cases[r.p.kase].Steps[r.p.j].Loop
		cex.Goal += fmt.Sprintf(", where %s = %d", lp.Var.Name, ks[0].Int())
	}
	if len(cw.inst.Consts) > 0 {
		// the constants' values are listed apart, in the language's
		// notation (v0 = V#0), not again as numbers (v0=0)
		cex.Instance = cw.inst.SizesString()
	}
	seen := map[string]int{}
	values := map[string]eval.State{} // each listed state's values, for Partial
	for _, t := range cw.trace {
		cs := CexState{Name: t.name, Automaton: t.auto.Name, Base: t.base}
		cs.Text, cs.Changed = renderState(t.auto, t.st, cw.lookup(t.base))
		values[t.name] = t.st
		if i, ok := seen[t.name]; ok {
			cex.States[i] = cs
			continue
		}
		seen[t.name] = len(cex.States)
		cex.States = append(cex.States, cs)
	}
	// The abstract steps start at u0, the abstract pre-state: a, or apre
	// in a backward step. It is listed whenever the scenario took abstract
	// steps (just before u1, which is then computed from u0) or its goal
	// is about u0 (a case without abstract steps), as the cross-checker
	// lists it, so that the run u0, u1, … of the abstract steps is whole.
	i1, steps := seen["u1"]
	if _, ok := seen["u0"]; !ok && r.p.proof != nil && (steps || mentionsName(scn.what, "u0")) {
		base := "a"
		if _, ok := seen["apre"]; ok {
			base = "apre"
		}
		if st := cw.lookup(base); st != nil {
			auto := r.p.proof.Abstract
			u0 := CexState{Name: "u0", Automaton: auto.Name, Base: base, Text: auto.Name + "{}", Changed: true}
			values["u0"] = st
			if steps {
				if u1 := &cex.States[i1]; u1.Base == base {
					u1.Base = "u0"
				}
				cex.States = slices.Insert(cex.States, i1, u0)
			} else {
				cex.States = append(cex.States, u0)
			}
		}
	}
	for i := range cex.States {
		cex.States[i].Partial = partial(cex.States[i], values)
	}
	for _, call := range cw.calls {
		if call.concrete {
			cex.Step = call.text
		} else {
			cex.Abstract = append(cex.Abstract, call.text)
		}
	}
	for name, v := range cw.inst.Consts {
		cex.Constants = append(cex.Constants, name+" = "+formatConst(r.autos, name, v))
	}
	sort.Strings(cex.Constants)
	return cex
}

// partial reports whether s's Text lists only some of its variables, those
// that differ from its Base (counterexample.State.Partial): s is Changed,
// and some variable is equal in s and in the state named Base (values holds
// the values of every listed state by name). A difference that lists every
// variable is the whole state: nothing is "otherwise as" the base.
func partial(s CexState, values map[string]eval.State) bool {
	if !s.Changed {
		return false
	}
	b, ok := values[s.Base]
	if !ok {
		return true
	}
	v := values[s.Name]
	if len(b) != len(v) || len(v) == 0 {
		return true
	}
	for i := range v {
		if v[i].Equal(b[i]) {
			return true
		}
	}
	return false
}

// mentionsName reports whether text names name as a whole identifier.
func mentionsName(text, name string) bool {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !expr.IsIdentRune(r) }) {
		if w == name {
			return true
		}
	}
	return false
}

// renderState renders st, or only the variables that differ from base.
func renderState(a *ioa.Automaton, st, base eval.State) (string, bool) {
	if base == nil || len(base) != len(st) {
		return st.Format(a), false
	}
	var parts []string
	for i, v := range a.Vars {
		if !st[i].Equal(base[i]) {
			parts = append(parts, v.Name+": "+eval.Format(st[i], v.Sort))
		}
	}
	if len(parts) == len(a.Vars) && len(parts) > 0 {
		// every variable changed: the whole state, with nothing "otherwise"
		return st.Format(a), false
	}
	return a.Name + "{" + strings.Join(parts, ", ") + "}", true
}

func formatConst(autos []*ioa.Automaton, name string, v eval.Value) string {
	for _, a := range autos {
		for _, c := range a.Consts {
			if c.Name == name {
				return eval.Format(v, c.Sort)
			}
		}
	}
	return "?"
}

// symbolic runs p in a fresh symbolic world and returns the world and the
// problem (hypotheses and negated goal).
func symbolic(p *plan, shared [][2]*expr.Object, autos []*ioa.Automaton) (*symWorld, *logic.Problem, string, error) {
	w := newSymWorld()
	scn, err := run[*encode.State, encode.Value, *logic.Term](w, p)
	if err != nil {
		return nil, nil, "", err
	}
	hyps := make([]logic.Named, 0, len(scn.hyps)+len(shared))
	for _, h := range scn.hyps {
		hyps = append(hyps, logic.Named{Name: h.name, Term: h.b})
	}
	// Constants of one name and sort in both automata of an edge denote
	// one value (the instance's parameter): equate them.
	for _, pair := range shared {
		x, err := w.constant(pair[0])
		if err != nil {
			return nil, nil, "", err
		}
		y, err := w.constant(pair[1])
		if err != nil {
			return nil, nil, "", err
		}
		hyps = append(hyps, logic.Named{Name: "shared constant " + pair[0].Name, Term: encode.Eq(x, y)})
	}
	// Remember every arbitrary constant's symbol, to decode its value.
	for _, a := range autos {
		for _, c := range a.Consts {
			if c.Body == nil {
				if _, err := w.constant(c); err != nil {
					return nil, nil, "", err
				}
			}
		}
	}
	prob, present, err := w.enc.ProblemConsts(hyps, scn.goal)
	if err != nil {
		return nil, nil, "", err
	}
	// Decode only the constants the problem mentions: the others cannot
	// matter to the replay.
	for name, v := range w.consts {
		keep := false
		for _, t := range v.Leaves() {
			if present[t.Name()] {
				keep = true
			}
		}
		if !keep {
			delete(w.consts, name)
		}
	}
	return w, prob, scn.what, nil
}
