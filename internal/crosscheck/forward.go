// This file implements the cross-check of forward simulations: a
// breadth-first search of the pairs (c, a) that the start witness and the
// step correspondence build along the concrete executions.

package crosscheck

import (
	"fmt"
	"strings"

	"ladder/internal/explore"
	"ladder/internal/nodestore"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// forward cross-checks a forward simulation. The abstract state of a
// concrete execution depends on the execution, not only on its last
// state, so the search runs over pairs: every pair is reached by a
// concrete execution and the abstract states the correspondence matches
// it with, and every step from every pair is checked.
func (x *checker) forward() error {
	p := x.p
	s := x.newSearch(false, true)
	s.check = func(w *checker, tr *explore.Transition, a eval.State) (eval.State, error) {
		return w.forwardStep(tr, a)
	}
	// The assumed invariants of a pair's states are checked the first time
	// the states are met; a state is remembered once they hold in it, so
	// that a failure found at a representative is checked again at the
	// real pair the replay reaches (search.nodeFailed). A worker evaluates
	// them for the states of the successor pairs it computes (s.assumed),
	// and the node check takes its verdict when it has one.
	seenC, seenA := nodestore.New(), nodestore.New()
	s.assumed = func(w *checker, abstract bool, key []byte, st eval.State) (stateFacts, error) {
		seen := seenC
		if abstract {
			seen = seenA
		}
		if seen.Find(key, seen.Hash(key)) >= 0 {
			return stateFacts{held: true}, nil
		}
		name, err := w.violated(abstract, st)
		return stateFacts{done: err == nil, inv: name}, err
	}
	// assumed is the node check of one state, given what a worker found
	// (s.assumed).
	assumed := func(seen *nodestore.Store, key []byte, abstract bool, st eval.State, id int, f stateFacts) error {
		if f.held {
			return nil
		}
		h := seen.Hash(key)
		name := f.inv
		if !f.done {
			if seen.Find(key, h) >= 0 {
				return nil
			}
			var err error
			if name, err = x.violated(abstract, st); err != nil {
				return err
			}
		}
		if name != "" {
			// a state is remembered only once they hold in it
			if abstract {
				return x.assumeFailure(id, p.Abstract, name, "a", st)
			}
			return x.assumeFailure(id, p.Concrete, name, "", nil)
		}
		seen.Insert(key, h, -1)
		return nil
	}
	s.node = func(id int, _ bool, f nodeFacts, c, a eval.State) error {
		ck, ak, err := splitPair(s.st.Key(id))
		if err != nil {
			return err
		}
		if err := x.probe(c, a); err != nil {
			return err
		}
		// the relation was evaluated at (c, a), which the node stands for
		if err := x.checkDeadRel(c, a); err != nil {
			return err
		}
		if err := assumed(seenC, ck, false, c, id, f.c); err != nil {
			return err
		}
		return assumed(seenA, ak, true, a, id, f.a)
	}
	inits, err := x.mC.Init()
	if err != nil {
		return err
	}
	for _, c0 := range inits {
		a0, err := x.stateOf(x.start, &env{c: c0})
		if err != nil {
			return err
		}
		fail := func(clause, msg string, details []string) error {
			x.failure = &Failure{Obligation: join(x.group, "start", clause), Clause: "start › " + clause, Message: msg, Details: details,
				Trace: newTrace(x.mC, c0), States: []NamedState{named("a₀", p.Abstract, a0, "", nil)}}
			return errFailed
		}
		// The verdict is the rules' (start › init, start › R_i), and so
		// is why a₀ is not a start state (Verdict.Why).
		v, err := x.firstFailing(map[string]eval.State{"c": c0}, nil, x.plansOf(simulation.ClauseStart))
		if err != nil {
			return err
		}
		if v != nil && v.Plan.Name == "init" {
			return fail("init", fmt.Sprintf("the start witness a₀ is not a start state of %s: %s", p.Abstract.Name, v.Why), nil)
		}
		if v != nil {
			var details []string
			bad, err := x.failedClauses(&env{c: c0, a: a0})
			if err != nil {
				return err
			}
			if len(bad) > 0 && bad[0] == v.Plan.Name {
				details = x.clauseDetailsIn(bad, &env{c: c0, a: a0})
			}
			return fail(v.Plan.Name, fmt.Sprintf("%s(c, a₀) is false at the start state c", v.Plan.Name), details)
		}
		if s.full() {
			break
		}
		if err := s.addRoot(c0, a0); err != nil {
			return err
		}
	}
	return s.run()
}

// forwardStep checks the concrete step tr from the pair (tr.Pre, a) and
// returns the abstract state u_m it is matched with. The verdicts are the
// rules' (matchStep); the callback only explains a failing relation
// clause, listing every failing one.
func (x *checker) forwardStep(tr *explore.Transition, a eval.State) (eval.State, error) {
	if err := x.natPost(tr); err != nil {
		return nil, err
	}
	if err := x.checkDeadStep(tr, a); err != nil {
		return nil, err
	}
	return x.matchStep(tr, a, "a", func(v *simulation.Verdict) ([]string, []NamedState, error) {
		um := v.Run.States[len(v.Run.States)-1]
		bad, err := x.failedClauses(&env{c: tr.Post, a: um})
		if err != nil || len(bad) == 0 {
			return nil, nil, err
		}
		return x.clauseDetailsIn(bad, &env{c: tr.Post, a: um}), nil, nil
	})
}

// natPost reports the first Nat condition the post-state of tr violates
// (in the variables the step changed: the pre-state, a stored node's, was
// checked), as the node check would at the pair it reaches (clause
// "assume C.…"), before the step is checked: the symmetry check may take
// a Nat read of the post-state as non-negative (explore/symmetry.go),
// which then holds.
func (x *checker) natPost(tr *explore.Transition) error {
	name, err := x.rules.NatViolatedAfter(x.p.Concrete, tr.Pre, tr.Post)
	if name == "" || err != nil {
		return err
	}
	trace, matched, err := x.traceOf(tr.From)
	if err != nil {
		return err
	}
	if err := addStep(trace, x.mC, tr.Action, tr.Params, tr.Post); err != nil {
		return err
	}
	clause := "assume " + x.p.Concrete.Name + "." + name
	x.failure = &Failure{Obligation: join(x.group, clause), Clause: clause, Trace: trace, Abstract: matched, States: []NamedState{},
		Message: fmt.Sprintf("the last state violates %s, which the obligations assume", name)}
	return errFailed
}

// clauseDetailsIn lists the failing clauses with their text and, for the
// first, why it is false in en (explain).
func (x *checker) clauseDetailsIn(names []string, en *env) []string {
	if len(names) == 0 {
		return nil
	}
	out := x.clauseDetails(names)
	if cl := x.p.Clause(names[0]); cl != nil {
		for _, l := range x.explain(cl.Body, en) {
			out = append(out, "  "+l)
		}
	}
	return out
}

// clauseDetails lists the failing clauses with their text.
func (x *checker) clauseDetails(names []string) []string {
	var out []string
	for _, n := range names {
		if cl := x.p.Clause(n); cl != nil {
			out = append(out, n+": "+oneLine(expr.Print(cl.Body)))
		}
	}
	if len(names) > 1 {
		out = append(out, fmt.Sprintf("(%d clauses fail: %s)", len(names), strings.Join(names, ", ")))
	}
	return out
}

// oneLine collapses the white space of a printed expression.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// pairTrace returns the concrete execution of a replayed path of pairs
// and the abstract steps matched to each of its steps.
func (x *checker) pairTrace(path []replayed) (*explore.Trace, []MatchedStep, error) {
	root := path[0]
	tr := newTrace(x.mC, root.s)
	matched := []MatchedStep{{State: named("a₀", x.p.Abstract, root.a, "", nil)}}
	prev := root
	for _, cur := range path[1:] {
		if err := addStep(tr, x.mC, cur.act, cur.params, cur.s); err != nil {
			return nil, nil, err
		}
		ms := MatchedStep{State: named(fmt.Sprintf("a%d", len(matched)), x.p.Abstract, cur.a, fmt.Sprintf("a%d", len(matched)-1), prev.a)}
		if ms.State.Base == "a0" {
			ms.State.Base = "a₀"
		}
		x.rules.Reset()
		pt := &simulation.Point{States: map[string]eval.State{"c": prev.s, "a": prev.a}, Params: cur.params,
			Steps: []simulation.StepSeed{{Action: cur.act, From: prev.s, Params: cur.params, Post: cur.s}}}
		if r, err := x.rules.Match(cur.act, pt); err == nil && r.Case >= 0 {
			ms.Case = r.Case + 1
			if r.Run != nil {
				ms.Steps = x.calls(r.Run)
			}
		}
		if ms.Steps == nil {
			ms.Steps = []string{}
		}
		matched = append(matched, ms)
		prev = cur
	}
	return tr, matched, nil
}
