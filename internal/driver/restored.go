// This file implements restored units: a unit taken from its record,
// and what a run computes of it once (its tally for the theorems, its
// shape for the check of obligation IDs, its part of the report), kept
// while it is restored again for the same obligations (a watcher's or a
// language server's next run): such a run spends on an unchanged unit
// what its size does not change.

package driver

import (
	"sync"

	"ladder/internal/report"
	"ladder/internal/source"
	"ladder/internal/theorems"
	"ladder/simulation"
)

// restoredUnit is a unit taken from its record: its obligations in
// byGroup order, its edge, and the verdicts the kernel admitted, in the
// obligations' order.
type restoredUnit struct {
	name    string // the unit's (unitName)
	obs     []*simulation.Obligation
	edge    *simulation.Edge
	results []admitted
	// planned are the obligations in the record's order, the edge's
	// (obs[k] is planned[order[k]]).
	planned []*simulation.Obligation
	order   []int

	tallyOnce  sync.Once
	tallied    *theorems.Tally
	shapeOnce  sync.Once
	shaped     shape
	reportOnce sync.Once
	reported   reportPart
	depsOnce   sync.Once
	deps, ids  map[string]bool // the items its obligations depend on, their IDs
}

// touches reports whether an obligation of the unit depends on an item of
// changed or has an ID of obligations (itemEdit), from the unit's items and
// IDs, gathered once.
func (u *restoredUnit) touches(changed, obligations map[string]bool) bool {
	u.depsOnce.Do(func() {
		u.deps, u.ids = map[string]bool{}, make(map[string]bool, len(u.obs))
		for _, o := range u.obs {
			u.ids[o.ID] = true
			for _, it := range o.Deps {
				u.deps[it] = true
			}
		}
	})
	for it := range changed {
		if u.deps[it] {
			return true
		}
	}
	for id := range obligations {
		if u.ids[id] {
			return true
		}
	}
	return false
}

// report returns the unit's part of a report (assemble) when each of its
// obligations is decided with its restored verdict, computed once.
func (u *restoredUnit) report() reportPart {
	u.reportOnce.Do(func() {
		part := reportGroups(u.obs)
		pos := map[source.Pos]string{}
		part.obs = make([]report.Obligation, len(u.obs))
		for i, o := range u.obs {
			// as a run takes a restored verdict: cached, in no time
			part.obs[i] = reportObligation(o, u.results[i].res, 0, 0, true, pos)
		}
		u.reported = part
	})
	return u.reported
}

// shape returns the shape of the unit's obligations (shapeOf), computed
// once.
func (u *restoredUnit) shape() shape {
	u.shapeOnce.Do(func() { u.shaped = shapeOf(u.obs) })
	return u.shaped
}

// tally returns the theorems' tally of the unit's obligations with the
// verdicts restored for them (theorems.TallyOf), computed once: a unit
// restored again from the same record for the same obligations has the
// same tally.
func (u *restoredUnit) tally() *theorems.Tally {
	u.tallyOnce.Do(func() {
		// In the record's order, so that the tally lists an edge's
		// obligations in the edge's order (theorems.DeriveTallies then
		// compares them without sorting).
		st := make(theorems.Statuses, len(u.results))
		for k, a := range u.results {
			st[u.order[k]] = theorems.FromVerdict(a.res.Verdict(), true)
		}
		u.tallied = theorems.TallyOf(simulation.TheoremObligations(u.planned), st)
	})
	return u.tallied
}
