// This file implements what an edit affected: the source items whose
// fingerprints differ from those the cache recorded at the last complete
// run, and, through the cache's dependency index and the current
// obligations, the obligations, invariants, edges and theorems that depend
// on them.

package driver

import (
	"errors"
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"

	"ladder/internal/report"
	"ladder/internal/theorems"
	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// ItemFingerprints returns the fingerprint of every dependency item of a
// hierarchy (simulation.Fingerprints), by owner (simulation.ItemOwner),
// then by item, with the `strategy:` lists, which simulation.Fingerprints
// leaves out: a proof's is the item proof:P/strategy, an invariant's is
// folded into the invariant's fingerprint, and a case's into its step:X.
func ItemFingerprints(h *ioa.Hierarchy) map[string]map[string]string {
	return (*itemMemo)(nil).fingerprints(h)
}

// itemMemo keeps between the runs of a Prover the item fingerprints of
// each automaton and proof, and the items the cache was last brought up
// to date with, by owner. An automaton or proof is not changed once
// loaded, and the loader reuses an unchanged file's (load.Config.Parsed):
// a run over the same object has the same fingerprints. An owner whose
// items are those the cache was brought up to date with needs neither
// comparing nor recording again (compareItemsOf, recordItemsOf). The zero
// value is ready to use; a nil memo keeps nothing.
type itemMemo struct {
	mu       sync.Mutex
	autos    map[*ioa.Automaton]map[string]string
	proofs   map[*ioa.Proof]map[string]string
	recorded map[string]map[string]string // by owner: the items the cache was given or found to hold
	merges   uint64                       // the cache's Merges when recorded was filled
}

// fingerprints is ItemFingerprints, with the automata's and proofs' from the memo.
func (m *itemMemo) fingerprints(h *ioa.Hierarchy) map[string]map[string]string {
	out := make(map[string]map[string]string, len(h.Automata)+len(h.Proofs))
	if m == nil {
		fill(h.Automata, nil, out, simulation.AutomatonOwner, automatonItems)
		fill(h.Proofs, nil, out, simulation.ProofOwner, proofItems)
		return out
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// only this hierarchy's automata and proofs are kept
	m.autos = fill(h.Automata, m.autos, out, simulation.AutomatonOwner, automatonItems)
	m.proofs = fill(h.Proofs, m.proofs, out, simulation.ProofOwner, proofItems)
	return out
}

// fill sets in out the item fingerprints of each of xs, by owner: those
// kept for it, else items(x). It returns them by x, to be kept.
func fill[X comparable](xs []X, kept map[X]map[string]string, out map[string]map[string]string,
	owner func(X) string, items func(X) map[string]string) map[X]map[string]string {
	keep := make(map[X]map[string]string, len(xs))
	for _, x := range xs {
		fps := kept[x]
		if fps == nil {
			fps = items(x)
		}
		keep[x] = fps
		out[owner(x)] = fps
	}
	return keep
}

// automatonItems returns the fingerprints of a's items.
func automatonItems(a *ioa.Automaton) map[string]string {
	fps := simulation.Fingerprints([]*ioa.Automaton{a}, nil)
	for _, inv := range a.Invariants {
		if s := inv.Strategy; s != nil {
			k := simulation.InvariantKey(a, inv.Name)
			fps[k] = simulation.Fold(fps[k], strategyText(s))
		}
	}
	return fps
}

// proofItems returns the fingerprints of p's items.
func proofItems(p *ioa.Proof) map[string]string {
	fps := simulation.Fingerprints(nil, []*ioa.Proof{p})
	if s := p.Strategy; s != nil {
		fps[simulation.ProofOwner(p)+"/strategy"] = simulation.HashText(strategyText(s))
	}
	for _, sm := range p.Steps {
		var text strings.Builder
		for _, c := range sm.Cases {
			if s := c.Strategy; s != nil {
				text.WriteString("case " + strconv.Itoa(c.Index) + "\n" + strategyText(s))
			}
		}
		if k := simulation.ProofOwner(p) + "/step:" + sm.Action.Name; text.Len() > 0 {
			if _, ok := fps[k]; ok {
				fps[k] = simulation.Fold(fps[k], text.String())
			}
		}
	}
	return fps
}

// upToDate reports whether the cache holds fps as owner's items: they
// equal the items it was given or found to hold for owner (remember), and
// no other writer's rows were merged into it since (merges, its
// cache.Cache.Merges).
func (m *itemMemo) upToDate(owner string, fps map[string]string, merges uint64) bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.recorded[owner]
	return ok && m.merges == merges && maps.Equal(old, fps)
}

// remember records that the cache holds fps as owner's items, as of
// merges (cache.Cache.Merges).
func (m *itemMemo) remember(owner string, fps map[string]string, merges uint64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recorded == nil || m.merges != merges {
		m.recorded, m.merges = map[string]map[string]string{}, merges
	}
	m.recorded[owner] = fps
}

// strategyText spells a strategy list canonically: its steps in order,
// each with its restrictions and its arguments per action.
func strategyText(s *ioa.Strategy) string {
	var b strings.Builder
	line := func(parts ...string) {
		b.WriteString(strings.Join(parts, " "))
		b.WriteByte('\n')
	}
	for _, st := range s.Steps {
		line("step", st.Name, st.Text)
		if st.Actions != nil {
			names := make([]string, len(st.Actions))
			for i, a := range st.Actions {
				names[i] = a.Name
			}
			line("actions", strings.Join(names, ", "))
		}
		if st.Clauses != nil {
			names := make([]string, len(st.Clauses))
			for i, c := range st.Clauses {
				names[i] = c.String()
			}
			line("clauses", strings.Join(names, ", "))
		}
		for _, inv := range st.Invariants {
			line("invariant", inv.Name)
		}
		for _, o := range st.Index {
			line("index", o.Name)
		}
		acts := make([]*ioa.Action, 0, len(st.Args))
		for a := range st.Args {
			acts = append(acts, a)
		}
		sort.Slice(acts, func(i, j int) bool { return acts[i].Name < acts[j].Name })
		for _, a := range acts {
			args := st.Args[a]
			if args == nil {
				continue
			}
			if args.Split != nil {
				line("split", a.Name, expr.Print(args.Split))
			}
			for _, in := range args.Instances {
				terms := make([]string, len(in.Args))
				for i, x := range in.Args {
					terms[i] = expr.Print(x)
				}
				state := ""
				if in.State != nil {
					state = in.State.Name + "."
				}
				line("instance", a.Name, state+in.Invariant.Name+"("+strings.Join(terms, ", ")+")")
			}
		}
	}
	return b.String()
}

// owners returns the owners (simulation.ItemOwner) of the automata and
// proofs of in, sorted.
func owners(in *Input) []string {
	var out []string
	for _, a := range in.Automata {
		out = append(out, simulation.AutomatonOwner(a))
	}
	for _, p := range in.Proofs {
		out = append(out, simulation.ProofOwner(p))
	}
	sort.Strings(out)
	return out
}

// itemEdit is what an edit changed, computed before the run: the changed items
// and what the dependency index recorded for them then (the run replaces
// those records).
type itemEdit struct {
	previous bool                // the cache holds items of an earlier run of these files
	items    []report.ItemChange // sorted by item
	changed  map[string]bool     // the items of items
	// recorded are the obligations, invariants or edges, and theorems
	// the index related to the changed items before the run.
	obligations, groups, theorems map[string]bool
}

// compareItems compares in's item fingerprints with those the cache
// recorded. Owners the cache has no record of count as new: their items
// are added, unless no owner of in has a record (a first run).
func (p *Prover) compareItems(in *Input) *itemEdit {
	return p.compareItemsOf(in.Items, owners(in))
}

// compareItemsOf compares the fingerprints cur of the items of owners
// with those the cache recorded.
func (p *Prover) compareItemsOf(cur map[string]map[string]string, owners []string) *itemEdit {
	e := &itemEdit{changed: map[string]bool{}, obligations: map[string]bool{}, groups: map[string]bool{}, theorems: map[string]bool{}}
	if p.cache == nil {
		return e
	}
	merges := p.cache.Merges()
	for _, owner := range owners {
		now := cur[owner]
		if p.items.upToDate(owner, now, merges) {
			e.previous = true
			continue
		}
		old, recorded := p.cache.ItemFingerprints(owner)
		if recorded {
			e.previous = true
		}
		n := len(e.items)
		for it, fp := range now {
			switch ofp, ok := old[it]; {
			case !ok:
				e.items = append(e.items, report.ItemChange{Item: it, Change: report.ItemAdded})
			case ofp != fp:
				e.items = append(e.items, report.ItemChange{Item: it, Change: report.ItemEdited})
			}
		}
		for it := range old {
			if _, ok := now[it]; !ok {
				e.items = append(e.items, report.ItemChange{Item: it, Change: report.ItemRemoved})
			}
		}
		if recorded && len(e.items) == n {
			p.items.remember(owner, now, merges)
		}
	}
	if !e.previous {
		e.items = nil
		return e
	}
	sort.Slice(e.items, func(i, j int) bool { return e.items[i].Item < e.items[j].Item })
	for _, c := range e.items {
		e.changed[c.Item] = true
		obs, groups, thms := p.cache.Affected(c.Item)
		for _, o := range obs {
			e.obligations[o] = true
		}
		for _, g := range groups {
			e.groups[g] = true
		}
		for _, t := range thms {
			e.theorems[t] = true
		}
	}
	return e
}

// dependsOnChange reports whether ob depends on a changed item.
func (e *itemEdit) dependsOnChange(ob *simulation.Obligation) bool {
	if len(e.changed) == 0 {
		return false
	}
	for _, it := range ob.Deps {
		if e.changed[it] {
			return true
		}
	}
	return false
}

// order puts the jobs that depend on a changed item first, keeping the
// order within each part (e may be nil).
func (e *itemEdit) order(jobs []*job) {
	if e == nil || len(e.changed) == 0 {
		return
	}
	sort.SliceStable(jobs, func(a, b int) bool {
		return e.dependsOnChange(jobs[a].ob) && !e.dependsOnChange(jobs[b].ob)
	})
}

// changes completes e with the current obligations and derivation (when
// known: in and d may be nil) into the report's Changes: nil without an
// earlier record.
func (e *itemEdit) changes(in *Input, d *theorems.Derivation) *report.Changes {
	if !e.previous {
		return nil
	}
	c := &report.Changes{Items: e.items}
	if len(e.items) == 0 {
		return c
	}
	obs := maps.Clone(e.obligations)
	groups := maps.Clone(e.groups)
	thms := maps.Clone(e.theorems)
	var obligations []*simulation.Obligation
	var edges []*simulation.Edge
	if in != nil {
		obligations, edges = in.Obligations, in.Edges
	}
	// A unit restored whole none of whose obligations depends on a
	// changed item or is among e's is passed over (restoredUnit.touches).
	var spans []span
	if in != nil {
		spans = in.spans
	}
	spans = unitSpans(spans, obligations)
	untouched := map[*simulation.Edge]bool{}
	for _, s := range spans {
		if u := s.unit; u != nil && !u.touches(e.changed, e.obligations) {
			if u.edge != nil {
				untouched[u.edge] = true
			}
			continue
		}
		for _, o := range obligations[s.lo:s.hi] {
			if !e.dependsOnChange(o) && !obs[o.ID] {
				continue
			}
			obs[o.ID] = true
			if o.Invariant != "" {
				groups[o.Invariant] = true
			}
			if o.Edge != "" {
				groups[o.Edge] = true
			}
		}
	}
	// An edge named after its proof when two proofs share a pair is
	// still found: Edge.Obligations lists the IDs.
	for _, ed := range edges {
		if untouched[ed] {
			continue
		}
		for _, id := range ed.Obligations {
			if obs[id] {
				groups[ed.Name] = true
				break
			}
		}
	}
	if d != nil {
		for _, t := range d.Theorems {
			for _, g := range append(append([]string(nil), t.Edges...), t.Invariants...) {
				if groups[g] {
					thms[t.Name] = true
					break
				}
			}
		}
	}
	c.Obligations = sortedKeys(obs)
	for _, g := range sortedKeys(groups) {
		if auto, name := splitInvariantKey(g); auto != "" {
			c.Invariants = append(c.Invariants, auto+"."+name)
		} else {
			c.Edges = append(c.Edges, g)
		}
	}
	sort.Strings(c.Invariants)
	c.Theorems = sortedKeys(thms)
	return c
}

// recordItemsOf records the fingerprints fps of the items of owners as
// those of the last complete run.
func (p *Prover) recordItemsOf(fps map[string]map[string]string, owners []string) error {
	if p.cache == nil {
		return nil
	}
	var errs []string
	for _, o := range owners {
		m := fps[o]
		if m == nil {
			m = map[string]string{}
		}
		merges := p.cache.Merges()
		if p.items.upToDate(o, m, merges) {
			continue
		}
		if err := p.cache.RecordItems(o, m); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		p.items.remember(o, m, merges)
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
