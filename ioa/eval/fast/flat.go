// This file implements Flat, the explorer's fastest path: a machine's
// actions and invariants compiled a second time, to closures that read and
// write canonical state encodings (eval/codec.go) directly instead of Values.
// Expanding a state then decodes nothing, builds no Value and encodes
// nothing: a successor's encoding is the parent's with the assigned bytes
// replaced.
//
// It covers the part of the language whose encodings have a fixed layout
// (expr.go): scalars, records, tables over atomic keys, and
// sequences of fixed-layout elements as whole variables, with every
// integer in one byte (-64..63, a one-byte zig-zag varint). An automaton
// that uses anything else has no Flat (NewFlat reports why), and a state
// or a step that leaves the layout (a longer sequence, a larger integer, a
// negative Nat, a run-time error) makes the expansion give up (ok false):
// the caller then expands that state with Runner.Successors, the plain
// fast path, which also reports the error or the violation. Flat never
// decides anything the Runner would decide otherwise: TestFlatAgrees
// compares its successors and invariant verdicts with the Runner's on the
// reachable states of the repository's automata.

package fast

import (
	"errors"
	"fmt"
	"unsafe"

	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// Flat is a machine compiled to run on encoded states. It is immutable and
// safe for concurrent use; each goroutine runs it through its own
// FlatRunner.
type Flat struct {
	m    *eval.Machine
	vars []flatVar
	acts []*flatAction
	invs []sfn // by index in Automaton.Invariants
	// rows[k] is invariant k compiled for the row frame, or nil
	// (rows.go)
	rows   []*rowBody
	nats   []int // the variables with Nats in their layout
	plan   []scanStep
	nslots int
	nregs  int
	// Actions whose first parameter's values are gated by one table
	// variable (flatGate), the first such: gateVar, of gateN one-byte
	// entries (-1: none). gated has bit k for each such action k < 64,
	// and accepts[b] those whose gate accepts entry value b. An action
	// whose gate accepts no entry of a state enables no step there, and
	// Successors passes it over without trying it.
	gateVar int
	gateN   int
	gated   uint64
	accepts *[256]uint64
}

// flatVar is the layout of a state variable's encoding.
type flatVar struct {
	sort *expr.Sort
	seq  bool  // a sequence: a length byte, then elements of size bytes
	size int   // the encoding's size (a sequence's: of one element)
	ints []int // offsets of the integers in the value (a sequence's: in an element)
	nats []int // offsets of the Nats among them
}

// flatAction is a compiled action.
type flatAction struct {
	index  int
	pre0   []sfn
	params []flatParam
	eff    []flatStmt
	// plan is the effect's assignments in the order of their variables,
	// when it has no if (nil otherwise: step follows the conditions)
	plan []*flatAssign
	// stale[k] is whether the step can change what invariant k reads: it
	// assigns a variable the invariant reads, or the invariant's reads are
	// unknown (HoldsAfter)
	stale []bool
	// natVars are the variables with Nats that the step can assign
	natVars []int
	// rowParam is the parameter at whose row the step assigns tables
	// (-1: none), and rowFramed[k] whether invariant k then needs its
	// body at that row alone (HoldsAfterRow)
	rowParam  int
	rowFramed []bool
}

// flatParam is a compiled action parameter.
type flatParam struct {
	n      int64 // the size of a finite sort (0: an Int range)
	lo, hi sfn
	nat    bool
	bind   sfn       // the value the level's first conjunct p = e fixes, or nil
	gate   *flatGate // the level's first conjunct as a table test, or nil
	pre    []sfn
}

// flatGate is a conjunct x[p] = K (or !=, in, notin) of parameter p's
// level, with x a state table of one-byte entries: p's values are tried
// only where table holds for x[p]'s byte, with no closure call.
type flatGate struct {
	v     int
	table *[256]bool
}

// flatStmt is a compiled effect statement: an assignment (asg) or an if.
type flatStmt struct {
	asg        *flatAssign
	cond       sfn
	then, els_ []flatStmt
}

// flatAssign is a compiled assignment to state variable v.
type flatAssign struct {
	v     int
	write func(c *flatCtx, out []byte) []byte // appends v's new encoding
}

// errNotFlat is the error NewFlat wraps when the automaton uses something
// outside the flat layout.
var errNotFlat = errors.New("not in the flat layout")

// NewFlat compiles m's actions and invariants for encoded states, or
// returns an error saying which construct has no fixed layout.
func NewFlat(m *eval.Machine) (fl *Flat, err error) {
	defer eval.RecoverInternal(&err)
	fl = &Flat{m: m}
	for _, v := range m.A.Vars {
		fv, err := fl.layoutVar(v.Sort)
		if err != nil {
			return nil, fmt.Errorf("state variable %s: %w", v.Name, err)
		}
		fl.vars = append(fl.vars, fv)
	}
	c := &flatCompiler{fl: fl, m: m, bound: map[*expr.Object]int{}, busy: map[*expr.Object]bool{}, defs: map[*expr.Object]*flatDef{}, closed: map[*expr.Object]bool{}}
	for i, act := range m.A.Actions {
		fa, err := c.action(i, act)
		if err != nil {
			return nil, fmt.Errorf("action %s: %w", act.Name, err)
		}
		fl.acts = append(fl.acts, fa)
	}
	for _, inv := range m.A.Invariants {
		f, err := c.scalar(inv.Body)
		if err != nil {
			return nil, fmt.Errorf("invariant %s: %w", inv.Name, err)
		}
		fl.invs = append(fl.invs, f)
		fl.rows = append(fl.rows, c.rowInvariant(inv.Body))
	}
	fl.nslots, fl.nregs = c.nslots, c.nregs
	for i := range fl.vars {
		if len(fl.vars[i].nats) > 0 {
			fl.nats = append(fl.nats, i)
		}
	}
	for _, fa := range fl.acts {
		fl.frame(fa)
	}
	fl.gates()
	fl.plan = fl.scanPlan()
	fl.rowFrames()
	return fl, nil
}

// gates sets the actions Successors may pass over by their gate
// (Flat.gated). Such an action has no condition before its first
// parameter's gate, whose values it tries in order: when the gate
// accepts none of them, trying it finds nothing and evaluates nothing
// else, so passing it over changes nothing.
func (fl *Flat) gates() {
	fl.gateVar = -1
	for k, fa := range fl.acts {
		if k >= 64 || len(fa.pre0) > 0 || len(fa.params) == 0 {
			continue
		}
		p := &fa.params[0]
		if p.n <= 0 || p.bind != nil || p.gate == nil {
			continue
		}
		if fl.gateVar < 0 {
			fl.gateVar, fl.gateN, fl.accepts = p.gate.v, int(p.n), new([256]uint64)
		}
		if p.gate.v != fl.gateVar || int(p.n) != fl.gateN {
			continue
		}
		fl.gated |= 1 << k
		for b, ok := range p.gate.table {
			if ok {
				fl.accepts[b] |= 1 << k
			}
		}
	}
}

// frame computes what a step of fa can invalidate (flatAction.stale,
// natVars) from the variables its effect assigns on any path.
func (fl *Flat) frame(fa *flatAction) {
	writes := make([]bool, len(fl.vars))
	var walk func(ss []flatStmt)
	walk = func(ss []flatStmt) {
		for i := range ss {
			if a := ss[i].asg; a != nil {
				writes[a.v] = true
				continue
			}
			walk(ss[i].then)
			walk(ss[i].els_)
		}
	}
	walk(fa.eff)
	for _, v := range fl.nats {
		if writes[v] {
			fa.natVars = append(fa.natVars, v)
		}
	}
	fa.stale = make([]bool, len(fl.m.A.Invariants))
	for k := range fa.stale {
		reads := fl.m.InvariantReads(k)
		fa.stale[k] = reads == nil
		for _, v := range reads {
			if writes[v] {
				fa.stale[k] = true
			}
		}
	}
}

func (fl *Flat) layoutVar(s *expr.Sort) (flatVar, error) {
	fv := flatVar{sort: s}
	el := s
	if s.Kind == expr.KSeq {
		fv.seq, el = true, s.Elem
	}
	size, ok := fl.fixed(el)
	if !ok {
		return fv, fmt.Errorf("%w: sort %s", errNotFlat, s)
	}
	fv.size = size
	fv.ints, fv.nats = fl.intOffsets(el, 0, nil, nil)
	return fv, nil
}

// fixed returns the size of the encoding of every value of sort s in the
// flat layout (Machine.FixedWidth), or false.
func (fl *Flat) fixed(s *expr.Sort) (int, bool) { return fl.m.FixedWidth(s) }

// intOffsets appends the offsets of the integers (and of the Nats) inside
// the fixed layout of s, which starts at base.
func (fl *Flat) intOffsets(s *expr.Sort, base int, ints, nats []int) ([]int, []int) {
	switch s.Kind {
	case expr.KInt:
		return append(ints, base), nats
	case expr.KNat:
		return append(ints, base), append(nats, base)
	case expr.KRecord:
		for _, f := range s.Fields {
			ints, nats = fl.intOffsets(f.Sort, base, ints, nats)
			n, _ := fl.fixed(f.Sort)
			base += n
		}
	case expr.KMap:
		n, _ := fl.fixed(s.Elem)
		for k := 0; k < fl.m.Inst.Count(s.Key); k++ {
			ints, nats = fl.intOffsets(s.Elem, base+k*n, ints, nats)
		}
	}
	return ints, nats
}

// flatCtx is the frame of a FlatRunner: the encoded state expressions read,
// the offsets of its variables, the parameters, bound variables and the
// scratch memory of built values.
type flatCtx struct {
	st     []byte
	offs   []int // offs[i] is where variable i starts in st; offs[n] = len(st)
	params []int64
	slots  []int64
	regs   [][]byte
	buf    []byte // scratch memory of built values, reset per successor
	bad    bool   // the step left the flat layout: give up
}

// alloc returns n bytes of scratch memory.
func (c *flatCtx) alloc(n int) []byte {
	if cap(c.buf)-len(c.buf) < n {
		c.buf = make([]byte, 0, max(2*cap(c.buf), n, 1024))
	}
	l := len(c.buf)
	c.buf = c.buf[:l+n]
	return c.buf[l : l+n : l+n]
}

// FlatRunner runs a Flat on one goroutine.
type FlatRunner struct {
	_       cacheLine // no other goroutine's data shares its cache lines
	fl      *Flat
	c       flatCtx
	postOff []int
	active  []*flatAssign
	plan    []*flatAssign // step's assignments of an effect with ifs
	visit   func(act int, post []byte) bool
	out     []byte
	_       cacheLine
}

// cacheLine pads a structure that one goroutine writes often, so that
// writes of runners on other cores do not invalidate its cache lines.
type cacheLine [128]byte

// private returns a slice of n elements of its own cache lines: the
// runners of parallel workers write their small arrays per transition,
// and two such arrays in one line would make the cores take it from each
// other at every write.
func private[T any](n int) []T {
	var zero T
	size := max(int(unsafe.Sizeof(zero)), 1)
	pad := (len(cacheLine{}) + size - 1) / size
	return make([]T, n+2*pad)[pad : pad+n : pad+n]
}

// NewRunner returns a runner of fl.
func (fl *Flat) NewRunner() *FlatRunner {
	n := len(fl.vars)
	r := &FlatRunner{fl: fl, postOff: private[int](n + 1), active: private[*flatAssign](n)}
	r.c.offs = private[int](n + 1)
	r.c.slots = private[int64](fl.nslots)
	r.c.regs = private[[]byte](fl.nregs)
	maxp := 0
	for _, a := range fl.acts {
		maxp = max(maxp, len(a.params))
	}
	r.c.params = private[int64](maxp)
	return r
}

// Offsets sets offs[i] to the offset of variable i's encoding in key, and
// offs[n] to len(key), and reports whether key is in the flat layout.
func (fl *Flat) Offsets(key []byte, offs []int) bool { return fl.scan(key, offs) }

// scanStep is a step of Flat.scan: a sequence variable v, or a run of
// variables v… of fixed sizes, at offsets rel from the run's start, size
// bytes in all, with integers at offsets ints.
type scanStep struct {
	seq  bool
	v    int
	rel  []int
	size int
	ints []int // of an element, for a sequence
}

// scanPlan returns the steps of scan for fl's variables.
func (fl *Flat) scanPlan() []scanStep {
	var plan []scanStep
	var run *scanStep
	for i := range fl.vars {
		v := &fl.vars[i]
		if v.seq {
			plan = append(plan, scanStep{seq: true, v: i, size: v.size, ints: v.ints})
			run = nil
			continue
		}
		if run == nil {
			plan = append(plan, scanStep{v: i})
			run = &plan[len(plan)-1]
		}
		run.rel = append(run.rel, run.size)
		for _, o := range v.ints {
			run.ints = append(run.ints, run.size+o)
		}
		run.size += v.size
	}
	return plan
}

// scan sets offs to the offsets of the variables of the state encoded as
// key and reports whether it is in the flat layout: every sequence shorter
// than 128 and every integer one byte.
// It follows fl.plan, which every Flat gets from scanPlan.
func (fl *Flat) scan(key []byte, offs []int) bool {
	p := 0
	for i := range fl.plan {
		st := &fl.plan[i]
		if !st.seq {
			if p+st.size > len(key) {
				return false
			}
			for j, r := range st.rel {
				offs[st.v+j] = p + r
			}
			for _, o := range st.ints {
				if key[p+o] >= 0x80 {
					return false
				}
			}
			p += st.size
			continue
		}
		offs[st.v] = p
		if p >= len(key) || key[p] >= 0x80 {
			return false
		}
		end := p + 1 + int(key[p])*st.size
		if end > len(key) {
			return false
		}
		if len(st.ints) > 0 {
			for e := p + 1; e < end; e += st.size {
				for _, o := range st.ints {
					if key[e+o] >= 0x80 {
						return false
					}
				}
			}
		}
		p = end
	}
	offs[len(fl.vars)] = p
	return p == len(key)
}

// Successors calls visit with the encoding of every successor of the state
// encoded as key, in the order of Runner.Successors (the encodings are
// AppendState's, valid during the call; visit returns false to stop). It
// reports false, having perhaps called visit for some successors, when the
// state or one of its steps is outside the flat layout or meets a
// run-time error: the caller must then discard what visit received and
// expand the state with Runner.Successors.
func (r *FlatRunner) Successors(key []byte, visit func(act int, post []byte) bool) (ok bool) {
	defer giveUpOnPanic(&ok)
	c := &r.c
	if !r.fl.scan(key, c.offs) {
		return false
	}
	c.st, c.bad = key, false
	r.visit = visit
	enabled := ^uint64(0)
	if fl := r.fl; fl.gateVar >= 0 {
		row := key[c.offs[fl.gateVar]:]
		enabled = ^fl.gated
		for v := 0; v < fl.gateN; v++ {
			enabled |= fl.accepts[row[v]]
		}
	}
	for k, a := range r.fl.acts {
		if k < 64 && enabled>>k&1 == 0 {
			continue
		}
		c.buf = c.buf[:0]
		ok := true
		for _, p := range a.pre0 {
			if p(c) == 0 {
				ok = false
				break
			}
		}
		if c.bad {
			return false
		}
		if ok && !r.enum(a, 0) {
			break
		}
		if c.bad {
			return false
		}
	}
	r.visit = nil
	return !c.bad
}

// giveUpOnPanic turns a panic of a compiled closure (a case the compiler
// did not foresee, such as an index outside a table) into giving up: the
// caller then runs the state through the Runner, whose reference
// semantics decide, and report, what it means. Flat only ever answers
// for states it evaluated completely.
func giveUpOnPanic(ok *bool) {
	if recover() != nil {
		*ok = false
	}
}

// enum enumerates the parameters of a from number i; it returns false to
// stop (visit did, or the step gave up).
func (r *FlatRunner) enum(a *flatAction, i int) bool {
	c := &r.c
	if i == len(a.params) {
		return r.step(a)
	}
	p := &a.params[i]
	if p.n > 0 {
		if p.bind != nil {
			v := p.bind(c)
			if c.bad {
				return false
			}
			if v < 0 || v >= p.n {
				return true
			}
			return r.try(a, i, v)
		}
		if g := p.gate; g != nil {
			row := c.st[c.offs[g.v]:]
			for v := int64(0); v < p.n; v++ {
				if g.table[row[v]] && !r.try(a, i, v) {
					return false
				}
			}
			return true
		}
		for v := int64(0); v < p.n; v++ {
			if !r.try(a, i, v) {
				return false
			}
		}
		return true
	}
	lo, hi := p.lo(c), p.hi(c)
	if c.bad {
		return false
	}
	if p.nat && lo < 0 {
		lo = 0
	}
	if hi > lo && (hi-lo > int64(r.fl.m.Inst.EnumLimit()) || hi-lo < 0) {
		c.bad = true
		return false
	}
	for v := lo; v < hi; v++ {
		if !r.try(a, i, v) {
			return false
		}
	}
	return true
}

// try binds parameter i to v and goes on when its level's conjuncts hold.
func (r *FlatRunner) try(a *flatAction, i int, v int64) bool {
	c := &r.c
	c.params[i] = v
	for _, p := range a.params[i].pre {
		if p(c) == 0 {
			return !c.bad
		}
	}
	if c.bad {
		return false
	}
	return r.enum(a, i+1)
}

// step builds the successor of the enabled action a.
func (r *FlatRunner) step(a *flatAction) bool {
	c := &r.c
	plan := a.plan
	if plan == nil {
		clear(r.active)
		r.mark(a.eff)
		if c.bad {
			return false
		}
		plan = r.plan[:0]
		for _, asg := range r.active {
			if asg != nil {
				plan = append(plan, asg)
			}
		}
		r.plan = plan
	}
	out := r.out[:0]
	from := 0
	for _, asg := range plan {
		out = append(out, c.st[from:c.offs[asg.v]]...)
		out = asg.write(c, out)
		from = c.offs[asg.v+1]
	}
	out = append(out, c.st[from:]...)
	r.out = out
	if c.bad {
		return false
	}
	c.buf = c.buf[:0]
	return r.visit(a.index, out)
}

// mark records the assignments that ss makes on the path its conditions
// choose.
func (r *FlatRunner) mark(ss []flatStmt) {
	for i := range ss {
		s := &ss[i]
		if s.asg != nil {
			r.active[s.asg.v] = s.asg
			continue
		}
		if s.cond(&r.c) != 0 {
			r.mark(s.then)
		} else {
			r.mark(s.els_)
		}
	}
}

// Holds reports whether the state encoded as key satisfies the implicit
// Nat conditions and the invariants with the given indices (all when invs
// is nil), and ok false when it cannot tell (the state is outside the flat
// layout, or an invariant meets a run-time error): the caller then checks
// the state with Runner.Violated.
func (r *FlatRunner) Holds(key []byte, invs []int) (holds, ok bool) {
	return r.holds(nil, -1, key, invs)
}

// HoldsAfter is Holds for a state reached by a step of action act (an
// index in Automaton.Actions) from a state that satisfies the Nat
// conditions and the invariants invs: it evaluates only the invariants
// that read a variable the action can assign (or whose reads are unknown),
// and checks the Nat conditions of those variables only. The others have
// the values they had in the pre-state, where they held. (With symmetry
// reduction the state is an image of the step's post-state under a
// permutation, which preserves the conditions of a symmetric automaton.)
func (r *FlatRunner) HoldsAfter(act int, key []byte, invs []int) (holds, ok bool) {
	return r.HoldsAfterRow(act, -1, key, invs)
}

// RowParam returns, during a call of visit by Successors for a step of
// action act, the value of the parameter at whose row the step assigns
// tables (an index in its sort), or -1 when it has none: the value
// HoldsAfterRow takes.
func (r *FlatRunner) RowParam(act int) int64 {
	if act < 0 || act >= len(r.fl.acts) {
		return -1
	}
	if p := r.fl.acts[act].rowParam; p >= 0 {
		return r.c.params[p]
	}
	return -1
}

// HoldsAfterRow is HoldsAfter for a step of action act whose RowParam
// was p (-1: unknown, or a post-state that is an image of the step's
// under a permutation): an invariant `forall x: S. B` that the step can
// only change at row x = p is checked there alone (rows.go);
// at the other rows B reads what it read in the pre-state.
func (r *FlatRunner) HoldsAfterRow(act int, p int64, key []byte, invs []int) (holds, ok bool) {
	if act < 0 || act >= len(r.fl.acts) {
		return r.holds(nil, -1, key, invs)
	}
	return r.holds(r.fl.acts[act], p, key, invs)
}

// natsHold reports whether the Nats of variable i (one of Flat.nats) of
// the state encoded as key (with the variables' offsets offs) are
// non-negative.
func (fl *Flat) natsHold(key []byte, offs []int, i int) bool {
	v := &fl.vars[i]
	start := offs[i]
	if v.seq {
		start++
	}
	for p := start; p < offs[i+1]; p += v.size {
		for _, o := range v.nats {
			if key[p+o]&1 != 0 {
				return false
			}
		}
	}
	return true
}

// holds is Holds, or HoldsAfterRow a step of a, with RowParam p, when a
// is not nil.
func (r *FlatRunner) holds(a *flatAction, p int64, key []byte, invs []int) (holds, ok bool) {
	defer giveUpOnPanic(&ok)
	fl, c := r.fl, &r.c
	if !fl.scan(key, c.offs) {
		return false, false
	}
	natVars := fl.nats
	if a != nil {
		natVars = a.natVars
	}
	for _, i := range natVars {
		if !fl.natsHold(key, c.offs, i) {
			return false, true
		}
	}
	c.st, c.bad, c.buf = key, false, c.buf[:0]
	n := len(fl.invs)
	if invs != nil {
		n = len(invs)
	}
	for j := 0; j < n; j++ {
		k := j
		if invs != nil {
			k = invs[j]
		}
		if a != nil && !a.stale[k] {
			continue
		}
		if p >= 0 && a.rowFramed != nil && a.rowFramed[k] {
			rb := fl.rows[k]
			c.slots[rb.slot] = p
			if rb.body(c) == 0 || c.bad {
				return false, !c.bad
			}
			continue
		}
		if fl.invs[k](c) == 0 || c.bad {
			return false, !c.bad
		}
	}
	return true, true
}
