// This file implements unit plans: what Generate plans for one unit (the
// invariants of one automaton, or the edge of one proof) without the
// problems, in a form that can be stored and restored, so that a run whose
// unit's source files are unchanged need not plan it again.

package simulation

import (
	"fmt"
	"slices"
	"sync"

	"ladder/internal/source"
	"ladder/ioa"
)

// UnitPlan is the plan of one unit's obligations: everything Generate
// returns about them but their problems and replays, and for a proof's
// unit its edge. Strings are stored once, in Strings, and referred to by
// index, which keeps a stored plan small.
type UnitPlan struct {
	Strings     []string       `json:"strings"`
	Obligations []PlannedObl   `json:"obligations"`
	Edge        *PlannedEdge   `json:"edge,omitempty"`
	index       map[string]int // Strings, while a plan is made

	// The obligations the plan decodes to, without an automaton, once
	// Restore has decoded them (or the error it found): a plan kept in
	// memory (a watcher's) is restored at every run, and the decoding
	// depends on the plan alone.
	mu      sync.Mutex
	decoded []Obligation
	invs    int // how many of decoded are invariant obligations
	err     error
	// last is what Restore returned last, and for what: a watcher's
	// loader reuses an unchanged automaton or proof, which a plan kept in
	// memory is then restored for at every run, to the same result.
	last restored
}

// restored is a result of Restore and its arguments.
type restored struct {
	a    *ioa.Automaton
	p    *ioa.Proof
	name string // the edge's name, for a proof
	obs  []*Obligation
	edge *Edge
}

// PlannedObl is an obligation of a UnitPlan. Strings are indices into
// UnitPlan.Strings.
type PlannedObl struct {
	ID        int    `json:"id"`
	Group     int    `json:"group"`
	Edge      int    `json:"edge"`
	Invariant int    `json:"inv"`
	Clause    int    `json:"clause"`
	Action    int    `json:"action"`
	Case      int    `json:"case"`
	Pos       [3]int `json:"pos"` // file, line, column
	Assumes   []int  `json:"assumes,omitempty"`
	Sources   []int  `json:"sources,omitempty"`
}

// PlannedEdge is the edge of a proof's UnitPlan. The proofs are named by
// ioa.Proof.Name.
type PlannedEdge struct {
	Name        string            `json:"name"`
	Proof       string            `json:"proof"`
	Obligations []int             `json:"obligations"`
	Assumes     []int             `json:"assumes,omitempty"`
	Transfers   []PlannedTransfer `json:"transfers,omitempty"`
}

// PlannedTransfer is a TransferAssumption of a PlannedEdge.
type PlannedTransfer struct {
	Key    string   `json:"key"`
	Name   string   `json:"name"`
	Source string   `json:"source"`
	Chain  []string `json:"chain"`
}

// PlanOf returns the plan of obs, the obligations of one unit, with e, the
// edge of a proof's unit (nil for an automaton's invariants). It does not
// build anything.
func PlanOf(obs []*Obligation, e *Edge) *UnitPlan {
	u := &UnitPlan{Strings: []string{""}, index: map[string]int{"": 0}}
	s := u.intern
	list := func(xs []string) []int {
		if len(xs) == 0 {
			return nil
		}
		out := make([]int, len(xs))
		for i, x := range xs {
			out[i] = s(x)
		}
		return out
	}
	for _, o := range obs {
		u.Obligations = append(u.Obligations, PlannedObl{
			ID: s(o.ID), Group: s(o.Group), Edge: s(o.Edge), Invariant: s(o.Invariant), Clause: s(o.Clause),
			Action: s(o.Action), Case: s(o.Case), Pos: [3]int{s(o.Pos.File), o.Pos.Line, o.Pos.Col},
			Assumes: list(o.Assumes), Sources: list(o.Sources),
		})
	}
	if e != nil {
		pe := &PlannedEdge{Name: e.Name, Proof: e.Proof.Name, Obligations: list(e.Obligations), Assumes: list(e.Assumes)}
		for _, t := range e.Transfers {
			pt := PlannedTransfer{Key: t.Key, Name: t.Name, Source: t.Source}
			for _, q := range t.Chain {
				pt.Chain = append(pt.Chain, q.Name)
			}
			pe.Transfers = append(pe.Transfers, pt)
		}
		u.Edge = pe
	}
	u.index = nil
	return u
}

func (u *UnitPlan) intern(x string) int {
	if i, ok := u.index[x]; ok {
		return i
	}
	u.index[x] = len(u.Strings)
	u.Strings = append(u.Strings, x)
	return len(u.Strings) - 1
}

// Restore returns the obligations and edge that u plans, for the automaton
// a (an automaton's invariants; p nil) or the proof p (a proof's edge; a
// nil), in the hierarchy h as loaded now. The obligations have no problem:
// they cannot be built (Encode fails), only decided from the verdicts
// recorded with the plan. Restore fails when u does not fit the hierarchy:
// an index out of range, an edge under another name than Generate would
// give it now (EdgeNames), or an invariant assumed by transfer along
// another chain than the loaded proof's.
//
// The caller vouches that u was planned by this ladder from files with the
// content they have now, which is what makes u the plan Generate would
// return (Obligation.Sources). names are the loaded hierarchy's
// EdgeNames, computed once for all the units a run restores.
func (u *UnitPlan) Restore(names map[*ioa.Proof]string, a *ioa.Automaton, p *ioa.Proof) ([]*Obligation, *Edge, error) {
	u.mu.Lock()
	last := u.last
	u.mu.Unlock()
	if last.obs != nil && last.a == a && last.p == p && (p == nil || last.name == names[p]) {
		// An automaton or proof is not changed once loaded, and neither
		// are the obligations and edge restored for it.
		return last.obs, last.edge, nil
	}
	obs, e, err := u.restore(names, a, p)
	if err == nil {
		u.mu.Lock()
		u.last = restored{a: a, p: p, name: names[p], obs: obs, edge: e}
		u.mu.Unlock()
	}
	return obs, e, err
}

// restore is Restore without the memory of the last result.
func (u *UnitPlan) restore(names map[*ioa.Proof]string, a *ioa.Automaton, p *ioa.Proof) ([]*Obligation, *Edge, error) {
	decoded, invs, err := u.decode()
	if err != nil {
		return nil, nil, err
	}
	// An automaton's unit holds invariant obligations only, a proof's
	// edge obligations only.
	if a != nil && invs != len(decoded) || a == nil && invs != 0 {
		return nil, nil, fmt.Errorf("the plan holds obligations of another unit")
	}
	block := slices.Clone(decoded)
	obs := make([]*Obligation, len(block))
	for i := range block {
		block[i].automaton = a
		obs[i] = &block[i]
	}
	if p == nil {
		if u.Edge != nil {
			return nil, nil, fmt.Errorf("an automaton's plan with an edge")
		}
		return obs, nil, nil
	}
	pe := u.Edge
	if pe == nil || pe.Proof != p.Name {
		return nil, nil, fmt.Errorf("the plan is not of proof %s", p.Name)
	}
	if want := names[p]; pe.Name != want {
		return nil, nil, fmt.Errorf("edge %s is now named %s", pe.Name, want)
	}
	e := &Edge{Name: pe.Name, Proof: p}
	if e.Obligations, err = u.list(pe.Obligations); err != nil {
		return nil, nil, err
	}
	if e.Assumes, err = u.list(pe.Assumes); err != nil {
		return nil, nil, err
	}
	// The chains are the loader's: the plan holds only when they are
	// those it was made with, since the transferred hypotheses are
	// stated through them.
	var cur []*TransferAssumption
	for _, side := range p.AssumeSides() {
		for _, r := range side.Refs {
			if r.Transferred() {
				cur = append(cur, &TransferAssumption{Key: InvariantKey(side.Owner, r.Name),
					Name: side.Owner.Name + " satisfies " + r.Name, Source: InvariantKey(r.Source, r.Inv.Name), Chain: r.Chain})
			}
		}
	}
	if len(cur) != len(pe.Transfers) {
		return nil, nil, fmt.Errorf("edge %s assumes %d invariants by transfer, not %d", pe.Name, len(cur), len(pe.Transfers))
	}
	for i, pt := range pe.Transfers {
		t := cur[i]
		var names []string
		for _, q := range t.Chain {
			names = append(names, q.Name)
		}
		if !slices.Equal(names, pt.Chain) || pt.Key != t.Key || pt.Name != t.Name || pt.Source != t.Source {
			return nil, nil, fmt.Errorf("edge %s: %s is assumed along another chain now", pe.Name, pt.Name)
		}
	}
	e.Transfers = cur
	return obs, e, nil
}

// decode returns the obligations u plans, without an automaton, and how
// many of them are invariant obligations; it decodes them at its first
// call only.
func (u *UnitPlan) decode() ([]Obligation, int, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.decoded != nil || u.err != nil {
		return u.decoded, u.invs, u.err
	}
	decoded := make([]Obligation, len(u.Obligations))
	invs := 0
	for i, po := range u.Obligations {
		o, err := u.obligation(po)
		if err != nil {
			u.err = err
			return nil, 0, err
		}
		if o.Invariant != "" {
			invs++
		}
		// Consecutive obligations mostly assume the same: one list
		// serves them (read only, as every obligation's).
		if i > 0 && slices.Equal(po.Assumes, u.Obligations[i-1].Assumes) {
			o.Assumes = decoded[i-1].Assumes
		}
		decoded[i] = o
	}
	u.decoded, u.invs = decoded, invs
	return decoded, invs, nil
}

// obligation returns the restored obligation po plans.
func (u *UnitPlan) obligation(po PlannedObl) (Obligation, error) {
	var f [8]string
	for i, x := range []int{po.ID, po.Group, po.Edge, po.Invariant, po.Clause, po.Action, po.Case, po.Pos[0]} {
		s, err := u.str(x)
		if err != nil {
			return Obligation{}, err
		}
		f[i] = s
	}
	if f[0] == "" {
		return Obligation{}, fmt.Errorf("an obligation without a name")
	}
	assumes, err := u.list(po.Assumes)
	if err != nil {
		return Obligation{}, err
	}
	sources, err := u.list(po.Sources)
	if err != nil {
		return Obligation{}, err
	}
	return Obligation{ID: f[0], Group: f[1], Edge: f[2], Invariant: f[3], Clause: f[4], Action: f[5], Case: f[6],
		Pos: source.Pos{File: f[7], Line: po.Pos[1], Col: po.Pos[2]}, Assumes: assumes, Sources: sources,
		restored: true}, nil
}

// str returns the string of index i.
func (u *UnitPlan) str(i int) (string, error) {
	if i < 0 || i >= len(u.Strings) {
		return "", fmt.Errorf("string index %d out of range", i)
	}
	return u.Strings[i], nil
}

// list returns the strings of indices xs; nil for none.
func (u *UnitPlan) list(xs []int) ([]string, error) {
	if len(xs) == 0 {
		return nil, nil
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		s, err := u.str(x)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// Restored reports whether o was restored from a unit plan
// (UnitPlan.Restore): it has no problem and cannot be built.
func (o *Obligation) Restored() bool { return o.restored }
