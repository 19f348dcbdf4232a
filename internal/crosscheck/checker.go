// This file implements the checker every proof kind shares: the machines
// of the two automata, the proof's expressions compiled for the instance,
// and the evaluation of mappings, witnesses, relations, guards and
// abstract steps.

package crosscheck

import (
	"fmt"
	"slices"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// checker holds one cross-check of an edge.
type checker struct {
	p      *ioa.Proof
	cfg    Config
	inst   *eval.Instance // for proof expressions
	instC  *eval.Instance // for the concrete automaton
	instA  *eval.Instance // for the abstract automaton
	mC, mA *eval.Machine
	rC, rA *fast.Runner // without scratch memory
	group  string       // "C→A › kind", the prefix of obligation IDs
	res    *Result

	free     []*expr.Object // the state objects proof expressions may mention, in argument order
	mapping  *stateCode     // refinement: f over c; history: f over a
	start    *stateCode     // forward, history: a₀ over c
	total    *stateCode     // backward: τ over c
	relation []*eval.Func   // per clause of p.Relation
	steps    map[*ioa.Action]*stepCode

	invC, invA []int // the indices of the assumed invariants
	// transC and transA are the invariants assumed by transfer, P∘g
	// (simulation.Transferred), over a state of C or A.
	transC, transA []transferred
	initC, initA   *initCode

	// rules evaluates the edge's obligations at concrete points: every
	// verdict of the check comes from it (verdict.go).
	rules *simulation.PointChecker
	// pt is the point of the step being checked (verdict.go).
	pt *simulation.Point
	// related, set on the copies of the checker a forward search's
	// workers use and on a backward check's, reports whether the relation
	// is known to hold at a pair (c, a), which the step checks then take
	// as holding (simulation.Point.Related; search.related,
	// candidates.each). known is the pair a backward check knows, by the
	// identity of its states (sameState).
	related func(c, a eval.State) bool
	known   [2]eval.State
	// vouched, set by a backward step check (candidates.each), says that
	// it found R(cpost, τ(cpost)) true: the totality check at cpost
	// holds (search.node).
	vouched   bool
	totality  []*simulation.PointPlan
	hist      map[*ioa.Action][]*simulation.PointPlan // history: the step plans of each action
	planCache map[any]any                             // actionPlans

	cases   map[*ioa.Action][]int64 // how often each case was taken
	failure *Failure
	sym     *symmetry // the symmetry reduction, or nil
	dead    *deadPlan // the dead-register reduction of the abstract states of pairs, or nil
	// cands are the backward check's candidates, shared with the copies of
	// the checker the search's workers use (their cache only by the
	// searching goroutine).
	cands *candidates
	// decoded are the candidates this copy of the checker decoded
	// (candidates.state), and relOf the candidates related to the
	// concrete states it looked up, by their encoding (candidates.related;
	// relKey is scratch).
	decoded map[int32]eval.State
	// candR decodes the candidates of a worker's copy into its scratch
	// memory, which nodeStart releases between nodes (candNode: the last
	// node started); permBuf is scratch of candidates.state.
	candR    *fast.Runner
	candNode int
	permBuf  []byte
	// nodeOf, set on a worker's copy of a search of states, returns the
	// id of the stored node of a state, or -1, the permutations that map
	// the state to the node's, and the node's key appended to key
	// (search.nodeOf); found is what the
	// step check's lookup of its post-state found, for the search to
	// keep with the post-state's node if it is new (candidates.remember).
	nodeOf func(c eval.State, key []byte) (int, []int, []byte)
	found  found
	pre    preNode // the node the step being checked starts from (workers)
	relOf  map[string]found
	relKey []byte
	// scratch of candidates.related and probes, reused across lookups
	relScratch     eval.State
	relAll         []int32
	probeHashes    []uint64
	probeA, probeB [][]byte
	probeArena     []byte
	imgKey         []byte
	// verdicts is scratch of candidates.related: per filter, the verdict
	// on each value met in one lookup.
	verdicts [][]uint8
	// kind is the check of the edge's kind (refinement, backward, history),
	// and capture, when set, stops it at its search and receives the
	// search's callbacks, bound to this checker (search.go).
	kind    func(*checker) error
	capture func(state func(id int, root, vouched bool, s eval.State) error, step func(tr *explore.Transition) error)
	// absLimit says why the backward candidates are incomplete, if they are.
	absLimit string
	// meter watches cfg.Budget from the start of the check, for the
	// search and what comes before it (the backward candidates); only the
	// searching goroutine calls it, except Over.
	meter *explore.Meter
	// traceOf returns a shortest execution to the explored state with
	// the given id, and (forward) the abstract steps matched to it.
	traceOf func(id int) (*explore.Trace, []MatchedStep, error)
}

// stateCode is a compiled StateMap: one function per variable of Target.
type stateCode struct {
	m     *ioa.StateMap
	funcs []*eval.Func
	// copies: per variable, the state object and variable number of an
	// entry `o.x` (expr.StateField: read, not evaluated, when e binds o),
	// or a nil object
	copies []varRead
}

// varRead is a variable x of the state bound to o.
type varRead struct {
	o *expr.Object
	x int
}

// stepCode is a compiled step correspondence.
type stepCode struct {
	sm    *ioa.StepMatch
	cases []*caseCode
}

// caseCode is a compiled case.
type caseCode struct {
	c     *ioa.Case
	when  *eval.Func // nil: true
	pre   *stateCode // backward: the apre witness; nil: apre = a
	steps []*absStep
}

// absStep is a compiled abstract step β(θ).
type absStep struct {
	s    *ioa.AbstractStep
	args []*eval.Func
}

// env gives the states and parameters proof expressions are evaluated in.
type env struct {
	c, a, cpost, apre eval.State
	params            []eval.Value
}

func newChecker(p *ioa.Proof, cfg Config) (*checker, error) {
	each, all, err := instances([]*ioa.Automaton{p.Concrete, p.Abstract}, cfg.Instance)
	if err != nil {
		return nil, err
	}
	x := &checker{p: p, cfg: cfg, inst: all, instC: each[0], instA: each[1],
		group: join(edgeName(p), p.Kind.String()), cases: map[*ioa.Action][]int64{}, meter: explore.NewMeter(cfg.Budget)}
	x.res = &Result{Proof: p.Name, Edge: edgeName(p), Kind: p.Kind.String(), Instance: all.String(), Notes: []string{}}
	switch {
	case p.Kind == ioa.ProofForward:
		x.res.Explored = "pairs (c, a) of a concrete state and its matched abstract state"
	case p.Kind == ioa.ProofHistory:
		x.res.Explored = "states of " + p.Abstract.Name
	default:
		x.res.Explored = "states of " + p.Concrete.Name
	}
	if x.mC, err = explore.Machine(p.Concrete, explore.Config{Instance: x.instC}); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Concrete.Name, err)
	}
	if x.mA, err = explore.Machine(p.Abstract, explore.Config{Instance: x.instA}); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Abstract.Name, err)
	}
	x.rC, x.rA = fast.NewRunner(x.mC), fast.NewRunner(x.mA)
	if x.rules, err = simulation.NewPointChecker(p, all); err != nil {
		return nil, err
	}
	for _, o := range []*expr.Object{p.C, p.A, p.CPost, p.APre} {
		if o != nil {
			x.free = append(x.free, o)
		}
	}
	if x.mapping, err = x.compileMap(p.Mapping); err != nil {
		return nil, err
	}
	if x.start, err = x.compileMap(p.Start); err != nil {
		return nil, err
	}
	if x.total, err = x.compileMap(p.Total); err != nil {
		return nil, err
	}
	for _, cl := range p.Relation {
		f, err := x.compile(cl.Body)
		if err != nil {
			return nil, fmt.Errorf("relation clause %s: %v", cl.Name, err)
		}
		x.relation = append(x.relation, f)
	}
	x.steps = map[*ioa.Action]*stepCode{}
	for _, sm := range p.Steps {
		sc := &stepCode{sm: sm}
		for _, c := range sm.Cases {
			cc := &caseCode{c: c}
			if c.When != nil {
				if cc.when, err = x.compile(c.When); err != nil {
					return nil, err
				}
			}
			if cc.pre, err = x.compileMap(c.Pre); err != nil {
				return nil, err
			}
			for _, st := range c.Steps {
				as := &absStep{s: st}
				for _, a := range st.Args {
					f, err := x.compile(a)
					if err != nil {
						return nil, err
					}
					as.args = append(as.args, f)
				}
				cc.steps = append(cc.steps, as)
			}
			sc.cases = append(sc.cases, cc)
		}
		x.steps[sm.Action] = sc
		x.cases[sm.Action] = make([]int64, len(sm.Cases))
	}
	// Assumed invariants: of C on concrete states, of A on abstract ones.
	for _, r := range p.AssumeConcrete {
		if i := x.mC.InvariantIndex(r.Name); i >= 0 {
			x.invC = append(x.invC, i)
		}
	}
	for _, r := range p.AssumeAbstract {
		if i := x.mA.InvariantIndex(r.Name); i >= 0 {
			x.invA = append(x.invA, i)
		}
	}
	if x.transC, err = x.compileTransfers(p.AssumeConcrete, p.Concrete); err != nil {
		return nil, err
	}
	if x.transA, err = x.compileTransfers(p.AssumeAbstract, p.Abstract); err != nil {
		return nil, err
	}
	if x.invC == nil {
		x.invC = []int{}
	}
	if x.invA == nil {
		x.invA = []int{}
	}
	if x.initC, err = newInitCode(x.mC); err != nil {
		return nil, err
	}
	if x.initA, err = newInitCode(x.mA); err != nil {
		return nil, err
	}
	if err := x.setupSymmetry(cfg.Symmetry); err != nil {
		return nil, err
	}
	if err := x.setupDead(); err != nil {
		return nil, err
	}
	return x, nil
}

// compile compiles a proof expression over the state objects, and then
// the objects extra (evalBound binds them).
func (x *checker) compile(e expr.Expr, extra ...*expr.Object) (*eval.Func, error) {
	f, err := eval.Compile(e, x.inst, slices.Concat(x.free, extra)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", e.Pos(), err)
	}
	return f, nil
}

func (x *checker) compileMap(m *ioa.StateMap) (*stateCode, error) {
	if m == nil {
		return nil, nil
	}
	sc := &stateCode{m: m}
	for _, v := range m.Target.Vars {
		e := m.Entry(v.Name)
		if e == nil || e.Value == nil {
			return nil, fmt.Errorf("%s: no value for variable %s", m.Pos, v.Name)
		}
		f, err := x.compile(e.Value)
		if err != nil {
			return nil, err
		}
		sc.funcs = append(sc.funcs, f)
		var rd varRead
		if o, field, ok := expr.StateField(e.Value); ok {
			rd = varRead{o, field}
		}
		sc.copies = append(sc.copies, rd)
	}
	return sc, nil
}

// state returns the state e binds to the proof's state object o, or nil.
func (x *checker) state(e *env, o *expr.Object) eval.State {
	switch o {
	case x.p.C:
		return e.c
	case x.p.A:
		return e.a
	case x.p.CPost:
		return e.cpost
	case x.p.APre:
		return e.apre
	}
	return nil
}

// eval evaluates f in e.
func (x *checker) eval(f *eval.Func, e *env) (eval.Value, error) {
	return x.evalBound(f, e)
}

// evalBound evaluates f, compiled over the state objects and then
// further objects, in e with those objects bound to the values bound.
func (x *checker) evalBound(f *eval.Func, e *env, bound ...eval.Value) (eval.Value, error) {
	var buf [8]eval.Value
	args := buf[:0]
	for _, o := range x.free {
		args = append(args, x.state(e, o).AsValue())
	}
	return f.Eval(nil, e.params, append(args, bound...)...)
}

// holds evaluates a Bool expression.
func (x *checker) holds(f *eval.Func, e *env) (bool, error) {
	v, err := x.eval(f, e)
	return v.Bool(), err
}

// stateOf evaluates a StateMap.
func (x *checker) stateOf(sc *stateCode, e *env) (eval.State, error) {
	out := make(eval.State, len(sc.funcs))
	for i, f := range sc.funcs {
		if rd := sc.copies[i]; rd.o != nil {
			if s := x.state(e, rd.o); rd.x < len(s) {
				out[i] = s[rd.x]
				continue
			}
		}
		v, err := x.eval(f, e)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", sc.m.Entries[i].Pos, err)
		}
		out[i] = v
	}
	return out, nil
}

// failedClauses returns the names of the relation clauses that do not hold
// in e.
func (x *checker) failedClauses(e *env) ([]string, error) {
	var out []string
	for i, f := range x.relation {
		ok, err := x.holds(f, e)
		if err != nil {
			return nil, fmt.Errorf("relation clause %s: %v", x.p.Relation[i].Name, err)
		}
		if !ok {
			out = append(out, x.p.Relation[i].Name)
		}
	}
	return out, nil
}

// relates reports whether every relation clause holds in e (R(e.c, e.a)),
// stopping at the first that does not.
func (x *checker) relates(e *env) (bool, error) {
	for i, f := range x.relation {
		ok, err := x.holds(f, e)
		if err != nil {
			return false, fmt.Errorf("relation clause %s: %v", x.p.Relation[i].Name, err)
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// selectCase returns the index of the first case of sc whose guard holds,
// or -1. envFor gives the environment of case k (backward: with its apre).
func (x *checker) selectCase(sc *stepCode, envFor func(k int) (*env, error)) (int, error) {
	for k, cc := range sc.cases {
		if cc.when == nil {
			return k, nil
		}
		e, err := envFor(k)
		if err != nil {
			return -1, err
		}
		ok, err := x.holds(cc.when, e)
		if err != nil {
			return -1, fmt.Errorf("%s: guard of case %d: %v", cc.c.Pos, k+1, err)
		}
		if ok {
			return k, nil
		}
	}
	return -1, nil
}

// run is the result of running the abstract steps of a case.
type run struct {
	cc   *caseCode
	us   []eval.State   // u_0 … u_j: the states reached
	args [][]eval.Value // the arguments of every step (evaluated in the pre-states)
	fail int            // the index of the first step not enabled, or -1
}

// call returns step j of r as called, e.g. "DoRead(T#0, L#0, 1)".
func (x *checker) call(r *run, j int) string {
	return x.mA.FormatAction(r.cc.steps[j].s.Action, r.args[j])
}

// calls returns every step of r as called.
func (x *checker) calls(r *run) []string {
	out := []string{}
	for j := range r.args {
		out = append(out, x.call(r, j))
	}
	return out
}

// runSteps runs the abstract steps of cc from u0, arguments evaluated in e.
func (x *checker) runSteps(cc *caseCode, u0 eval.State, e *env) (*run, error) {
	r := &run{cc: cc, us: []eval.State{u0}, fail: -1}
	for _, as := range cc.steps {
		args := make([]eval.Value, len(as.args))
		for i, f := range as.args {
			v, err := x.eval(f, e)
			if err != nil {
				return nil, fmt.Errorf("%s: argument %d of %s: %v", as.s.Pos, i+1, as.s.Action.Name, err)
			}
			args[i] = v
		}
		r.args = append(r.args, args)
	}
	for j, as := range cc.steps {
		post, ok, err := x.mA.Step(as.s.Action, r.us[j], r.args[j])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", as.s.Pos, x.call(r, j), err)
		}
		if !ok {
			r.fail = j
			return r, nil
		}
		r.us = append(r.us, post)
	}
	return r, nil
}

// caseName returns "case k" for an action with several cases, else "".
func caseName(sm *ioa.StepMatch, k int) string {
	if len(sm.Cases) > 1 {
		return fmt.Sprintf("case %d", k+1)
	}
	return ""
}

// eventCheck compares the event of the concrete step act(ps) with the
// events of the external abstract steps of r. It returns "" when they
// agree, and otherwise a description of the difference.
func (x *checker) eventCheck(act *ioa.Action, ps []eval.Value, cc *caseCode, r *run) (string, error) {
	cname, cargs, err := x.mC.ViewEvent(act, ps)
	if err != nil {
		return "", err
	}
	var shown []int
	for j, as := range cc.steps {
		if as.s.Action.Kind.External() {
			shown = append(shown, j)
		}
	}
	cev, _ := x.mC.FormatEvent(act, ps)
	if cname != "" && len(shown) == 1 {
		cev = "" // formatted below when the events differ
	}
	switch {
	case cname == "" && len(shown) == 0:
		return "", nil
	case cname == "":
		return fmt.Sprintf("the internal step %s is matched by the external abstract step %s", x.mC.FormatAction(act, ps), x.call(r, shown[0])), nil
	case len(shown) == 0:
		return fmt.Sprintf("the concrete event %s is matched by no external abstract step", cev), nil
	case len(shown) > 1:
		return fmt.Sprintf("the concrete event %s is matched by %d external abstract steps", cev, len(shown)), nil
	}
	j := shown[0]
	aname, aargs, err := x.mA.ViewEvent(cc.steps[j].s.Action, r.args[j])
	if err != nil {
		return "", err
	}
	same := aname == cname && len(aargs) == len(cargs)
	for i := 0; same && i < len(cargs); i++ {
		same = cargs[i].Equal(aargs[i])
	}
	if same {
		return "", nil
	}
	aev, err := x.mA.FormatEvent(cc.steps[j].s.Action, r.args[j])
	if err != nil {
		return "", err
	}
	if cev, err = x.mC.FormatEvent(act, ps); err != nil {
		return "", err
	}
	return fmt.Sprintf("the concrete step shows %s but the abstract step %s shows %s", cev, x.call(r, j), aev), nil
}

// transferred is an invariant assumed by transfer, compiled over one
// state.
type transferred struct {
	name string
	f    *eval.Func
}

// compileTransfers compiles the predicates P∘g of the invariants of refs,
// assumed of owner by transfer.
func (x *checker) compileTransfers(refs []*ioa.InvariantRef, owner *ioa.Automaton) ([]transferred, error) {
	var out []transferred
	for _, r := range refs {
		if !r.Transferred() {
			continue
		}
		obj := &expr.Object{Kind: expr.ObjState, Name: "s", Sort: owner.StateSort}
		body, err := simulation.Transferred(r, owner, obj)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.Pos, err)
		}
		f, err := eval.Compile(body, x.inst, obj)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.Pos, err)
		}
		out = append(out, transferred{name: r.Name, f: f})
	}
	return out, nil
}

// violated returns the first assumed invariant or Nat condition that s, a
// state of the concrete (abstract) automaton, violates, or "".
func (x *checker) violated(abstract bool, s eval.State) (string, error) {
	r, invs, trans := x.rC, x.invC, x.transC
	if abstract {
		r, invs, trans = x.rA, x.invA, x.transA
	}
	if name, err := r.Violated(s, invs); name != "" || err != nil {
		return name, err
	}
	for _, t := range trans {
		v, err := t.f.Eval(nil, nil, s.AsValue())
		if err != nil {
			return "", err
		}
		if !v.Bool() {
			return t.name, nil
		}
	}
	return "", nil
}

// countCase records that a step of act took case k.
func (x *checker) countCase(act *ioa.Action, k int) {
	if cs := x.cases[act]; k >= 0 && k < len(cs) {
		cs[k]++
	}
}

// caseCounts returns the case counts in action order.
func (x *checker) caseCounts() []CaseCount {
	out := []CaseCount{}
	for _, sm := range x.p.Steps {
		cs := x.cases[sm.Action]
		for k := range cs {
			out = append(out, CaseCount{Action: sm.Action.Name, Case: k + 1, Of: len(cs), Taken: cs[k]})
		}
	}
	return out
}

// named returns a NamedState of s, with every variable, or with only the
// variables that differ from base when base is given. When every variable
// differs, the state is given whole, without a Base: nothing of it is
// "otherwise as" base.
func named(name string, a *ioa.Automaton, s eval.State, baseName string, base eval.State) NamedState {
	ns := NamedState{Name: name, Automaton: a.Name, Value: s.Clone(), Vars: []explore.Var{}}
	if base != nil && len(base) == len(s) {
		ns.Base = baseName
	}
	for i, v := range a.Vars {
		if i >= len(s) {
			break
		}
		if ns.Base != "" && s[i].Equal(base[i]) {
			continue
		}
		ns.Vars = append(ns.Vars, explore.Var{Name: v.Name, Value: eval.Format(s[i], v.Sort)})
	}
	if ns.Base != "" && len(ns.Vars) > 0 && len(ns.Vars) == len(s) {
		ns.Base = ""
	}
	return ns
}

// diffs returns "x: u = … but f(cpost) = …" lines for the variables of a
// in which s and t differ, and the first such variable.
func diffs(a *ioa.Automaton, sName string, s eval.State, tName string, t eval.State) (string, []string) {
	var first string
	var out []string
	for i, v := range a.Vars {
		if i >= len(s) || i >= len(t) || s[i].Equal(t[i]) {
			continue
		}
		if first == "" {
			first = v.Name
		}
		out = append(out, fmt.Sprintf("%s.%s = %s but %s.%s = %s", sName, v.Name, eval.Format(s[i], v.Sort), tName, v.Name, eval.Format(t[i], v.Sort)))
	}
	return first, out
}
