// This file implements the entry points: reading files and directories into
// a Set, and dispatching each file on its top-level kind key.

package load

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"gopkg.in/yaml.v3"

	"ladder/internal/safeio"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// Set is what was loaded from a group of files: the hierarchy model, and
// the loader's own record of the files. When loading reports errors, the
// Set holds what could be loaded: its automata may then be incomplete and
// must not be explored or proved.
type Set struct {
	// Hierarchy holds the interfaces and automata in load order, the
	// edges of the proof files that loaded (filled once every proof file
	// is loaded) and the automata resolved from Config.Library.
	ioa.Hierarchy
	ProofFiles []*ProofFile // proof files recognised, in reading order
	Files      []string     // every file read, in reading order
	// Given are the files the paths given to Files stand for (a directory
	// for its YAML files), in order, whether or not they could be read:
	// the others of Files were read because a given one refers to them
	// (an interface, an automaton by path, the library).
	Given []string

	universe *expr.Scope
}

// Config says how files are read. The zero value reads the operating
// system's files.
type Config struct {
	// ReadFile reads a file; nil means ReadFile (regular files of at most
	// safeio.MaxInputSize bytes). It is called from several goroutines at
	// once (the files given are read and parsed in parallel).
	ReadFile func(name string) ([]byte, error)
	// ReadDir lists a directory; nil means os.ReadDir when ReadFile is nil
	// too, and otherwise that every path names a file.
	ReadDir func(name string) ([]fs.DirEntry, error)
	// Library lists files and directories searched, in order, for an
	// automaton that a proof names but no loaded file declares: the first
	// file whose top-level `automaton:` is that name is loaded (with its
	// interface) and recorded in Set.Resolved (ioa.Hierarchy.Resolved). Nothing else in them is
	// read.
	Library []string
	// Parsed, when set, keeps the YAML of every file read, so that a later
	// load with the same Parsed that reads a file with the same bytes
	// does not parse it again (a watcher's next run, after an edit of
	// one file), and the interfaces, automata and proofs that loaded
	// without an error, which such a load reuses instead of building them
	// again while what they refer to is unchanged (reuse.go).
	Parsed *Parsed
}

// Parsed holds files' parsed YAML between loads (Config.Parsed), by path,
// with the bytes each was parsed from, and what those bytes loaded into
// when that is reusable (reuse.go). The zero value is ready to use; it is
// safe for concurrent use.
type Parsed struct {
	mu sync.Mutex
	by map[string]parsedYAML
}

// parsedYAML is a file's bytes and what parseYAML made of them: the tree
// and lines, which loading only reads, and the errors.
type parsedYAML struct {
	data  []byte
	root  *yaml.Node // nil: not well-formed
	lines []string
	errs  source.ErrorList
	decl  *loadedDecl // what the bytes loaded into, when reusable (reuse.go)
}

// get returns the file parsed from data at path before, with a copy of its
// errors and what it loaded into when that is reusable; ok is false when
// path was not parsed from these bytes.
func (p *Parsed) get(path string, data []byte) (f *yfile, errs source.ErrorList, decl *loadedDecl, ok bool) {
	p.mu.Lock()
	e, ok := p.by[path]
	p.mu.Unlock()
	if !ok || !bytes.Equal(e.data, data) {
		return nil, nil, nil, false
	}
	if e.root != nil {
		// position caches of its own: they are filled as loading asks
		f = &yfile{path: path, data: data, lines: e.lines, root: e.root}
	}
	return f, slices.Clone(e.errs), e.decl, true
}

// put records what parseYAML made of data at path.
func (p *Parsed) put(path string, data []byte, f *yfile, errs source.ErrorList) {
	e := parsedYAML{data: data, errs: slices.Clone(errs)}
	if f != nil {
		e.root, e.lines = f.root, f.lines
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.by == nil {
		p.by = map[string]parsedYAML{}
	}
	p.by[path] = e
}

// Files loads the files and directories at paths with the default Config.
func Files(paths ...string) (*Set, source.ErrorList) {
	return Config{}.Files(paths...)
}

// Files loads the given files and directories. A directory stands for every
// *.yaml and *.yml file under it, in sorted order, skipping directories named
// testdata or starting with "." or "_" (as the go command does) and files
// starting with "." or "_". Files referenced by others (an automaton's
// interface) are loaded once. Proof files are loaded after every other file,
// since they name automata declared anywhere. The errors are sorted by
// position, without repetitions.
func (c Config) Files(paths ...string) (*Set, source.ErrorList) {
	l := &loader{
		cfg:      c,
		set:      &Set{universe: NewUniverse()},
		files:    make(map[string]*loadedFile),
		autoName: make(map[string]*ioa.Automaton),
		ifName:   make(map[string]*ioa.Interface),
	}
	l.wd, _ = os.Getwd()
	var files []string
	for _, p := range paths {
		files = append(files, l.expand(p)...)
	}
	l.set.Given = files
	l.prefetch(files)
	for _, file := range files {
		l.load(file, source.Pos{})
	}
	reused, kept := l.loadProofs() // proof files, once every automaton is known (proof.go)
	l.resolveTransfers(reused)     // chains of refinements for transferred invariants (proof.go)
	l.keptTransfer(kept)
	l.errs.Sort()
	return l.set, dedup(l.errs)
}

// dedup drops the errors equal to the one before them in a sorted list.
func dedup(errs source.ErrorList) source.ErrorList {
	var out source.ErrorList
	for i, e := range errs {
		if i > 0 && *e == *errs[i-1] {
			continue
		}
		out = append(out, e)
	}
	return out
}

// loader holds the state of one Files call.
type loader struct {
	cfg      Config
	set      *Set
	errs     source.ErrorList
	files    map[string]*loadedFile // by cleaned path
	autoName map[string]*ioa.Automaton
	ifName   map[string]*ioa.Interface
	libIndex map[string]string // the library's automata by name (library.go), built on first use
	// parsed holds the files prefetch read and parsed, by fileKey; load
	// takes each from here once.
	parsed map[string]*parsedFile
	// wd is the working directory relative paths are resolved against
	// (fileKey), read once per load; "" when it could not be read.
	wd string
}

// parsedFile is a file read and parsed ahead of loading: its YAML (nil
// when it is not well-formed), the errors reading or parsing it found, and
// whether it could be read.
type parsedFile struct {
	f    *yfile
	errs source.ErrorList
	err  error       // reading it
	decl *loadedDecl // what these bytes loaded into before (Config.Parsed)
}

// prefetch reads and parses the given files on all CPUs, for load:
// reading and parsing YAML is most of loading a file, and the files are
// independent until their declarations are resolved, which load does in
// order.
func (l *loader) prefetch(files []string) {
	if len(files) < 2 {
		return
	}
	l.parsed = make(map[string]*parsedFile, len(files))
	todo := make([]*parsedFile, len(files)) // nil for a file named twice
	for i, f := range files {
		if key := l.fileKey(f); l.parsed[key] == nil {
			todo[i] = &parsedFile{}
			l.parsed[key] = todo[i]
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				if todo[i] != nil {
					*todo[i] = l.readParse(files[i])
				}
			}
		}()
	}
	wg.Wait()
}

// readParse reads and parses the file at path.
func (l *loader) readParse(path string) parsedFile {
	var pf parsedFile
	data, err := l.readFile(path)
	if pf.err = err; err != nil {
		return pf
	}
	memo := l.cfg.Parsed
	if memo != nil {
		var ok bool
		if pf.f, pf.errs, pf.decl, ok = memo.get(path, data); ok {
			return pf
		}
	}
	pf.f = parseYAML(path, data, &pf.errs)
	if memo != nil {
		memo.put(path, data, pf.f, pf.errs)
	}
	return pf
}

// loadedFile records a file that was read: its kind and what it declared.
type loadedFile struct {
	kind  string // "interface", "automaton", "proof", or "" if it could not be loaded
	iface *ioa.Interface
	auto  *ioa.Automaton
	proof *ProofFile
	busy  bool // being loaded: a reference back to it is a cycle
}

func (l *loader) readFile(name string) ([]byte, error) {
	if l.cfg.ReadFile != nil {
		return l.cfg.ReadFile(name)
	}
	return ReadFile(name)
}

// ReadFile reads an input file as the loader does by default: a regular
// file of at most safeio.MaxInputSize bytes. A named pipe, device, socket
// or larger file is an error that says so (and never blocks).
func ReadFile(name string) ([]byte, error) {
	return safeio.ReadFile(name, safeio.MaxInputSize)
}

// isDir reports whether name is a directory that can be listed.
func (l *loader) isDir(name string) bool {
	switch {
	case l.cfg.ReadDir != nil:
		_, err := l.cfg.ReadDir(name)
		return err == nil
	case l.cfg.ReadFile != nil:
		return false
	}
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

func (l *loader) readDir(name string) ([]fs.DirEntry, error) {
	if l.cfg.ReadDir != nil {
		return l.cfg.ReadDir(name)
	}
	return os.ReadDir(name)
}

// expand returns path itself, or the YAML files under it if it is a directory.
func (l *loader) expand(path string) []string {
	if !l.isDir(path) {
		return []string{path}
	}
	var out []string
	// Every depth is walked. Symbolic links to directories are not
	// followed (a DirEntry of one is not a directory), so the walk cannot
	// cycle.
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := l.readDir(dir)
		if err != nil {
			l.errs.Add(source.Pos{File: dir}, source.ErrIO, "cannot read directory: %s", ioMessage(err))
			return
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
		for _, e := range ents {
			name := e.Name()
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				continue
			}
			full := filepath.Join(dir, name)
			if e.IsDir() {
				if name != "testdata" {
					walk(full)
				}
				continue
			}
			if ext := filepath.Ext(name); ext == ".yaml" || ext == ".yml" {
				out = append(out, full)
			}
		}
	}
	walk(path)
	return out
}

// fileKey identifies a file by its absolute path, so that a file named
// by two different relative or absolute paths is loaded once. It is
// filepath.Abs with the working directory read once per load: Abs reads
// it again for every path.
func (l *loader) fileKey(path string) string {
	if filepath.IsAbs(path) || l.wd == "" {
		return filepath.Clean(path)
	}
	return filepath.Join(l.wd, path)
}

// ioMessage returns the reason of a file error without the file name.
func ioMessage(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// load reads and loads the file at path once. ref is the position of the
// reference that asked for it (NoPos for files named by the caller): errors
// reading the file are reported there.
func (l *loader) load(path string, ref source.Pos) *loadedFile {
	key := l.fileKey(path)
	if lf, ok := l.files[key]; ok {
		if lf.busy {
			l.errs.Add(ref, source.ErrModel, "%s refers back to itself", path)
		}
		return lf
	}
	lf := &loadedFile{busy: true}
	l.files[key] = lf
	defer func() { lf.busy = false }()
	pf := l.parsed[key]
	if pf == nil {
		parsed := l.readParse(path)
		pf = &parsed
	}
	if err := pf.err; err != nil {
		if ref == source.NoPos {
			l.errs.Add(source.Pos{File: path}, source.ErrIO, "cannot read file: %s", ioMessage(err))
		} else {
			l.errs.Add(ref, source.ErrIO, "cannot read %s: %s", path, ioMessage(err))
		}
		return lf
	}
	l.set.Files = append(l.set.Files, path)
	f := pf.f
	l.errs = append(l.errs, pf.errs...)
	if f == nil {
		return lf
	}
	if len(pf.errs) == 0 && l.reuse(lf, pf.decl) {
		return lf
	}
	before := len(l.errs)
	fl := &fileLoader{l: l, f: f, decl: pf.decl}
	defer func() {
		// A bug in a later phase must not lose the other files' errors.
		if r := recover(); r != nil {
			msg := fmt.Sprint(r)
			if os.Getenv("LADDER_DEBUG") != "" {
				msg += "\n" + string(debug.Stack())
			}
			l.errs.Add(source.Pos{File: path, Line: 1, Col: 1}, source.ErrInternal, "internal error while loading: %s", msg)
		}
	}()
	fl.dispatch(lf)
	if len(pf.errs) == 0 && len(l.errs) == before {
		l.keep(fl, lf)
	}
	return lf
}

// The top-level keys that give a file's kind.
var kindKeys = []string{"proof", "automaton", "interface"}

// dispatch loads a file according to its top-level kind key. An automaton
// file has an `interface:` key too, naming the interface file it uses, so
// proof and automaton take precedence over interface.
func (fl *fileLoader) dispatch(lf *loadedFile) {
	root := fl.f.root
	if !fl.noAlias(root) {
		return
	}
	if root.Kind != yaml.MappingNode {
		fl.errorf(root, source.ErrModel, "expected a mapping with a key interface, automaton or proof at the top level, found %s", kindName(root))
		return
	}
	has := func(k string) bool {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Kind == yaml.ScalarNode && root.Content[i].Value == k {
				return true
			}
		}
		return false
	}
	for _, kind := range kindKeys {
		if !has(kind) {
			continue
		}
		lf.kind = kind
		switch kind {
		case "proof":
			lf.proof = fl.loadProof(root)
		case "automaton":
			lf.auto = fl.loadAutomaton(root)
		case "interface":
			lf.iface = fl.loadInterface(root)
		}
		return
	}
	fl.errorf(root, source.ErrModel, "expected a key interface, automaton or proof at the top level")
}

// interfaceRef loads the interface file named by the scalar n, relative to
// the current file. It returns nil after reporting an error.
func (fl *fileLoader) interfaceRef(n *yaml.Node) *ioa.Interface {
	lf := fl.ref(n, "interface")
	if lf == nil {
		return nil
	}
	return lf.iface
}

// automatonFile loads the automaton file at path name, relative to the
// current file (for proof files), named at pos. It returns nil after
// reporting an error.
func (fl *fileLoader) automatonFile(name string, pos source.Pos) *ioa.Automaton {
	lf := fl.refAt(name, pos, "automaton")
	if lf == nil {
		return nil
	}
	return lf.auto
}

// ref loads the file of the given kind named by the scalar n.
func (fl *fileLoader) ref(n *yaml.Node, kind string) *loadedFile {
	name, ok := fl.scalar(n, fmt.Sprintf("%q", kind))
	if !ok {
		return nil
	}
	return fl.refAt(name, fl.f.pos(n), kind)
}

// refAt loads the file of the given kind at path name, relative to the
// current file, named at pos.
func (fl *fileLoader) refAt(name string, pos source.Pos, kind string) *loadedFile {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(fl.f.path), name)
	}
	lf := fl.l.load(path, pos)
	fl.refs = append(fl.refs, fileRef{path: path, pos: pos, kind: lf.kind, iface: lf.iface, auto: lf.auto})
	switch {
	case lf.busy, lf.kind == "":
		return nil // reported at pos, or in the file
	case lf.kind != kind:
		fl.l.errs.Add(pos, source.ErrModel, "%s is %s file, not %s file", name, article(lf.kind), article(kind))
		return nil
	}
	return lf
}

func article(kind string) string {
	if kind == "interface" || kind == "automaton" {
		return "an " + kind
	}
	return "a " + kind
}
