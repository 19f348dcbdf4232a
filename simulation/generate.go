// This file implements Generate: the obligations of every invariant and
// every proof edge of a hierarchy (ioa.Hierarchy), with their IDs,
// positions, dependencies, assumptions and replay functions.

package simulation

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"ladder/internal/logic"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// Config says what Generate generates. The zero value generates every
// obligation of the set.
type Config struct {
	// NoInvariants leaves out the invariant obligations of the automata
	// (the edges still record the invariants they assume).
	NoInvariants bool
	// Automata, when non-empty, restricts the invariant obligations to
	// the automata with these names.
	Automata []string
	// Strategist, when set, is offered every invariant step and step
	// correspondence obligation and may return a hint (strategy.go); nil
	// generates the obligations as declared, ignoring strategies.
	Strategist Strategist
	// Lazy leaves every obligation's Problem and Replay unbuilt: the
	// caller builds them with Obligation.Encode when it needs them and may
	// drop them again with Obligation.Release. An expression the prover
	// cannot encode is then reported by Encode, not by Generate.
	Lazy bool
	// SkipProof, when set, leaves out the edges of the proofs for which it
	// returns true (their plans are restored from unit records, see
	// UnitPlan); the names of the other edges are those a full generation
	// gives them (EdgeNames).
	SkipProof func(*ioa.Proof) bool

	_ struct{}
}

// Generate returns the obligations of every invariant of the hierarchy's
// automata and of every proof edge, in a deterministic order (automata and
// proofs in load order; then invariants, actions, cases and clauses in
// declaration order), with the edges. Errors (an expression the prover
// cannot encode) are reported at the YAML they come from; the obligations
// of the other items are still returned.
func Generate(h *ioa.Hierarchy, cfg Config) ([]*Obligation, []*Edge, source.ErrorList) {
	g := &generator{cfg: cfg, owners: map[*ioa.Action]*ioa.Automaton{}}
	for _, a := range h.Automata {
		for _, act := range a.Actions {
			g.owners[act] = a
		}
	}
	if !cfg.NoInvariants {
		for _, a := range h.Automata {
			if len(cfg.Automata) > 0 && !contains(cfg.Automata, a.Name) {
				continue
			}
			g.invariants(a)
		}
	}
	g.names = EdgeNames(h.Proofs)
	for _, p := range h.Proofs {
		if cfg.SkipProof != nil && cfg.SkipProof(p) {
			continue
		}
		g.edge(p)
	}
	if cfg.Lazy {
		g.planPending()
	} else {
		g.encodePending()
	}
	g.finishHints() // strategy.go
	return g.obls, g.edges, g.errs
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// generator accumulates obligations.
type generator struct {
	cfg    Config
	owners map[*ioa.Action]*ioa.Automaton
	obls   []*Obligation
	edges  []*Edge
	names  map[*ioa.Proof]string // EdgeNames of the hierarchy's proofs
	errs   source.ErrorList
	ids    map[string]bool
	// expanded maps the ID of a hinted obligation to the IDs of the
	// obligations that replace it (strategy.go).
	expanded map[string][]string
	// pending holds the obligations added but not yet encoded.
	pending []*pendingObligation
	// depMemo is what each expression walked for dependencies brings
	// (deps.memo).
	depMemo map[expr.Expr]*deps
}

// newDeps returns a dependency set that shares the generator's memo.
func (g *generator) newDeps() *deps {
	if g.depMemo == nil {
		g.depMemo = map[expr.Expr]*deps{}
	}
	d := newDeps()
	d.memo = g.depMemo
	return d
}

// add builds the problem of o from p and appends it. An encoding error is
// reported at o.Pos (or the error's own position) and drops o.
func (g *generator) add(o *Obligation, p *plan, d *deps, autos []*ioa.Automaton, shared [][2]*expr.Object) bool {
	if g.cfg.Strategist != nil && p.hint == nil && g.strategize(o, p, d, autos, shared) {
		return true // replaced by the hint's obligations (strategy.go)
	}
	if g.ids == nil {
		g.ids = map[string]bool{}
	}
	if g.ids[o.ID] {
		g.errs.Add(o.Pos, source.ErrInternal, "duplicate obligation %s", o.ID)
		return false
	}
	g.ids[o.ID] = true
	g.pending = append(g.pending, &pendingObligation{o: o, p: p, d: d, autos: autos, shared: shared})
	return true
}

// pendingObligation is an obligation whose problem is still to be encoded.
type pendingObligation struct {
	o      *Obligation
	p      *plan
	d      *deps
	autos  []*ioa.Automaton
	shared [][2]*expr.Object
	w      *symWorld
	prob   *logic.Problem
	err    error
	// owners maps every action of the hierarchy to its automaton, for
	// the replay of a lazily encoded obligation.
	owners map[*ioa.Action]*ioa.Automaton
}

// planPending appends the pending obligations to g.obls without encoding
// them (Config.Lazy): each keeps its plan for Obligation.Encode.
func (g *generator) planPending() {
	pend := g.pending
	g.pending = nil
	for _, x := range pend {
		o := x.o
		o.Deps = x.d.list()
		o.Sources = x.sources()
		sort.Strings(o.Assumes)
		x.owners = g.owners
		x.d = nil // its lists are taken; encoding does not read it
		o.lazy = x
		g.obls = append(g.obls, o)
	}
}

// Encode builds the Problem and Replay of an obligation that Generate left
// unbuilt (Config.Lazy), exactly as Generate builds them otherwise; it
// does nothing when they are built. An expression the prover cannot
// encode gives a *source.Error at the YAML it comes from (or at the
// obligation's position). Encode may run on several obligations at once.
func (o *Obligation) Encode() error {
	if o.restored {
		return fmt.Errorf("obligation %s was restored from a unit plan and cannot be built", o.ID)
	}
	x := o.lazy
	if x == nil || o.Problem != nil {
		return nil
	}
	w, prob, _, err := symbolic(x.p, x.shared, x.autos)
	if err != nil {
		return encodeError(o, err)
	}
	o.Problem = prob
	r := &replayer{o: o, p: x.p, w: w, autos: x.autos, owners: x.owners}
	o.Replay = r.replay
	return nil
}

// Release drops the Problem and Replay of a lazily generated obligation,
// which Encode builds again when asked; an obligation generated eagerly
// keeps them.
func (o *Obligation) Release() {
	if o.lazy != nil {
		o.Problem, o.Replay = nil, nil
	}
}

// encodeError is the error reported for an obligation whose problem cannot
// be built.
func encodeError(o *Obligation, err error) *source.Error {
	if se, ok := err.(*source.Error); ok && se.Pos.IsValid() {
		return &source.Error{Pos: se.Pos, Code: source.ErrModel, Msg: fmt.Sprintf("cannot encode %s: %s", o.ID, se.Msg)}
	}
	return &source.Error{Pos: o.Pos, Code: source.ErrModel, Msg: fmt.Sprintf("cannot encode %s: %v", o.ID, err)}
}

// sources returns the files whose content the obligation's problem is
// built from (Obligation.Sources).
func (x *pendingObligation) sources() []string {
	files := map[string]bool{}
	auto := func(a *ioa.Automaton) {
		if a == nil {
			return
		}
		files[a.File] = true
		if a.Interface != nil {
			files[a.Interface.File] = true
		}
	}
	proof := func(p *ioa.Proof) {
		files[p.File] = true
		auto(p.Concrete)
		auto(p.Abstract)
	}
	for _, a := range x.autos {
		auto(a)
	}
	auto(x.p.auto)
	if p := x.p.proof; p != nil {
		proof(p)
		for _, side := range p.AssumeSides() {
			for _, r := range side.Refs {
				auto(r.Source)
				for _, q := range r.Chain {
					proof(q)
				}
			}
		}
	}
	for a := range x.d.autos {
		auto(a)
	}
	out := make([]string, 0, len(files))
	for f := range files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// encodePending encodes the problems of the pending obligations, on up to
// GOMAXPROCS goroutines (each problem has its own encoder and shares only
// the read-only model), then appends them to g.obls in the order they were
// added; an encoding error is reported at o.Pos (or the error's own
// position) and drops o.
func (g *generator) encodePending() {
	pend := g.pending
	g.pending = nil
	workers := runtime.GOMAXPROCS(0)
	if workers > len(pend) {
		workers = len(pend)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(pend) {
					return
				}
				x := pend[i]
				x.w, x.prob, _, x.err = symbolic(x.p, x.shared, x.autos)
			}
		}()
	}
	wg.Wait()
	for _, x := range pend {
		o := x.o
		if x.err != nil {
			e := encodeError(o, x.err)
			g.errs.Add(e.Pos, e.Code, "%s", e.Msg)
			continue
		}
		o.Problem = x.prob
		o.Deps = x.d.list()
		o.Sources = x.sources()
		sort.Strings(o.Assumes)
		r := &replayer{o: o, p: x.p, w: x.w, autos: x.autos, owners: g.owners}
		o.Replay = r.replay
		g.obls = append(g.obls, o)
	}
}

// ---- invariants ----

// natKeys returns the keys of the implicit Nat invariants of a.
func natKeys(a *ioa.Automaton) []string {
	var out []string
	for _, v := range a.Vars {
		if v.Sort.HasNat() {
			out = append(out, InvariantKey(a, eval.NatInvariant(v.Name)))
		}
	}
	return out
}

// assumed returns the invariants inv's step may assume: those it lists, or
// all of a's.
func assumed(a *ioa.Automaton, inv *ioa.Invariant) []*ioa.Invariant {
	if inv == nil || inv.Assumes == nil {
		return a.Invariants
	}
	var out []*ioa.Invariant
	for _, n := range inv.Assumes {
		if x := a.Invariant(n); x != nil {
			out = append(out, x)
		}
	}
	return out
}

// invariants generates I0 and I1 for every declared invariant of a and for
// the implicit Nat invariant of every variable with a Nat inside.
func (g *generator) invariants(a *ioa.Automaton) {
	type item struct {
		name   string
		inv    *ioa.Invariant
		natVar int
		pos    source.Pos
	}
	var items []item
	for _, inv := range a.Invariants {
		items = append(items, item{inv.Name, inv, -1, inv.Pos})
	}
	for i, v := range a.Vars {
		if v.Sort.HasNat() {
			items = append(items, item{eval.NatInvariant(v.Name), nil, i, v.Pos})
		}
	}
	autos := []*ioa.Automaton{a}
	for _, it := range items {
		key := InvariantKey(a, it.name)
		group := join(a.Name, "invariant "+it.name)
		base := func() *deps {
			d := g.newDeps()
			d.state(a)
			d.add(key)
			if it.inv != nil {
				d.expr(it.inv.Body)
			}
			return d
		}
		// I0.
		d := base()
		d.init(a)
		g.add(&Obligation{ID: join(group, "start"), Group: group, Invariant: key, Clause: ClauseStart, Pos: it.pos, automaton: a},
			&plan{rule: ruleInvStart, auto: a, inv: it.inv, natVar: it.natVar}, d, autos, nil)
		// I1, per action.
		as := assumed(a, it.inv)
		for _, act := range a.Actions {
			d := base()
			d.action(a, act)
			var keys []string
			for _, x := range as {
				d.invariant(a, x)
				keys = append(keys, InvariantKey(a, x.Name))
			}
			keys = append(keys, natKeys(a)...)
			o := &Obligation{ID: join(group, act.Name), Group: group, Invariant: key, Clause: ClauseInvariant,
				Action: act.Name, Pos: it.pos, Assumes: keys, automaton: a}
			g.add(o, &plan{rule: ruleInvStep, auto: a, inv: it.inv, natVar: it.natVar, assume: as, action: act}, d, autos, nil)
		}
	}
}

// ---- edges ----

// sharedConsts returns the pairs of arbitrary constants of c and a with one
// name and sort.
func sharedConsts(c, a *ioa.Automaton) [][2]*expr.Object {
	var out [][2]*expr.Object
	for _, x := range c.Consts {
		for _, y := range a.Consts {
			if x.Name == y.Name && x.Body == nil && y.Body == nil && expr.Identical(x.Sort, y.Sort) {
				out = append(out, [2]*expr.Object{x, y})
			}
		}
	}
	return out
}

// edgeCtx carries what every obligation of one edge shares.
type edgeCtx struct {
	g      *generator
	p      *ioa.Proof
	e      *Edge
	group  string
	autos  []*ioa.Automaton
	shared [][2]*expr.Object
}

// assumes returns the keys of the invariants the edge's obligations assume
// (C's on concrete states, A's on abstract ones), with the Nat invariants.
func (x *edgeCtx) assumes(concrete, abstract bool) []string {
	var keys []string
	if concrete {
		for _, r := range x.p.AssumeConcrete {
			keys = append(keys, InvariantKey(x.p.Concrete, r.Name))
		}
		keys = append(keys, natKeys(x.p.Concrete)...)
	}
	if abstract {
		for _, r := range x.p.AssumeAbstract {
			keys = append(keys, InvariantKey(x.p.Abstract, r.Name))
		}
		keys = append(keys, natKeys(x.p.Abstract)...)
	}
	return keys
}

// deps returns a dependency set with the edge's assumed invariants.
func (x *edgeCtx) deps(concrete, abstract bool) *deps {
	d := x.g.newDeps()
	d.state(x.p.Concrete)
	d.state(x.p.Abstract)
	if concrete {
		for _, r := range x.p.AssumeConcrete {
			x.assumedDeps(d, x.p.Concrete, r)
		}
	}
	if abstract {
		for _, r := range x.p.AssumeAbstract {
			x.assumedDeps(d, x.p.Abstract, r)
		}
	}
	return d
}

// assumedDeps records the items an assumed invariant of auto brings: the
// invariant, and for one assumed by transfer the invariant of its source
// and the mappings of its chain.
func (x *edgeCtx) assumedDeps(d *deps, auto *ioa.Automaton, r *ioa.InvariantRef) {
	if !r.Transferred() {
		d.invariant(auto, r.Inv)
		return
	}
	d.invariant(r.Source, r.Inv)
	for _, q := range r.Chain {
		d.state(q.Concrete)
		d.state(q.Abstract)
		d.add(proofItem(q, "mapping"))
		for _, e := range q.Mapping.Entries {
			d.expr(e.Value)
		}
	}
}

func (x *edgeCtx) add(o *Obligation, p *plan, d *deps) {
	o.Group, o.Edge = x.group, x.e.Name
	if x.g.add(o, p, d, x.autos, x.shared) {
		x.e.Obligations = append(x.e.Obligations, o.ID)
		x.e.Assumes = union(x.e.Assumes, o.Assumes)
	}
}

func (x *edgeCtx) mapping(d *deps) {
	d.add(proofItem(x.p, "mapping"))
	for _, e := range x.p.Mapping.Entries {
		d.expr(e.Value)
	}
}

func (x *edgeCtx) relation(d *deps, clauses ...*ioa.Clause) {
	for _, c := range clauses {
		d.add(proofItem(x.p, "clause:"+c.Name))
		d.expr(c.Body)
	}
}

func (x *edgeCtx) witness(d *deps, item string, m *ioa.StateMap) {
	if m == nil {
		return
	}
	d.add(proofItem(x.p, item))
	for _, e := range m.Entries {
		d.expr(e.Value)
	}
}

// transfers records the invariants the edge assumes by transfer
// (Edge.Transfers), and adds the automata of their chains to the edge's
// automata, with the constants that each refinement of a chain shares
// (their obligations equate them, as this edge's do).
func (x *edgeCtx) transfers() {
	for _, side := range x.p.AssumeSides() {
		for _, r := range side.Refs {
			if !r.Transferred() {
				continue
			}
			x.e.Transfers = append(x.e.Transfers, &TransferAssumption{Key: InvariantKey(side.Owner, r.Name),
				Name: side.Owner.Name + " satisfies " + r.Name, Source: InvariantKey(r.Source, r.Inv.Name), Chain: r.Chain})
			for _, q := range r.Chain {
				for _, a := range []*ioa.Automaton{q.Concrete, q.Abstract} {
					if !slices.Contains(x.autos, a) {
						x.autos = append(x.autos, a)
					}
				}
				for _, pair := range sharedConsts(q.Concrete, q.Abstract) {
					if !slices.Contains(x.shared, pair) {
						x.shared = append(x.shared, pair)
					}
				}
			}
		}
	}
}

// EdgeNames returns the name of the edge of every proof, in load order:
// EdgeName, and when an earlier proof has the same pair, EdgeName followed
// by the proof's name in brackets, "C→A [P]".
func EdgeNames(proofs []*ioa.Proof) map[*ioa.Proof]string {
	names := make(map[*ioa.Proof]string, len(proofs))
	taken := map[string]bool{}
	for _, p := range proofs {
		n := EdgeName(p)
		if taken[n] {
			// Two proofs of one pair: tell them apart by the proof's name.
			n += " [" + p.Name + "]"
		}
		taken[n] = true
		names[p] = n
	}
	return names
}

// edge generates the obligations of proof p.
func (g *generator) edge(p *ioa.Proof) {
	e := &Edge{Name: g.names[p], Proof: p}
	if e.Name == "" {
		e.Name = EdgeName(p)
	}
	x := &edgeCtx{g: g, p: p, e: e, group: join(e.Name, p.Kind.String()),
		autos: []*ioa.Automaton{p.Concrete, p.Abstract}, shared: sharedConsts(p.Concrete, p.Abstract)}
	x.transfers()
	g.edges = append(g.edges, e)
	switch {
	case p.Kind == ioa.ProofHistory:
		g.history(x)
		return
	case p.Kind.IsRefinement():
		d := x.deps(false, false)
		d.init(p.Concrete)
		d.init(p.Abstract)
		x.mapping(d)
		x.add(&Obligation{ID: join(x.group, "start"), Clause: ClauseStart, Pos: p.Mapping.Pos},
			&plan{rule: ruleRefStart, proof: p}, d)
	case p.Kind == ioa.ProofForward:
		d := x.deps(false, false)
		d.init(p.Concrete)
		d.init(p.Abstract)
		x.witness(d, "start", p.Start)
		x.add(&Obligation{ID: join(x.group, "start", "init"), Clause: ClauseStart, Pos: p.Start.Pos},
			&plan{rule: ruleFwdStartInit, proof: p}, d)
		for _, cl := range p.Relation {
			d := x.deps(false, false)
			d.init(p.Concrete)
			x.witness(d, "start", p.Start)
			x.relation(d, cl)
			x.add(&Obligation{ID: join(x.group, "start", cl.Name), Clause: ClauseStart, Pos: cl.Pos},
				&plan{rule: ruleFwdStartRel, proof: p, clause: cl}, d)
		}
	case p.Kind == ioa.ProofBackward:
		d := x.deps(true, false)
		d.init(p.Concrete)
		d.init(p.Abstract)
		x.relation(d, p.Relation...)
		x.add(&Obligation{ID: join(x.group, "start"), Clause: ClauseStart, Pos: p.Pos, Assumes: x.assumes(true, false)},
			&plan{rule: ruleBwdStart, proof: p}, d)
		for _, cl := range p.Relation {
			d := x.deps(true, false)
			x.witness(d, "total", p.Total)
			x.relation(d, cl)
			x.add(&Obligation{ID: join(x.group, "totality", cl.Name), Clause: ClauseTotality, Pos: cl.Pos, Assumes: x.assumes(true, false)},
				&plan{rule: ruleBwdTotal, proof: p, clause: cl}, d)
		}
	}
	for _, sm := range p.Steps {
		g.steps(x, sm)
	}
}

// stepDeps returns the dependencies of a step obligation of sm (case k, or
// every case when k < 0).
func (x *edgeCtx) stepDeps(sm *ioa.StepMatch, k int, event bool) *deps {
	p := x.p
	backward := p.Kind == ioa.ProofBackward
	d := x.deps(true, !backward)
	d.action(p.Concrete, sm.Action)
	if !sm.Implicit {
		d.add(proofItem(p, "step:"+sm.Action.Name))
	}
	if p.Kind.IsRefinement() {
		x.mapping(d)
	}
	if p.Kind == ioa.ProofForward || backward {
		x.relation(d, p.Relation...)
	}
	for j, c := range sm.Cases {
		if k >= 0 && j > k {
			break
		}
		d.expr(c.When)
		if backward && c.Pre != nil {
			for _, e := range c.Pre.Entries {
				d.expr(e.Value)
			}
		}
		if k >= 0 && j < k {
			continue
		}
		for _, st := range c.Steps {
			d.action(p.Abstract, st.Action)
			for _, a := range st.Args {
				d.expr(a)
			}
			if lp := st.Loop; lp != nil {
				d.expr(lp.From)
				d.expr(lp.To)
				d.expr(lp.Invariant)
			}
			if event {
				d.view(p.Abstract, st.Action)
			}
		}
	}
	if event {
		d.view(p.Concrete, sm.Action)
	}
	return d
}

// steps generates the step obligations of one concrete action.
func (g *generator) steps(x *edgeCtx, sm *ioa.StepMatch) {
	p := x.p
	backward := p.Kind == ioa.ProofBackward
	act := sm.Action
	assumes := x.assumes(true, !backward)
	allGuarded := len(sm.Cases) > 0
	for _, c := range sm.Cases {
		if c.When == nil {
			allGuarded = false
		}
	}
	if allGuarded {
		x.add(&Obligation{ID: join(x.group, act.Name, "cases"), Clause: ClauseCases, Action: act.Name, Pos: sm.Pos, Assumes: assumes},
			&plan{rule: ruleStepCases, proof: p, action: act, step: sm}, x.stepDeps(sm, -1, false))
	}
	for k, c := range sm.Cases {
		caseName := ""
		if len(sm.Cases) > 1 {
			caseName = fmt.Sprintf("case %d", c.Index)
		}
		id := func(clause string) string { return join(x.group, act.Name, caseName, clause) }
		mk := func(clause, name string, pos source.Pos) *Obligation {
			return &Obligation{ID: id(name), Clause: clause, Action: act.Name, Case: caseName, Pos: pos, Assumes: assumes}
		}
		if backward {
			for _, cl := range p.Relation {
				d := x.stepDeps(sm, k, false)
				pos := cl.Pos
				if c.Pre != nil {
					pos = c.Pos
				}
				x.add(mk(ClauseRelation, ioa.StepClause{Kind: ioa.ClauseRelation, Arg: cl.Name}.String(), pos), &plan{rule: ruleStepRel, proof: p, action: act, step: sm, kase: k, clause: cl}, d)
			}
		}
		counts := map[string]int{}
		for _, st := range c.Steps {
			if st.Loop == nil {
				counts[st.Action.Name]++
			}
		}
		seen := map[string]int{}
		for j, st := range c.Steps {
			if st.Loop != nil {
				for _, r := range [...]struct{ rule, arg string }{{ruleLoopStart, ioa.LoopStart}, {ruleLoopPre, ioa.LoopPre}, {ruleLoopStep, ioa.LoopStep}} {
					name := ioa.StepClause{Kind: ioa.ClauseLoop, Arg: r.arg}.String()
					x.add(mk(ClauseLoop, name, st.Loop.Pos), &plan{rule: r.rule, proof: p, action: act, step: sm, kase: k, j: j}, x.stepDeps(sm, k, false))
				}
				continue
			}
			seen[st.Action.Name]++
			sc := ioa.StepClause{Kind: ioa.ClausePre, Arg: st.Action.Name}
			if counts[st.Action.Name] > 1 {
				sc.N = seen[st.Action.Name]
			}
			name := sc.String()
			x.add(mk(ClausePre, name, st.Pos), &plan{rule: ruleStepPre, proof: p, action: act, step: sm, kase: k, j: j}, x.stepDeps(sm, k, false))
		}
		switch {
		case p.Kind.IsRefinement() || backward:
			for i, v := range p.Abstract.Vars {
				pos := c.Pos
				if p.Kind.IsRefinement() {
					if me := p.Mapping.Entry(v.Name); me != nil {
						pos = me.Pos
					}
					if len(c.Steps) > 0 {
						pos = c.Pos
					}
				}
				x.add(mk(ClausePost, ioa.StepClause{Kind: ioa.ClausePost, Arg: v.Name}.String(), pos), &plan{rule: ruleStepPost, proof: p, action: act, step: sm, kase: k, j: i}, x.stepDeps(sm, k, false))
			}
		case p.Kind == ioa.ProofForward:
			for _, cl := range p.Relation {
				x.add(mk(ClauseRelation, ioa.StepClause{Kind: ioa.ClauseRelation, Arg: cl.Name}.String(), cl.Pos), &plan{rule: ruleStepRel, proof: p, action: act, step: sm, kase: k, clause: cl}, x.stepDeps(sm, k, false))
			}
		}
		if act.Kind.External() && c.External() != nil {
			x.add(mk(ClauseEvent, ioa.StepClause{Kind: ioa.ClauseEvent}.String(), c.External().Pos), &plan{rule: ruleStepEvent, proof: p, action: act, step: sm, kase: k}, x.stepDeps(sm, k, true))
		}
	}
}

// history generates the obligations of a history mapping.
func (g *generator) history(x *edgeCtx) {
	p := x.p
	d := x.deps(false, false)
	d.init(p.Abstract)
	d.init(p.Concrete)
	x.mapping(d)
	x.add(&Obligation{ID: join(x.group, "start", "refinement"), Clause: ClauseStart, Pos: p.Mapping.Pos},
		&plan{rule: ruleHistStartRef, proof: p}, d)
	d = x.deps(false, false)
	d.init(p.Concrete)
	d.init(p.Abstract)
	x.witness(d, "start", p.Start)
	x.add(&Obligation{ID: join(x.group, "start", "init"), Clause: ClauseStart, Pos: p.Start.Pos},
		&plan{rule: ruleHistStartInit, proof: p}, d)
	d = x.deps(false, false)
	d.init(p.Concrete)
	x.witness(d, "start", p.Start)
	x.mapping(d)
	x.add(&Obligation{ID: join(x.group, "start", "mapping"), Clause: ClauseStart, Pos: p.Start.Pos},
		&plan{rule: ruleHistStartMap, proof: p}, d)
	assumes := x.assumes(true, true)
	for _, act := range p.Concrete.Actions {
		aa := p.Abstract.Action(act.Name)
		if aa == nil {
			continue // reported by the loader
		}
		mk := func(clause string) *Obligation {
			return &Obligation{ID: join(x.group, act.Name, clause), Clause: clause, Action: act.Name, Pos: p.AbstractPos, Assumes: assumes}
		}
		dd := func() *deps {
			d := x.deps(true, true)
			d.action(p.Concrete, act)
			d.action(p.Abstract, aa)
			x.mapping(d)
			return d
		}
		x.add(mk(ClauseGuard), &plan{rule: ruleHistGuard, proof: p, action: act}, dd())
		x.add(mk(ClauseCommute), &plan{rule: ruleHistCommute, proof: p, action: act}, dd())
		if act.Kind.External() {
			d := g.newDeps()
			d.view(p.Concrete, act)
			d.view(p.Abstract, aa)
			o := mk(ClauseEvent)
			o.Assumes = nil
			x.add(o, &plan{rule: ruleHistEvent, proof: p, action: act}, d)
		}
	}
}
