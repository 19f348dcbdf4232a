// This file holds small helpers of the package.

package simulation

import "slices"

// union returns the sorted union of a and b, without duplicates.
func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}
