// This file implements Implements: bounded trace inclusion by a subset
// construction over the abstract automaton's reachable states.

package crosscheck

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"ladder/internal/explore"
	"ladder/internal/safeio"
	"ladder/ioa"
	"ladder/ioa/eval"
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
	MaxDepth       int    `json:"maxDepth"`       // the longest execution of C explored
	Complete       bool   `json:"complete"`       // every trace of C in the instance was checked
	Limit          string `json:"limit,omitempty"`
	// Exhausted is set when a bound of Config.Budget (memory, time, an
	// interrupt) stopped the search; Limit then says which.
	Exhausted       bool    `json:"exhausted,omitempty"`
	PeakMemoryBytes int64   `json:"peakMemoryBytes"` // the most memory in use at a sample
	Elapsed         float64 `json:"elapsedSeconds"`
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

// absSide is the abstract automaton of a subset construction: its states
// met so far, their successors by event and by internal steps, the
// τ-closures and the interned sets of states.
type absSide struct {
	m        *eval.Machine
	r        *eval.Runner
	limit    int
	index    map[string]int32
	states   []eval.State
	done     []bool
	internal [][]int32
	external []map[string][]int32
	closure  [][]int32
	sets     map[string]int32
	setList  [][]int32
	post     map[setEvent]int32
	buf      []byte
}

type setEvent struct {
	set int32
	ev  string
}

// errAbstractLimit stops a subset construction at the state limit of A.
var errAbstractLimit = errors.New("abstract state limit")

func (s *absSide) intern(st eval.State) (int32, error) {
	s.buf = s.m.AppendState(s.buf[:0], st)
	if id, ok := s.index[string(s.buf)]; ok {
		return id, nil
	}
	if len(s.states) >= s.limit {
		return -1, errAbstractLimit
	}
	id := int32(len(s.states))
	s.index[string(s.buf)] = id
	s.states = append(s.states, st)
	s.done = append(s.done, false)
	s.internal = append(s.internal, nil)
	s.external = append(s.external, nil)
	s.closure = append(s.closure, nil)
	return id, nil
}

// expand computes the successors of state id.
func (s *absSide) expand(id int32) error {
	if s.done[id] {
		return nil
	}
	s.done[id] = true
	type succ struct {
		act    *ioa.Action
		params []eval.Value
		post   eval.State
	}
	var succs []succ
	err := s.r.Successors(s.states[id], func(act int, params []eval.Value, post eval.State) bool {
		succs = append(succs, succ{s.m.A.Actions[act], append([]eval.Value(nil), params...), post})
		return true
	})
	if err != nil {
		return err
	}
	ext := map[string][]int32{}
	for _, sc := range succs {
		t, err := s.intern(sc.post)
		if err != nil {
			return err
		}
		if !sc.act.Kind.External() {
			s.internal[id] = append(s.internal[id], t)
			continue
		}
		ev, err := s.m.FormatEvent(sc.act, sc.params)
		if err != nil {
			return err
		}
		ext[ev] = append(ext[ev], t)
	}
	s.external[id] = ext
	return nil
}

// close returns the states reachable from id by internal steps (id
// included), sorted.
func (s *absSide) close(id int32) ([]int32, error) {
	if c := s.closure[id]; c != nil {
		return c, nil
	}
	seen := map[int32]bool{id: true}
	queue := []int32{id}
	for i := 0; i < len(queue); i++ {
		if err := s.expand(queue[i]); err != nil {
			return nil, err
		}
		for _, t := range s.internal[queue[i]] {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	sort.Slice(queue, func(i, j int) bool { return queue[i] < queue[j] })
	s.closure[id] = queue
	return queue, nil
}

// closeSet returns the set of the closures of ids, interned.
func (s *absSide) closeSet(ids []int32) (int32, error) {
	seen := map[int32]bool{}
	var all []int32
	for _, id := range ids {
		c, err := s.close(id)
		if err != nil {
			return -1, err
		}
		for _, t := range c {
			if !seen[t] {
				seen[t] = true
				all = append(all, t)
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	var b strings.Builder
	for _, t := range all {
		fmt.Fprintf(&b, "%d,", t)
	}
	if id, ok := s.sets[b.String()]; ok {
		return id, nil
	}
	id := int32(len(s.setList))
	s.sets[b.String()] = id
	s.setList = append(s.setList, all)
	return id, nil
}

// step returns the set after event ev from set id (closed), interned.
func (s *absSide) step(id int32, ev string) (int32, error) {
	k := setEvent{id, ev}
	if t, ok := s.post[k]; ok {
		return t, nil
	}
	var next []int32
	for _, st := range s.setList[id] {
		if err := s.expand(st); err != nil {
			return -1, err
		}
		next = append(next, s.external[st][ev]...)
	}
	t, err := s.closeSet(next)
	if err != nil {
		return -1, err
	}
	s.post[k] = t
	return t, nil
}

// offered returns the events the states of set id show, sorted.
func (s *absSide) offered(id int32) []string {
	seen := map[string]bool{}
	var out []string
	for _, st := range s.setList[id] {
		for ev := range s.external[st] {
			if !seen[ev] {
				seen[ev] = true
				out = append(out, ev)
			}
		}
	}
	sort.Strings(out)
	return out
}

// traceNode is a pair (c, S) of the search and how it was found.
type traceNode struct {
	c, set int32
	parent int32
	act    *ioa.Action
	params []eval.Value
	depth  int32
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
	abs := &absSide{m: mA, r: mA.NewRunner(), limit: cfg.maxAbstract(), index: map[string]int32{},
		sets: map[string]int32{}, post: map[setEvent]int32{}}
	err = implements(res, mC, abs, cfg)
	if errors.Is(err, errAbstractLimit) {
		res.Limit = fmt.Sprintf("abstract state limit %d", abs.limit)
		err = nil
	}
	if err != nil {
		return nil, err
	}
	res.AbstractStates = len(abs.states)
	res.AbstractSets = len(abs.setList)
	res.Complete = res.Failure == nil && res.Limit == ""
	res.Elapsed = time.Since(start).Seconds()
	return res, nil
}

func implements(res *TraceResult, mC *eval.Machine, abs *absSide, cfg Config) error {
	cIndex := map[string]int32{}
	var cStates []eval.State
	var buf []byte
	internC := func(s eval.State) int32 {
		buf = mC.AppendState(buf[:0], s)
		if id, ok := cIndex[string(buf)]; ok {
			return id
		}
		id := int32(len(cStates))
		cIndex[string(buf)] = id
		cStates = append(cStates, s)
		res.ConcreteStates = len(cStates)
		return id
	}
	type pairKey struct{ c, set int32 }
	seen := map[pairKey]bool{}
	var nodes []traceNode
	meter := explore.NewMeter(cfg.Budget)
	defer func() { _, res.PeakMemoryBytes = meter.Memory() }()
	full := func() bool {
		if cfg.MaxStates > 0 && len(nodes) >= cfg.MaxStates {
			res.Limit = fmt.Sprintf("state limit %d", cfg.MaxStates)
			return true
		}
		if why := meter.Exceeded(0); why != "" {
			res.Limit, res.Exhausted = why, true
			return true
		}
		return false
	}
	prog := explore.NewReporter(cfg.Progress, meter)
	add := func(n traceNode) {
		k := pairKey{n.c, n.set}
		if seen[k] {
			return
		}
		seen[k] = true
		nodes = append(nodes, n)
		res.Pairs++
		res.MaxDepth = max(res.MaxDepth, int(n.depth))
	}
	// The trace to node id, plus a last step when act is not nil.
	traceTo := func(id int, act *ioa.Action, params []eval.Value, post eval.State) (*TraceFailure, error) {
		var path []int
		for cur := id; cur >= 0; cur = int(nodes[cur].parent) {
			path = append(path, cur)
		}
		tr := newTrace(mC, cStates[nodes[path[len(path)-1]].c])
		for i := len(path) - 2; i >= 0; i-- {
			n := nodes[path[i]]
			if err := addStep(tr, mC, n.act, n.params, cStates[n.c]); err != nil {
				return nil, err
			}
		}
		if act != nil {
			if err := addStep(tr, mC, act, params, post); err != nil {
				return nil, err
			}
		}
		f := &TraceFailure{Trace: tr, Events: []string{}, Offered: []string{}}
		for _, st := range tr.Steps {
			if st.Event != "" {
				f.Events = append(f.Events, st.Event)
			}
		}
		return f, nil
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
	for _, s := range inits {
		if len(abs.setList[s0]) == 0 {
			res.Failure = &TraceFailure{Trace: newTrace(mC, s), Events: []string{}, Offered: []string{}}
			return nil
		}
		if full() {
			break
		}
		add(traceNode{c: internC(s), set: s0, parent: -1})
	}
	type succ struct {
		act    *ioa.Action
		params []eval.Value
		post   eval.State
	}
	r := mC.NewRunner()
	var succs []succ
	for i := 0; i < len(nodes) && res.Limit == ""; i++ {
		n := nodes[i]
		if cfg.MaxDepth > 0 && int(n.depth) >= cfg.MaxDepth {
			res.Limit = fmt.Sprintf("depth limit %d", cfg.MaxDepth)
			break
		}
		if full() {
			break
		}
		prog.Report(len(nodes), res.Transitions, int(n.depth), len(nodes)-i)
		succs = succs[:0]
		over := false
		err := r.Successors(cStates[n.c], func(act int, params []eval.Value, post eval.State) bool {
			succs = append(succs, succ{mC.A.Actions[act], append([]eval.Value(nil), params...), post})
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
			set := n.set
			if s.act.Kind.External() {
				ev, err := mC.FormatEvent(s.act, s.params)
				if err != nil {
					return err
				}
				if set, err = abs.step(n.set, ev); err != nil {
					return err
				}
				if len(abs.setList[set]) == 0 {
					f, err := traceTo(i, s.act, s.params, s.post)
					if err != nil {
						return err
					}
					f.Candidates = len(abs.setList[n.set])
					f.Offered = abs.offered(n.set)
					if len(f.Offered) > 20 {
						f.Offered = f.Offered[:20]
					}
					res.Failure = f
					return nil
				}
			}
			if full() {
				break
			}
			add(traceNode{c: internC(s.post), set: set, parent: int32(i), act: s.act, params: s.params, depth: n.depth + 1})
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
