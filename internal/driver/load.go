// This file implements loading: YAML files to the prover's input, and the
// repository root where the cache lives.

package driver

import (
	"os"
	"path/filepath"
	"slices"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/load"
	"ladder/simulation"
	"ladder/strategies"
)

// Load loads the YAML files and directories at paths (package ioa/load) and
// plans the obligations of every invariant and edge (package simulation),
// applying their `strategy:` lists (package strategies). Loading or
// planning errors are returned, sorted, and the input is then nil: a
// statement that did not load completely is not proved. An expression the
// prover cannot encode is found when its obligation is built, and Prove
// returns it as a GenerationError.
func Load(paths ...string) (*Input, source.ErrorList) {
	set, errs := load.Files(paths...)
	if len(errs) > 0 {
		return nil, errs
	}
	return Generate(set)
}

// Generate generates the obligations of a loaded set, as Load does, each
// built (simulation.Obligation.Encode) only when Prove needs its problem. The
// invariants of an automaton loaded only to resolve a name a proof uses
// (ioa.Hierarchy.Resolved) are proved only when an edge assumes them.
func Generate(set *load.Set) (*Input, source.ErrorList) {
	cfg := simulation.Config{Strategist: strategies.For(), Lazy: true}
	h := &set.Hierarchy
	if names := needed(h); names != nil {
		cfg.Automata, cfg.NoInvariants = names, len(names) == 0
	}
	obs, edges, errs := simulation.Generate(h, cfg)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return &Input{
		Interfaces:  h.Interfaces,
		Automata:    h.Automata,
		Proofs:      h.Proofs,
		Obligations: obs,
		Edges:       edges,
		Files:       set.Files,
		Given:       set.Given,
		Items:       ItemFingerprints(h),
	}, nil
}

// needed returns the names of the automata whose invariants a run over h
// proves: all of them, unless some were loaded from the library; then
// those given, and those whose invariants an edge assumes (of its concrete
// or abstract automaton, or by transfer). nil means all.
func needed(h *ioa.Hierarchy) []string {
	if len(h.Resolved) == 0 {
		return nil
	}
	want := map[*ioa.Automaton]bool{}
	for _, a := range h.Automata {
		want[a] = !slices.Contains(h.Resolved, a)
	}
	for _, p := range h.Proofs {
		for _, side := range p.AssumeSides() {
			for _, r := range side.Refs {
				if r.Transferred() {
					want[r.Source] = true
				} else {
					want[side.Owner] = true
				}
			}
		}
	}
	names := []string{}
	for _, a := range h.Automata {
		if want[a] {
			names = append(names, a.Name)
		}
	}
	return names
}

// FindRoot returns the repository root for dir: the nearest ancestor of dir
// (or dir itself) that holds a .ladder cache directory or a .git entry, or
// dir when there is none.
func FindRoot(dir string) string {
	dir = filepath.Clean(dir)
	for d := dir; ; {
		for _, marker := range []string{DefaultCacheDir, ".git"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
