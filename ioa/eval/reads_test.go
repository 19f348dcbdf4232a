package eval

import (
	"slices"
	"testing"
)

// TestViolatedAfter checks that ViolatedAfter names the condition Violated
// names at every step from a state that satisfies them all, and that it
// skips the invariants whose variables the step leaves alone.
func TestViolatedAfter(t *testing.T) {
	m := guardsMachine(t, guardsFile(t), false)
	var reads [][]int
	for _, ic := range m.invs {
		reads = append(reads, ic.reads)
	}
	// someA reads pc and flag; small reads x through the definition capped
	if want := [][]int{{0, 1}, {3}}; !slices.EqualFunc(reads, want, slices.Equal[[]int]) {
		t.Fatalf("invariants read %v, want %v", reads, want)
	}
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	r := m.NewRunner()
	seen := map[string]bool{}
	queue := []State{inits[0]}
	names := map[string]int{}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		// Later overflows once x = 2 (TestLeadingTests): the enumeration
		// stops there, after the other actions
		_ = r.Successors(s, func(act int, params []Value, post State) bool {
			want, err1 := r.Violated(post, nil)
			got, err2 := r.ViolatedAfter(s, post, nil)
			if err1 != nil || err2 != nil || got != want {
				t.Fatalf("%s from %v: ViolatedAfter %q (%v), Violated %q (%v)", m.A.Actions[act].Name, s, got, err2, want, err1)
			}
			names[want]++
			if k := string(m.AppendState(nil, post)); want == "" && !seen[k] {
				seen[k] = true
				queue = append(queue, append(State{}, post...))
			}
			return true
		})
	}
	if names["small"] == 0 || names["someA"] == 0 || names[""] == 0 {
		t.Fatalf("steps per verdict %v: want steps to each", names)
	}
}
