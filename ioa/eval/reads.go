package eval

import (
	"slices"

	"ladder/ioa/expr"
)

// stateReads returns the indices of the state variables (of an automaton
// with n of them) that e reads, directly or through the definitions it
// calls, in increasing order; nil when it cannot tell (e names a whole
// state, or a variable out of range), which callers take as every one.
func stateReads(e expr.Expr, n int) []int {
	seen := map[*expr.Object]bool{}
	reads := []int{}
	ok := true
	var walk func(e expr.Expr)
	walk = func(e expr.Expr) {
		expr.Inspect(e, func(x expr.Expr) bool {
			id, isID := x.(*expr.Ident)
			if !isID || id.Obj == nil {
				return true
			}
			switch o := id.Obj; o.Kind {
			case expr.ObjVar:
				if o.Index < 0 || o.Index >= n {
					ok = false
				} else if !slices.Contains(reads, o.Index) {
					reads = append(reads, o.Index)
				}
			case expr.ObjState:
				ok = false
			case expr.ObjDef:
				if !seen[o] {
					seen[o] = true
					walk(o.Body)
				}
			}
			return true
		})
	}
	walk(e)
	if !ok {
		return nil
	}
	slices.Sort(reads)
	return reads
}
