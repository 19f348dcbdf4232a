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
// then records one part (onePart).
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
	for _, d := range decls(in) {
		i, found := index[d.file]
		if !found || !given[u.find(i)] {
			return nil, false // a model of no file read, or of no given file's: unfounded
		}
		k := partOf(d.file)
		pt.names[k] = append(pt.names[k], d.name)
		switch d.kind {
		case declAutomaton:
			pt.auto[d.name] = k
		case declEdge:
			pt.edge[d.name] = k
		}
	}
	for k := range pt.names {
		pt.names[k] = sortedNames(pt.names[k])
	}
	return pt, true
}

// onePart returns the partition of reads, the reads of the load that gave
// in, into one part holding every file read and every name in declares,
// for a load whose split is unfounded or whose report no part can own.
func onePart(in *Input, reads []RunRead) *partition {
	pt := &partition{parts: [][]RunRead{nil}, names: [][]string{nil}}
	for _, rd := range reads {
		if rd.Dir || rd.Sum == "" {
			pt.global = append(pt.global, rd)
		} else {
			pt.parts[0] = append(pt.parts[0], rd)
		}
	}
	for _, d := range decls(in) {
		pt.names[0] = append(pt.names[0], d.name)
	}
	pt.names[0] = sortedNames(pt.names[0])
	return pt
}

// sortedNames returns names sorted, each once.
func sortedNames(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}

// A declKind says what a decl declares.
type declKind int

const (
	declInterface declKind = iota
	declAutomaton
	declEdge
	declProof
)

// decl is a name a load declares (or resolves from the library) and the
// file that declares it.
type decl struct {
	kind       declKind
	file, name string
}

// decls returns the names in declares: its interfaces, automata (those
// found in the library included), edges and proofs. Two files of one load
// declaring a name is an error of the load, so a part's names are those no
// other part may declare (Replay.Fits).
func decls(in *Input) []decl {
	var out []decl
	for _, i := range in.Interfaces {
		out = append(out, decl{declInterface, i.File, i.Name})
	}
	for _, a := range in.Automata {
		out = append(out, decl{declAutomaton, a.File, a.Name})
	}
	for _, e := range in.Edges {
		out = append(out, decl{declEdge, e.Proof.File, e.Name})
	}
	for _, p := range in.Proofs {
		if p.Name != "" {
			out = append(out, decl{declProof, p.File, p.Name})
		}
	}
	return out
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

// mergeReports returns the report of a run whose parts' shares are head,
// the report of the run over the parts it loaded (nil for a whole
// replay), and shares, the recorded ones: the entries of all, sorted as a
// report is, with the solver, errors, warnings, changes and built count
// of head, or of the first share. A share's obligations are sorted by
// group and ID and no two shares have a group in common, so the
// obligations are merged group by group.
func mergeReports(head *report.Prove, shares []*report.Prove) *report.Prove {
	out := &report.Prove{}
	if head != nil {
		shares = append([]*report.Prove{head}, shares...)
	}
	if len(shares) > 0 {
		h := shares[0]
		out.Solver, out.Errors, out.Warnings, out.Changes = h.Solver, h.Errors, h.Warnings, h.Changes
		out.Summary.Built = h.Summary.Built
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
	out.Summarize() // keeps Built
	return out
}
