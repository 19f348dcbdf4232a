// This file implements the library: automata a proof names that none of
// the loaded files declares, found in Config.Library.

package load

import (
	"bytes"
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
	for _, root := range c.Library {
		for _, path := range l.expandQuiet(root) {
			data, err := l.readFile(path)
			if err != nil {
				continue
			}
			if m := automatonLine.FindSubmatch(data); m != nil && string(m[1]) == name {
				return path
			}
		}
	}
	return ""
}

// fromLibrary loads the first library file that declares automaton name,
// and returns the automaton, or nil when there is none. A library file is
// recognised by its `automaton:` line alone, so that a search does not
// load (or report the errors of) unrelated files.
func (l *loader) fromLibrary(name string, ref source.Pos) *ioa.Automaton {
	for _, root := range l.cfg.Library {
		for _, path := range l.expandQuiet(root) {
			if _, loaded := l.files[fileKey(path)]; loaded {
				continue
			}
			data, err := l.readFile(path)
			if err != nil {
				continue
			}
			m := automatonLine.FindSubmatch(data)
			if m == nil || !bytes.Equal(m[1], []byte(name)) {
				continue
			}
			l.load(path, ref)
			if a := l.autoName[name]; a != nil {
				l.set.Resolved = append(l.set.Resolved, a)
				return a
			}
		}
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
