// This file implements the breadth-first search the proof cross-checks
// share: over the states of the explored automaton (refinement, backward,
// history) or over pairs of a concrete and an abstract state (forward).
//
// Nodes are kept encoded in a store (internal/nodestore), canonical under the
// symmetry group when there is one (symmetry.go), with the node each was
// first reached from; nothing else is kept per node. A shortest execution
// to a node is rebuilt when a failure is reported, by replaying the path
// of parent links from a real start node: at each node, the successor
// whose key is the next node's is taken (the explorer's trace does the
// same). With symmetry reduction the replayed execution ends in a member
// of the failing node's orbit, and the failing check is run again on it,
// so that a failure is always shown on a real execution.
//
// Nodes are expanded in batches. Workers (Config.Workers) decode the nodes
// of a batch, compute their successors and the keys of the successor
// nodes, and (forward) run the step check of every transition on a copy of
// the checker; the searching goroutine then merges the batch in node
// order: it counts, inserts the new nodes, runs the per-node checks (with
// the verdict on the assumed invariants a worker computed for a successor
// state not yet stored or, in a search of pairs, for a concrete or
// abstract state not yet met by the node check: nodeFacts) and the sequential
// step checks, and stops at the first failure in that order. A step
// check that fails in a worker is run again on the searching goroutine,
// which builds the failure report. The result, counts and the
// failure reported do not depend on the number of workers.

package crosscheck

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"ladder/internal/explore"
	"ladder/internal/nodestore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
)

// errDeferred is how a worker's copy of the checker reports a failed
// check: the failure is built again on the searching goroutine.
var errDeferred = errors.New("failure deferred to the searching goroutine")

// errCaptured is returned by a check stopped at its search (checker.capture).
var errCaptured = errors.New("search callbacks captured")

// errOverBudget stops a worker whose successors outgrow the budget.
var errOverBudget = errors.New("over the budget")

// searchBatch is the number of nodes expanded between two merges.
const searchBatch = 2048

// search is one breadth-first search of a cross-check.
type search struct {
	x        *checker
	m        *eval.Machine  // the explored automaton
	auto     *ioa.Automaton // its automaton
	pair     bool           // nodes are pairs (c, a)
	st       *nodestore.Store
	levels   []int // levels[d]: the first node of depth d
	roots    map[int]root
	meter    *explore.Meter
	prog     *explore.Reporter
	workers  []*searchWorker
	replayer *checker // a copy of the checker for replays
	// check, if set, is the step check workers run for every transition
	// from (pre, a); it returns the abstract state of the successor pair.
	check func(w *checker, tr *explore.Transition, a eval.State) (eval.State, error)
	// node, if set, is called for every new node (root set for start
	// nodes, which are real start states; f is what the step check that
	// reached it established, trans.facts).
	node func(id int, root bool, f nodeFacts, s, a eval.State) error
	// inv, if set (searches of states), evaluates the assumed invariants
	// of the explored automaton in a state on a copy of the checker: the
	// workers do it for a successor not yet stored (nodeFacts).
	inv func(w *checker, s eval.State) (string, error)
	// assumed, if set (searches of pairs), evaluates on a copy of the
	// checker the assumed invariants of a successor pair's concrete state
	// c (abstract false) or abstract state a (abstract true) unless the
	// node check found them to hold before the batch (it reads the
	// store of the states it found them in, which only the searching
	// goroutine writes, between batches). The workers do it for each
	// state once per batch (nodeFacts).
	assumed func(w *checker, abstract bool, key []byte, st eval.State) (stateFacts, error)
	// step, if set, is the step check of a search of states: workers run
	// the same callback of their copies of the checker (see capture), and
	// this one runs again on the searching goroutine for a failure.
	step func(tr *explore.Transition) error
	hs   []uint64 // scratch of prefetch
}

// root is a real start node: a start state of the explored automaton and,
// for pairs, its abstract state.
type root struct{ s, a eval.State }

// searchWorker expands nodes.
type searchWorker struct {
	x     *checker                           // a copy of the checker (nil without step checks)
	step  func(tr *explore.Transition) error // the copy's step callback (searches of states)
	r, rA *fast.Runner
	enc   *encoder
	arena []byte       // the successors' keys
	pbuf  []eval.Value // their parameters
	kbuf  []int16      // the cases their checks took
	trans []trans
	err   error
	// forward searches: the node being expanded, the key of the last
	// pair related computed, at arena[pend.k0:pend.k1], and the keys of
	// the pairs whose step check passed in this batch (a pair is often
	// reached from several nodes of one batch before it is stored)
	curS, curA eval.State
	pend       pendingKey
	checked    map[string]struct{}
	// the concrete and abstract states whose assumed invariants the
	// worker evaluated in this batch (search.assumed)
	seenC, seenA map[string]struct{}
}

// pendingKey is the key of a pair (c, a) computed by searchWorker.related
// during a step check, kept for the step's successor node.
type pendingKey struct {
	c, a   eval.State
	k0, k1 int32
	hash   uint64
	known  bool // related found the pair stored or checked
	stored int  // nodeOf: 1 if the node is stored, else 0
}

// trans is a transition computed by a worker.
type trans struct {
	act    int
	p0, p1 int32 // its parameters in the worker's pbuf
	k0, k1 int32 // the successor node's key in the worker's arena
	post   eval.State
	a      eval.State // pairs: the successor's abstract state
	hash   uint64
	fail   bool // the check failed (its failure is built again)
	facts  nodeFacts
	found  found // the candidates the step check found related to post
	err    error // the check's error
	checks int32 // the checks counted
	c0, c1 int32 // the cases its checks took, in the worker's kbuf (a backward step is checked from several abstract states)
}

// nodeFacts is what a worker established about the successor of a
// transition, for the node check when the successor is a new node.
type nodeFacts struct {
	// vouched: the step check vouched for the node check
	// (checker.vouched)
	vouched bool
	// invDone: the assumed invariants were evaluated in the successor
	// (search.inv), and inv is the first violated one, or ""
	invDone bool
	inv     string
	// pairs: what a worker found of the assumed invariants of the
	// concrete state (c) and the abstract state (a) (search.assumed)
	c, a stateFacts
}

// stateFacts is what a worker found of the assumed invariants of a state
// of a pair (search.assumed): the node check found them to hold before
// the batch (held), or they were evaluated (done) and inv is the first
// violated one, or "". Neither: the node check evaluates them.
type stateFacts struct {
	held, done bool
	inv        string
}

// expanded is what a worker computed for one node of a batch.
type expanded struct {
	s, a   eval.State
	worker int
	t0, t1 int // its transitions in the worker's trans
}

// newSearch returns a search of the explored automaton (A when abstract is
// set, else C), of pairs with C when pair is set.
func (x *checker) newSearch(abstract, pair bool) *search {
	s := &search{x: x, m: x.mC, auto: x.p.Concrete, pair: pair, st: nodestore.New(), roots: map[int]root{}}
	if abstract {
		s.m, s.auto = x.mA, x.p.Abstract
	}
	s.meter = x.meter
	s.prog = explore.NewReporter(x.cfg.Progress, s.meter)
	s.replayer = x.clone()
	x.traceOf = s.traceOf
	return s
}

// clone returns a copy of x for another goroutine: its own counters, case
// counts, runners and point checker, no failure, and a traceOf that defers the failure
// (errDeferred) to the searching goroutine.
func (x *checker) clone() *checker {
	w := *x
	w.res = &Result{}
	w.cases = map[*ioa.Action][]int64{}
	for a, cs := range x.cases {
		w.cases[a] = make([]int64, len(cs))
	}
	w.failure = nil
	w.rC, w.rA = fast.NewRunner(x.mC), fast.NewRunner(x.mA)
	w.rules = x.rules.Clone()
	w.pt, w.hist, w.planCache, w.decoded, w.relOf, w.relKey, w.imgKey, w.verdicts = nil, nil, nil, nil, nil, nil, nil, nil
	w.related, w.known = nil, [2]eval.State{}
	w.relScratch, w.relAll, w.probeHashes, w.probeA, w.probeB, w.probeArena = nil, nil, nil, nil, nil, nil
	w.nodeOf, w.found, w.pre = nil, found{}, preNode{id: -1}
	w.candR, w.candNode, w.permBuf = fast.NewRunner(x.mA), -1, nil
	w.candR.SetScratch(true)
	w.traceOf = func(int) (*explore.Trace, []MatchedStep, error) { return nil, nil, errDeferred }
	return &w
}

func (s *search) numWorkers() int {
	w := s.x.cfg.Workers
	if w < 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(w, 1)
}

// full reports whether a limit stops the search, and records it.
func (s *search) full() bool {
	x := s.x
	if x.res.Limit != "" {
		return true
	}
	limit := x.cfg.MaxStates
	if limit <= 0 || limit > nodestore.MaxNodes {
		limit = nodestore.MaxNodes
	}
	if s.st.Len() >= limit {
		x.res.Limit = fmt.Sprintf("state limit %d", limit)
		return true
	}
	if why := s.meter.Exceeded(s.st.PendingGrowth()); why != "" {
		x.res.Limit, x.res.Exhausted = why, true
		return true
	}
	return false
}

// insert adds a node; it reports its id and whether it is new, and keeps
// the depths.
func (s *search) insert(key []byte, h uint64, parent int32, depth int) (int, bool, error) {
	if len(key) > nodestore.MaxKey {
		return 0, false, fmt.Errorf("a node of the search of %s encodes in %d bytes, more than the %d the store can hold", s.auto.Name, len(key), nodestore.MaxKey)
	}
	id, isNew := s.st.Insert(key, h, parent)
	if isNew {
		s.x.res.States++
		if depth >= len(s.levels) {
			s.levels = append(s.levels, id)
		}
		s.x.res.MaxDepth = max(s.x.res.MaxDepth, depth)
	}
	return id, isNew, nil
}

// addRoot adds a start node: the start state s (a real one) and, for
// pairs, its abstract state a. It runs the node check.
func (s *search) addRoot(st, a eval.State) error {
	if s.full() {
		return nil
	}
	enc := s.x.newEncoder(s.m, s.pair)
	key := enc.append(nil, st, a)
	id, isNew, err := s.insert(key, s.st.Hash(key), -1, 0)
	if err != nil || !isNew {
		return err
	}
	s.roots[id] = root{st.Clone(), a.Clone()}
	if s.node != nil {
		return s.node(id, true, nodeFacts{}, st, a)
	}
	return nil
}

// run expands the nodes until none is left, a limit or a failure.
func (s *search) run() error {
	x := s.x
	defer func() {
		s.meter.Memory()
		_, x.res.PeakMemoryBytes = s.meter.Memory()
	}()
	w := s.numWorkers()
	s.workers = make([]*searchWorker, w)
	for k := range s.workers {
		sw := &searchWorker{r: fast.NewRunner(s.m), enc: x.newEncoder(s.m, s.pair), checked: map[string]struct{}{},
			seenC: map[string]struct{}{}, seenA: map[string]struct{}{}}
		sw.r.SetScratch(true)
		if s.pair {
			sw.rA = fast.NewRunner(x.mA)
			sw.rA.SetScratch(true)
		}
		if s.check != nil {
			sw.x = x.clone()
			if s.pair && !x.cfg.evalRelation {
				sw.x.related = func(c, a eval.State) bool { return s.related(sw, c, a) }
			}
		}
		if s.step != nil {
			// The same check on a copy of the checker: run it up to its
			// search, which hands over its callbacks, bound to the copy.
			sw.x = x.clone()
			if !x.cfg.evalRelation {
				sw.x.nodeOf = func(c eval.State, key []byte) (int, []int, []byte) { return s.nodeOf(sw, c, key) }
			}
			sw.x.capture = func(_ func(int, bool, bool, eval.State) error, step func(*explore.Transition) error) { sw.step = step }
			if err := x.kind(sw.x); !errors.Is(err, errCaptured) || sw.step == nil {
				return fmt.Errorf("internal error: the check did not reach its search on a copy of the checker: %v", err)
			}
			sw.x.capture = nil
		}
		s.workers[k] = sw
	}
	depth := 0
	for next := 0; next < s.st.Len() && x.res.Limit == ""; {
		if why := s.meter.Check(0); why != "" {
			x.res.Limit, x.res.Exhausted = why, true
			break
		}
		hi := min(next+searchBatch, s.st.Len())
		batch, err := s.expand(next, hi)
		if err != nil {
			return err
		}
		if batch == nil { // over the budget: the batch is incomplete
			x.res.Limit, x.res.Exhausted = s.meter.Stop(), true
			break
		}
		for i := next; i < hi; i++ {
			if i+mergeAhead < hi {
				s.prefetch(&batch[i+mergeAhead-next])
			}
			for depth+1 < len(s.levels) && i >= s.levels[depth+1] {
				depth++
			}
			if x.cfg.MaxDepth > 0 && depth >= x.cfg.MaxDepth {
				x.res.Limit = fmt.Sprintf("depth limit %d", x.cfg.MaxDepth)
				return nil
			}
			if s.full() {
				return nil
			}
			if err := s.merge(i, depth, &batch[i-next]); err != nil {
				return err
			}
			if x.res.Limit != "" {
				return nil
			}
		}
		next = hi
		s.prog.Report(s.st.Len(), x.res.Transitions, depth, s.st.Len()-next)
	}
	return nil
}

// expand computes the transitions of nodes lo..hi-1 on the workers. It
// returns nil when the budget ran out meanwhile.
func (s *search) expand(lo, hi int) ([]expanded, error) {
	out := make([]expanded, hi-lo)
	w := len(s.workers)
	// The workers take runs of chunk neighbouring nodes in turn, so that
	// one that meets costlier nodes does not keep the others waiting:
	// neighbouring nodes, often siblings, share successors, whose lookups
	// a worker then finds in its memo.
	chunk := max(8, (hi-lo)/(64*w))
	var taken atomic.Int64
	work := func(k int) {
		sw := s.workers[k]
		sw.r.Release()
		if sw.rA != nil {
			sw.rA.Release()
		}
		sw.arena, sw.pbuf, sw.kbuf, sw.trans, sw.err = sw.arena[:0], sw.pbuf[:0], sw.kbuf[:0], sw.trans[:0], nil
		clear(sw.checked)
		clear(sw.seenC)
		clear(sw.seenA)
		for {
			from := lo + int(taken.Add(int64(chunk))) - chunk
			if from >= hi {
				return
			}
			for i := from; i < min(from+chunk, hi); i++ {
				if err := s.expandNode(sw, i, &out[i-lo]); err != nil {
					sw.err = err
					return
				}
				out[i-lo].worker = k
			}
		}
	}
	if w == 1 || hi-lo < 16 {
		// one goroutine: worker 0 takes every node
		saved := s.workers
		s.workers = s.workers[:1]
		w = 1
		work(0)
		s.workers = saved
	} else {
		var wg sync.WaitGroup
		for k := 0; k < w; k++ {
			wg.Add(1)
			go func(k int) {
				defer wg.Done()
				work(k)
			}(k)
		}
		wg.Wait()
	}
	for _, sw := range s.workers[:w] {
		if errors.Is(sw.err, errOverBudget) {
			return nil, nil
		}
	}
	for _, sw := range s.workers[:w] {
		if sw.err != nil {
			return nil, sw.err
		}
	}
	return out, nil
}

// expandNode computes the transitions of node i.
func (s *search) expandNode(sw *searchWorker, i int, e *expanded) error {
	key := s.st.Key(i)
	var err error
	if s.pair {
		ck, ak, err := splitPair(key)
		if err != nil {
			return err
		}
		if e.s, err = sw.r.Decode(ck); err != nil {
			return err
		}
		if e.a, err = sw.rA.Decode(ak); err != nil {
			return err
		}
	} else if e.s, err = sw.r.Decode(key); err != nil {
		return err
	}
	e.t0 = len(sw.trans)
	sw.curS, sw.curA = e.s, e.a
	over := false
	var tr explore.Transition
	err = sw.r.Successors(e.s, func(act int, params []eval.Value, post eval.State) bool {
		t := trans{act: act, p0: int32(len(sw.pbuf)), post: post}
		sw.pbuf = append(sw.pbuf, params...)
		t.p1 = int32(len(sw.pbuf))
		a := e.a
		sw.pend = pendingKey{}
		if s.check != nil || sw.step != nil {
			tr = explore.Transition{From: i, To: -1, Pre: e.s, Post: post, Action: s.auto.Actions[act], Params: sw.pbuf[t.p0:t.p1]}
			wx := sw.x
			checks := wx.res.Checks
			wx.vouched, wx.found = false, found{}
			if s.check != nil {
				a, t.err = s.check(wx, &tr, e.a)
			} else {
				t.err = sw.step(&tr)
			}
			t.checks = int32(wx.res.Checks - checks)
			t.facts.vouched = wx.vouched && t.err == nil
			t.found = wx.found
			t.c0 = int32(len(sw.kbuf))
			if cs := wx.cases[tr.Action]; cs != nil {
				for k, n := range cs {
					for ; n > 0; n-- {
						sw.kbuf = append(sw.kbuf, int16(k))
					}
					cs[k] = 0
				}
			}
			t.c1 = int32(len(sw.kbuf))
			if errors.Is(t.err, errDeferred) {
				t.fail, t.err = true, nil
			}
			if s.check != nil && (t.fail || t.err != nil) {
				a = nil
			}
		}
		t.a = a
		known := false // pairs: the successor pair is stored, or met before in this batch
		if pk := sw.pend; pk.c != nil && int(pk.k1) == len(sw.arena) {
			if (!s.pair || !t.fail && t.err == nil) && sameState(pk.c, post) && (!s.pair || sameState(pk.a, a)) {
				t.k0, t.k1, t.hash = pk.k0, pk.k1, pk.hash
				known = s.pair && pk.known
				if s.pair && !pk.known {
					// every goal held, R(post, a) among them
					sw.checked[string(sw.arena[pk.k0:pk.k1])] = struct{}{}
				}
			} else {
				sw.arena = sw.arena[:pk.k0]
			}
		}
		stored := -1 // unknown
		if t.k1 > 0 && !s.pair {
			stored = sw.pend.stored
		}
		if t.k1 == 0 && (!s.pair || !t.fail && t.err == nil) {
			t.k0 = int32(len(sw.arena))
			sw.arena = sw.enc.append(sw.arena, post, a)
			t.k1 = int32(len(sw.arena))
			t.hash = s.st.Hash(sw.arena[t.k0:t.k1])
		}
		if s.inv != nil && sw.x != nil && t.err == nil && !t.fail {
			// the node check's invariants, for a successor not stored
			// before the batch and not met before on this worker
			key := sw.arena[t.k0:t.k1]
			if stored < 0 {
				stored = 0
				if s.st.Find(key, t.hash) >= 0 {
					stored = 1
				}
			}
			if _, seen := sw.checked[string(key)]; stored == 0 && !seen {
				sw.checked[string(key)] = struct{}{}
				t.facts.inv, t.err = s.inv(sw.x, post)
				t.facts.invDone = t.err == nil
			}
		}
		if s.assumed != nil && sw.x != nil && t.err == nil && !t.fail && !known {
			// a pair met before is not a new node: no node check
			t.err = s.assumedFacts(sw, &t, post, a)
		}
		sw.trans = append(sw.trans, t)
		if len(sw.trans)&63 == 0 && s.meter.Over() {
			over = true
			return false
		}
		return true
	})
	if err != nil {
		return err
	}
	if over {
		return errOverBudget
	}
	e.t1 = len(sw.trans)
	return nil
}

// assumedFacts evaluates, for the node check, the assumed invariants of
// the states of the successor pair (post, a) of t that sw has not met in
// this batch (search.assumed).
func (s *search) assumedFacts(sw *searchWorker, t *trans, post, a eval.State) error {
	ck, ak, err := splitPair(sw.arena[t.k0:t.k1])
	if err != nil {
		return err
	}
	if _, seen := sw.seenC[string(ck)]; !seen {
		sw.seenC[string(ck)] = struct{}{}
		if t.facts.c, err = s.assumed(sw.x, false, ck, post); err != nil {
			return err
		}
	}
	if _, seen := sw.seenA[string(ak)]; !seen {
		sw.seenA[string(ak)] = struct{}{}
		t.facts.a, err = s.assumed(sw.x, true, ak, a)
	}
	return err
}

// related reports whether the relation is known to hold at the pair
// (c, a): the node sw is expanding, a node whose key is in the store, or
// a pair whose step check passed on sw in this batch. Every pair is
// stored only after the step that reached it, or the start check, found
// its relation true; a step check that passes found it true at the
// step's successor; and with symmetry a pair's relation is that of any
// image of it (symmetry.go). So the step check of a forward simulation
// may take R(c, a) as holding there (Point.Related). Workers call it
// while the searching goroutine waits for them (expand), so the store is
// only read. The key computed is kept in sw.pend for the step's
// successor, which is usually that pair.
func (s *search) related(sw *searchWorker, c, a eval.State) bool {
	if sameState(c, sw.curS) && sameState(a, sw.curA) {
		return true
	}
	if pk := sw.pend; pk.c != nil && int(pk.k1) == len(sw.arena) {
		sw.arena = sw.arena[:pk.k0]
	}
	k0 := len(sw.arena)
	sw.arena = sw.enc.appendWith(sw.arena, c, a, sw.r, sw.rA)
	key := sw.arena[k0:]
	h := s.st.Hash(key)
	_, known := sw.checked[string(key)]
	known = known || s.st.Find(key, h) >= 0
	sw.pend = pendingKey{c: c, a: a, k0: int32(k0), k1: int32(len(sw.arena)), hash: h, known: known}
	return known
}

// nodeOf returns the id of the node of state c if it is stored (else -1),
// the permutations that map c to the node's state ([0] without
// symmetry) and key with the node's key appended, for a worker's step
// check of a search of states (the store is only read, as in related).
// The key is also kept in sw.pend for the step's successor, which is
// usually c.
func (s *search) nodeOf(sw *searchWorker, c eval.State, key []byte) (int, []int, []byte) {
	if pk := sw.pend; pk.c != nil && int(pk.k1) == len(sw.arena) {
		sw.arena = sw.arena[:pk.k0]
	}
	k0 := len(sw.arena)
	var ties []int
	sw.arena, ties = sw.enc.appendTiesWith(sw.arena, c, sw.r)
	k := sw.arena[k0:]
	h := s.st.Hash(k)
	id := s.st.Find(k, h)
	sw.pend = pendingKey{c: c, k0: int32(k0), k1: int32(len(sw.arena)), hash: h}
	if id >= 0 {
		sw.pend.stored = 1
	}
	return id, ties, append(key, k...)
}

// sameState reports whether x and y are the same state in memory.
func sameState(x, y eval.State) bool {
	return len(x) > 0 && len(x) == len(y) && &x[0] == &y[0]
}

// mergeAhead is how many nodes ahead of the one it merges the search asks
// for the table entries the successors of a node will look up.
const mergeAhead = 2

// prefetch asks for the table slots and records that merging the
// transitions of e will read (nodestore.Store.Prefetch), so that their
// cache misses overlap each other and the merge of the nodes before it.
func (s *search) prefetch(e *expanded) {
	sw := s.workers[e.worker]
	s.hs = s.hs[:0]
	for j := e.t0; j < e.t1; j++ {
		if t := &sw.trans[j]; t.k1 > t.k0 {
			s.hs = append(s.hs, t.hash)
		}
	}
	s.st.Prefetch(s.hs)
}

// merge handles the transitions of node i, at the given depth, in order.
// For pairs the step is checked before the successor pair is stored (it
// gives the pair); for states the successor is stored and checked first.
func (s *search) merge(i, depth int, e *expanded) error {
	x := s.x
	sw := s.workers[e.worker]
	for j := e.t0; j < e.t1; j++ {
		t := &sw.trans[j]
		act := s.auto.Actions[t.act]
		if s.pair {
			x.res.Transitions++
			if err := s.stepDone(i, act, t, sw); err != nil {
				return err
			}
		}
		if s.full() {
			return nil
		}
		if !s.pair {
			x.res.Transitions++
		}
		id, isNew, err := s.insert(sw.arena[t.k0:t.k1], t.hash, int32(i), depth+1)
		if err != nil {
			return err
		}
		if isNew && t.found.ok && x.cands != nil {
			x.cands.remember(id, t.found)
		}
		if isNew && s.node != nil {
			if err := s.node(id, false, t.facts, t.post, t.a); err != nil {
				if errors.Is(err, errFailed) && (x.sym != nil || x.dead != nil) {
					return s.nodeFailed(id)
				}
				return err
			}
		}
		if !s.pair {
			if err := s.stepDone(i, act, t, sw); err != nil {
				return err
			}
		}
	}
	return nil
}

// stepDone counts the step check of t, from node i, and reports its error
// or failure.
func (s *search) stepDone(i int, act *ioa.Action, t *trans, sw *searchWorker) error {
	if t.err != nil {
		return t.err
	}
	x := s.x
	x.res.Checks += int64(t.checks)
	for _, k := range sw.kbuf[t.c0:t.c1] {
		x.countCase(act, int(k))
	}
	if t.fail {
		return s.stepFailed(i)
	}
	return nil
}

// nodeFailed reports the failure of the node check at node id with
// symmetry reduction: the check is run again on the real state the replay
// reaches.
func (s *search) nodeFailed(id int) error {
	x := s.x
	path, err := s.replay(id)
	if err != nil {
		return err
	}
	last := path[len(path)-1]
	x.failure = nil
	err = s.node(id, false, nodeFacts{}, last.s, last.a)
	if err == nil && x.dead != nil {
		return &deadReadError{msg: fmt.Sprintf("%s: a node check fails at a pair stored up to dead entries but not at the real pair it stands for: an invariant of %s reads an entry that may be dead", x.p.Pos, x.p.Abstract.Name)}
	}
	if err == nil {
		return fmt.Errorf("internal error: symmetry reduction: a node check fails on the representative but not on the replayed state")
	}
	return err
}

// stepFailed reports the failure of a step check from node i: the steps
// of the real node the replay reaches (without symmetry, the node itself)
// are checked again, in order, on the searching goroutine until one fails;
// the counts are left as they were.
func (s *search) stepFailed(i int) error {
	x := s.x
	path, err := s.replay(i)
	if err != nil {
		return err
	}
	last := path[len(path)-1]
	checks := x.res.Checks
	saved := map[*ioa.Action][]int64{}
	for a, cs := range x.cases {
		saved[a] = append([]int64(nil), cs...)
	}
	defer func() {
		x.res.Checks = checks
		for a, cs := range saved {
			copy(x.cases[a], cs)
		}
	}()
	x.failure = nil
	var failed error
	r := fast.NewRunner(s.m)
	err = r.Successors(last.s, func(act int, params []eval.Value, post eval.State) bool {
		tr := &explore.Transition{From: i, To: -1, Pre: last.s, Post: post, Action: s.auto.Actions[act], Params: append([]eval.Value(nil), params...)}
		var err error
		if s.check != nil {
			_, err = s.check(x, tr, last.a)
		} else {
			err = s.step(tr)
		}
		if err != nil {
			failed = err
			return false
		}
		return true
	})
	if err != nil {
		return err
	}
	if failed == nil && x.dead != nil {
		// the reduction changed a verdict: a read condition is false at
		// the failing step's pairs
		return &deadReadError{msg: fmt.Sprintf("%s: a step check fails at a pair stored up to dead entries but not at the real pair it stands for: the proof reads an entry of %s that may be dead", x.p.Pos, x.p.Abstract.Name)}
	}
	if failed == nil {
		return fmt.Errorf("internal error: a step check fails on the representative but on no step of the replayed state")
	}
	return failed
}

// replayed is one node of a replayed execution: its real state (and
// abstract state, for pairs) and the step that reached it (act nil at the
// start node).
type replayed struct {
	s, a   eval.State
	act    *ioa.Action
	params []eval.Value
}

// replay returns a real execution to node id: from a real start node, the
// successors whose keys are those of the nodes on the path to id.
func (s *search) replay(id int) ([]replayed, error) {
	path := s.st.Path(id)
	r0, ok := s.roots[path[0]]
	if !ok {
		return nil, fmt.Errorf("internal error: node %d has no start state", path[0])
	}
	out := []replayed{{s: r0.s, a: r0.a}}
	enc := s.x.newEncoder(s.m, s.pair)
	r := fast.NewRunner(s.m)
	var buf []byte
	for _, nid := range path[1:] {
		want := string(s.st.Key(nid))
		cur := out[len(out)-1]
		var next *replayed
		var failed error
		err := r.Successors(cur.s, func(act int, params []eval.Value, post eval.State) bool {
			var a eval.State
			if s.check != nil {
				tr := &explore.Transition{From: -1, To: -1, Pre: cur.s, Post: post, Action: s.auto.Actions[act], Params: params}
				var err error
				a, err = s.check(s.replayer, tr, cur.a)
				if err != nil {
					if !errors.Is(err, errDeferred) {
						failed = err
						return false
					}
					return true // not a step of the path
				}
			}
			buf = enc.append(buf[:0], post, a)
			if string(buf) == want {
				next = &replayed{s: post, a: a, act: s.auto.Actions[act], params: append([]eval.Value(nil), params...)}
				return false
			}
			return true
		})
		if err == nil {
			err = failed
		}
		if err != nil {
			return nil, err
		}
		if next == nil {
			return nil, fmt.Errorf("internal error: cannot replay step %d of a path of the search", len(out))
		}
		out = append(out, *next)
	}
	return out, nil
}

// traceOf returns a shortest execution to node id, and for pairs the
// abstract steps matched to its steps.
func (s *search) traceOf(id int) (*explore.Trace, []MatchedStep, error) {
	path, err := s.replay(id)
	if err != nil {
		return nil, nil, err
	}
	if s.pair {
		return s.x.pairTrace(path)
	}
	tr := newTrace(s.m, path[0].s)
	for _, st := range path[1:] {
		if err := addStep(tr, s.m, st.act, st.params, st.s); err != nil {
			return nil, nil, err
		}
	}
	return tr, nil, nil
}
