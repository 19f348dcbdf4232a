// This file implements the cross-check of backward simulations: the
// concrete automaton is explored, totality is checked in every reachable
// state, and every step is checked for each candidate abstract post-state.

package crosscheck

import (
	"fmt"
	"hash/fnv"
	"io"

	"ladder/internal/explore"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// candidates finds the abstract states related to a concrete state: the
// totality witness, and the abstract states (all, or the reachable ones)
// R relates to it,
// looked up through an index on the relation's conjuncts `a.x = e(c)`.
type candidates struct {
	x       *checker
	enc     []string           // the abstract states, encoded (Machine.AppendState)
	keyVars []int              // the variables of A the index pins
	keyFns  []*eval.Func       // their values e(c)
	index   map[uint64][]int32 // hash of the key variables' values → states
	cache   map[int][]int32    // concrete state id → the related states
}

// newCandidates enumerates the abstract states (AbstractAll) or explores
// A (AbstractReachable), and builds the index.
func (x *checker) newCandidates() (*candidates, error) {
	if x.cands != nil { // a copy of the checker (search.go) shares them
		return x.cands, nil
	}
	cs := &candidates{x: x, cache: map[int][]int32{}}
	x.cands = cs
	a := x.p.Abstract
	mode, limit := x.cfg.Abstract, x.cfg.maxAbstract()
	card, finite := x.instA.Card(a.StateSort)
	if mode == AbstractAuto {
		mode = AbstractReachable
		if finite && card <= int64(limit) {
			mode = AbstractAll
		}
	}
	switch mode {
	case AbstractWitness:
		x.res.Notes = append(x.res.Notes, "each step was checked from the totality witness τ(cpost) only (abstract mode witness): other abstract post-states that R relates to cpost were not tried")
		return cs, nil
	case AbstractAll:
		if !finite || card > int64(limit) {
			return nil, fmt.Errorf("%s has more than %d states in the instance: use the abstract mode reachable or witness", a.Name, limit)
		}
		inst := *x.instA
		inst.MaxEnum = max(inst.MaxEnum, int(card))
		vals, err := inst.Values(a.StateSort)
		if err != nil {
			return nil, fmt.Errorf("enumerating the states of %s: %v", a.Name, err)
		}
		var buf []byte
		for _, v := range vals {
			buf = x.mA.AppendState(buf[:0], eval.StateOf(v))
			cs.enc = append(cs.enc, string(buf))
		}
		x.res.AbstractStates = len(cs.enc)
		x.res.Notes = append(x.res.Notes, fmt.Sprintf("each step was checked from τ(cpost) and from every state of %s in the instance (%d, reachable or not) that R relates to cpost", a.Name, len(cs.enc)))
	default:
		states, complete, err := reachable(x.mA, limit, x.meter)
		if err != nil {
			return nil, fmt.Errorf("exploring %s: %v", a.Name, err)
		}
		cs.enc = states
		x.res.AbstractStates = len(states)
		if x.meter.Reached() {
			// the budget ran out: the search stops at once, INCOMPLETE
			x.res.Notes = append(x.res.Notes, fmt.Sprintf("%s was explored only up to %d states when the budget ran out", a.Name, len(states)))
		} else if !complete {
			x.absLimit = fmt.Sprintf("abstract state limit %d (the candidate abstract post-states)", limit)
			x.res.Notes = append(x.res.Notes, fmt.Sprintf("%s was explored only up to %d states: abstract post-states beyond them were not tried", a.Name, len(states)))
		}
		x.res.Notes = append(x.res.Notes, fmt.Sprintf("each step was checked from τ(cpost) and from every reachable state of %s (%d) that R relates to cpost; related abstract states that %s cannot reach in this instance were not tried", a.Name, len(states), a.Name))
	}
	pinned := map[int]bool{}
	for _, cl := range x.p.Relation {
		for _, conj := range splitAnd(cl.Body, nil) {
			v, e := x.pinned(conj)
			if v < 0 || pinned[v] {
				continue
			}
			f, err := x.compile(e)
			if err != nil {
				return nil, err
			}
			pinned[v] = true
			cs.keyVars = append(cs.keyVars, v)
			cs.keyFns = append(cs.keyFns, f)
		}
	}
	cs.index = map[uint64][]int32{}
	for i := range cs.enc {
		a, err := cs.x.mA.DecodeState([]byte(cs.enc[i]))
		if err != nil {
			return nil, err
		}
		k := cs.keyOf(func(j int) eval.Value { return a[cs.keyVars[j]] })
		cs.index[k] = append(cs.index[k], int32(i))
	}
	return cs, nil
}

// pinned returns the variable index and the expression e of a conjunct
// `a.x = e` or `e = a.x` where e does not mention a, or -1.
func (x *checker) pinned(conj expr.Expr) (int, expr.Expr) {
	b, ok := conj.(*expr.Binary)
	if !ok || b.Op != expr.OpEq {
		return -1, nil
	}
	for _, pair := range [2][2]expr.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		fs, ok := pair[0].(*expr.FieldSel)
		if !ok {
			continue
		}
		id, ok := fs.X.(*expr.Ident)
		if !ok || id.Obj != x.p.A || mentions(pair[1], x.p.A) {
			continue
		}
		if v := x.p.Abstract.Var(fs.Name); v != nil {
			return v.Obj.Index, pair[1]
		}
	}
	return -1, nil
}

// mentions reports whether e mentions the state object o.
func mentions(e expr.Expr, o *expr.Object) bool {
	found := false
	expr.Inspect(e, func(n expr.Expr) bool {
		switch n := n.(type) {
		case *expr.Ident:
			if n.Obj == o {
				found = true
			}
		case *expr.Call:
			if n.Recv != nil && n.Recv.Obj == o {
				found = true
			}
		}
		return !found
	})
	return found
}

// keyOf returns the index key of the values val(j) of the key variables:
// a hash of their printed values (equal values print alike; a collision
// only adds candidates, which the relation then filters out).
func (cs *candidates) keyOf(val func(j int) eval.Value) uint64 {
	h := fnv.New64a()
	for j, v := range cs.keyVars {
		io.WriteString(h, eval.Format(val(j), cs.x.p.Abstract.Vars[v].Sort))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// maxKept bounds each of the maps of candidates a copy of the checker
// keeps (decoded, relOf).
const maxKept = 1 << 14

// state decodes abstract state i, for the copy of the checker w: each
// keeps the states it decoded (up to maxKept, then it starts afresh),
// since the states of a bucket of the index are tried again for every
// concrete state that looks the bucket up. Decoded states are only read.
func (cs *candidates) state(w *checker, i int32) (eval.State, error) {
	if a, ok := w.decoded[i]; ok {
		return a, nil
	}
	a, err := cs.x.mA.DecodeState([]byte(cs.enc[i]))
	if err != nil {
		return nil, err
	}
	if w.decoded == nil || len(w.decoded) >= maxKept {
		w.decoded = make(map[int32]eval.State, 1024)
	}
	w.decoded[i] = a
	return a, nil
}

// related returns the abstract states R relates to concrete
// state c, for the copy of the checker w: with id, the searching
// goroutine's node id, through the shared cache; with -1 (a worker's
// post-state), through w's own, by the encoding of c (up to maxKept
// states, then it starts afresh): a post-state is reached by several
// steps.
func (cs *candidates) related(w *checker, id int, c eval.State) ([]int32, error) {
	if cs.index == nil {
		return nil, nil
	}
	if id >= 0 {
		if r, ok := cs.cache[id]; ok {
			return r, nil
		}
	} else {
		w.relKey = cs.x.mC.AppendState(w.relKey[:0], c)
		if r, ok := w.relOf[string(w.relKey)]; ok {
			return r, nil
		}
	}
	vals := make([]eval.Value, len(cs.keyFns))
	for j, f := range cs.keyFns {
		v, err := cs.x.eval(f, &env{c: c})
		if err != nil {
			return nil, err
		}
		vals[j] = v
	}
	out := []int32{}
	for _, i := range cs.index[cs.keyOf(func(j int) eval.Value { return vals[j] })] {
		a, err := cs.state(w, i)
		if err != nil {
			return nil, err
		}
		ok, err := cs.x.relates(&env{c: c, a: a})
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, i)
		}
	}
	if id >= 0 {
		cs.cache[id] = out
	} else {
		if w.relOf == nil || len(w.relOf) >= maxKept {
			w.relOf = make(map[string][]int32, 1024)
		}
		w.relOf[string(w.relKey)] = out
	}
	return out, nil
}

// each calls fn with every candidate abstract state related to c: τ(c)
// first (i = -1), then the other related states of the index (i their
// number).
func (cs *candidates) each(w *checker, id int, c eval.State, fn func(a eval.State, i int) error) error {
	tau, err := cs.x.stateOf(cs.x.total, &env{c: c})
	if err != nil {
		return err
	}
	if err := fn(tau, -1); err != nil {
		return err
	}
	rel, err := cs.related(w, id, c)
	if err != nil {
		return err
	}
	for _, i := range rel {
		a, err := cs.state(w, i)
		if err != nil {
			return err
		}
		if a.Equal(tau) {
			continue
		}
		if err := fn(a, int(i)); err != nil {
			return err
		}
	}
	return nil
}

// backward cross-checks a backward simulation.
func (x *checker) backward() error {
	p := x.p
	cs, err := x.newCandidates()
	if err != nil {
		return err
	}
	x.totality = x.plansOf(simulation.ClauseTotality)
	return x.searchConcrete(func(id int, root bool, c eval.State) error {
		tau, err := x.stateOf(x.total, &env{c: c})
		if err != nil {
			return err
		}
		// Totality: the verdict is the rules', the explanation this
		// package's.
		v, err := x.firstFailing(map[string]eval.State{"c": c}, nil, x.totality)
		if err != nil {
			return err
		}
		if v != nil {
			name := v.Plan.Name
			bad, err := x.failedClauses(&env{c: c, a: tau})
			if err != nil {
				return err
			}
			var details []string
			if len(bad) > 0 && bad[0] == name {
				details = x.clauseDetailsIn(bad, &env{c: c, a: tau})
			}
			tr, _, err := x.traceOf(id)
			if err != nil {
				return err
			}
			x.failure = &Failure{Obligation: v.Plan.ID, Clause: "totality › " + name, Trace: tr,
				Message: fmt.Sprintf("%s(c, τ(c)) is false in the last state c: the totality witness is not related to it", name),
				Details: details, States: []NamedState{named("τ(c)", p.Abstract, tau, "", nil)}}
			return errFailed
		}
		if !root {
			return nil
		}
		return cs.each(x, id, c, func(a eval.State, i int) error {
			v, err := x.firstFailing(map[string]eval.State{"c": c, "a": a}, nil, x.plansOf(simulation.ClauseStart))
			if err != nil || v == nil {
				return err
			}
			why, err := x.initA.why(a)
			if err != nil {
				return err
			}
			if why == "" {
				why = "(the cross-checker's own evaluation finds it one)"
			}
			tr, _, err := x.traceOf(id)
			if err != nil {
				return err
			}
			name := "τ(c)"
			if i >= 0 {
				name = fmt.Sprintf("state #%d of %s, related to c", i, p.Abstract.Name)
			}
			x.failure = &Failure{Obligation: join(x.group, "start"), Clause: "start", Trace: tr,
				Message: fmt.Sprintf("R(c, a) holds at the start state c but a (%s) is not a start state of %s: %s", name, p.Abstract.Name, why),
				States:  []NamedState{named("a", p.Abstract, a, "", nil)}}
			return errFailed
		})
	}, func(tr *explore.Transition) error {
		return cs.each(x, tr.To, tr.Post, func(a eval.State, i int) error {
			name := "τ(cpost)"
			if i >= 0 {
				name = fmt.Sprintf("state #%d of %s, related to cpost", i, p.Abstract.Name)
			}
			return x.backwardStep(tr, a, name)
		})
	})
}

// backwardStep checks the concrete step tr against the abstract
// post-state a (described by aName).
func (x *checker) backwardStep(tr *explore.Transition, a eval.State, aName string) error {
	p := x.p
	sc := x.steps[tr.Action]
	if sc == nil {
		return fmt.Errorf("no step correspondence for %s", tr.Action.Name)
	}
	x.res.Checks++
	base := &env{c: tr.Pre, a: a, cpost: tr.Post, params: tr.Params}
	envs := make([]*env, len(sc.cases))
	envFor := func(k int) (*env, error) {
		if envs[k] != nil {
			return envs[k], nil
		}
		e := *base
		e.apre = a
		if pre := sc.cases[k].pre; pre != nil {
			apre, err := x.stateOf(pre, base)
			if err != nil {
				return nil, err
			}
			e.apre = apre
		}
		envs[k] = &e
		return &e, nil
	}
	aState := func() NamedState {
		ns := named("a", p.Abstract, a, "", nil)
		ns.Name = "a = " + aName
		return ns
	}
	k, v, _, err := x.stepVerdict(tr, a)
	if err != nil {
		return err
	}
	if v != nil && v.Plan.Clause == simulation.ClauseCases {
		return x.verdictFailure(tr, sc, v, -1, "no case's guard holds", nil, []NamedState{aState()}, nil)
	}
	if k < 0 {
		return fmt.Errorf("internal error: no case of %s was evaluated", tr.Action.Name)
	}
	x.countCase(tr.Action, k)
	if v == nil {
		return nil
	}
	// The explanation: the case's witness and abstract steps.
	cc := sc.cases[k]
	e, err := envFor(k)
	if err != nil {
		return err
	}
	states := func(r *run) []NamedState {
		out := []NamedState{aState(), named("apre", p.Abstract, e.apre, "a", a)}
		if r != nil {
			out = append(out, x.runStates("apre", r)[1:]...)
		}
		return out
	}
	if v.Plan.Clause == simulation.ClauseRelation {
		bad, err := x.failedClauses(&env{c: tr.Pre, a: e.apre})
		if err != nil {
			return err
		}
		if len(bad) == 0 {
			return x.unexplained(tr, sc, v, k, states(nil), nil)
		}
		return x.verdictFailure(tr, sc, v, k,
			fmt.Sprintf("%s(c, apre) is false: the pre-state witness is not related to the concrete pre-state", bad[0]),
			x.clauseDetailsIn(bad, &env{c: tr.Pre, a: e.apre}), states(nil), nil)
	}
	r, err := x.runSteps(cc, e.apre, e)
	if err != nil {
		return err
	}
	switch v.Plan.Clause {
	case simulation.ClausePre:
		j := v.Plan.Index
		if r.fail != j {
			return x.unexplained(tr, sc, v, k, states(r), x.calls(r))
		}
		return x.verdictFailure(tr, sc, v, k,
			fmt.Sprintf("the abstract step %s is not enabled in %s", x.call(r, j), uName("apre", j)),
			whyDisabled(x.mA, cc.steps[j].s.Action, r.us[j], r.args[j]), states(r), x.calls(r))
	case simulation.ClausePost:
		m := len(r.us) - 1
		first, ds := diffs(p.Abstract, fmt.Sprintf("u%d", m), r.us[m], "a", a)
		if first == "" {
			return x.unexplained(tr, sc, v, k, states(r), x.calls(r))
		}
		return x.verdictFailure(tr, sc, v, k,
			fmt.Sprintf("u%d.%s = a.%s is false: the abstract steps from apre do not end in the abstract post-state a", m, first, first),
			ds, states(r), x.calls(r))
	}
	msg, err := x.eventCheck(tr.Action, tr.Params, cc, r)
	if err != nil {
		return err
	}
	if msg == "" {
		msg = "the event arguments of the concrete and abstract steps differ"
	}
	return x.verdictFailure(tr, sc, v, k, msg, nil, states(r), x.calls(r))
}

// reachable returns the reachable states of m's automaton, encoded, in
// breadth-first order, at most limit of them, and whether they are all of
// them. It stops early, incomplete, when meter's budget is reached.
func reachable(m *eval.Machine, limit int, meter *explore.Meter) ([]string, bool, error) {
	inits, err := m.Init()
	if err != nil {
		return nil, false, err
	}
	seen := map[string]bool{}
	var out []string
	var buf []byte
	add := func(s eval.State) bool {
		buf = m.AppendState(buf[:0], s)
		if seen[string(buf)] {
			return true
		}
		if len(out) >= limit {
			return false
		}
		k := string(buf)
		seen[k] = true
		out = append(out, k)
		return true
	}
	for _, s := range inits {
		if !add(s) {
			return out, false, nil
		}
	}
	r := m.NewRunner()
	r.SetScratch(true)
	complete := true
	for i := 0; i < len(out) && complete; i++ {
		if meter.Exceeded(0) != "" {
			return out, false, nil
		}
		r.Release()
		s, err := r.Decode([]byte(out[i]))
		if err != nil {
			return nil, false, err
		}
		err = r.Successors(s, func(_ int, _ []eval.Value, post eval.State) bool {
			complete = add(post)
			return complete
		})
		if err != nil {
			return nil, false, err
		}
	}
	return out, complete, nil
}
