// This file implements the compiled, memoizing mode of the concrete world
// that PointChecker uses: expressions are compiled once (ioa/eval's
// compiler instead of its tree-walking Eval), and within one point the
// values the rules ask for again are computed once: a mapped state (f(c),
// a backward case's apre), and a step whose post-state a rule asks for
// right after its precondition. (An all-goals scenario reads each case
// guard once by itself, rules.go.) Values are keyed by what is computed
// and the identity of the states they are computed from; a point's states
// are either given or computed here, so identities are stable until reset.

package simulation

import (
	"fmt"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// fastEval is the compiled mode of a conWorld.
type fastEval struct {
	inst  *eval.Instance
	objs  []*expr.Object // the proof's state objects, the free objects of compiled expressions
	funcs map[expr.Expr]*eval.Func
	extra map[expr.Expr][]extraFunc // compiled over objs and further objects (PointChecker.Func)
	plans map[*ioa.StateMap][]entryPlan
	invs  map[expr.Expr]*eval.Func // invariant bodies, over a bare state

	states map[memoKey]eval.State
	last   [4]lastStep // the last steps performed
	next   int         // the entry of last to replace

	// mapped remembers, by content and across points, the last states a
	// state map of one free state (a refinement mapping f) was applied
	// to, most recently used first: a cross-check applies f to the same
	// pre-state at every step from it.
	mapped [4]mappedState

	// pair remembers, across points, the values of expressions evaluated
	// with the objects c and a (objs[0], objs[1]) bound to the point's
	// given states c and a and nothing else bound: a forward simulation's
	// cross-check gives the same (c, a) at every step from it, and the
	// relation R(c, a) is a hypothesis of each. pairC and pairA are copies
	// of the pair the values belong to; pairKnown says whether the
	// current point's pair was compared with them (reset per point).
	pairC, pairA eval.State
	pairVals     map[expr.Expr]bool
	pairKnown    bool

	// related is the point's Point.Related. relC and relA are the
	// identities of the last pair asked about, and relOK the answer,
	// while relAsked (reset per point).
	related    func(c, a eval.State) bool
	relC, relA *eval.Value
	relOK      bool
	relAsked   bool

	slab []eval.Value // the fresh memory values hands out
	// ar, when set (PointChecker.UseScratch), holds the states and
	// values computed at the point instead of slab and the heap; reset
	// makes its memory available again.
	ar      *eval.Arena
	args    []eval.Value     // scratch: the arguments of a compiled expression
	scratch eval.StepScratch // scratch: the frame of the steps conWorld.step runs

	// frames is what each relation clause reads, by its index in the
	// relation (frame.go)
	frames []clauseReads

	// envs is the slab of conWorld.env, envs[envNext:] not handed out
	// since the last reset.
	envs    []wenv[eval.State, eval.Value]
	envNext int

	// seeds are the steps whose post-states the point gives.
	seeds []StepSeed

	// vacuous is the name of the first false hypothesis of the scenario
	// being run, which stops it (sc.hyp).
	vacuous string
}

// mappedState is a state map applied to a state: out = m(in), where in is
// bound to obj and in is the evaluator's own copy.
type mappedState struct {
	m       *ioa.StateMap
	obj     *expr.Object
	in, out eval.State
}

// pairHolds returns the remembered value of x at the point's pair (c, a)
// (see fastEval.pair), first making sure the remembered values are those
// of that pair: when c and a differ from the remembered pair, they become
// it and its values are forgotten.
func (f *fastEval) pairHolds(x expr.Expr, c, a eval.State) (b, ok bool) {
	if !f.pairKnown {
		f.pairKnown = true
		if f.pairVals == nil || !equalState(f.pairC, c) || !equalState(f.pairA, a) {
			f.pairC, f.pairA = c.CloneInto(f.pairC), a.CloneInto(f.pairA)
			if f.pairVals == nil {
				f.pairVals = map[expr.Expr]bool{}
			}
			clear(f.pairVals)
		}
	}
	b, ok = f.pairVals[x]
	return b, ok
}

// lookupMapped returns m(s) for s bound to obj when it is remembered.
func (f *fastEval) lookupMapped(m *ioa.StateMap, obj *expr.Object, s eval.State) (eval.State, bool) {
	for i := range f.mapped {
		e := &f.mapped[i]
		if e.m != m || e.obj != obj || !equalState(e.in, s) {
			continue
		}
		hit := *e
		copy(f.mapped[1:i+1], f.mapped[:i])
		f.mapped[0] = hit
		return hit.out, true
	}
	return nil, false
}

// rememberMapped records out = m(s) for s bound to obj, forgetting the
// least recently used entry.
func (f *fastEval) rememberMapped(m *ioa.StateMap, obj *expr.Object, s, out eval.State) {
	copy(f.mapped[1:], f.mapped[:len(f.mapped)-1])
	f.mapped[0] = mappedState{m: m, obj: obj, in: s.Clone(), out: out.Clone()}
}

// memoKey identifies a value at a point: what is computed (an expression,
// a state map, an action) and the identities of the states and parameters
// it is computed from.
type memoKey struct {
	what   any
	states [4]*eval.Value
	params *eval.Value
}

// lastStep is a memoized step.
type lastStep struct {
	key   memoKey
	valid bool
	stepResult
}

type stepResult struct {
	post eval.State
	ok   bool
}

func newFastEval(inst *eval.Instance, objs []*expr.Object) *fastEval {
	f := &fastEval{inst: inst, objs: objs, funcs: map[expr.Expr]*eval.Func{}, extra: map[expr.Expr][]extraFunc{}, invs: map[expr.Expr]*eval.Func{}, plans: map[*ioa.StateMap][]entryPlan{}}
	f.reset()
	return f
}

func (f *fastEval) reset() {
	if f.ar != nil {
		f.ar.Release()
	}
	f.envNext = 0
	f.last = [4]lastStep{}
	f.pairKnown, f.relAsked = false, false
	if f.states == nil {
		f.states = map[memoKey]eval.State{}
		return
	}
	clear(f.states)
}

// knownRelated reports whether the point's Related says that the
// relation holds at (c, a), asking once per pair of states.
func (f *fastEval) knownRelated(c, a eval.State) bool {
	ic, ia := identity(c), identity(a)
	if f.related == nil || ic == nil || ia == nil {
		return false
	}
	if !f.relAsked || ic != f.relC || ia != f.relA {
		f.relAsked, f.relC, f.relA = true, ic, ia
		f.relOK = f.related(c, a)
	}
	return f.relOK
}

func identity(s eval.State) *eval.Value {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// key returns the key of what in env, and false when env binds an object
// that compiled expressions do not take (then nothing is memoized).
func (f *fastEval) key(what any, env *wenv[eval.State, eval.Value]) (memoKey, bool) {
	k := memoKey{what: what}
	n := 0
	for i, o := range f.objs {
		if s, ok := env.state(o); ok {
			if i >= len(k.states) {
				return k, false // a loop's state: not memoized
			}
			k.states[i] = identity(s)
			n++
		}
	}
	if n != env.n {
		return k, false
	}
	if len(env.params) > 0 {
		k.params = &env.params[0]
	}
	return k, true
}

// eval evaluates x in env with its compiled form.
func (f *fastEval) eval(x expr.Expr, env *wenv[eval.State, eval.Value]) (eval.Value, error) {
	fn := f.funcs[x]
	if fn == nil {
		var err error
		if fn, err = eval.Compile(x, f.inst, f.objs...); err != nil {
			return eval.Value{}, err
		}
		f.funcs[x] = fn
	}
	args := f.args[:0]
	for _, o := range f.objs {
		s, _ := env.state(o)
		args = append(args, s.AsValue())
	}
	f.args = args
	return fn.EvalIn(f.ar, nil, env.params, args...)
}

// entryPlan is how the concrete world computes one variable of a state
// map: the expression x, or, when x is `o.v` for a state object o (a
// variable the map copies, such as an unlisted variable of a backward
// pre-state witness), variable number field of the state bound to o.
type entryPlan struct {
	x     expr.Expr
	obj   *expr.Object
	field int
}

// mapPlan returns the plan of m's variables, in the order of its target's
// variables (name names the state for an error).
func (f *fastEval) mapPlan(m *ioa.StateMap, name string) ([]entryPlan, error) {
	if pl, ok := f.plans[m]; ok {
		return pl, nil
	}
	pl := make([]entryPlan, len(m.Target.Vars))
	for i, v := range m.Target.Vars {
		e := m.Entry(v.Name)
		if e == nil {
			return nil, fmt.Errorf("%s does not give variable %s", name, v.Name)
		}
		pl[i].x = e.Value
		if o, field, ok := expr.StateField(e.Value); ok {
			pl[i].obj, pl[i].field = o, field
		}
	}
	f.plans[m] = pl
	return pl, nil
}

// invariant evaluates an invariant body in s with its compiled form.
func (f *fastEval) invariant(x expr.Expr, s eval.State) (bool, error) {
	fn := f.invs[x]
	if fn == nil {
		var err error
		if fn, err = eval.Compile(x, f.inst); err != nil {
			return false, err
		}
		f.invs[x] = fn
	}
	v, err := fn.EvalIn(f.ar, s, nil)
	return v.Bool(), err
}

// stepKey is the key of act(ps) from s.
func stepKey(act *ioa.Action, s eval.State, ps []eval.Value) memoKey {
	k := memoKey{what: act}
	k.states[0] = identity(s)
	if len(ps) > 0 {
		k.params = &ps[0]
	}
	return k
}

// slabValues is the number of Values of a slab of fastEval.values.
const slabValues = 256

// values returns n zero Values of fresh memory, for a state or argument
// list a point builds: they are carved from a slab, so that the many
// small lists of a cross-check's points cost one allocation per slab
// rather than one each. Each list has its own length and capacity, so no
// append reaches its neighbour; the slab stays allocated while any of its
// lists is in use.
func (f *fastEval) values(n int) []eval.Value {
	if n == 0 {
		return []eval.Value{} // not nil, as make gives
	}
	if f.ar != nil {
		return f.ar.Values(n)
	}
	if n > len(f.slab) {
		if n > slabValues/8 {
			return make([]eval.Value, n)
		}
		f.slab = make([]eval.Value, slabValues)
	}
	out := f.slab[:n:n]
	f.slab = f.slab[n:]
	return out
}
