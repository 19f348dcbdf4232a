// Package refute is the bounded counterexample search: a proposal.Refuter
// that looks for counterexamples the solver did not find, in an
// obligation's problem restricted to small universes for its parameter
// sorts (bound.go), smallest first (search.go), and for a smaller
// counterexample than the solver's (minimize.go). The kernel calls it
// through the proposal contract when the solver leaves a problem unknown,
// or refutes it with a large model.
//
// It can only refute, and only through the kernel: it proposes bounded
// problems, which the kernel's solver decides (proposal.Oracle.Check), and
// hands each model it finds to the kernel, read as a model of the
// obligation's problem; the kernel replays it through the obligation's
// Replay and alone decides the verdict. Every model of a bounded problem
// is a model of the original problem (the soundness argument of bound);
// the converse does not hold, so an instance without counterexample says
// nothing and the verdict stays unknown. The procedure, its limits and
// the texts it adds to an Unknown's reason are described in the kernel's
// package documentation ("Bounded counterexample search"); a change to
// what this package proposes changes verdicts, and so needs a new
// kernel.Format.
package refute

import (
	"ladder/internal/logic"
	"ladder/internal/proposal"
)

// Refuter is the bounded search (proposal.Refuter). Its zero value is
// ready to use and has no state: every search starts afresh.
type Refuter struct{}

var _ proposal.Refuter = Refuter{}

// New returns the bounded search.
func New() Refuter { return Refuter{} }

// Measure returns the extent of the model m of p (extentOf): the number
// of elements of each parameter sort and the largest integer constant.
func (Refuter) Measure(p *logic.Problem, m logic.Model) proposal.Extent {
	return extentOf(p, m)
}

// Search looks for a counterexample to p in the instances of the
// schedule, within lim, each decided by o and each model replayed by o.
// With within nil, it searches every instance (and says what it searched
// when it finds nothing); otherwise within is an extent Measure returned,
// and it minimizes: it searches only the instances no larger, and reports
// whether what it found is smaller.
func (Refuter) Search(p *logic.Problem, within proposal.Extent, lim proposal.Limits, o proposal.Oracle) proposal.Found {
	s := &search{o: o, lim: lim}
	if within != nil {
		ext, ok := within.(extent)
		if !ok {
			return proposal.Found{} // not measured by this package: nothing to compare with
		}
		return s.minimize(p, ext)
	}
	insts, err := instances(p, lim.MaxSize)
	if err != nil {
		return proposal.Found{Err: err}
	}
	if len(insts) == 0 {
		return proposal.Found{Note: "no bounded search: the problem has no parameter sort"}
	}
	return s.run(p, insts).Found
}
