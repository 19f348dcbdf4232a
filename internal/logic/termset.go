package logic

import "unsafe"

// termSet is a set of terms by identity: the walks over a problem's terms
// (its signature, its free constants) use one to visit each shared node
// once. It is an open-addressing table hashed on the term's address
// (Fibonacci hashing of the pointer: Go's heap objects do not move), which
// for these walks costs a fraction of a map keyed by pointer. The zero
// value is an empty set.
type termSet struct {
	slots []*Term
	n     int
}

// newTermSet returns an empty set with room for about n terms.
func newTermSet(n int) termSet {
	var s termSet
	size := 64
	for size < 2*n && size < 1<<16 {
		size *= 2
	}
	s.resize(size)
	return s
}

// add adds t and reports whether it was not in the set.
func (s *termSet) add(t *Term) bool {
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := len(s.slots) - 1
	for i := s.slot(t); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case nil:
			s.slots[i] = t
			s.n++
			return true
		case t:
			return false
		}
	}
}

func (s *termSet) slot(t *Term) int {
	return slotOf(uint64(uintptr(unsafe.Pointer(t))), len(s.slots))
}

func (s *termSet) grow() { s.resize(max(16, 2*len(s.slots))) }

// resize moves the set into a table of size slots, a power of two.
func (s *termSet) resize(size int) {
	old := s.slots
	s.slots = make([]*Term, size)
	mask := size - 1
	for _, t := range old {
		if t == nil {
			continue
		}
		i := s.slot(t)
		for s.slots[i] != nil {
			i = (i + 1) & mask
		}
		s.slots[i] = t
	}
}
