// This file implements the library: automata a proof names that none of
// the loaded files declares, found in Config.Library.

package load

import (
	"os"
	"regexp"

	"ladder/internal/source"
	"ladder/ioa"
)

// automatonLine matches a top-level `automaton: NAME` line.
var automatonLine = regexp.MustCompile(`(?m)^automaton:[ \t]*"?([A-Za-z_][A-Za-z0-9_]*)"?[ \t]*(?:#.*)?$`)

// Find returns the first file of the library that declares automaton name
// (by its `automaton:` line), or "" when there is none.
func (c Config) Find(name string) string {
	l := &loader{cfg: c, files: map[string]*loadedFile{}, set: &Set{}}
	l.wd, _ = os.Getwd()
	return l.library()[name]
}

// library returns, once per load, the index of the library: for each
// automaton name the first library file whose `automaton:` line declares
// it. A file is recognised by that line alone, so that a search reads each
// library file once and does not load (or report the errors of) unrelated
// files.
func (l *loader) library() map[string]string {
	if l.libIndex != nil {
		return l.libIndex
	}
	l.libIndex = map[string]string{}
	for _, root := range l.cfg.Library {
		for _, path := range l.expandQuiet(root) {
			data, err := l.readFile(path)
			if err != nil {
				continue
			}
			if m := automatonLine.FindSubmatch(data); m != nil {
				if _, ok := l.libIndex[string(m[1])]; !ok {
					l.libIndex[string(m[1])] = path
				}
			}
		}
	}
	return l.libIndex
}

// fromLibrary loads the library file that declares automaton name, and
// returns the automaton, or nil when there is none.
func (l *loader) fromLibrary(name string, ref source.Pos) *ioa.Automaton {
	path, ok := l.library()[name]
	if !ok {
		return nil
	}
	if _, loaded := l.files[l.fileKey(path)]; loaded {
		return nil // loaded already, and it does not declare name after all
	}
	l.load(path, ref)
	if a := l.autoName[name]; a != nil {
		l.set.Resolved = append(l.set.Resolved, a)
		return a
	}
	return nil
}

// expandQuiet lists the YAML files of a library path like expand; a path
// that is not a directory is a file, whose read error fromLibrary ignores.
func (l *loader) expandQuiet(path string) []string {
	if !l.isDir(path) {
		return []string{path}
	}
	return l.expand(path)
}
