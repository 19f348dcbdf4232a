// This file implements the parts of run records (runrecord.go). The files
// a run's load reads are split into parts: a file is in the part of every
// file whose loading, obligations or theorems depend on it (the interface
// of an automaton, the automata of a proof, the chain of a transferred
// invariant, the automata of an expected theorem, the sources of an
// obligation). Each part's share of the report (its invariants, edges and
// their obligations, the theorems about its automata) is a function of
// the executable, the solver, the flags, the run's other reads (directory
// listings, failed reads) and the bytes of the part's own files. A run in
// which some parts' files changed replays the others from the record and
// loads and proves only the changed ones, when their new load is closed
// too: it reads no file of a replayed part and declares no name a replayed
// part declares or resolves (Replay.Fits); otherwise it runs in full
// (docs/prove.md, "Run records").

package driver

import (
	"slices"
	"sort"
	"strings"

	"ladder/internal/report"
)

// runPart is one part of a run record.
type runPart struct {
	Reads []RunRead // the part's files, each with the SHA-256 of its content, sorted
	// Names are the names of the automata (those resolved from the
	// library included), interfaces and proofs the part's files declare,
	// sorted.
	Names []string
	// Report is the hex SHA-256 of the part's report file (encodeRunReport
	// of its share of the report); "" when the part has none (an
	// obligation of it was not discharged, or the run reported an error).
	Report string
}

// partition is the split of a run's reads into parts, with what maps the
// report's entries to them.
type partition struct {
	// global are the reads in no part: directory listings, failed reads,
	// and the files read for no given file's model (the library's, read
	// to find the one that declares a name).
	global []RunRead
	parts  [][]RunRead // each part's file reads
	names  [][]string  // each part's declared names (runPart.Names)
	auto   map[string]int
	edge   map[string]int
}

// unionFind is a disjoint-set forest over the indices 0..n-1.
type unionFind []int

func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

func (u unionFind) union(i, j int) {
	if a, b := u.find(i), u.find(j); a != b {
		u[a] = b
	}
}

// partitionOf splits reads, the reads of the load that gave in, into the
// parts of in: a part holds at least one of the files the load was given
// (Input.Given), and the files joined to them; the files joined to no
// given file are read by every run (global). false when a file in's model
// names is not among the reads (the split would be unfounded); the caller
// then records one part.
func partitionOf(in *Input, reads []RunRead) (*partition, bool) {
	pt := &partition{auto: map[string]int{}, edge: map[string]int{}}
	index := map[string]int{}
	var files []RunRead
	for _, r := range reads {
		if r.Dir || r.Sum == "" {
			pt.global = append(pt.global, r)
			continue
		}
		index[r.Name] = len(files)
		files = append(files, r)
	}
	u := make(unionFind, len(files))
	for i := range u {
		u[i] = i
	}
	ok := joinModel(in, index, u)
	if !ok || len(in.Given) == 0 {
		return nil, false
	}
	given := map[int]bool{} // roots of a given file
	for _, g := range in.Given {
		i, found := index[g]
		if !found {
			return nil, false
		}
		given[u.find(i)] = true
	}
	of := map[int]int{} // root → part
	partOf := func(file string) int {
		root := u.find(index[file])
		k, found := of[root]
		if !found {
			k = len(pt.parts)
			of[root] = k
			pt.parts = append(pt.parts, nil)
			pt.names = append(pt.names, nil)
		}
		return k
	}
	for _, f := range files {
		if !given[u.find(index[f.Name])] {
			pt.global = append(pt.global, f)
			continue
		}
		k := partOf(f.Name)
		pt.parts[k] = append(pt.parts[k], f)
	}
	declare := func(file, name string) int {
		if i, found := index[file]; !found || !given[u.find(i)] {
			ok = false // a model of no file read, or of no given file's: unfounded
			return 0
		}
		k := partOf(file)
		pt.names[k] = append(pt.names[k], name)
		return k
	}
	for _, i := range in.Interfaces {
		declare(i.File, i.Name)
	}
	for _, a := range in.Automata {
		pt.auto[a.Name] = declare(a.File, a.Name)
	}
	for _, e := range in.Edges {
		pt.edge[e.Name] = declare(e.Proof.File, e.Name)
	}
	for _, p := range in.Proofs {
		if p.Name != "" {
			declare(p.File, p.Name)
		}
	}
	for k := range pt.names {
		slices.Sort(pt.names[k])
		pt.names[k] = slices.Compact(pt.names[k])
	}
	return pt, ok
}

// joinModel joins in u the files (by their index) that in's model and
// obligations make depend on each other; false when one of them is not
// in index.
func joinModel(in *Input, index map[string]int, u unionFind) bool {
	ok := true
	join := func(names ...string) {
		first := -1
		for _, n := range names {
			i, found := index[n]
			if !found {
				ok = false
				continue
			}
			if first < 0 {
				first = i
			} else {
				u.union(first, i)
			}
		}
	}
	autoFile := map[string]string{}
	for _, a := range in.Automata {
		autoFile[a.Name] = a.File
		if a.Interface != nil {
			join(a.File, a.Interface.File)
		} else {
			join(a.File)
		}
	}
	for _, p := range in.Proofs {
		join(p.File, p.Concrete.File, p.Abstract.File)
		for _, side := range p.AssumeSides() {
			for _, r := range side.Refs {
				if r.Source != nil {
					join(p.File, r.Source.File)
				}
				for _, q := range r.Chain {
					join(p.File, q.File)
				}
			}
		}
		for _, c := range p.Theorems {
			for _, name := range []string{c.Subject, c.Object} {
				if f, found := autoFile[name]; found {
					join(p.File, f)
				} else {
					ok = false
				}
			}
		}
	}
	for _, o := range in.Obligations {
		join(o.Sources...)
	}
	return ok
}

// split returns each part's share of rep, the report of the run over the
// partition's load: false when an entry of rep belongs to no part, or rep
// reports an error (an expected theorem missing), which no part owns.
func (pt *partition) split(rep *report.Prove) ([]*report.Prove, bool) {
	if len(rep.Errors) > 0 {
		return nil, false
	}
	out := make([]*report.Prove, len(pt.parts))
	for k := range out {
		out[k] = &report.Prove{Solver: rep.Solver}
	}
	group := map[string]int{}
	for _, inv := range rep.Invariants {
		k, ok := pt.auto[inv.Automaton]
		if !ok {
			return nil, false
		}
		group[inv.Group] = k
		out[k].Invariants = append(out[k].Invariants, inv)
	}
	for _, e := range rep.Edges {
		k, ok := pt.edge[e.Name]
		if !ok {
			return nil, false
		}
		group[e.Group] = k
		out[k].Edges = append(out[k].Edges, e)
	}
	for _, o := range rep.Obligations {
		k, ok := group[o.Group]
		if !ok {
			return nil, false
		}
		out[k].Obligations = append(out[k].Obligations, o)
	}
	for _, t := range rep.Theorems {
		// "X implements Y", "X refines Y", "X satisfies Y.P": X's part,
		// which holds Y too (the edges between them join their files).
		subject, _, _ := strings.Cut(t.Statement, " ")
		k, ok := pt.auto[subject]
		if !ok {
			return nil, false
		}
		out[k].Theorems = append(out[k].Theorems, t)
	}
	for _, r := range out {
		r.Summarize()
	}
	return out, true
}

// discharged reports whether every obligation of rep is proved or
// trivial: only such a share is recorded (a refuted or unknown verdict is
// never replayed).
func discharged(rep *report.Prove) bool {
	for _, o := range rep.Obligations {
		if o.Verdict != report.Proved && o.Verdict != report.Trivial {
			return false
		}
	}
	return true
}

// mergeReports returns the report of a run whose parts' shares are
// shares, with head's solver, errors, warnings, changes and built count
// (the report of the run over the parts it loaded, itself one of shares,
// or nil for a replay): the entries of all shares, sorted as a report is.
// A share's obligations are sorted by group and ID and no two shares have
// a group in common, so the obligations are merged group by group.
func mergeReports(head *report.Prove, shares []*report.Prove) *report.Prove {
	out := &report.Prove{}
	if head != nil {
		out.Solver, out.Errors, out.Warnings, out.Changes = head.Solver, head.Errors, head.Warnings, head.Changes
		out.Summary.Built = head.Summary.Built
	} else if len(shares) > 0 {
		out.Solver, out.Changes = shares[0].Solver, shares[0].Changes
	}
	type run struct {
		group string
		obs   []report.Obligation
	}
	var runs []run
	n := 0
	for _, s := range shares {
		obs := s.Obligations
		n += len(obs)
		for lo := 0; lo < len(obs); {
			hi := lo + 1
			for hi < len(obs) && obs[hi].Group == obs[lo].Group {
				hi++
			}
			runs = append(runs, run{obs[lo].Group, obs[lo:hi]})
			lo = hi
		}
		out.Invariants = append(out.Invariants, s.Invariants...)
		out.Edges = append(out.Edges, s.Edges...)
		out.Theorems = append(out.Theorems, s.Theorems...)
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].group < runs[j].group })
	out.Obligations = make([]report.Obligation, 0, n)
	for _, r := range runs {
		out.Obligations = append(out.Obligations, r.obs...)
	}
	out.Sort()
	out.Summarize()
	if head != nil {
		out.Summary.Built = head.Summary.Built
	}
	return out
}
