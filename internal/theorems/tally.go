package theorems

import "slices"

// A Tally is what a run of obligations, with their statuses, contributes
// to the statuses of invariants and edges: for each invariant, the worst
// status of its obligations in the run and the invariants they assume;
// for each edge, the worst status of its obligations in the run and their
// IDs. It is a pure function of the run (TallyOf), so a caller may keep
// the tally of a run that has not changed (a unit restored again) and
// derive from the tallies of the parts of its obligations what Derive
// derives from the obligations (DeriveTallies).
type Tally struct {
	invs, edges []tallied // each in order of first appearance
}

// tallied is one invariant's or one edge's part of a tally: the worst
// status of its obligations in the run, and an invariant's assumptions
// (each once) or an edge's obligation IDs (in order).
type tallied struct {
	name string // the invariant's key, the edge's name
	st   Status
	refs []string
}

// TallyOf returns the tally of obls, whose statuses are st by position
// (st[i] is obls[i]'s). An obligation with an invariant counts for the
// invariant, one without an invariant for its edge, one with neither for
// nothing.
func TallyOf(obls []Obligation, st Statuses) *Tally {
	t := &Tally{}
	at := map[[2]string]int{}    // kind and name → index in its list
	seen := map[[2]string]bool{} // each assumption once: obligations repeat them
	var cur *tallied             // the entry of the obligation before
	for i, o := range obls {
		kind, list, name := "i", &t.invs, o.Invariant
		if name == "" {
			kind, list, name = "e", &t.edges, o.Edge
		}
		if name == "" {
			cur = nil
			continue
		}
		// The obligations of one invariant or edge mostly follow each
		// other, with the same assumptions.
		if cur == nil || i == 0 || obls[i-1].Invariant != o.Invariant || obls[i-1].Edge != o.Edge {
			k, ok := at[[2]string{kind, name}]
			if !ok {
				k = len(*list)
				at[[2]string{kind, name}] = k
				*list = append(*list, tallied{name: name, st: Proved})
			}
			cur = &(*list)[k]
		} else if kind == "i" && sameList(o.Assumes, obls[i-1].Assumes) {
			cur.st = worse(cur.st, st[i])
			continue
		}
		cur.st = worse(cur.st, st[i])
		if kind == "e" {
			cur.refs = append(cur.refs, o.ID)
			continue
		}
		for _, a := range o.Assumes {
			if k := [2]string{name, a}; !seen[k] {
				seen[k] = true
				cur.refs = append(cur.refs, a)
			}
		}
	}
	return t
}

// merge returns the worst status of each invariant's obligations over
// tallies ts, and the invariants they assume, each once.
func merge(ts []*Tally) (map[string]Status, map[string][]string) {
	local, assumes := map[string]Status{}, map[string][]string{}
	for _, t := range ts {
		for _, e := range t.invs {
			old, ok := local[e.name]
			local[e.name] = worse(old, e.st)
			if !ok {
				local[e.name] = e.st
				assumes[e.name] = e.refs
				continue
			}
			as := slices.Clone(assumes[e.name]) // of several tallies
			for _, a := range e.refs {
				if !slices.Contains(as, a) {
					as = append(as, a)
				}
			}
			assumes[e.name] = as
		}
	}
	return local, assumes
}

// DeriveTallies is Derive from the tallies of the parts of in's
// obligations (TallyOf; in.Obligations is not read): an invariant's
// obligations are those tallied for it, and an edge's those tallied for
// it, whose IDs must be exactly the edge's (Edge.Obligations, each once):
// otherwise some obligation of the edge is not among those tallied, or
// one tallied for it is not the edge's, and the edge is unchecked.
func DeriveTallies(in *Input, ts []*Tally) *Derivation {
	local, assumes := merge(ts)
	worst, ids := map[string]Status{}, map[string][]string{}
	for _, t := range ts {
		for _, e := range t.edges {
			if old, ok := worst[e.name]; ok {
				worst[e.name], ids[e.name] = worse(old, e.st), append(slices.Clip(ids[e.name]), e.refs...)
			} else {
				worst[e.name], ids[e.name] = e.st, e.refs
			}
		}
	}
	own := func(e *Edge) Status {
		st, ok := worst[e.Name]
		if len(e.Obligations) == 0 || !ok || !sameIDs(ids[e.Name], e.Obligations) {
			return Unchecked
		}
		return st
	}
	return derive(in, closure(local, assumes), own)
}

// sameIDs reports whether got holds exactly the IDs of want, as many times
// each; in want's order (a unit's obligations are recorded in the edge's
// order) they are compared without sorting.
func sameIDs(got, want []string) bool {
	if len(got) != len(want) || slices.Equal(got, want) {
		return len(got) == len(want)
	}
	a, b := slices.Clone(got), slices.Clone(want)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
