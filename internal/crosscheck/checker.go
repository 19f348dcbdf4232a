// This file implements the checker every proof kind shares: the machines
// of the two automata, the edge as the rules compiled it (the point
// checker's expressions and state maps), and the evaluation of mappings,
// witnesses and relations the search needs.

package crosscheck

import (
	"fmt"
	"strings"

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

	// The edge as the rules compiled it (simulation.PointChecker.Func,
	// StateMap): free are the state objects proof expressions may
	// mention, in argument order.
	free     []*expr.Object
	mapping  *simulation.StateMap // refinement: f over c; history: f over a
	start    *simulation.StateMap // forward, history: a₀ over c
	total    *simulation.StateMap // backward: τ over c
	relation []*eval.Func         // per clause of p.Relation
	// probes are Config.Probes compiled, and probeFalse which of them
	// were found false at a pair (probe).
	probes     []*eval.Func
	probeFalse []bool
	steps      map[*ioa.Action]*ioa.StepMatch

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
	x.free = x.rules.Objects()
	if x.mapping, err = x.rules.StateMap(p.Mapping); err != nil {
		return nil, err
	}
	if x.start, err = x.rules.StateMap(p.Start); err != nil {
		return nil, err
	}
	if x.total, err = x.rules.StateMap(p.Total); err != nil {
		return nil, err
	}
	for _, cl := range p.Relation {
		f, err := x.compile(cl.Body)
		if err != nil {
			return nil, fmt.Errorf("relation clause %s: %v", cl.Name, err)
		}
		x.relation = append(x.relation, f)
	}
	for i, e := range cfg.Probes {
		f, err := x.compile(e)
		if err != nil {
			return nil, fmt.Errorf("probe %d: %v", i+1, err)
		}
		x.probes = append(x.probes, f)
	}
	x.probeFalse = make([]bool, len(x.probes))
	x.steps = map[*ioa.Action]*ioa.StepMatch{}
	for _, sm := range p.Steps {
		x.steps[sm.Action] = sm
		x.cases[sm.Action] = make([]int64, len(sm.Cases))
	}
	if err := x.setupSymmetry(cfg.Symmetry); err != nil {
		return nil, err
	}
	if err := x.setupDead(); err != nil {
		return nil, err
	}
	return x, nil
}

// compile returns proof expression e as the rules compiled it, over the
// state objects and then the objects extra (evalBound binds them).
func (x *checker) compile(e expr.Expr, extra ...*expr.Object) (*eval.Func, error) {
	f, err := x.rules.Func(e, extra...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", e.Pos(), err)
	}
	return f, nil
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

// stateOf applies a state map in e.
func (x *checker) stateOf(sm *simulation.StateMap, e *env) (eval.State, error) {
	var buf [4]eval.State
	var args [4]eval.Value
	states := buf[:0]
	for _, o := range x.free {
		states = append(states, x.state(e, o))
	}
	return sm.Apply(states, e.params, args[:0])
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

// call returns step j of r as called, e.g. "DoRead(T#0, L#0, 1)".
func (x *checker) call(r *simulation.Run, j int) string {
	if st := r.Steps[j]; st.Loop != nil && r.Args[j] == nil {
		// a repeated step the rules did not run (a loop obligation's own
		// evaluation): as written
		lp := st.Loop
		args := make([]string, len(st.Args))
		for i, a := range st.Args {
			args[i] = expr.Print(a)
		}
		return fmt.Sprintf("%s(%s) for %s in %s..%s", st.Action.Name, strings.Join(args, ", "), lp.Var.Name, expr.Print(lp.From), expr.Print(lp.To))
	}
	return x.mA.FormatAction(r.Steps[j].Action, r.Args[j])
}

// calls returns every step of r as called.
func (x *checker) calls(r *simulation.Run) []string {
	out := []string{}
	for j := range r.Args {
		out = append(out, x.call(r, j))
	}
	return out
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
func (x *checker) eventCheck(act *ioa.Action, ps []eval.Value, r *simulation.Run) (string, error) {
	cname, cargs, err := x.mC.ViewEvent(act, ps)
	if err != nil {
		return "", err
	}
	var shown []int
	for j, as := range r.Steps {
		if as.Action.Kind.External() {
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
	aname, aargs, err := x.mA.ViewEvent(r.Steps[j].Action, r.Args[j])
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
	aev, err := x.mA.FormatEvent(r.Steps[j].Action, r.Args[j])
	if err != nil {
		return "", err
	}
	if cev, err = x.mC.FormatEvent(act, ps); err != nil {
		return "", err
	}
	return fmt.Sprintf("the concrete step shows %s but the abstract step %s shows %s", cev, x.call(r, j), aev), nil
}

// violated returns the first condition the edge assumes of a state of
// the concrete (abstract) automaton that s violates, or "": the rules'
// verdict (simulation.PointChecker.Violated).
func (x *checker) violated(abstract bool, s eval.State) (string, error) {
	if abstract {
		return x.rules.Violated(x.p.Abstract, s)
	}
	return x.rules.Violated(x.p.Concrete, s)
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
