// This file implements the cross-check of forward simulations: a
// breadth-first search of the pairs (c, a) that the start witness and the
// step correspondence build along the concrete executions.

package crosscheck

import (
	"encoding/binary"
	"fmt"
	"strings"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// pairNode is a pair of the forward search and how it was found. The
// states are kept encoded: key holds a length prefix, the concrete
// state's encoding (key[cs:split]) and the abstract one's (key[split:]).
type pairNode struct {
	key       string
	cs, split int32
	parent    int32 // -1 for a start pair
	act       *ioa.Action
	params    []eval.Value
	depth     int32
}

// decodePair returns the states of a pair.
func (x *checker) decodePair(n *pairNode) (c, a eval.State, err error) {
	if c, err = x.mC.DecodeState([]byte(n.key[n.cs:n.split])); err != nil {
		return nil, nil, err
	}
	if a, err = x.mA.DecodeState([]byte(n.key[n.split:])); err != nil {
		return nil, nil, err
	}
	return c, a, nil
}

// forward cross-checks a forward simulation. The abstract state of a
// concrete execution depends on the execution, not only on its last
// state, so the search runs over pairs: every pair is reached by a
// concrete execution and the abstract states the correspondence matches
// it with, and every step from every pair is checked.
func (x *checker) forward() error {
	p := x.p
	x.fresh = true // decodePair and Successors allocate; the parameters are copied
	index := map[string]int32{}
	var nodes []pairNode
	seenC, seenA := map[string]bool{}, map[string]bool{}
	var cbuf, kbuf []byte
	// key returns the key of (c, a) and where its two encodings start.
	key := func(c, a eval.State) (string, int32, int32) {
		cbuf = x.mC.AppendState(cbuf[:0], c)
		kbuf = binary.AppendUvarint(kbuf[:0], uint64(len(cbuf)))
		cs := int32(len(kbuf))
		kbuf = append(kbuf, cbuf...)
		split := int32(len(kbuf))
		kbuf = x.mA.AppendState(kbuf, a)
		return string(kbuf), cs, split
	}
	x.traceOf = func(id int) (*explore.Trace, []MatchedStep, error) { return x.pairTrace(nodes, id) }
	meter := explore.NewMeter(x.cfg.Budget)
	defer func() { _, x.res.PeakMemoryBytes = meter.Memory() }()
	full := func() bool {
		if x.cfg.MaxStates > 0 && len(nodes) >= x.cfg.MaxStates {
			x.res.Limit = fmt.Sprintf("state limit %d", x.cfg.MaxStates)
			return true
		}
		if why := meter.Exceeded(0); why != "" {
			x.res.Limit, x.res.Exhausted = why, true
			return true
		}
		return false
	}
	prog := explore.NewReporter(x.cfg.Progress, meter)
	// add inserts a pair; it checks the assumed invariants of its states
	// the first time they are met.
	add := func(c, a eval.State, n pairNode) (bool, error) {
		k, cs, split := key(c, a)
		if _, ok := index[k]; ok {
			return false, nil
		}
		id := len(nodes)
		index[k] = int32(id)
		n.key, n.cs, n.split = k, cs, split
		nodes = append(nodes, n)
		x.res.States++
		x.res.MaxDepth = max(x.res.MaxDepth, int(n.depth))
		if ck := k[cs:split]; !seenC[ck] {
			seenC[ck] = true
			name, err := x.violated(false, c)
			if err != nil {
				return false, err
			}
			if name != "" {
				return false, x.assumeFailure(id, p.Concrete, name, "", nil)
			}
		}
		if ak := k[split:]; !seenA[ak] {
			seenA[ak] = true
			name, err := x.violated(true, a)
			if err != nil {
				return false, err
			}
			if name != "" {
				return false, x.assumeFailure(id, p.Abstract, name, "a", a)
			}
		}
		return true, nil
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
		// The verdict is the rules' (start › init, start › R_i); the
		// explanation is this package's.
		v, err := x.firstFailing(map[string]eval.State{"c": c0}, nil, x.plansOf(simulation.ClauseStart))
		if err != nil {
			return err
		}
		if v != nil && v.Plan.Name == "init" {
			why, err := x.initA.why(a0)
			if err != nil {
				return err
			}
			if why == "" {
				why = "(the cross-checker's own evaluation finds it one)"
			}
			return fail("init", fmt.Sprintf("the start witness a₀ is not a start state of %s: %s", p.Abstract.Name, why), nil)
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
		if full() {
			break
		}
		if _, err := add(c0, a0, pairNode{parent: -1}); err != nil {
			return err
		}
	}
	type succ struct {
		act    int
		params []eval.Value
		post   eval.State
	}
	var succs []succ
	for i := 0; i < len(nodes) && x.res.Limit == ""; i++ {
		n := nodes[i]
		if x.cfg.MaxDepth > 0 && int(n.depth) >= x.cfg.MaxDepth {
			x.res.Limit = fmt.Sprintf("depth limit %d", x.cfg.MaxDepth)
			break
		}
		if full() {
			break
		}
		prog.Report(len(nodes), x.res.Transitions, int(n.depth), len(nodes)-i)
		c, a, err := x.decodePair(&n)
		if err != nil {
			return err
		}
		succs = succs[:0]
		over := false
		err = x.rC.Successors(c, func(act int, params []eval.Value, post eval.State) bool {
			succs = append(succs, succ{act, append([]eval.Value(nil), params...), post})
			if len(succs)&63 == 0 && meter.Over() {
				over = true
				return false
			}
			return true
		})
		if err != nil {
			return err
		}
		if over { // the successors are incomplete: stop
			x.res.Limit, x.res.Exhausted = meter.Stop(), true
			break
		}
		for _, s := range succs {
			x.res.Transitions++
			tr := &explore.Transition{From: i, To: -1, Pre: c, Post: s.post, Action: p.Concrete.Actions[s.act], Params: s.params}
			r, err := x.matchStepRun(tr, a, "a", func(r *run) (string, []string, []NamedState, error) {
				// explains a failing relation clause: every failing one
				um := r.us[len(r.us)-1]
				bad, err := x.failedClauses(&env{c: s.post, a: um})
				if err != nil || len(bad) == 0 {
					return "", nil, nil, err
				}
				return ioa.StepClause{Kind: ioa.ClauseRelation, Arg: bad[0]}.String(), x.clauseDetailsIn(bad, &env{c: s.post, a: um}), nil, nil
			})
			if err != nil {
				return err
			}
			um := r.us[len(r.us)-1]
			if full() {
				break
			}
			if _, err := add(s.post, um, pairNode{parent: int32(i), act: tr.Action, params: s.params, depth: n.depth + 1}); err != nil {
				return err
			}
		}
	}
	return nil
}

// clauseDetailsIn lists the failing clauses with their text and, for the
// first, why it is false in en (explain).
func (x *checker) clauseDetailsIn(names []string, en *env) []string {
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

// pairTrace rebuilds the concrete execution to pair id and the abstract
// steps matched to each of its steps.
func (x *checker) pairTrace(nodes []pairNode, id int) (*explore.Trace, []MatchedStep, error) {
	var path []int
	for cur := id; cur >= 0; cur = int(nodes[cur].parent) {
		path = append(path, cur)
		if len(path) > len(nodes) {
			return nil, nil, fmt.Errorf("internal error: a cycle in the search tree")
		}
	}
	type pair struct{ c, a eval.State }
	states := make([]pair, len(path))
	for i, id := range path {
		c, a, err := x.decodePair(&nodes[id])
		if err != nil {
			return nil, nil, err
		}
		states[i] = pair{c, a}
	}
	root := states[len(path)-1]
	tr := newTrace(x.mC, root.c)
	matched := []MatchedStep{{State: named("a₀", x.p.Abstract, root.a, "", nil)}}
	prev := root
	for i := len(path) - 2; i >= 0; i-- {
		n, cur := nodes[path[i]], states[i]
		if err := addStep(tr, x.mC, n.act, n.params, cur.c); err != nil {
			return nil, nil, err
		}
		ms := MatchedStep{State: named(fmt.Sprintf("a%d", len(matched)), x.p.Abstract, cur.a, fmt.Sprintf("a%d", len(matched)-1), prev.a)}
		if ms.State.Base == "a0" {
			ms.State.Base = "a₀"
		}
		if sc := x.steps[n.act]; sc != nil {
			e := &env{c: prev.c, a: prev.a, cpost: cur.c, params: n.params}
			k, err := x.selectCase(sc, func(int) (*env, error) { return e, nil })
			if err == nil && k >= 0 {
				ms.Case = k + 1
				if r, err := x.runSteps(sc.cases[k], prev.a, e); err == nil {
					ms.Steps = x.calls(r)
				}
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
