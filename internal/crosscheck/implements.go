// This file implements Implements: bounded trace inclusion by a subset
// construction over the abstract automaton's reachable states.

package crosscheck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"ladder/internal/explore"
	"ladder/internal/nodestore"
	"ladder/internal/safeio"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
)

// TraceResult is the outcome of Implements. Its exported fields marshal
// to JSON.
type TraceResult struct {
	Concrete string `json:"concrete"` // C
	Abstract string `json:"abstract"` // A
	Instance string `json:"instance"`
	// Pairs counts the pairs (c, S) explored: a reachable state of C and
	// the set of states A can be in after the same events.
	Pairs          int    `json:"pairs"`
	ConcreteStates int    `json:"concreteStates"` // distinct states of C among the pairs
	AbstractStates int    `json:"abstractStates"` // distinct states of A met
	AbstractSets   int    `json:"abstractSets"`   // distinct sets S
	Transitions    int64  `json:"transitions"`    // steps of C followed
	MaxDepth       int    `json:"maxDepth"`       // the longest execution of C explored, the failing step's included
	Complete       bool   `json:"complete"`       // every trace of C in the instance was checked
	Limit          string `json:"limit,omitempty"`
	// Exhausted is set when a bound of Config.Budget (memory, time, an
	// interrupt) stopped the search; Limit then says which.
	Exhausted       bool    `json:"exhausted,omitempty"`
	PeakMemoryBytes int64   `json:"peakMemoryBytes"` // the most memory in use at a sample
	Elapsed         float64 `json:"elapsedSeconds"`
	// Symmetry describes the symmetry reduction, if Config.Symmetry asked
	// for one: Pairs then counts orbits of pairs (representatives).
	Symmetry *SymmetryInfo `json:"symmetry,omitempty"`
	// DeadConcrete and DeadAbstract list the registers of C and of A that
	// Config.ReduceDead reset where they are dead (empty lists when it
	// found none; absent without it): the states counted are then states
	// up to dead entries.
	DeadConcrete []explore.DeadRegister `json:"deadRegistersConcrete,omitempty"`
	DeadAbstract []explore.DeadRegister `json:"deadRegistersAbstract,omitempty"`
	// Failure is a shortest execution of C whose trace A cannot produce.
	Failure *TraceFailure `json:"failure,omitempty"`
}

// TraceFailure is a trace of C that A cannot produce: every event but the
// last is a trace of A, and no state A can be in after them (with internal
// steps) shows the last one.
type TraceFailure struct {
	Events []string       `json:"events"` // the events of Trace
	Trace  *explore.Trace `json:"trace"`  // a shortest execution of C showing them
	// Candidates is the number of states A can be in before the last
	// event (after internal steps).
	Candidates int `json:"candidates"`
	// Offered lists the events A can show from those states (sorted, at
	// most 20).
	Offered []string `json:"offered"`
}

// absSide is the abstract side of the subset construction: the states of
// A met so far (encoded, in a store), their successors by event and by
// internal steps (one flat list, filled when a state is first expanded),
// and the interned sets of states (sorted ids, delta-encoded, in a store).
type absSide struct {
	m      *eval.Machine
	r      *fast.Runner // in scratch mode: a state is decoded to be expanded
	limit  int
	st     *nodestore.Store
	adjOff []int64  // per state: its successors in adj, or -1 before expansion
	adjN   []int32  // per state: the number of its successors
	adj    []uint64 // event id << 32 | successor (event 0: an internal step)
	events map[string]uint32
	names  []string // per event id, its text ("" for 0)
	sets   *nodestore.Store
	post   map[uint64]int32 // set << 32 | event → the set after it
	mark   []uint32         // per state: the closure search that met it last
	gen    uint32
	buf    []byte
	ids    []int32
	queue  []int32

	d    *eval.Dead       // the dead-register reduction of A's states, or nil
	g    *eval.Symmetry   // the group acting on A's states, or nil
	perm map[uint64]int32 // set << 32 | permutation → the set's image
	pbuf []byte
	pids []int32
}

func newAbsSide(m *eval.Machine, limit int) *absSide {
	r := fast.NewRunner(m)
	r.SetScratch(true)
	return &absSide{m: m, r: r, limit: limit, st: nodestore.New(), events: map[string]uint32{}, names: []string{""},
		sets: nodestore.New(), post: map[uint64]int32{}}
}

// errAbstractLimit stops a subset construction at the state limit of A.
var errAbstractLimit = errors.New("abstract state limit")

// event returns the id of an event's text.
func (s *absSide) event(ev string) uint32 {
	if id, ok := s.events[ev]; ok {
		return id
	}
	id := uint32(len(s.names))
	s.events[ev] = id
	s.names = append(s.names, ev)
	return id
}

func (s *absSide) intern(st eval.State) (int32, error) {
	if s.d != nil {
		s.buf = s.d.AppendState(s.buf[:0], st)
	} else {
		s.buf = s.m.AppendState(s.buf[:0], st)
	}
	return s.internKey(s.buf)
}

// internKey is intern of an encoded state.
func (s *absSide) internKey(key []byte) (int32, error) {
	h := s.st.Hash(key)
	if id := s.st.Find(key, h); id >= 0 {
		return int32(id), nil
	}
	if s.st.Len() >= s.limit {
		return -1, errAbstractLimit
	}
	id, _ := s.st.Insert(key, h, -1)
	s.adjOff = append(s.adjOff, -1)
	s.adjN = append(s.adjN, 0)
	s.mark = append(s.mark, 0)
	return int32(id), nil
}

// expand computes the successors of state id, once.
func (s *absSide) expand(id int32) error {
	if s.adjOff[id] >= 0 {
		return nil
	}
	s.r.Release()
	st, err := s.r.Decode(s.st.Key(int(id)))
	if err != nil {
		return err
	}
	var succ []uint64
	var failed error
	err = s.r.Successors(st, func(act int, params []eval.Value, post eval.State) bool {
		t, err := s.intern(post)
		if err != nil {
			failed = err
			return false
		}
		var ev uint32
		if a := s.m.A.Actions[act]; a.Kind.External() {
			text, err := s.m.FormatEvent(a, params)
			if err != nil {
				failed = err
				return false
			}
			ev = s.event(text)
		}
		succ = append(succ, uint64(ev)<<32|uint64(uint32(t)))
		return true
	})
	if err == nil {
		err = failed
	}
	if err != nil {
		return err
	}
	s.adjOff[id], s.adjN[id] = int64(len(s.adj)), int32(len(succ))
	s.adj = append(s.adj, succ...)
	return nil
}

// succs returns the successors of an expanded state.
func (s *absSide) succs(id int32) []uint64 {
	return s.adj[s.adjOff[id] : s.adjOff[id]+int64(s.adjN[id])]
}

// closeSet returns the set of the states reachable from ids by internal
// steps (ids included), interned.
func (s *absSide) closeSet(ids []int32) (int32, error) {
	s.gen++
	q := s.queue[:0]
	for _, id := range ids {
		if s.mark[id] != s.gen {
			s.mark[id] = s.gen
			q = append(q, id)
		}
	}
	for i := 0; i < len(q); i++ {
		if err := s.expand(q[i]); err != nil {
			return -1, err
		}
		for _, e := range s.succs(q[i]) {
			if t := int32(uint32(e)); e>>32 == 0 && s.mark[t] != s.gen {
				s.mark[t] = s.gen
				q = append(q, t)
			}
		}
	}
	s.queue = q
	return s.internSet(q), nil
}

// internSet interns the set of the states ids (sorted in place); the set
// must be closed under internal steps.
func (s *absSide) internSet(ids []int32) int32 {
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	s.buf = s.buf[:0]
	prev := int32(0)
	for _, t := range ids {
		s.buf = binary.AppendUvarint(s.buf, uint64(t-prev))
		prev = t
	}
	id, _ := s.sets.Insert(s.buf, s.sets.Hash(s.buf), -1)
	return int32(id)
}

// permuted returns the image of set id under permutation g of the group:
// the set of the images of its states, interned (the image of a closed set
// is closed, internal steps commuting with the group).
func (s *absSide) permuted(id int32, g int) (int32, error) {
	if g == 0 {
		return id, nil // the group's first permutation is the identity
	}
	k := uint64(id)<<32 | uint64(g)
	if t, ok := s.perm[k]; ok {
		return t, nil
	}
	ids := s.pids[:0]
	for _, st := range append([]int32(nil), s.members(id)...) {
		a, err := s.m.DecodeState(s.st.Key(int(st)))
		if err != nil {
			return -1, err
		}
		s.pbuf = s.g.AppendPermuted(s.pbuf[:0], a, g)
		t, err := s.internKey(s.pbuf)
		if err != nil {
			return -1, err
		}
		ids = append(ids, t)
	}
	s.pids = ids
	t := s.internSet(ids)
	s.perm[k] = t
	return t, nil
}

// members returns the states of set id (valid until the next call).
func (s *absSide) members(id int32) []int32 {
	key := s.sets.Key(int(id))
	out := s.ids[:0]
	prev := int32(0)
	for len(key) > 0 {
		d, n := binary.Uvarint(key)
		key = key[n:]
		prev += int32(d)
		out = append(out, prev)
	}
	s.ids = out
	return out
}

// step returns the set after event ev from set id (closed), interned.
func (s *absSide) step(id int32, ev string) (int32, error) {
	e := s.event(ev)
	k := uint64(id)<<32 | uint64(e)
	if t, ok := s.post[k]; ok {
		return t, nil
	}
	var next []int32
	for _, st := range append([]int32(nil), s.members(id)...) {
		if err := s.expand(st); err != nil {
			return -1, err
		}
		for _, x := range s.succs(st) {
			if uint32(x>>32) == e {
				next = append(next, int32(uint32(x)))
			}
		}
	}
	t, err := s.closeSet(next)
	if err != nil {
		return -1, err
	}
	s.post[k] = t
	return t, nil
}

// size returns the number of states of set id.
func (s *absSide) size(id int32) int { return len(s.members(id)) }

// offered returns the events the states of set id show, sorted.
func (s *absSide) offered(id int32) []string {
	seen := map[string]bool{}
	var out []string
	for _, st := range s.members(id) {
		for _, x := range s.succs(st) {
			if ev := s.names[x>>32]; x>>32 != 0 && !seen[ev] {
				seen[ev] = true
				out = append(out, ev)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Implements checks that every trace of c in the instance of cfg (up to
// cfg.MaxStates pairs and cfg.MaxDepth steps) is a trace of a in the same
// instance. The two automata must share their events (one interface). A
// trace a cannot produce is returned in TraceResult.Failure with a nil
// error.
func Implements(c, a *ioa.Automaton, cfg Config) (*TraceResult, error) {
	if c == nil || a == nil {
		return nil, errors.New("no automaton")
	}
	if c.Interface != nil && a.Interface != nil && c.Interface != a.Interface {
		return nil, fmt.Errorf("%s and %s do not share their interface (%s and %s)", c.Name, a.Name, c.Interface.Name, a.Interface.Name)
	}
	start := time.Now()
	each, all, err := instances([]*ioa.Automaton{c, a}, cfg.Instance)
	if err != nil {
		return nil, err
	}
	mC, err := explore.Machine(c, explore.Config{Instance: each[0]})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	mA, err := explore.Machine(a, explore.Config{Instance: each[1]})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.Name, err)
	}
	res := &TraceResult{Concrete: c.Name, Abstract: a.Name, Instance: all.String()}
	// The abstract states are bounded by the memory budget, which the
	// search meters, unless a limit is given.
	limit := cfg.MaxAbstractStates
	if limit <= 0 {
		limit = math.MaxInt32
	}
	abs := newAbsSide(mA, limit)
	var gC *eval.Symmetry
	if len(cfg.Symmetry) > 0 {
		if res.Symmetry, gC, abs.g, err = traceSymmetry(c, a, mC, mA, cfg); err != nil {
			return nil, err
		}
		abs.perm = map[uint64]int32{}
	}
	var dC *eval.Dead
	if cfg.ReduceDead {
		var regs []ioa.Register
		if dC, regs, err = deadOf(mC); err != nil {
			return nil, err
		}
		res.DeadConcrete = explore.DescribeDead(regs)
		if abs.d, regs, err = deadOf(mA); err != nil {
			return nil, err
		}
		res.DeadAbstract = explore.DescribeDead(regs)
		if gC != nil {
			gC, abs.g = gC.WithDead(dC), abs.g.WithDead(abs.d)
		}
	}
	err = implements(res, mC, gC, dC, abs, cfg)
	if errors.Is(err, errAbstractLimit) {
		res.Limit = fmt.Sprintf("abstract state limit %d", abs.limit)
		err = nil
	}
	if err != nil {
		return nil, err
	}
	if res.Failure == nil { // a failure's counts are those before its trace was rebuilt
		res.AbstractStates = abs.st.Len()
		res.AbstractSets = abs.sets.Len()
	} else if res.Failure.Trace != nil {
		// the failing step leads to no pair, which the search did not store
		res.MaxDepth = max(res.MaxDepth, res.Failure.Trace.Len())
	}
	res.Complete = res.Failure == nil && res.Limit == ""
	res.Elapsed = time.Since(start).Seconds()
	return res, nil
}

// deadOf compiles the dead-register reduction of m's automaton.
func deadOf(m *eval.Machine) (*eval.Dead, []ioa.Register, error) {
	regs := ioa.DeadRegisters(m.A)
	d, err := m.NewDead(regs)
	return d, regs, err
}

// traceSymmetry checks that both automata treat the elements of
// cfg.Symmetry's sorts alike where trace inclusion evaluates them (their
// actions and views; explore's check, run through a one-state exploration
// that also says why an element is fixed) and compiles the group for each,
// the same permutations in the same order. A permutation π then maps the
// executions of C to executions of C, and the traces of A to traces of A,
// with the events' arguments permuted by π alike: the set of the states A
// can be in after π(trace) is π(S) when S is the set after the trace. A
// pair (c, S) is stored as its least image (π c, π S) under the group:
// first the least encoding of π c, then, among the permutations giving it,
// the image of S with the least set id (ids are given to sets by content,
// so this is a function of the orbit).
func traceSymmetry(c, a *ioa.Automaton, mC, mA *eval.Machine, cfg Config) (*SymmetryInfo, *eval.Symmetry, *eval.Symmetry, error) {
	sorts := cfg.Symmetry
	why := map[string]string{}
	for _, x := range []*ioa.Automaton{c, a} {
		// The subset construction checks no Nat condition: a Nat variable
		// is no lower bound to the symmetry check.
		r, err := explore.Explore(x, explore.Config{Instance: cfg.Instance, Symmetry: sorts, Invariants: []string{}, MaxStates: 1, NatUnchecked: true})
		if err != nil {
			return nil, nil, nil, err
		}
		if r.Symmetry != nil {
			for _, ss := range r.Symmetry.Sorts {
				if _, ok := why[ss.Sort]; !ok && len(ss.Fixed) > 0 {
					why[ss.Sort] = ss.Why
				}
			}
		}
	}
	gC, gA, info, err := compileGroup(mC, mA, sorts, why, c.Pos, mC.Inst.Sizes)
	if err != nil {
		return nil, nil, nil, err
	}
	return info, gC, gA, nil
}

// implements explores the pairs (c, S): a pair is its concrete state's id
// and its set's id (8 bytes) in a store, with the pair it was found from;
// the concrete states are kept encoded in another store. With a symmetry
// group gC (abs.g acting on A's states), each pair is stored as the
// representative of its orbit (traceSymmetry). With a reduction dC (and
// abs.d), the states of both automata are stored reduced, and gC and
// abs.g are groups WithDead. A failing trace is rebuilt by replaying the
// path of pairs from a real start state.
func implements(res *TraceResult, mC *eval.Machine, gC *eval.Symmetry, dC *eval.Dead, abs *absSide, cfg Config) error {
	cs := nodestore.New()
	var buf []byte
	appendC := func(buf []byte, s eval.State) []byte {
		if dC != nil {
			return dC.AppendState(buf, s)
		}
		return mC.AppendState(buf, s)
	}
	internC := func(s eval.State) uint32 {
		buf = appendC(buf[:0], s)
		id, _ := cs.Insert(buf, cs.Hash(buf), -1)
		res.ConcreteStates = cs.Len()
		return uint32(id)
	}
	// least returns the least encoding of the images of s under gC, and
	// the permutations giving it.
	var best []byte
	var ties []int
	least := func(s eval.State) ([]byte, []int) {
		best, ties = gC.AppendLeast(best[:0], s, ties)
		return best, ties
	}
	// leastSet returns the image of set under ties with the least id.
	leastSet := func(set int32, ties []int) (int32, error) {
		out := int32(-1)
		for _, g := range ties {
			t, err := abs.permuted(set, g)
			if err != nil {
				return -1, err
			}
			if out < 0 || t < out {
				out = t
			}
		}
		return out, nil
	}
	// canon returns the stored pair of (s, set): the pair itself without
	// symmetry, the representative of its orbit with it.
	canon := func(s eval.State, set int32) (uint32, uint32, error) {
		if gC == nil {
			return internC(s), uint32(set), nil
		}
		key, ties := least(s)
		id, _ := cs.Insert(key, cs.Hash(key), -1)
		res.ConcreteStates = cs.Len()
		t, err := leastSet(set, ties)
		return uint32(id), uint32(t), err
	}
	// represents reports whether pair (wc, ws) is the representative of
	// (s, set), without storing anything for s.
	represents := func(s eval.State, set int32, wc, ws uint32) (bool, error) {
		if gC == nil {
			return string(appendC(buf[:0], s)) == string(cs.Key(int(wc))) && uint32(set) == ws, nil
		}
		key, ties := least(s)
		if string(key) != string(cs.Key(int(wc))) {
			return false, nil
		}
		t, err := leastSet(set, ties)
		return uint32(t) == ws, err
	}
	pairs := nodestore.New()
	pairKey := func(c, set uint32) []byte {
		var k [8]byte
		binary.LittleEndian.PutUint32(k[:], c)
		binary.LittleEndian.PutUint32(k[4:], set)
		return k[:]
	}
	pairOf := func(id int) (c, set uint32) {
		k := pairs.Key(id)
		return binary.LittleEndian.Uint32(k), binary.LittleEndian.Uint32(k[4:])
	}
	var levels []int // levels[d]: the first pair of depth d
	meter := explore.NewMeter(cfg.Budget)
	defer func() { _, res.PeakMemoryBytes = meter.Memory() }()
	full := func() bool {
		if cfg.MaxStates > 0 && pairs.Len() >= cfg.MaxStates {
			res.Limit = fmt.Sprintf("state limit %d", cfg.MaxStates)
			return true
		}
		if why := meter.Exceeded(pairs.PendingGrowth() + cs.PendingGrowth() + abs.st.PendingGrowth()); why != "" {
			res.Limit, res.Exhausted = why, true
			return true
		}
		return false
	}
	prog := explore.NewReporter(cfg.Progress, meter)
	add := func(c, set uint32, parent int32, depth int) {
		k := pairKey(c, set)
		if _, isNew := pairs.Insert(k, pairs.Hash(k), parent); !isNew {
			return
		}
		if depth >= len(levels) {
			levels = append(levels, pairs.Len()-1)
		}
		res.Pairs++
		res.MaxDepth = max(res.MaxDepth, depth)
	}
	inits, err := mC.Init()
	if err != nil {
		return err
	}
	aInits, err := abs.m.Init()
	if err != nil {
		return err
	}
	var a0 []int32
	for _, s := range aInits {
		id, err := abs.intern(s)
		if err != nil {
			return err
		}
		a0 = append(a0, id)
	}
	s0, err := abs.closeSet(a0)
	if err != nil {
		return err
	}
	rt := fast.NewRunner(mC) // for replays
	// traceTo rebuilds a shortest execution to pair id from a real start
	// state, through real states and the real sets of A's states after
	// their traces (with symmetry the stored pairs are representatives),
	// then takes the first step from the real state reached whose event A
	// cannot show from the real set (with symmetry, an image of the failing
	// step found from the representative).
	traceTo := func(id int) (*TraceFailure, error) {
		res.AbstractStates, res.AbstractSets = abs.st.Len(), abs.sets.Len()
		path := pairs.Path(id)
		wc, ws := pairOf(path[0])
		var cur eval.State
		for _, s := range inits {
			ok, err := represents(s, s0, wc, ws)
			if err != nil {
				return nil, err
			}
			if ok {
				cur = s
				break
			}
		}
		if cur == nil {
			return nil, errors.New("internal error: no start state replays the trace's first pair")
		}
		curSet := s0
		tr := newTrace(mC, cur)
		// step finds the first step from cur to whose state and set keep
		// returns true, and takes it.
		step := func(keep func(post eval.State, set int32) (bool, error)) (bool, error) {
			var next eval.State
			var nact *ioa.Action
			var nparams []eval.Value
			nset := int32(-1)
			var failed error
			err := rt.Successors(cur, func(a int, ps []eval.Value, post eval.State) bool {
				set, act := curSet, mC.A.Actions[a]
				if act.Kind.External() {
					ev, err := mC.FormatEvent(act, ps)
					if err == nil {
						set, err = abs.step(curSet, ev)
					}
					if err != nil {
						failed = err
						return false
					}
				}
				ok, err := keep(post, set)
				if err != nil {
					failed = err
					return false
				}
				if !ok {
					return true
				}
				next, nact, nparams, nset = post, act, append([]eval.Value(nil), ps...), set
				return false
			})
			if err == nil {
				err = failed
			}
			if err != nil || next == nil {
				return false, err
			}
			if err := addStep(tr, mC, nact, nparams, next); err != nil {
				return false, err
			}
			cur, curSet = next, nset
			return true, nil
		}
		for k, nid := range path[1:] {
			wc, ws := pairOf(nid)
			ok, err := step(func(post eval.State, set int32) (bool, error) { return represents(post, set, wc, ws) })
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("internal error: cannot replay step %d of a trace", k+1)
			}
		}
		before := curSet
		ok, err := step(func(_ eval.State, set int32) (bool, error) { return abs.size(set) == 0, nil })
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errors.New("internal error: the failing step does not replay from the trace's last state")
		}
		f := &TraceFailure{Trace: tr, Events: []string{}, Offered: []string{}}
		for _, st := range tr.Steps {
			if st.Event != "" {
				f.Events = append(f.Events, st.Event)
			}
		}
		f.Candidates = abs.size(before)
		f.Offered = abs.offered(before)
		if len(f.Offered) > 20 {
			f.Offered = f.Offered[:20]
		}
		return f, nil
	}
	for _, s := range inits {
		if abs.size(s0) == 0 {
			res.AbstractStates, res.AbstractSets = abs.st.Len(), abs.sets.Len()
			res.Failure = &TraceFailure{Trace: newTrace(mC, s), Events: []string{}, Offered: []string{}}
			return nil
		}
		if full() {
			break
		}
		c0, set0, err := canon(s, s0)
		if err != nil {
			return err
		}
		add(c0, set0, -1, 0)
	}
	type succ struct {
		act    *ioa.Action
		p0, p1 int
		post   eval.State
	}
	r := fast.NewRunner(mC)
	r.SetScratch(true)
	var succs []succ
	var pbuf []eval.Value
	depth := 0
	for i := 0; i < pairs.Len() && res.Limit == ""; i++ {
		for depth+1 < len(levels) && i >= levels[depth+1] {
			depth++
		}
		if cfg.MaxDepth > 0 && depth >= cfg.MaxDepth {
			res.Limit = fmt.Sprintf("depth limit %d", cfg.MaxDepth)
			break
		}
		if full() {
			break
		}
		prog.Report(pairs.Len(), res.Transitions, depth, pairs.Len()-i)
		c, set := pairOf(i)
		r.Release()
		cur, err := r.Decode(cs.Key(int(c)))
		if err != nil {
			return err
		}
		succs, pbuf = succs[:0], pbuf[:0]
		over := false
		err = r.Successors(cur, func(act int, params []eval.Value, post eval.State) bool {
			p0 := len(pbuf)
			pbuf = append(pbuf, params...)
			succs = append(succs, succ{mC.A.Actions[act], p0, len(pbuf), post})
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
			res.Limit, res.Exhausted = meter.Stop(), true
			break
		}
		for _, s := range succs {
			res.Transitions++
			next := int32(set)
			params := pbuf[s.p0:s.p1]
			if s.act.Kind.External() {
				ev, err := mC.FormatEvent(s.act, params)
				if err != nil {
					return err
				}
				if next, err = abs.step(int32(set), ev); err != nil {
					return err
				}
				if abs.size(next) == 0 {
					f, err := traceTo(i)
					if err != nil {
						return err
					}
					res.Failure = f
					return nil
				}
			}
			if full() {
				break
			}
			cn, sn, err := canon(s.post, next)
			if err != nil {
				return err
			}
			add(cn, sn, int32(i), depth+1)
		}
	}
	return nil
}

// WriteText writes the result and, on failure, the trace A cannot produce.
func (r *TraceResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	inst := r.Instance
	if inst == "" {
		inst = "no parameters"
	}
	ew.printf("traces of %s ⊆ traces of %s? in %s\n", r.Concrete, r.Abstract, inst)
	ew.printf("explored %d pairs (%d states of %s, %d sets of %d states of %s), %d steps, depth %d, %.3fs\n",
		r.Pairs, r.ConcreteStates, r.Concrete, r.AbstractSets, r.AbstractStates, r.Abstract, r.Transitions, r.MaxDepth, r.Elapsed)
	if r.Symmetry != nil {
		ew.printf("symmetry: %s; the pairs counted are orbit representatives\n", r.Symmetry)
		for _, s := range r.Symmetry.Sorts {
			if s.Why != "" {
				ew.printf("  %s fixed: %s\n", strings.Join(s.Fixed, ", "), s.Why)
			}
		}
	}
	if r.DeadConcrete != nil || r.DeadAbstract != nil {
		names := func(regs []explore.DeadRegister) string {
			if len(regs) == 0 {
				return "none"
			}
			return explore.DeadNames(regs)
		}
		ew.printf("dead registers reset where dead: %s of %s, %s of %s; the states counted are states up to dead entries\n",
			names(r.DeadConcrete), r.Concrete, names(r.DeadAbstract), r.Abstract)
	}
	switch f := r.Failure; {
	case f != nil:
		if len(f.Events) == 0 {
			ew.printf("FAILED: %s has no start state, so not even the empty trace is a trace of it\n", r.Abstract)
			return ew.err
		}
		ew.printf("FAILED: %s cannot produce this trace of %s (%d events; the last one is impossible):\n", r.Abstract, r.Concrete, len(f.Events))
		ew.printf("  %s\n", strings.Join(f.Events, ", "))
		ew.printf("after the other events %s can be in %d state(s), which offer: %s\n", r.Abstract, f.Candidates, strings.Join(f.Offered, ", "))
		ew.printf("a shortest execution of %s with this trace:\n", r.Concrete)
		writeTrace(ew, f.Trace, nil)
	case r.Exhausted:
		ew.printf("INCOMPLETE: stopped at the %s after %d pairs, depth %d, %.1fs, peak memory %s; every trace checked is a trace of %s\n",
			r.Limit, r.Pairs, r.MaxDepth, r.Elapsed, safeio.FormatBytes(r.PeakMemoryBytes), r.Abstract)
	case r.Limit != "":
		ew.printf("INCOMPLETE: stopped at the %s; every trace checked is a trace of %s\n", r.Limit, r.Abstract)
	default:
		ew.printf("OK: every trace of %s in the instance is a trace of %s\n", r.Concrete, r.Abstract)
	}
	return ew.err
}
