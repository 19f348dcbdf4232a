// This file implements the two worlds every obligation is computed in:
// the symbolic world (package encode: terms, for the solver) and the
// concrete world (package eval: values, for replaying a counterexample).
// Each rule is written once, as a scenario over a world (rules*.go), so the
// hypotheses and goal that Z3 refutes are, by construction, the ones the
// evaluator re-checks.

package simulation

import (
	"errors"
	"fmt"

	"ladder/internal/encode"
	"ladder/internal/logic"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// world is the vocabulary of scenarios: states S, values V and truth
// values B. Fresh states and parameters are the free variables of an
// obligation; everything else is computed from them.
type world[S, V, B any] interface {
	// freshState returns the named free state of a.
	freshState(a *ioa.Automaton, name string) (S, error)
	// freshParams returns the named free parameters of act.
	freshParams(act *ioa.Action, name string) ([]V, error)
	// stateOf returns the state of m.Target whose variables are m's
	// expressions in env.
	stateOf(m *ioa.StateMap, name string, env *wenv[S, V]) (S, error)
	// post returns the post-state of act(ps) from s. Scenarios ask for it
	// only when act(ps) is enabled in s by hypothesis: the concrete world
	// computes it with the evaluator's Step, which fails otherwise.
	post(act *ioa.Action, s S, ps []V, name string) (S, error)
	// values evaluates expressions in env.
	values(xs []expr.Expr, env *wenv[S, V]) ([]V, error)
	// env returns an empty environment of params, as newEnv does. The
	// rules use it for the environments of one scenario, which no world
	// keeps beyond it.
	env(params []V) *wenv[S, V]
	// init, pre, holds: the start condition, the enabling condition (with
	// parameter ranges), and a Bool expression in env.
	init(a *ioa.Automaton, s S) (B, error)
	pre(act *ioa.Action, s S, ps []V) (B, error)
	holds(x expr.Expr, env *wenv[S, V]) (B, error)
	// related reports whether the world knows that every clause of the
	// relation holds at (c, a) (forwardStep, backwardStep): a known
	// hypothesis is left out, a known goal is true.
	related(c, a S) bool
	// framed reports whether the world knows that relation clause cl
	// (clause i of the relation) has the same value at (cpost, apost) as
	// at (c, a) (forwardStep): it reads only variables the steps left
	// alone.
	framed(i int, cl *ioa.Clause, c, a, cpost, apost S) bool
	// natFact is the implicit condition of variable i of s, a state of a
	// (true unless the variable has a Nat inside).
	natFact(a *ioa.Automaton, s S, i int) (B, error)
	// invariant evaluates a predicate over the bare variables of s (an
	// invariant body).
	invariant(x expr.Expr, s S) (B, error)
	// varEq, valsEq: equality of one variable of two states of one
	// automaton, of two lists of values.
	varEq(s, t S, i int) B
	valsEq(xs, ys []V) B
	and(bs ...B) B
	or(bs ...B) B
	not(b B) B
	iff(a, b B) B
	tt() B
	// loopRange returns the integers from and to, when the world's values
	// are concrete (a repeated step's bounds); intVal is the value of n.
	loopRange(from, to V) (int, int, bool)
	intVal(n int) V
}

// wenv binds the names of proof expressions: whole states by object (at
// most four: c, a, cpost, apre), and the parameters of one action (by
// index).
type wenv[S, V any] struct {
	objs   [4]*expr.Object
	sts    [4]S
	n      int
	params []V
}

// newEnv returns an environment of params; with binds states.
func newEnv[S, V any](params []V) *wenv[S, V] {
	return &wenv[S, V]{params: params}
}

// with binds obj to s (replacing a binding of obj) and returns env.
func (env *wenv[S, V]) with(obj *expr.Object, s S) *wenv[S, V] {
	for i := 0; i < env.n; i++ {
		if env.objs[i] == obj {
			env.sts[i] = s
			return env
		}
	}
	if env.n == len(env.objs) {
		panic("internal: more than four states in an environment")
	}
	env.objs[env.n], env.sts[env.n] = obj, s
	env.n++
	return env
}

// state returns the state bound to obj.
func (env *wenv[S, V]) state(obj *expr.Object) (S, bool) {
	for i := 0; i < env.n; i++ {
		if env.objs[i] == obj {
			return env.sts[i], true
		}
	}
	var zero S
	return zero, false
}

// stateMap returns the bindings as a map.
func (env *wenv[S, V]) stateMap() map[*expr.Object]S {
	m := make(map[*expr.Object]S, env.n)
	for i := 0; i < env.n; i++ {
		m[env.objs[i]] = env.sts[i]
	}
	return m
}

// ---- the symbolic world ----

// symWorld builds terms with an encoder. Constants that the concrete and
// abstract automata both declare with one name and sort denote one value:
// sameConsts lists the pairs, and the hypotheses equate them.
type symWorld struct {
	enc    *encode.Encoder
	states map[string]*encode.State  // fresh states by name
	params map[string][]encode.Value // fresh parameters by name
	consts map[string]encode.Value   // the symbols of arbitrary constants, by name
	order  []string                  // fresh names in creation order
	kinds  map[string]*ioa.Automaton // automaton of each fresh state
	acts   map[string]*ioa.Action    // action of each fresh parameter list
}

func newSymWorld() *symWorld {
	return &symWorld{enc: encode.New(), states: map[string]*encode.State{}, params: map[string][]encode.Value{},
		consts: map[string]encode.Value{}, kinds: map[string]*ioa.Automaton{}, acts: map[string]*ioa.Action{}}
}

func (w *symWorld) freshState(a *ioa.Automaton, name string) (*encode.State, error) {
	st, err := w.enc.NewState(a, name)
	if err != nil {
		return nil, err
	}
	w.states[name] = st
	w.kinds[name] = a
	w.order = append(w.order, name)
	return st, nil
}

func (w *symWorld) freshParams(act *ioa.Action, name string) ([]encode.Value, error) {
	ps, err := w.enc.NewParams(act, name)
	if err != nil {
		return nil, err
	}
	w.params[name] = ps
	w.acts[name] = act
	w.order = append(w.order, name)
	return ps, nil
}

func (w *symWorld) encEnv(env *wenv[*encode.State, encode.Value]) *encode.Env {
	return &encode.Env{States: env.stateMap(), Params: env.params}
}

func (w *symWorld) stateOf(m *ioa.StateMap, name string, env *wenv[*encode.State, encode.Value]) (*encode.State, error) {
	vals := make([]encode.Value, len(m.Target.Vars))
	for i, v := range m.Target.Vars {
		e := m.Entry(v.Name)
		if e == nil {
			return nil, fmt.Errorf("%s does not give variable %s", name, v.Name)
		}
		x, err := w.enc.Expr(e.Value, w.encEnv(env))
		if err != nil {
			return nil, err
		}
		vals[i] = x
	}
	return w.enc.StateOf(m.Target, name, vals)
}

func (w *symWorld) post(act *ioa.Action, s *encode.State, ps []encode.Value, name string) (*encode.State, error) {
	return w.enc.Post(act, s, ps, name)
}

func (w *symWorld) env(params []encode.Value) *wenv[*encode.State, encode.Value] {
	return newEnv[*encode.State](params)
}

func (w *symWorld) values(xs []expr.Expr, env *wenv[*encode.State, encode.Value]) ([]encode.Value, error) {
	out := make([]encode.Value, len(xs))
	for i, x := range xs {
		v, err := w.enc.Expr(x, w.encEnv(env))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (w *symWorld) init(a *ioa.Automaton, s *encode.State) (*logic.Term, error) { return w.enc.Init(s) }

func (w *symWorld) pre(act *ioa.Action, s *encode.State, ps []encode.Value) (*logic.Term, error) {
	return w.enc.Pre(act, s, ps)
}

func (w *symWorld) holds(x expr.Expr, env *wenv[*encode.State, encode.Value]) (*logic.Term, error) {
	return w.enc.Formula(x, w.encEnv(env))
}

func (w *symWorld) natFact(a *ioa.Automaton, s *encode.State, i int) (*logic.Term, error) {
	return w.enc.NatFact(s, i)
}

func (w *symWorld) invariant(x expr.Expr, s *encode.State) (*logic.Term, error) {
	return w.enc.Formula(x, &encode.Env{State: s})
}

func (w *symWorld) varEq(s, t *encode.State, i int) *logic.Term {
	return encode.Eq(s.Vars[i], t.Vars[i])
}

func (w *symWorld) valsEq(xs, ys []encode.Value) *logic.Term {
	cs := make([]*logic.Term, len(xs))
	for i := range xs {
		cs[i] = encode.Eq(xs[i], ys[i])
	}
	return logic.And(cs...)
}

func (w *symWorld) and(bs ...*logic.Term) *logic.Term { return logic.And(bs...) }
func (w *symWorld) or(bs ...*logic.Term) *logic.Term  { return logic.Or(bs...) }
func (w *symWorld) not(b *logic.Term) *logic.Term     { return logic.Not(b) }
func (w *symWorld) iff(a, b *logic.Term) *logic.Term  { return logic.Eq(a, b) }
func (w *symWorld) tt() *logic.Term                   { return logic.True() }

// The symbolic world does not run loops (passLoop assumes their
// conclusion instead).
func (w *symWorld) loopRange(from, to encode.Value) (int, int, bool) { return 0, 0, false }
func (w *symWorld) intVal(n int) encode.Value                        { return encode.Value{} }

// related is false: an obligation assumes nothing of a pair beyond its
// hypotheses.
func (w *symWorld) related(c, a *encode.State) bool { return false }

// framed is false: an obligation's goal is stated in full.
func (w *symWorld) framed(i int, cl *ioa.Clause, c, a, cpost, apost *encode.State) bool {
	return false
}

// constant returns the encoding of constant obj (its symbol, when it has
// no value), remembering the symbols by name for decoding.
func (w *symWorld) constant(obj *expr.Object) (encode.Value, error) {
	id := &expr.Ident{Name: obj.Name, Obj: obj}
	id.SetSort(obj.Sort)
	id.SetPos(obj.Pos)
	v, err := w.enc.Expr(id, nil)
	if err != nil {
		return encode.Value{}, err
	}
	if obj.Body == nil {
		if _, ok := w.consts[obj.Name]; !ok {
			w.consts[obj.Name] = v
		}
	}
	return v, nil
}

// ---- the concrete world ----

// conWorld evaluates with the reference evaluator in the instance of a
// decoded model. Fresh states and parameters are the decoded ones.
type conWorld struct {
	inst   *eval.Instance
	states map[string]eval.State
	params map[string][]eval.Value
	autos  map[*ioa.Automaton]*eval.Machine
	owner  map[*ioa.Action]*ioa.Automaton
	// concrete is the automaton whose steps are the concrete ones (for
	// rendering); trace and calls record what the scenario computed.
	concrete    *ioa.Automaton
	trace       []traced
	calls       []call
	sawConcrete bool
	// quiet: trace and calls are not recorded (PointChecker.EvalStep).
	quiet bool
	// why is the first reason a state was found not to be a start state
	// (init), when recorded.
	why string
	// fast, when set, is the compiled mode of PointChecker (fasteval.go):
	// compiled expressions, values memoized within a point, invariant and
	// Nat hypotheses of the point's states taken as true (its caller checks
	// them per state), and a scenario stopped at its first false hypothesis.
	fast *fastEval
}

// env returns an environment of params: in the compiled mode, one of a
// slab that fastEval.reset makes available again at the next point (an
// environment lives for one scenario); otherwise a new one.
func (w *conWorld) env(params []eval.Value) *wenv[eval.State, eval.Value] {
	f := w.fast
	if f == nil {
		return newEnv[eval.State](params)
	}
	if f.envNext == len(f.envs) {
		// a new slab: environments handed out earlier keep the old one
		f.envs, f.envNext = make([]wenv[eval.State, eval.Value], max(32, 2*len(f.envs))), 0
	}
	e := &f.envs[f.envNext]
	f.envNext++
	*e = wenv[eval.State, eval.Value]{params: params}
	return e
}

// trustsInvariants reports whether hypotheses that assume invariants and
// Nat conditions are taken as true (PointChecker).
func (w *conWorld) trustsInvariants() bool { return w.fast != nil }

// stops reports whether a false hypothesis stops the scenario
// (PointChecker); stopAt records its name.
func (w *conWorld) stops() bool { return w.fast != nil }

func (w *conWorld) stopAt(name string) { w.fast.vacuous = name }

// records reports whether a scenario keeps the abstract steps it takes
// (sc.record): in the compiled mode, unless quiet.
func (w *conWorld) records() bool { return w.fast != nil && !w.quiet }

// traced is a state a scenario met, with the state it was computed from
// by a step (base, or "").
type traced struct {
	name, base string
	auto       *ioa.Automaton
	st         eval.State
}

// call is a step a scenario took.
type call struct {
	text     string
	concrete bool
}

func (w *conWorld) record(name string, a *ioa.Automaton, st eval.State, base string) {
	if w.quiet {
		return
	}
	w.trace = append(w.trace, traced{name: name, base: base, auto: a, st: st})
}

// nameOf returns the name of a recorded state (by identity), or "".
func (w *conWorld) nameOf(st eval.State) string {
	if len(st) == 0 {
		return ""
	}
	for i := len(w.trace) - 1; i >= 0; i-- {
		if t := w.trace[i].st; len(t) > 0 && &t[0] == &st[0] {
			return w.trace[i].name
		}
	}
	return ""
}

// lookup returns the recorded state of that name, or nil.
func (w *conWorld) lookup(name string) eval.State {
	for i := len(w.trace) - 1; i >= 0 && name != ""; i-- {
		if w.trace[i].name == name {
			return w.trace[i].st
		}
	}
	return nil
}

func (w *conWorld) machine(a *ioa.Automaton) (*eval.Machine, error) {
	if m := w.autos[a]; m != nil {
		return m, nil
	}
	m, err := eval.NewMachine(a, w.inst)
	if err != nil {
		return nil, err
	}
	w.autos[a] = m
	return m, nil
}

func (w *conWorld) freshState(a *ioa.Automaton, name string) (eval.State, error) {
	s, ok := w.states[name]
	if !ok {
		return nil, fmt.Errorf("no decoded state %s", name)
	}
	w.record(name, a, s, "")
	return s, nil
}

func (w *conWorld) freshParams(act *ioa.Action, name string) ([]eval.Value, error) {
	ps, ok := w.params[name]
	if !ok {
		return nil, fmt.Errorf("no decoded parameters %s", name)
	}
	return ps, nil
}

func (w *conWorld) evalEnv(env *wenv[eval.State, eval.Value]) *eval.Env {
	return &eval.Env{Inst: w.inst, States: env.stateMap(), Params: env.params}
}

func (w *conWorld) stateOf(m *ioa.StateMap, name string, env *wenv[eval.State, eval.Value]) (eval.State, error) {
	if w.fast != nil {
		k, memo := w.fast.key(m, env)
		if out, ok := w.fast.states[k]; ok && memo {
			w.record(name, m.Target, out, "")
			return out, nil
		}
		// A map of one state and no parameters (a refinement mapping) is a
		// function of that state's content. Applied to the point's given
		// pre-state c, it is remembered across points: a cross-check gives
		// the same c at every step from it.
		single := memo && env.n == 1 && len(env.params) == 0 && identity(env.sts[0]) == identity(w.states["c"])
		if single {
			if out, ok := w.fast.lookupMapped(m, env.objs[0], env.sts[0]); ok {
				w.fast.states[k] = out
				w.record(name, m.Target, out, "")
				return out, nil
			}
		}
		plan, err := w.fast.mapPlan(m, name)
		if err != nil {
			return nil, err
		}
		out := eval.State(w.fast.values(len(m.Target.Vars)))
		for i, pl := range plan {
			if pl.obj != nil {
				if st, ok := env.state(pl.obj); ok && pl.field < len(st) {
					out[i] = st[pl.field]
					continue
				}
			}
			x, err := w.fast.eval(pl.x, env)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		if memo {
			w.fast.states[k] = out
		}
		if single {
			w.fast.rememberMapped(m, env.objs[0], env.sts[0], out)
		}
		w.record(name, m.Target, out, "")
		return out, nil
	}
	out := make(eval.State, len(m.Target.Vars))
	for i, v := range m.Target.Vars {
		e := m.Entry(v.Name)
		if e == nil {
			return nil, fmt.Errorf("%s does not give variable %s", name, v.Name)
		}
		x, err := eval.Eval(e.Value, w.evalEnv(env))
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	w.record(name, m.Target, out, "")
	return out, nil
}

// post performs act(ps) in s; it fails with errDisabled when the action is
// not enabled, which a scenario's hypotheses have then already refuted.
func (w *conWorld) post(act *ioa.Action, s eval.State, ps []eval.Value, name string) (eval.State, error) {
	m, err := w.machine(w.owner[act])
	if err != nil {
		return nil, err
	}
	post, ok, err := w.step(m, act, s, ps)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errDisabled
	}
	if w.quiet {
		return post, nil
	}
	a := w.owner[act]
	w.calls = append(w.calls, call{text: m.FormatAction(act, ps), concrete: a == w.concrete && !w.sawConcrete})
	if a == w.concrete {
		w.sawConcrete = true
	}
	w.record(name, a, post, w.nameOf(s))
	return post, nil
}

// step performs act(ps) in s, memoized in the compiled mode.
func (w *conWorld) step(m *eval.Machine, act *ioa.Action, s eval.State, ps []eval.Value) (eval.State, bool, error) {
	if w.fast == nil {
		return m.Step(act, s, ps)
	}
	for i := range w.fast.seeds {
		if sd := &w.fast.seeds[i]; sd.Action == act && equalState(sd.From, s) && equalValues(sd.Params, ps) {
			return sd.Post, true, nil
		}
	}
	// A rule asks for the precondition of a step, then its post-state.
	k := stepKey(act, s, ps)
	for i := range w.fast.last {
		if l := &w.fast.last[i]; l.valid && l.key == k {
			return l.post, l.ok, nil
		}
	}
	// The compiled mode serves points of evaluated states (a cross-check's
	// reachable states, and states the rules computed from them).
	post, ok, err := m.StepEvaluatedWith(&w.fast.scratch, act, s, ps)
	if err != nil {
		return nil, false, err
	}
	w.fast.last[w.fast.next] = lastStep{key: k, valid: true, stepResult: stepResult{post, ok}}
	w.fast.next = (w.fast.next + 1) % len(w.fast.last)
	return post, ok, nil
}

// equalState reports whether s and t are equal (the same slice, or
// equal values).
func equalState(s, t eval.State) bool {
	if len(s) != len(t) {
		return false
	}
	if len(s) == 0 || &s[0] == &t[0] {
		return true
	}
	return s.Equal(t)
}

// equalValues reports whether xs and ys are equal.
func equalValues(xs, ys []eval.Value) bool {
	if len(xs) != len(ys) {
		return false
	}
	if len(xs) == 0 || &xs[0] == &ys[0] {
		return true
	}
	for i := range xs {
		if !xs[i].Equal(ys[i]) {
			return false
		}
	}
	return true
}

// errDisabled reports a post-state asked of a disabled step.
var errDisabled = errors.New("step not enabled")

func (w *conWorld) values(xs []expr.Expr, env *wenv[eval.State, eval.Value]) ([]eval.Value, error) {
	if w.fast != nil {
		out := w.fast.values(len(xs))
		for i, x := range xs {
			v, err := w.fast.eval(x, env)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	out := make([]eval.Value, len(xs))
	for i, x := range xs {
		v, err := eval.Eval(x, w.evalEnv(env))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// init evaluates the start condition of a in s: every init, every
// `initially` predicate.
func (w *conWorld) init(a *ioa.Automaton, s eval.State) (bool, error) {
	for i, v := range a.Vars {
		if v.Init == nil {
			continue
		}
		x, err := eval.Eval(v.Init, &eval.Env{Inst: w.inst})
		if err != nil {
			return false, err
		}
		if !x.Equal(s[i]) {
			if w.records() {
				w.why = fmt.Sprintf("%s = %s, not its init %s", v.Name, eval.Format(s[i], v.Sort), eval.Format(x, v.Sort))
			}
			return false, nil
		}
	}
	for k, p := range a.Initially {
		x, err := eval.Eval(p, &eval.Env{Inst: w.inst, State: s})
		if err != nil {
			return false, err
		}
		if !x.Bool() {
			if w.records() {
				w.why = fmt.Sprintf("initially predicate %d is false", k+1)
			}
			return false, nil
		}
	}
	return true, nil
}

func (w *conWorld) pre(act *ioa.Action, s eval.State, ps []eval.Value) (bool, error) {
	m, err := w.machine(w.owner[act])
	if err != nil {
		return false, err
	}
	_, ok, err := w.step(m, act, s, ps)
	return ok, err
}

func (w *conWorld) holds(x expr.Expr, env *wenv[eval.State, eval.Value]) (bool, error) {
	if f := w.fast; f != nil {
		// A condition of the point's given pair (c, a) alone, such as a
		// relation clause R(c, a), is remembered across points.
		pair := env.n == 2 && len(env.params) == 0 && len(f.objs) >= 2 &&
			env.objs[0] == f.objs[0] && env.objs[1] == f.objs[1] &&
			identity(env.sts[0]) == identity(w.states["c"]) && identity(env.sts[1]) == identity(w.states["a"]) &&
			identity(env.sts[0]) != nil && identity(env.sts[1]) != nil
		if pair {
			if b, ok := f.pairHolds(x, env.sts[0], env.sts[1]); ok {
				return b, nil
			}
		}
		v, err := f.eval(x, env)
		if err == nil && pair {
			f.pairVals[x] = v.Bool()
		}
		return v.Bool(), err
	}
	v, err := eval.Eval(x, w.evalEnv(env))
	return v.Bool(), err
}

// natFact reports whether every Nat inside variable i of s is >= 0: the
// evaluator's own Nat check, on s with the other variables at their
// defaults.
func (w *conWorld) natFact(a *ioa.Automaton, s eval.State, i int) (bool, error) {
	m, err := w.machine(a)
	if err != nil {
		return false, err
	}
	probe := make(eval.State, len(s))
	for j, v := range a.Vars {
		if j == i {
			probe[j] = s[j]
			continue
		}
		if probe[j], err = w.inst.Default(v.Sort); err != nil {
			return false, err
		}
	}
	name, err := m.NatViolated(probe)
	return name == "", err
}

func (w *conWorld) invariant(x expr.Expr, s eval.State) (bool, error) {
	if w.fast != nil {
		return w.fast.invariant(x, s)
	}
	v, err := eval.Eval(x, &eval.Env{Inst: w.inst, State: s})
	return v.Bool(), err
}

func (w *conWorld) varEq(s, t eval.State, i int) bool { return s[i].Equal(t[i]) }

func (w *conWorld) valsEq(xs, ys []eval.Value) bool {
	for i := range xs {
		if !xs[i].Equal(ys[i]) {
			return false
		}
	}
	return true
}

func (w *conWorld) and(bs ...bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return true
}

func (w *conWorld) or(bs ...bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

func (w *conWorld) not(b bool) bool    { return !b }
func (w *conWorld) iff(a, b bool) bool { return a == b }
func (w *conWorld) tt() bool           { return true }

func (w *conWorld) loopRange(from, to eval.Value) (int, int, bool) {
	return int(from.Int()), int(to.Int()), true
}
func (w *conWorld) intVal(n int) eval.Value { return eval.Int(int64(n)) }

// related reports whether the point's Point.Related says that the
// relation holds at (c, a).
func (w *conWorld) related(c, a eval.State) bool {
	return w.fast != nil && w.fast.knownRelated(c, a)
}

// framed is fastEval.clauseFramed: a function of the variables it reads,
// a clause that reads none the steps changed has its value at (c, a).
func (w *conWorld) framed(i int, cl *ioa.Clause, c, a, cpost, apost eval.State) bool {
	return w.fast != nil && w.fast.clauseFramed(i, cl, c, a, cpost, apost)
}
