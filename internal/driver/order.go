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
	unit     *restoredUnit // the unit restored, nil for generated obligations
}

// span is where a chunk's obligations are in a planned input's
// Obligations: [lo, hi), and the unit they were restored as (nil when
// they were generated).
type span struct {
	lo, hi int
	unit   *restoredUnit
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

// concat returns the obligations of chunks, the verdicts restored for
// them (nil for a generated one) and where each chunk's are, with the
// chunks ordered by their first obligations. Each unit's groups share a prefix of their own (the
// automaton's or the edge's name), so the chunks of different units do
// not interleave and the result is in byGroup order; should they
// interleave, a run sorts its jobs (selectJobs).
func concat(chunks []chunk) ([]*simulation.Obligation, []*admitted, []span) {
	chunks = slices.DeleteFunc(chunks, func(c chunk) bool { return len(c.obs) == 0 })
	slices.SortStableFunc(chunks, func(a, b chunk) int { return byGroup(a.obs[0], b.obs[0]) })
	n := 0
	for _, c := range chunks {
		n += len(c.obs)
	}
	obs := make([]*simulation.Obligation, 0, n)
	restored := make([]*admitted, n)
	spans := make([]span, 0, len(chunks))
	for _, c := range chunks {
		for i := range c.restored {
			restored[len(obs)+i] = &c.restored[i]
		}
		spans = append(spans, span{lo: len(obs), hi: len(obs) + len(c.obs), unit: c.unit})
		obs = append(obs, c.obs...)
	}
	return obs, restored, spans
}

// duplicateID returns an ID that two of obs share, or "" when their IDs
// are distinct, and, when they are, whether obs are in byGroup order
// (false: not known). obs in byGroup order, every ID of the form group +
// Sep + rest, and no group's prefix group + Sep a prefix of another's
// (which generation gives) are checked without a set of IDs: two equal
// IDs of one group are then neighbours, and two of different groups would
// make one group + Sep a prefix of the other, since both are prefixes of
// the same ID. Otherwise the IDs are compared through a set. spans, when
// not nil, are where obs's units are (Input.spans): a restored unit's own
// shape is checked once (restoredUnit.shape).
func duplicateID(obs []*simulation.Obligation, spans []span) (dup string, sorted bool) {
	if d, ok := duplicateSorted(obs, spans); ok {
		return d, d == ""
	}
	seen := make(map[string]bool, len(obs))
	for _, o := range obs {
		if seen[o.ID] {
			return o.ID, false
		}
		seen[o.ID] = true
	}
	return "", false
}

// shape is what duplicateSorted finds of a run of obligations: ok when
// they are in byGroup order with every ID of the form group + Sep + rest,
// then dup, an ID two of them share ("" for none), and their groups + Sep
// in order, each once.
type shape struct {
	ok     bool
	dup    string
	groups []string
}

// shapeOf returns the shape of obs.
func shapeOf(obs []*simulation.Obligation) shape {
	var sh shape
	for i, o := range obs {
		g := o.Group
		if len(o.ID) <= len(g)+len(simulation.Sep) || o.ID[:len(g)] != g || o.ID[len(g):len(g)+len(simulation.Sep)] != simulation.Sep {
			return shape{}
		}
		if i > 0 && obs[i-1].Group == g {
			switch c := strings.Compare(obs[i-1].ID, o.ID); {
			case c == 0:
				if sh.dup == "" {
					sh.dup = o.ID
				}
			case c > 0:
				return shape{}
			}
			continue
		}
		if i > 0 && obs[i-1].Group > g {
			return shape{}
		}
		sh.groups = append(sh.groups, g+simulation.Sep)
	}
	sh.ok = true
	return sh
}

// duplicateSorted is duplicateID for obs of that shape; ok is false when
// obs are not of it.
func duplicateSorted(obs []*simulation.Obligation, spans []span) (dup string, ok bool) {
	spans = unitSpans(spans, obs)
	var groups []string
	for _, s := range spans {
		var sh shape
		if s.unit != nil {
			sh = s.unit.shape()
		} else {
			sh = shapeOf(obs[s.lo:s.hi])
		}
		if !sh.ok {
			return "", false
		}
		if sh.dup != "" {
			return sh.dup, true
		}
		if s.lo > 0 && s.lo < s.hi {
			// where two spans meet: in order, and a group both have
			// counted once
			a, b := obs[s.lo-1], obs[s.lo]
			switch c := byGroup(a, b); {
			case c == 0:
				return b.ID, true
			case c > 0:
				return "", false
			}
			if a.Group == b.Group {
				sh.groups = sh.groups[1:]
			}
		}
		groups = append(groups, sh.groups...)
	}
	// Between a string and another it is a prefix of, every string in
	// sorted order has it as a prefix too: neighbours suffice.
	slices.Sort(groups)
	for i := 1; i < len(groups); i++ {
		if strings.HasPrefix(groups[i], groups[i-1]) {
			return "", false
		}
	}
	return "", true
}

// unitSpans returns spans when they are where the units of obs are
// (covers), else one span of all of obs, as if generated.
func unitSpans(spans []span, obs []*simulation.Obligation) []span {
	if covers(spans, obs) {
		return spans
	}
	return []span{{lo: 0, hi: len(obs)}}
}

// covers reports whether spans are, one after the other, the whole of obs,
// each restored one starting with its unit's first obligation and as long.
func covers(spans []span, obs []*simulation.Obligation) bool {
	at := 0
	for _, s := range spans {
		if s.lo != at || s.hi < s.lo || s.hi > len(obs) {
			return false
		}
		if u := s.unit; u != nil && (len(u.obs) != s.hi-s.lo || len(u.obs) > 0 && u.obs[0] != obs[s.lo]) {
			return false
		}
		at = s.hi
	}
	return at == len(obs) && spans != nil
}
