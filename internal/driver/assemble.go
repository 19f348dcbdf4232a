// This file implements the derivation of the theorems from the checked
// jobs, and the assembly of the report from both.

package driver

import (
	"maps"
	"slices"
	"strings"

	"ladder/internal/kernel"
	"ladder/internal/report"
	"ladder/internal/source"
	"ladder/internal/theorems"
	"ladder/simulation"
)

// derive is the theorems phase over in, with the kernel's verdicts of the
// decided jobs, which in keeps (Input.Verdicts). It tallies the verdicts
// (theorems.TallyOf) span by span: a unit restored whole, every one of
// its obligations decided with its restored verdict, has the tally it had
// the last time it was restored (restoredUnit.tally); the others are
// tallied from the jobs. all says whether every obligation of in is a
// job (no --only).
func derive(in *Input, done []*job, all bool) *theorems.Derivation {
	in.decided = done
	var spans []span
	if all {
		spans = in.spans
	}
	spans = unitSpans(spans, in.Obligations)
	st := make(theorems.Statuses, len(in.Obligations)) // zero: unchecked
	if jobsAre(done, in.Obligations) {
		// the statuses of the spans tallied from their jobs
		for _, s := range spans {
			if s.unit != nil {
				continue
			}
			for _, j := range done[s.lo:s.hi] {
				st[j.idx] = theorems.FromVerdict(j.res.Verdict(), true)
			}
		}
	} else {
		for _, j := range done {
			st[j.idx] = theorems.FromVerdict(j.res.Verdict(), true)
		}
	}
	ts := make([]*theorems.Tally, len(spans))
	for i, s := range spans {
		if s.unit != nil {
			ts[i] = s.unit.tally()
			continue
		}
		ts[i] = theorems.TallyOf(simulation.TheoremObligations(in.Obligations[s.lo:s.hi]), st[s.lo:s.hi])
	}
	return theorems.DeriveTallies(simulation.TheoremHierarchy(in.Obligations, in.Edges), ts)
}

// verdicts returns the kernel's verdict of each decided job; the others
// are not checked.
func verdicts(jobs []*job) theorems.Verdicts {
	m := make(theorems.Verdicts, len(jobs))
	for _, j := range jobs {
		m[j.ob.ID] = j.res.Verdict()
	}
	return m
}

// usedOf returns the names of the assertions the proofs of jobs used, for
// those that know them (Input.Used).
func usedOf(jobs []*job) map[string][]string {
	m := map[string][]string{}
	for _, j := range jobs {
		if j.used != nil {
			m[j.ob.ID] = j.used
		}
	}
	return m
}

// assembleReport assembles the report of a run over in whose decided jobs are
// done, with the derivation d and what an edit changed (ed, or nil).
func (p *Prover) assembleReport(in *Input, done []*job, d *theorems.Derivation, ed *itemEdit, solve bool) *report.Prove {
	rep := assemble(in, done, d)
	rep.Summary.Built = p.Built()
	if ed != nil {
		rep.Changes = ed.changes(in, d)
	}
	if solve && p.cfg.Only == "" {
		// Expected theorems are checked only when everything was: under
		// --only the unselected obligations count as not checked.
		for _, err := range simulation.CheckClaims(in.Proofs, d) {
			rep.Errors = append(rep.Errors, err.Error())
		}
	}
	rep.Solver = report.Solver{Name: p.solver.Name, Version: p.solver.Version, Params: p.solver.Params, Workers: p.cfg.Jobs}
	if p.cache != nil {
		rep.Solver.Cache = p.cfg.CacheDir
	}
	return rep
}

// assemble builds the report: the selected obligations in job order (group,
// then ID), the statuses of every invariant and edge, and the theorems.
// The part of a unit restored whole, all its obligations done with their
// restored verdicts, is the one it had the last time it was restored
// (restoredUnit.report).
func assemble(in *Input, jobs []*job, d *theorems.Derivation) *report.Prove {
	rep := &report.Prove{Obligations: make([]report.Obligation, 0, len(jobs))}
	pos := map[source.Pos]string{} // the obligations of a group share a position
	acc := reportPart{groups: map[string]string{}, assumes: map[string][]string{}, names: map[string][]string{}}
	spans, of := unitSpans(in.spans, in.Obligations), func(s span) []*job { return jobs[s.lo:s.hi] }
	if !jobsAre(jobs, in.Obligations) {
		spans, of = unitSpans(nil, in.Obligations), func(span) []*job { return jobs }
	}
	for _, s := range spans {
		if s.unit != nil {
			part := s.unit.report()
			rep.Obligations = append(rep.Obligations, part.obs...)
			acc.merge(part)
			continue
		}
		for _, j := range of(s) {
			rep.Obligations = append(rep.Obligations, reportObligation(j.ob, j.res, j.secs, j.coreZ3, j.cached, pos))
		}
		acc.merge(reportGroups(in.Obligations[s.lo:s.hi]))
	}
	for key, st := range d.Invariants {
		auto, name := splitInvariantKey(key)
		rep.Invariants = append(rep.Invariants, report.Invariant{
			Automaton: auto, Name: name, Group: acc.groups[key], Status: st.String(), Assumes: acc.names[key]})
	}
	for _, e := range in.Edges {
		rep.Edges = append(rep.Edges, report.Edge{
			Name: e.Name, Concrete: e.Proof.Concrete.Name, Abstract: e.Proof.Abstract.Name,
			Kind: e.Proof.Kind.String(), Group: acc.groups[e.Name], Status: d.Edges[e.Name].String(),
			Assumes: invariantNames(e.Assumes),
		})
	}
	for _, t := range d.Theorems {
		rep.Theorems = append(rep.Theorems, report.Theorem{Statement: t.Name, Rule: string(t.Rule), From: provenance(t)})
	}
	rep.Sort()
	rep.Summarize()
	return rep
}

// jobsAre reports whether jobs are the jobs of obs, in their order.
func jobsAre(jobs []*job, obs []*simulation.Obligation) bool {
	if len(jobs) != len(obs) {
		return false
	}
	for i, j := range jobs {
		if j.idx != i {
			return false
		}
	}
	return true
}

// reportObligation is the report of obligation ob decided with res, in
// secs and coreZ3 seconds, taken from the cache or not (cached); pos
// holds the positions spelled so far.
func reportObligation(ob *simulation.Obligation, res kernel.Result, secs, coreZ3 float64, cached bool, pos map[source.Pos]string) report.Obligation {
	o := report.Obligation{
		ID: ob.ID, Group: ob.Group, Verdict: res.Verdict().String(),
		Seconds: secs, SolverSeconds: res.SolverSeconds, Z3Seconds: res.Z3Seconds + coreZ3, RLimitUsed: res.RLimitUsed, Cached: cached, Slice: res.Slice,
		Reason: res.Reason, Dump: res.Dump,
	}
	if ob.Pos.IsValid() {
		p, ok := pos[ob.Pos]
		if !ok {
			p = ob.Pos.String()
			pos[ob.Pos] = p
		}
		o.Pos = p
	}
	if c := res.Counterexample; c != nil && res.Verdict() == kernel.Refuted {
		o.Counterexample = &report.Counterexample{Text: c.Text, Data: c.Data}
	}
	return o
}

// reportPart is what a run of obligations gives the report: their
// reports, and for the report's invariants and edges, the group of each
// invariant and edge, and the invariants each invariant assumes: their
// keys, sorted, and their names (invariantNames).
type reportPart struct {
	obs            []report.Obligation
	groups         map[string]string
	assumes, names map[string][]string
}

// reportGroups returns the groups of the invariants and edges of obs, and
// the invariants each invariant assumes (reportPart without obs).
func reportGroups(obs []*simulation.Obligation) reportPart {
	part := reportPart{groups: map[string]string{}, assumes: map[string][]string{}, names: map[string][]string{}}
	sets := map[string]map[string]bool{}
	var prev *simulation.Obligation
	for _, o := range obs {
		// The obligations of one invariant follow each other, most with
		// the same assumptions: those repeat nothing.
		same := prev != nil && o.Invariant == prev.Invariant && o.Edge == prev.Edge
		repeat := same && sameList(o.Assumes, prev.Assumes)
		prev = o
		if repeat {
			continue
		}
		k := o.Invariant
		if k == "" {
			k = o.Edge
		}
		if _, ok := part.groups[k]; !ok && k != "" && !same {
			part.groups[k] = o.Group
		}
		if o.Invariant != "" {
			if sets[k] == nil {
				sets[k] = map[string]bool{}
			}
			for _, a := range o.Assumes {
				if a != k {
					sets[k][a] = true
				}
			}
		}
	}
	for k, set := range sets {
		part.add(k, slices.Sorted(maps.Keys(set)))
	}
	return part
}

// add sets the sorted keys an invariant assumes, and their names.
func (part reportPart) add(key string, keys []string) {
	part.assumes[key], part.names[key] = keys, invariantNames(keys)
}

// merge adds the groups and assumptions of other to part: a key's first
// group is kept, and the assumptions of an invariant in both are merged.
func (part reportPart) merge(other reportPart) {
	for k, g := range other.groups {
		if _, ok := part.groups[k]; !ok {
			part.groups[k] = g
		}
	}
	for k, keys := range other.assumes {
		if old, ok := part.assumes[k]; ok {
			keys = slices.Compact(slices.Sorted(slices.Values(append(slices.Clip(old), keys...))))
			part.add(k, keys)
			continue
		}
		part.assumes[k], part.names[k] = keys, other.names[k]
	}
}

// provenance lists what a theorem was derived from: its premises, or for
// a base rule the edges and invariants it rests on.
func provenance(t *theorems.Theorem) []string {
	var out []string
	for _, p := range t.Premises {
		out = append(out, p.Name)
	}
	if len(out) == 0 {
		out = append(append(out, t.Edges...), invariantNames(t.Invariants)...)
	}
	return out
}

// invariantNames turns invariant keys into the names people write, "A.p",
// and an invariant X.P assumed of A by transfer into the theorem it
// stands for, "A satisfies X.P".
func invariantNames(keys []string) []string {
	var out []string
	for _, k := range keys {
		if auto, name := splitInvariantKey(k); auto != "" {
			if strings.Contains(name, ".") {
				k = auto + " satisfies " + name
			} else {
				k = auto + "." + name
			}
		}
		out = append(out, k)
	}
	return out
}

// splitInvariantKey splits "automaton:A/invariant:name" into A and name.
func splitInvariantKey(key string) (automaton, name string) {
	rest, ok := strings.CutPrefix(key, "automaton:")
	if !ok {
		return "", key
	}
	automaton, name, ok = strings.Cut(rest, "/invariant:")
	if !ok {
		return "", key
	}
	return automaton, name
}

// sameList reports whether a and b hold the same strings, in order; lists
// that share their elements (restored obligations' often do) are not
// compared element by element.
func sameList(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || slices.Equal(a, b)
}
