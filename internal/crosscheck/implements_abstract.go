// This file implements the abstract side of Implements: the reachable
// states of the abstract automaton, interned with their successors by
// event, and the sets of them closed under internal steps.

package crosscheck

import (
	"encoding/binary"
	"errors"
	"sort"

	"ladder/internal/nodestore"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
)

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
