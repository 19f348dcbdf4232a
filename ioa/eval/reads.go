package eval

import (
	"slices"

	"ladder/ioa/expr"
)

// stateReads returns the indices of the state variables (of an automaton
// with n of them) that e reads, directly or through the definitions it
// calls (expr.VarReads), in increasing order; nil when it cannot tell (e
// names a whole state, or a variable out of range), which callers take as
// every one.
func stateReads(e expr.Expr, n int) []int {
	reads := []int{}
	ok := expr.VarReads(e, func(o *expr.Object, i int) {
		switch {
		case o != nil || i < 0 || i >= n:
			reads = nil
		case reads != nil && !slices.Contains(reads, i):
			reads = append(reads, i)
		}
	})
	if !ok || reads == nil {
		return nil
	}
	slices.Sort(reads)
	return reads
}
