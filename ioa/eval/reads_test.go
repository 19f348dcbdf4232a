package eval

import (
	"slices"
	"testing"
)

// TestInvariantReads checks the state variables the invariants read,
// directly or through definitions (reads.go), which package fast's
// Runner.ViolatedAfter relies on.
func TestInvariantReads(t *testing.T) {
	m := guardsMachine(t, guardsFile, false)
	var reads [][]int
	for i := range m.A.Invariants {
		reads = append(reads, m.InvariantReads(i))
	}
	// someA reads pc and flag; small reads x through the definition capped
	if want := [][]int{{0, 1}, {3}}; !slices.EqualFunc(reads, want, slices.Equal[[]int]) {
		t.Fatalf("invariants read %v, want %v", reads, want)
	}
}
