// This file implements the minimization of a counterexample that the
// solver found: the bounded search (search.go) run again, over the
// instances no larger than that counterexample.

package refute

import (
	"strconv"

	"ladder/internal/logic"
	"ladder/internal/proposal"
)

// smallSort is the largest number of elements of a parameter sort in a
// counterexample that is not minimized; smallInt likewise bounds the
// integer constants (the largest of minimizeInts).
const (
	smallSort = 2
	smallInt  = 8
)

// extent is the size of a model of a problem: the number of elements of
// each parameter sort and the largest absolute value of an integer
// constant.
type extent struct {
	sizes map[string]int // by sort name; nil when not measured
	big   int64
}

// extentOf returns the extent of the model m of p; nothing is measured
// (sizes is nil) when m is nil or p's signature cannot be computed. A sort
// whose universe the model does not give (the solver leaves out sorts
// that no term of the model needs) counts as one element, the least any
// instance has.
func extentOf(p *logic.Problem, m logic.Model) extent {
	if m == nil {
		return extent{}
	}
	sig, err := p.Signature()
	if err != nil {
		return extent{}
	}
	ext := extent{sizes: map[string]int{}, big: largestInt(p, m)}
	for _, s := range sig.Sorts {
		u, err := m.Universe(s)
		ext.sizes[s.Name()] = max(len(u), 1)
		if err != nil {
			ext.sizes[s.Name()] = 1
		}
	}
	return ext
}

// Large reports whether a counterexample of extent e is worth minimizing:
// it was measured, and a parameter sort has more than smallSort elements
// or an integer constant is beyond ±smallInt.
func (e extent) Large() bool {
	if e.sizes == nil {
		return false
	}
	if e.big > smallInt {
		return true
	}
	for _, k := range e.sizes {
		if k > smallSort {
			return true
		}
	}
	return false
}

// total is the number of elements over all the parameter sorts.
func (e extent) total() int {
	n := 0
	for _, k := range e.sizes {
		n += k
	}
	return n
}

// String renders the extent for people: "L=10, T=4, V=16, Int constants up
// to 1000".
func (e extent) String() string {
	s := instance{Sizes: e.sizes}.String()
	if e.big > 0 {
		if s != "" {
			s += ", "
		}
		s += "Int constants up to " + strconv.FormatInt(e.big, 10)
	}
	if s == "" {
		s = "no parameter sort and no Int constant"
	}
	return s
}

// minimize looks for a counterexample to p smaller than one of extent ext
// that the solver found and the kernel replayed. It runs the bounded
// search (search.run) over the instances of the schedule whose total size
// is at most ext's, smallest first, under the search's resource limits
// and budget, and stops at the first model, which the kernel replays. That
// counterexample is a model of p (bound.go) replayed by the obligation's
// Replay exactly like the first, so it is equally a genuine
// counterexample; Smaller tells the kernel whether it is smaller: fewer
// elements in all, or as many and smaller integer constants. When p has
// no parameter sort, or none of its instances is that small, nothing is
// searched and nothing found.
func (s *search) minimize(p *logic.Problem, ext extent) proposal.Found {
	insts, err := instances(p, s.lim.MaxSize)
	if err != nil || len(insts) == 0 {
		return proposal.Found{} // nothing to bound: the first stands
	}
	n := 0
	for n < len(insts) && sizeOf(insts[n]) <= ext.total() {
		n++ // the schedule is by total size
	}
	insts = insts[:n]
	if len(insts) == 0 {
		return proposal.Found{}
	}
	res := s.run(p, insts)
	res.Smaller = res.Replay > 0 && smaller(res.found, res.big, ext)
	return res.Found
}

// sizeOf is the number of elements of the instance in over all its sorts.
func sizeOf(in instance) int {
	n := 0
	for _, k := range in.Sizes {
		n += k
	}
	return n
}

// smaller reports whether a counterexample in the instance in with
// integer constants up to big is smaller than one of extent ext.
func smaller(in instance, big int64, ext extent) bool {
	a, b := sizeOf(in), ext.total()
	return a < b || a == b && big < ext.big
}
