// This file implements the assembly of the report from the checked jobs
// and the derivation.

package driver

import (
	"slices"
	"sort"
	"strings"

	"ladder/internal/kernel"
	"ladder/internal/report"
	"ladder/internal/source"
	"ladder/internal/theorems"
	"ladder/simulation"
)

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
		for _, err := range theorems.CheckClaims(simulation.Claims(in.Proofs), d) {
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
func assemble(in *Input, jobs []*job, d *theorems.Derivation) *report.Prove {
	rep := &report.Prove{Obligations: make([]report.Obligation, 0, len(jobs))}
	pos := map[source.Pos]string{} // the obligations of a group share a position
	for _, j := range jobs {
		o := report.Obligation{
			ID: j.ob.ID, Group: j.ob.Group, Verdict: j.res.Verdict().String(),
			Seconds: j.secs, SolverSeconds: j.res.SolverSeconds, Z3Seconds: j.res.Z3Seconds + j.coreZ3, RLimitUsed: j.res.RLimitUsed, Cached: j.cached, Slice: j.res.Slice,
			Reason: j.res.Reason, Dump: j.res.Dump,
		}
		if j.ob.Pos.IsValid() {
			p, ok := pos[j.ob.Pos]
			if !ok {
				p = j.ob.Pos.String()
				pos[j.ob.Pos] = p
			}
			o.Pos = p
		}
		if c := j.res.Counterexample; c != nil && j.res.Verdict() == kernel.Refuted {
			o.Counterexample = &report.Counterexample{Text: c.Text, Data: c.Data}
		}
		rep.Obligations = append(rep.Obligations, o)
	}

	groups := map[string]string{}           // invariant key or edge name → group
	assumes := map[string]map[string]bool{} // invariant key → the keys its obligations assume
	var prev *simulation.Obligation
	for _, o := range in.Obligations {
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
		if _, ok := groups[k]; !ok && k != "" && !same {
			groups[k] = o.Group
		}
		if o.Invariant != "" {
			if assumes[k] == nil {
				assumes[k] = map[string]bool{}
			}
			for _, a := range o.Assumes {
				if a != k {
					assumes[k][a] = true
				}
			}
		}
	}
	for key, st := range d.Invariants {
		auto, name := splitInvariantKey(key)
		var keys []string
		for a := range assumes[key] {
			keys = append(keys, a)
		}
		sort.Strings(keys)
		rep.Invariants = append(rep.Invariants, report.Invariant{
			Automaton: auto, Name: name, Group: groups[key], Status: st.String(), Assumes: invariantNames(keys)})
	}
	for _, e := range in.Edges {
		rep.Edges = append(rep.Edges, report.Edge{
			Name: e.Name, Concrete: e.Proof.Concrete.Name, Abstract: e.Proof.Abstract.Name,
			Kind: e.Proof.Kind.String(), Group: groups[e.Name], Status: d.Edges[e.Name].String(),
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
