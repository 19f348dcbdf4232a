// This file loads proof files (docs/proofs.md): one edge C → A of a
// hierarchy with its relation or mapping, witnesses, step correspondence
// and expected theorems, into an ioa.Proof.
//
// A proof names its automata, by name or by file path, and they may be
// declared in files read after it, so loadProof only records the file and
// loadProofs, run once every file is read, builds the models.
//
// This file holds the sections and the scopes of a proof, its relation or
// mapping and its theorems; the assume lists are loaded in
// proof_assume.go, the step correspondence in proof_steps.go.

package load

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// ProofFile is a proof file, recognised by its top-level `proof:` key.
type ProofFile struct {
	Name string     // the value of the `proof:` key, if it is a scalar
	File string     // the file's path
	Pos  source.Pos // the position of the name
	// Proof is the loaded edge, or nil when the file could not be loaded
	// (errors reported). It may be incomplete when loading reported errors.
	Proof *ioa.Proof

	fl   *fileLoader
	root *yaml.Node
	decl *loadedDecl // what the file's bytes loaded into before, if kept (reuse.go)
}

// loadProof records a proof file; loadProofs loads it once every file has
// been read.
func (fl *fileLoader) loadProof(root *yaml.Node) *ProofFile {
	p := &ProofFile{File: fl.f.path, Pos: fl.f.pos(root), fl: fl, root: root, decl: fl.decl}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k, v := root.Content[i], root.Content[i+1]; k.Value == "proof" && v.Kind == yaml.ScalarNode {
			p.Name, p.Pos = v.Value, fl.f.pos(v)
		}
	}
	fl.l.set.ProofFiles = append(fl.l.set.ProofFiles, p)
	return p
}

// loadProofs loads every recorded proof file, and records the edges that
// loaded in Set.Proofs (ioa.Hierarchy.Proofs), in load order. Files runs
// it after reading all files, so that proofs may name automata declared
// anywhere in the set.
func (l *loader) loadProofs() (reused map[*ioa.Proof]bool, kept []*keptProof) {
	seen := map[string]*ProofFile{}
	var todo, deferred []*ProofFile
	for _, pf := range l.set.ProofFiles {
		if pf.root == nil || pf.Proof != nil {
			continue
		}
		if old := seen[pf.Name]; old != nil && pf.Name != "" {
			l.errs.Add(pf.Pos, source.ErrName, "proof %q is already declared at %s", pf.Name, old.Pos)
		}
		seen[pf.Name] = pf
		switch {
		case !l.reuseProof(pf):
			todo = append(todo, pf)
		case transfers(pf.Proof):
			deferred = append(deferred, pf) // decided with the others' (reuseTransfers)
		default:
			pf.root = nil
		}
	}
	load := func(pfs []*ProofFile) {
		for _, pf := range pfs {
			before := len(l.errs)
			var uses []autoUse
			pf.Proof, uses = l.loadProof1(pf)
			if len(l.errs) == before {
				if k := l.keepProof(pf, uses); k != nil {
					kept = append(kept, k)
				}
			}
		}
	}
	load(todo)
	reused, again := l.reuseTransfers(deferred)
	load(again)
	for _, pf := range l.set.ProofFiles {
		pf.root = nil
		if pf.Proof != nil {
			l.set.Proofs = append(l.set.Proofs, pf.Proof)
		}
	}
	return reused, kept
}

// loadProof1 loads one proof file; a bug in a later phase is reported as an
// internal error at the file rather than crash the loader.
// It returns the automata the proof named, as it resolved them.
func (l *loader) loadProof1(pf *ProofFile) (p *ioa.Proof, uses []autoUse) {
	defer func() {
		if r := recover(); r != nil {
			l.errs.Add(source.Pos{File: pf.File, Line: 1, Col: 1}, source.ErrInternal, "internal error while loading proof: %v", r)
			p = nil
		}
	}()
	pl := &proofLoader{fileLoader: pf.fl, chk: NewChecker(&l.errs)}
	p = pl.load(pf.root)
	return p, pl.uses
}

// The keys of a proof file, in the order of docs/proofs.md.
var proofKeys = []string{"proof", "kind", "concrete", "abstract", "doc", "assume", "relation", "mapping",
	"start", "total", "steps", "theorems", "strategy"}

// proofSections says, per kind, which sections are required and which are
// allowed (besides proof, kind, concrete, abstract, doc, assume, theorems).
var proofSections = map[ioa.ProofKind]struct{ required, allowed []string }{
	ioa.ProofRefinement:       {[]string{"mapping"}, []string{"mapping", "steps"}},
	ioa.ProofSimpleRefinement: {[]string{"mapping"}, []string{"mapping", "steps"}},
	ioa.ProofForward:          {[]string{"relation", "start"}, []string{"relation", "start", "steps"}},
	ioa.ProofBackward:         {[]string{"relation", "total"}, []string{"relation", "total", "steps"}},
	ioa.ProofHistory:          {[]string{"mapping", "start"}, []string{"mapping", "start"}},
}

// proofLoader loads one proof file.
type proofLoader struct {
	*fileLoader
	chk  *expr.Checker
	p    *ioa.Proof
	root *expr.Scope // sorts, enum constants and constants of C and A
	// ambiguous lists the names C and A declare differently, ambiguity
	// the error each use of one reports.
	ambiguous []string
	ambiguity []string
	uses      []autoUse // the automata named, as resolved (reuse.go)
}

// load builds the proof whose top-level mapping is root. It returns nil
// when the automata cannot be resolved.
func (pl *proofLoader) load(root *yaml.Node) *ioa.Proof {
	fs := pl.fields(root, nil, "a proof", proofKeys, []string{"proof", "kind", "concrete", "abstract"})
	if fs == nil {
		return nil
	}
	nameNode := fs["proof"].val
	name, ok := pl.scalar(nameNode, `"proof"`)
	if !ok {
		return nil
	}
	p := &ioa.Proof{Name: name, File: pl.f.path, Pos: pl.f.pos(nameNode)}
	pl.p = p
	if e, ok := fs["doc"]; ok {
		p.Doc = pl.doc(e.val)
	}
	if e, ok := fs["kind"]; ok {
		p.KindPos = pl.f.pos(e.val)
		if k, ok := pl.scalar(e.val, `"kind"`); ok {
			p.Kind = ioa.ParseProofKind(k)
			if p.Kind == ioa.ProofInvalid {
				pl.errorf(e.val, source.ErrModel, "unknown proof kind %q: expected refinement, simple-refinement, forward, backward or history", k)
			}
		}
	}
	if e, ok := fs["theorems"]; ok {
		pl.theorems(e.val)
	}
	if e, ok := fs["concrete"]; ok {
		p.Concrete, p.ConcretePos = pl.automaton(e.val, "concrete")
	}
	if e, ok := fs["abstract"]; ok {
		p.Abstract, p.AbstractPos = pl.automaton(e.val, "abstract")
	}
	if p.Kind == ioa.ProofInvalid || p.Concrete == nil || p.Abstract == nil {
		return nil
	}
	if p.Concrete.Scope == nil || p.Abstract.Scope == nil || p.Concrete.StateSort == nil || p.Abstract.StateSort == nil {
		return nil // the automaton could not be loaded; reported in its file
	}

	// Sections per kind.
	sec := proofSections[p.Kind]
	for _, k := range []string{"relation", "mapping", "start", "total", "steps"} {
		e, has := fs[k]
		switch {
		case has && !contains(sec.allowed, k):
			pl.errorf(e.key, source.ErrModel, "a %s proof has no %q section%s", p.Kind, k, sectionHint(p.Kind, k))
			delete(fs, k)
		case !has && contains(sec.required, k):
			pl.errorf(nameNode, source.ErrModel, "missing key %q: a %s proof needs %s", k, p.Kind, strings.Join(quoteAll(sec.required), " and "))
		}
	}

	pl.checkInterfaces()
	pl.scopes()
	pl.assume(fs["assume"])

	if e, ok := fs["relation"]; ok {
		pl.relation(e)
	}
	if e, ok := fs["mapping"]; ok {
		if p.Kind == ioa.ProofHistory {
			// f: states(A) → states(C), over a.
			p.Mapping = pl.stateMap(e, p.Concrete, pl.stateScope(p.A), "mapping", false)
		} else {
			p.Mapping = pl.stateMap(e, p.Abstract, pl.stateScope(p.C), "mapping", false)
		}
	}
	if e, ok := fs["start"]; ok {
		p.Start = pl.stateMap(e, p.Abstract, pl.stateScope(p.C), "start", false)
	}
	if e, ok := fs["total"]; ok {
		p.Total = pl.stateMap(e, p.Abstract, pl.stateScope(p.C), "total", false)
	}
	if p.Kind == ioa.ProofHistory {
		pl.historyActions()
	} else {
		pl.steps(fs["steps"], nameNode)
	}
	if e, ok := fs["strategy"]; ok {
		pl.proofStrategy(e) // strategy.go
	}
	return p
}

func sectionHint(k ioa.ProofKind, section string) string {
	switch {
	case k == ioa.ProofHistory && section == "steps":
		return ": a history mapping matches every action with the same-named one"
	case k.IsRefinement() && section == "relation":
		return ": a refinement gives a mapping; use kind forward for a relation"
	case (k == ioa.ProofForward || k == ioa.ProofBackward) && section == "mapping":
		return ": a simulation gives a relation; use kind refinement for a mapping"
	}
	return ""
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}

// isPath reports whether a proof names its automaton by the path of its
// file rather than by its name.
func isPath(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".yaml" || ext == ".yml" || strings.ContainsRune(name, '/')
}

// resolve returns the automaton a proof file (of fl) names name, at pos:
// the automaton of the file at that path relative to the proof's, or the
// loaded automaton of that name, or the library's; nil when there is none
// (after reporting an error when name is a path).
func (l *loader) resolve(fl *fileLoader, name string, pos source.Pos) *ioa.Automaton {
	if isPath(name) {
		return fl.automatonFile(name, pos)
	}
	if a := l.autoName[name]; a != nil {
		return a
	}
	return l.fromLibrary(name, pos)
}

// automaton resolves the automaton named (or the file named) by scalar n.
func (pl *proofLoader) automaton(n *yaml.Node, role string) (*ioa.Automaton, source.Pos) {
	pos := pl.f.pos(n)
	name, ok := pl.scalar(n, fmt.Sprintf("%q", role))
	if !ok {
		return nil, pos
	}
	if a := pl.l.resolve(pl.fileLoader, name, pos); a != nil {
		pl.uses = append(pl.uses, autoUse{name: name, pos: pos, auto: a})
		return a, pos
	} else if isPath(name) {
		return nil, pos // reported at n, or in the file
	}
	var known []string
	for n := range pl.l.autoName {
		known = append(known, n)
	}
	sort.Strings(known)
	msg := fmt.Sprintf("unknown automaton %q", name)
	if s := suggest(name, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else if len(known) == 0 {
		msg += " (no automaton is loaded: name its file, or load the specs with the proof)"
	}
	pl.errorf(n, source.ErrName, "%s", msg)
	return nil, pos
}

// checkInterfaces reports automata whose events are not shared: trace
// inclusion compares traces over one event vocabulary (LV95 §2: ext(C) = ext(A)).
func (pl *proofLoader) checkInterfaces() {
	c, a := pl.p.Concrete, pl.p.Abstract
	if c.Interface == a.Interface {
		return
	}
	desc := func(x *ioa.Automaton) string {
		if x.Interface == nil {
			return x.Name + " has no interface"
		}
		return fmt.Sprintf("%s uses interface %s (%s)", x.Name, x.Interface.Name, x.Interface.File)
	}
	pl.l.errs.Add(pl.p.AbstractPos, source.ErrModel, "the automata of an edge must share their events: %s, %s", desc(c), desc(a))
}

// scopes builds the proof's scopes: a root declaring the sorts, enum
// constants and constants of both automata, with the states c and a.
func (pl *proofLoader) scopes() {
	p := pl.p
	parent := pl.l.set.universe
	if p.Concrete.Interface != nil {
		parent = p.Concrete.Interface.Scope
	}
	pl.root = expr.NewScope(parent)
	// Names declared alike in both automata (an enum, a constant of the
	// same sort) resolve to the concrete automaton's object; names declared
	// differently are ambiguous and resolve to a bad object.
	for _, auto := range []*ioa.Automaton{p.Concrete, p.Abstract} {
		for _, o := range auto.Scope.Objects() {
			switch o.Kind {
			case expr.ObjSort, expr.ObjEnum, expr.ObjConst:
			default:
				continue
			}
			old := pl.root.LookupLocal(o.Name)
			if old == nil {
				pl.root.Insert(o)
				continue
			}
			if old.Kind != expr.ObjBad && (old.Kind != o.Kind || !expr.Identical(old.Sort, o.Sort)) {
				// Scope has no removal: shadow both in a fresh root.
				pl.ambiguous = append(pl.ambiguous, o.Name)
				pl.ambiguity = append(pl.ambiguity, fmt.Sprintf("%q is ambiguous in this proof: %s declares it as %s, %s as %s; rename one of them (give the algorithm's own names, e.g. its pc values, a prefix)",
					o.Name, p.Concrete.Name, describeObj(old), p.Abstract.Name, describeObj(o)))
			}
		}
	}
	if len(pl.ambiguous) > 0 {
		root := expr.NewScope(parent)
		amb := map[string]bool{}
		for _, n := range pl.ambiguous {
			amb[n] = true
		}
		msg := map[string]string{}
		for i, n := range pl.ambiguous {
			msg[n] = pl.ambiguity[i]
		}
		for _, o := range pl.root.Objects() {
			if amb[o.Name] {
				root.Insert(&expr.Object{Kind: expr.ObjBad, Name: o.Name, Sort: expr.InvalidSort, Pos: o.Pos, Owner: expr.Ambiguous(msg[o.Name])})
			} else {
				root.Insert(o)
			}
		}
		pl.root = root
	}
	p.Scope = expr.NewScope(pl.root)
	p.C = &expr.Object{Kind: expr.ObjState, Name: ioa.StateC, Sort: p.Concrete.StateSort, Pos: p.ConcretePos, Owner: p.Concrete}
	p.A = &expr.Object{Kind: expr.ObjState, Name: ioa.StateA, Sort: p.Abstract.StateSort, Pos: p.AbstractPos, Owner: p.Abstract}
	p.CPost = &expr.Object{Kind: expr.ObjState, Name: ioa.StateCPost, Sort: p.Concrete.StateSort, Pos: p.ConcretePos, Owner: p.Concrete}
	p.APre = &expr.Object{Kind: expr.ObjState, Name: ioa.StateAPre, Sort: p.Abstract.StateSort, Pos: p.AbstractPos, Owner: p.Abstract}
	p.Scope.Insert(p.C)
	p.Scope.Insert(p.A)
}

// describeObj describes a sort, enum constant or constant for the
// ambiguity error.
func describeObj(o *expr.Object) string {
	switch o.Kind {
	case expr.ObjSort:
		return "a sort"
	case expr.ObjEnum:
		return "a constant of the enum " + o.Sort.String() + " {" + strings.Join(o.Sort.Elems, ", ") + "}"
	}
	return "a constant of sort " + o.Sort.String()
}

// stateScope returns a scope over the root declaring only the given states.
func (pl *proofLoader) stateScope(states ...*expr.Object) *expr.Scope {
	sc := expr.NewScope(pl.root)
	for _, s := range states {
		sc.Insert(s)
	}
	return sc
}

// relation reads `relation: {name: predicate over c and a, ...}`.
func (pl *proofLoader) relation(e entry) {
	es, _ := pl.entries(e.val, `"relation"`, "relation clause")
	sc := pl.stateScope(pl.p.C, pl.p.A)
	for _, ce := range es {
		if !pl.checkName(ce.key, "relation clause") {
			continue
		}
		body := pl.parseExpr(ce.val, fmt.Sprintf("relation clause %q", ce.name()))
		if body == nil {
			body = badExpr(pl.f.pos(ce.val))
		} else {
			pl.chk.CheckExpr(body, sc, expr.BoolSort)
		}
		pl.p.Relation = append(pl.p.Relation, &ioa.Clause{Name: ce.name(), Pos: pl.f.pos(ce.key), Body: body})
	}
	if len(pl.p.Relation) == 0 {
		pl.errorf(e.key, source.ErrModel, "the relation has no clauses")
	}
}

// stateMap reads a mapping from the variables of target to expressions in
// sc. With partial set, unlisted variables keep their value in the proof's
// abstract state a (backward pre-state witnesses); otherwise every
// variable must be given.
func (pl *proofLoader) stateMap(e entry, target *ioa.Automaton, sc *expr.Scope, what string, partial bool) *ioa.StateMap {
	m := &ioa.StateMap{Pos: pl.f.pos(e.key), Target: target}
	es, _ := pl.entries(e.val, fmt.Sprintf("%q", what), "variable")
	given := map[string]*ioa.MapEntry{}
	for _, ve := range es {
		v := target.Var(ve.name())
		if v == nil {
			var names []string
			for _, x := range target.Vars {
				names = append(names, x.Name)
			}
			msg := fmt.Sprintf("unknown variable %q: %s has no state variable of that name", ve.name(), target.Name)
			if s := suggest(ve.name(), names); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			pl.errorf(ve.key, source.ErrName, "%s", msg)
			continue
		}
		val := pl.parseExpr(ve.val, fmt.Sprintf("the %s of variable %q", what, v.Name))
		if val == nil {
			val = badExpr(pl.f.pos(ve.val))
		} else {
			pl.chk.CheckExpr(val, sc, v.Sort)
		}
		given[v.Name] = &ioa.MapEntry{Var: v, Pos: pl.f.pos(ve.key), Value: val}
	}
	var missing []string
	for _, v := range target.Vars {
		if me := given[v.Name]; me != nil {
			m.Entries = append(m.Entries, me)
			continue
		}
		if partial {
			m.Entries = append(m.Entries, &ioa.MapEntry{Var: v, Pos: m.Pos, Value: pl.selectVar(pl.p.A, v, m.Pos), Default: true})
			continue
		}
		missing = append(missing, v.Name)
	}
	if len(missing) > 0 {
		pl.errorf(e.key, source.ErrModel, "the %s does not give %s variable%s %s: every variable of %s must be mapped exactly once",
			what, target.Name, plural(len(missing)), strings.Join(missing, ", "), target.Name)
	}
	return m
}

// selectVar returns the sorted expression st.v.
func (pl *proofLoader) selectVar(st *expr.Object, v *ioa.StateVar, pos source.Pos) expr.Expr {
	id := &expr.Ident{Name: st.Name, Obj: st}
	id.SetPos(pos)
	id.SetSort(st.Sort)
	fs := &expr.FieldSel{X: id, Name: v.Name, Field: v.Obj.Index}
	fs.SetPos(pos)
	fs.SetSort(v.Sort)
	return fs
}

// theorems reads `theorems: [X implements Y, X refines Y, X satisfies Y.P]`.
func (pl *proofLoader) theorems(n *yaml.Node) {
	for _, item := range pl.sequence(n, `"theorems"`, true) {
		text, ok := pl.scalar(item, "a theorem")
		if !ok {
			continue
		}
		f := strings.Fields(text)
		t := &ioa.TheoremClaim{Pos: pl.f.pos(item), Text: text}
		switch {
		case len(f) == 3 && (f[1] == "implements" || f[1] == "refines") && isIdent(f[0]) && isIdent(f[2]):
			t.Subject, t.Verb, t.Object = f[0], f[1], f[2]
		case len(f) == 3 && f[1] == "satisfies" && isIdent(f[0]) && strings.Count(f[2], ".") == 1:
			dot := strings.IndexByte(f[2], '.')
			t.Subject, t.Verb, t.Object, t.Invariant = f[0], f[1], f[2][:dot], f[2][dot+1:]
			if !isIdent(t.Object) || t.Invariant == "" {
				pl.errorf(item, source.ErrSyntax, "malformed theorem %q: expected X implements Y, X refines Y or X satisfies Y.P", text)
				continue
			}
		default:
			pl.errorf(item, source.ErrSyntax, "malformed theorem %q: expected X implements Y, X refines Y or X satisfies Y.P", text)
			continue
		}
		pl.p.Theorems = append(pl.p.Theorems, t)
	}
}

// ---- step correspondence ----

// AssumeLists returns the names a proof file's `assume:` section lists,
// as written and unresolved: present reports whether each list is there
// (a missing concrete list assumes every invariant of the concrete
// automaton). It lets a tool rewrite the section of a proof whose
// automata no longer declare the invariants it names.
func AssumeLists(text []byte) (concrete, abstract []string, present [2]bool, err error) {
	var doc struct {
		Assume struct {
			Concrete *[]string `yaml:"concrete"`
			Abstract *[]string `yaml:"abstract"`
		} `yaml:"assume"`
	}
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, nil, present, err
	}
	if c := doc.Assume.Concrete; c != nil {
		concrete, present[0] = *c, true
	}
	if a := doc.Assume.Abstract; a != nil {
		abstract, present[1] = *a, true
	}
	return concrete, abstract, present, nil
}
