// This file implements the order of a run's obligations: by group, then
// ID, the order of the report. A planned input is built in that order, so
// that a run does not sort it.

package driver

import (
	"slices"
	"strings"

	"ladder/simulation"
)

// byGroup orders obligations by group, then ID.
func byGroup(a, b *simulation.Obligation) int {
	if c := strings.Compare(a.Group, b.Group); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// sortedOrder returns the permutation that puts obs in byGroup order:
// obs[order[0]] comes first.
func sortedOrder(obs []*simulation.Obligation) []int {
	order := make([]int, len(obs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return byGroup(obs[i], obs[j]) })
	return order
}

// chunk is a run of obligations in byGroup order, with the verdicts
// restored for them (nil when they were generated).
type chunk struct {
	obs      []*simulation.Obligation
	restored []admitted
}

// generatedChunks splits generated obligations into chunks by the unit
// they belong to (the automaton of an invariant, the edge), each in
// byGroup order.
func generatedChunks(obs []*simulation.Obligation) []chunk {
	by := map[string]int{}
	var out []chunk
	for _, o := range obs {
		k := "edge " + o.Edge
		if o.Invariant != "" {
			auto, _ := splitInvariantKey(o.Invariant)
			k = "automaton " + auto
		}
		i, ok := by[k]
		if !ok {
			i = len(out)
			by[k] = i
			out = append(out, chunk{})
		}
		out[i].obs = append(out[i].obs, o)
	}
	for _, c := range out {
		slices.SortStableFunc(c.obs, byGroup)
	}
	return out
}

// concat returns the obligations of chunks, and the verdicts restored for
// them (nil for a generated one), with the chunks ordered by their first
// obligations. Each unit's groups share a prefix of their own (the
// automaton's or the edge's name), so the chunks of different units do
// not interleave and the result is in byGroup order; should they
// interleave, a run sorts its jobs (selectJobs).
func concat(chunks []chunk) ([]*simulation.Obligation, []*admitted) {
	chunks = slices.DeleteFunc(chunks, func(c chunk) bool { return len(c.obs) == 0 })
	slices.SortStableFunc(chunks, func(a, b chunk) int { return byGroup(a.obs[0], b.obs[0]) })
	n := 0
	for _, c := range chunks {
		n += len(c.obs)
	}
	obs := make([]*simulation.Obligation, 0, n)
	restored := make([]*admitted, n)
	for _, c := range chunks {
		for i := range c.restored {
			restored[len(obs)+i] = &c.restored[i]
		}
		obs = append(obs, c.obs...)
	}
	return obs, restored
}
