package driver

import (
	"math/rand/v2"
	"slices"
	"testing"

	"ladder/simulation"
)

func ob(group, rest string) *simulation.Obligation {
	id := group + simulation.Sep + rest
	if rest == "" {
		id = group
	}
	return &simulation.Obligation{ID: id, Group: group}
}

// duplicateByMap is the plain definition duplicateID must agree with.
func duplicateByMap(obs []*simulation.Obligation) bool {
	seen := map[string]bool{}
	for _, o := range obs {
		if seen[o.ID] {
			return true
		}
		seen[o.ID] = true
	}
	return false
}

func TestDuplicateID(t *testing.T) {
	for _, c := range []struct {
		name string
		obs  []*simulation.Obligation
		dup  string
		fast bool // decided without the set
	}{
		{"distinct", []*simulation.Obligation{ob("A › inv p", "X"), ob("A › inv p", "Y"), ob("A→B › refinement", "X")}, "", true},
		{"same group", []*simulation.Obligation{ob("A › inv p", "X"), ob("A › inv p", "X")}, "A › inv p › X", true},
		// "A › inv p › X" in group "A" and in group "A › inv p": the
		// groups nest, so the set decides.
		{"nested groups", []*simulation.Obligation{ob("A", "inv p › X"), ob("A › inv p", "X")}, "A › inv p › X", false},
		{"nested groups, distinct", []*simulation.Obligation{ob("A", "inv q"), ob("A › inv p", "X")}, "", false},
		{"unsorted", []*simulation.Obligation{ob("B", "X"), ob("A", "X"), ob("B", "X")}, "B › X", false},
		{"unsorted within a group", []*simulation.Obligation{ob("A", "Y"), ob("A", "X"), ob("A", "Y")}, "A › Y", false},
		{"ID without its group", []*simulation.Obligation{ob("A", ""), ob("A", "")}, "A", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := duplicateID(c.obs, nil); got != c.dup {
				t.Errorf("duplicateID = %q, want %q", got, c.dup)
			}
			d, ok := duplicateSorted(c.obs, nil)
			if ok != c.fast {
				t.Errorf("decided without the set: %v, want %v", ok, c.fast)
			}
			if ok && d != c.dup {
				t.Errorf("duplicateSorted = %q, want %q", d, c.dup)
			}
		})
	}
}

// TestDuplicateIDRandom compares duplicateID with the set on random
// obligations over a few nesting group names, sorted and not.
func TestDuplicateIDRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	groups := []string{"A", "A › inv p", "A › inv q", "B", "A→B › refinement", "A › inv p › X"}
	rests := []string{"X", "Y", "inv p › X", "X › case 2", "start"}
	fast := 0
	for range 5000 {
		var obs []*simulation.Obligation
		for range 1 + r.IntN(6) {
			obs = append(obs, ob(groups[r.IntN(len(groups))], rests[r.IntN(len(rests))]))
		}
		if r.IntN(2) == 0 {
			slices.SortStableFunc(obs, byGroup)
		}
		want := duplicateByMap(obs)
		// as one run, and split into spans some of which are units
		// restored (whose shape is kept)
		var spans []span
		if r.IntN(4) == 0 {
			spans = append(spans, span{}) // an empty one first
		}
		for lo := 0; lo < len(obs); {
			hi := min(len(obs), lo+1+r.IntN(3))
			s := span{lo: lo, hi: hi}
			if r.IntN(2) == 0 {
				s.unit = &restoredUnit{obs: obs[lo:hi]}
			}
			spans = append(spans, s)
			lo = hi
		}
		for _, sp := range [][]span{nil, spans} {
			got, sorted := duplicateID(obs, sp)
			if (got != "") != want {
				t.Fatalf("duplicateID(%v, %v) = %q, want a duplicate: %v", obIDs(obs), sp, got, want)
			}
			if got != "" && !slices.ContainsFunc(obs, func(o *simulation.Obligation) bool { return o.ID == got }) {
				t.Fatalf("duplicateID(%v) = %q, not an ID", obIDs(obs), got)
			}
			if sorted && !slices.IsSortedFunc(obs, byGroup) {
				t.Fatalf("duplicateID(%v) says they are in order", obIDs(obs))
			}
			if _, ok := duplicateSorted(obs, sp); ok {
				fast++
			}
		}
	}
	if fast == 0 {
		t.Fatal("no input was decided without the set")
	}
}

func obIDs(obs []*simulation.Obligation) []string {
	var out []string
	for _, o := range obs {
		out = append(out, o.ID)
	}
	return out
}
