// This file implements the proofs above: a proof file given alone to
// `ladder prove` is proved with the repository's proof files that continue
// its chain upwards, so that the end-to-end theorem is derived (their
// obligations are in the cache, most of the time).

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"ladder/internal/driver"
	"ladder/internal/safeio"
)

// concreteLine matches a proof file's top-level `concrete:` line.
var concreteLine = regexp.MustCompile(`(?m)^concrete:[ \t]*"?([^"#\s]+)"?[ \t]*(?:#.*)?$`)

// abstractLine matches a proof file's top-level `abstract:` line.
var abstractLine = regexp.MustCompile(`(?m)^abstract:[ \t]*"?([^"#\s]+)"?[ \t]*(?:#.*)?$`)

// historyLine matches the `kind: history` line of a history mapping, whose
// abstract automaton (the concrete one with history variables) implements
// its concrete one: the chain goes through it the other way.
var historyLine = regexp.MustCompile(`(?m)^kind:[ \t]*"?history"?[ \t]*(?:#.*)?$`)

// automatonName matches a top-level `automaton:` line.
var automatonName = regexp.MustCompile(`(?m)^automaton:[ \t]*"?([A-Za-z_][A-Za-z0-9_]*)"?[ \t]*(?:#.*)?$`)

// proofsAbove returns the proof files of the repository's proofs/
// directory and its subdirectories, not among the files given, whose lower automaton (the one
// shown to implement the other: the concrete one, or the abstract one of a
// history mapping) is the upper automaton of a proof file given, and so on
// upwards: with them, the theorems of the whole chain are derived, and the
// invariants a proof assumes by transfer along the chain are found. It
// returns nil when no proof file of proofs/ is given, or when there is no
// proofs/ directory.
func proofsAbove(paths []string) []string {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	dir := filepath.Join(driver.FindRoot(wd), "proofs")
	// the proof files of proofs/ and of its subdirectories (proofs/objects)
	var files []string
	err = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(e.Name(), ".yaml") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		return nil
	}
	given := map[string]bool{}
	for _, f := range paths {
		if abs, err := filepath.Abs(f); err == nil {
			given[abs] = true
		}
	}
	// the automaton each candidate proof file shows to implement another
	// (lower), and that other (upper)
	type candidate struct {
		path, lower, upper string
		given              bool
	}
	nameOf := func(from, value string) string {
		if !strings.HasSuffix(value, ".yaml") && !strings.ContainsRune(value, '/') {
			return value
		}
		// a path, relative to the proof file: its automaton's name
		data, err := safeio.ReadFile(filepath.Join(filepath.Dir(from), value), safeio.MaxInputSize)
		if err != nil {
			return ""
		}
		if a := automatonName.FindSubmatch(data); a != nil {
			return string(a[1])
		}
		return ""
	}
	var cands []candidate
	for _, path := range files {
		abs, err := filepath.Abs(path)
		if err != nil {
			continue
		}
		data, err := safeio.ReadFile(path, safeio.MaxInputSize)
		if err != nil {
			continue
		}
		c, a := concreteLine.FindSubmatch(data), abstractLine.FindSubmatch(data)
		if c == nil || a == nil {
			continue
		}
		lower, upper := nameOf(path, string(c[1])), nameOf(path, string(a[1]))
		if lower == "" || upper == "" {
			continue
		}
		if historyLine.Match(data) {
			if given[abs] {
				// trace inclusion both ways: a history mapping given
				// alone continues the chain from either automaton (an
				// object's copy with history variables is proved to
				// implement its specification)
				cands = append(cands, candidate{path, lower, upper, true})
			}
			lower, upper = upper, lower
		}
		cands = append(cands, candidate{path, lower, upper, given[abs]})
	}
	var reached []string // automata the chain reaches
	for _, c := range cands {
		if c.given && !slices.Contains(reached, c.upper) {
			reached = append(reached, c.upper)
		}
	}
	var out []string
	for changed := len(reached) > 0; changed; {
		changed = false
		for _, c := range cands {
			if c.given || slices.Contains(out, c.path) || !slices.Contains(reached, c.lower) {
				continue
			}
			out = append(out, c.path)
			changed = true
			if !slices.Contains(reached, c.upper) {
				reached = append(reached, c.upper)
			}
		}
	}
	slices.Sort(out)
	return out
}
