// This file implements loading: YAML files to the prover's input, and the
// repository root where the cache lives.

package driver

import (
	"os"
	"path/filepath"

	"ladder/internal/source"
	"ladder/ioa/load"
	"ladder/simulation"
	"ladder/strategies"
)

// Load loads the YAML files and directories at paths (package ioa/load) and
// generates the obligations of every invariant and edge (package
// simulation), applying their `strategy:` lists (package strategies).
// Loading or generation errors are returned, sorted, and the input is then
// nil: a statement that did not load completely is not proved.
func Load(paths ...string) (*Input, source.ErrorList) {
	set, errs := load.Files(paths...)
	if len(errs) > 0 {
		return nil, errs
	}
	return Generate(set)
}

// Generate generates the obligations of a loaded set, as Load does.
func Generate(set *load.Set) (*Input, source.ErrorList) {
	obs, edges, errs := simulation.Generate(set, simulation.Config{Strategist: strategies.For(set)})
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return &Input{
		Automata:    set.Automata,
		Proofs:      set.LoadedProofs(),
		Obligations: obs,
		Edges:       edges,
		Files:       set.Files,
	}, nil
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
