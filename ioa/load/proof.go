// This file loads proof files (docs/proofs.md): one edge C → A of a
// hierarchy with its relation or mapping, witnesses, step correspondence
// and expected theorems, into an ioa.Proof.
//
// A proof names its automata, by name or by file path, and they may be
// declared in files read after it, so loadProof only records the file and
// loadProofs, run once every file is read, builds the models.

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
}

// LoadedProofs returns the edges of the proof files that loaded, in load
// order.
func (s *Set) LoadedProofs() []*ioa.Proof {
	var out []*ioa.Proof
	for _, p := range s.Proofs {
		if p.Proof != nil {
			out = append(out, p.Proof)
		}
	}
	return out
}

// loadProof records a proof file; loadProofs loads it once every file has
// been read.
func (fl *fileLoader) loadProof(root *yaml.Node) *ProofFile {
	p := &ProofFile{File: fl.f.path, Pos: fl.f.pos(root), fl: fl, root: root}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k, v := root.Content[i], root.Content[i+1]; k.Value == "proof" && v.Kind == yaml.ScalarNode {
			p.Name, p.Pos = v.Value, fl.f.pos(v)
		}
	}
	fl.l.set.Proofs = append(fl.l.set.Proofs, p)
	return p
}

// loadProofs loads every recorded proof file. Files loads it after reading
// all files, so that proofs may name automata declared anywhere in the set.
func (l *loader) loadProofs() {
	seen := map[string]*ProofFile{}
	for _, pf := range l.set.Proofs {
		if pf.root == nil || pf.Proof != nil {
			continue
		}
		if old := seen[pf.Name]; old != nil && pf.Name != "" {
			l.errs.Add(pf.Pos, source.ErrName, "proof %q is already declared at %s", pf.Name, old.Pos)
		}
		seen[pf.Name] = pf
		pf.Proof = l.loadProof1(pf)
		pf.root = nil
	}
}

// loadProof1 loads one proof file; a bug in a later phase is reported as an
// internal error at the file rather than crash the loader.
func (l *loader) loadProof1(pf *ProofFile) (p *ioa.Proof) {
	defer func() {
		if r := recover(); r != nil {
			l.errs.Add(source.Pos{File: pf.File, Line: 1, Col: 1}, source.ErrInternal, "internal error while loading proof: %v", r)
			p = nil
		}
	}()
	pl := &proofLoader{fileLoader: pf.fl, chk: NewChecker(&l.errs)}
	return pl.load(pf.root)
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

// automaton resolves the automaton named (or the file named) by scalar n.
func (pl *proofLoader) automaton(n *yaml.Node, role string) (*ioa.Automaton, source.Pos) {
	pos := pl.f.pos(n)
	name, ok := pl.scalar(n, fmt.Sprintf("%q", role))
	if !ok {
		return nil, pos
	}
	if ext := filepath.Ext(name); ext == ".yaml" || ext == ".yml" || strings.ContainsRune(name, '/') {
		return pl.automatonRef(n), pos
	}
	if a := pl.l.autoName[name]; a != nil {
		return a, pos
	}
	if a := pl.l.fromLibrary(name, pos); a != nil {
		return a, pos
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

// assume reads `assume: {concrete: [names], abstract: [names]}`.
func (pl *proofLoader) assume(e entry) {
	p := pl.p
	var cNode, aNode *yaml.Node
	if e.key != nil {
		fs := pl.fields(e.val, e.key, `"assume"`, []string{"concrete", "abstract"}, nil)
		if x, ok := fs["concrete"]; ok {
			cNode = x.val
		}
		if x, ok := fs["abstract"]; ok {
			aNode = x.val
			if p.Kind == ioa.ProofBackward && len(pl.sequence(x.val, "", true)) > 0 {
				pl.errorf(x.key, source.ErrModel, "a backward simulation may not assume abstract invariants: the abstract states it relates need not be reachable (docs/proofs.md, \"Edges\"); make them part of the relation")
				aNode = nil
			}
		}
	}
	if cNode == nil {
		for _, inv := range p.Concrete.Invariants {
			p.AssumeConcrete = append(p.AssumeConcrete, &ioa.InvariantRef{Name: inv.Name, Pos: inv.Pos, Inv: inv, Implicit: true})
		}
	} else {
		p.AssumeConcrete = pl.invariantRefs(cNode, p.Concrete, "concrete")
	}
	if aNode != nil {
		p.AssumeAbstract = pl.invariantRefs(aNode, p.Abstract, "abstract")
	}
}

func (pl *proofLoader) invariantRefs(n *yaml.Node, auto *ioa.Automaton, role string) []*ioa.InvariantRef {
	var out []*ioa.InvariantRef
	seen := map[string]bool{}
	for _, item := range pl.sequence(n, fmt.Sprintf("the assumed %s invariants", role), true) {
		name, ok := pl.scalar(item, "an invariant name")
		if !ok {
			continue
		}
		if seen[name] {
			pl.errorf(item, source.ErrName, "invariant %q is listed twice", name)
			continue
		}
		if x, pn, ok := strings.Cut(name, "."); ok {
			if r := pl.transferRef(item, auto, x, pn); r != nil {
				seen[name] = true
				out = append(out, r)
			}
			continue
		}
		inv := pl.invariantOf(item, auto, name)
		if inv == nil {
			continue
		}
		seen[name] = true
		out = append(out, &ioa.InvariantRef{Name: name, Pos: pl.f.pos(item), Inv: inv})
	}
	return out
}

// invariantOf returns the invariant name of auto, or reports at item that
// there is none (with a suggestion) and returns nil.
func (pl *proofLoader) invariantOf(item *yaml.Node, auto *ioa.Automaton, name string) *ioa.Invariant {
	if inv := auto.Invariant(name); inv != nil {
		return inv
	}
	var names []string
	for _, i := range auto.Invariants {
		names = append(names, i.Name)
	}
	msg := fmt.Sprintf("unknown invariant %q: %s has no such invariant", name, auto.Name)
	if s := suggest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	pl.errorf(item, source.ErrName, "%s", msg)
	return nil
}

// transferRef resolves a qualified name X.P of an assume list: the
// invariant P of automaton X, to be assumed of auto by invariant transfer.
// Its chain of refinements is found once every proof is loaded
// (resolveTransfers).
func (pl *proofLoader) transferRef(item *yaml.Node, auto *ioa.Automaton, x, name string) *ioa.InvariantRef {
	src := pl.l.autoName[x]
	switch {
	case src == nil:
		pl.errorf(item, source.ErrName, "unknown automaton %q in %q: a qualified name X.P names invariant P of a loaded automaton X", x, x+"."+name)
		return nil
	case src == auto:
		pl.errorf(item, source.ErrName, "%q is an invariant of %s itself: write %q", x+"."+name, auto.Name, name)
		return nil
	}
	inv := pl.invariantOf(item, src, name)
	if inv == nil {
		return nil
	}
	return &ioa.InvariantRef{Name: x + "." + name, Pos: pl.f.pos(item), Inv: inv, Source: src}
}

// resolveTransfers finds, for every invariant a proof assumes by transfer
// (X.P), the chain of refinement mappings among the other loaded proofs
// from the automaton it is assumed of to X. Refinement and simple
// refinement edges map C to A, history edges A to C (LV95 §5). There must
// be exactly one simple chain: with two, the transferred predicate P∘g
// would depend on which mappings were composed.
func (l *loader) resolveTransfers() {
	proofs := l.set.LoadedProofs()
	for _, p := range proofs {
		for _, side := range []struct {
			refs  []*ioa.InvariantRef
			owner *ioa.Automaton
		}{{p.AssumeConcrete, p.Concrete}, {p.AssumeAbstract, p.Abstract}} {
			for _, r := range side.refs {
				if !r.Transferred() {
					continue
				}
				chains := refinementChains(proofs, p, side.owner, r.Source)
				switch len(chains) {
				case 0:
					l.errs.Add(r.Pos, source.ErrModel, "cannot assume %s of %s: no chain of refinement mappings (refinement or history proofs) leads from %s to %s among the loaded proofs; load the proof files of the chain",
						r.Name, side.owner.Name, side.owner.Name, r.Source.Name)
				case 1:
					r.Chain = chains[0]
				default:
					var alts []string
					for _, c := range chains {
						alts = append(alts, chainString(c))
					}
					l.errs.Add(r.Pos, source.ErrModel, "cannot assume %s of %s: several chains of refinement mappings lead to %s (%s), so the transferred invariant is not determined",
						r.Name, side.owner.Name, r.Source.Name, strings.Join(alts, "; "))
				}
			}
		}
	}
}

// refinementChains returns every simple chain of refinement mappings from
// automaton from to automaton to through the proofs other than self.
func refinementChains(proofs []*ioa.Proof, self *ioa.Proof, from, to *ioa.Automaton) [][]*ioa.Proof {
	var out [][]*ioa.Proof
	visited := map[*ioa.Automaton]bool{from: true}
	var path []*ioa.Proof
	var walk func(at *ioa.Automaton)
	walk = func(at *ioa.Automaton) {
		if at == to {
			out = append(out, append([]*ioa.Proof(nil), path...))
			return
		}
		for _, q := range proofs {
			target, _, ok := q.MapsTo()
			if q == self || !ok || q.MapsFrom() != at || visited[target] {
				continue
			}
			visited[target] = true
			path = append(path, q)
			walk(target)
			path = path[:len(path)-1]
			visited[target] = false
		}
	}
	walk(from)
	return out
}

func chainString(c []*ioa.Proof) string {
	var names []string
	for _, q := range c {
		names = append(names, q.Name)
	}
	return strings.Join(names, " then ")
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

// stepScope returns the scope of a concrete action's step correspondence:
// its parameters, c, a, cpost and, for backward simulations, apre.
func (pl *proofLoader) stepScope(act *ioa.Action, at *yaml.Node) *expr.Scope {
	p := pl.p
	states := []*expr.Object{p.C, p.A, p.CPost}
	if p.Kind == ioa.ProofBackward {
		states = append(states, p.APre)
	}
	sc := pl.stateScope(states...)
	for _, b := range act.Params {
		if old := sc.LookupLocal(b.Var.Name); old != nil {
			pl.errorf(at, source.ErrName, "parameter %q of action %s has the name of the state %s: rename the parameter", b.Var.Name, act.Name, old.Name)
			continue
		}
		sc.Insert(b.Var)
	}
	return sc
}

// steps reads `steps:`, one entry per concrete action, and adds the
// implicit entries of the actions it does not list.
func (pl *proofLoader) steps(e entry, nameNode *yaml.Node) {
	p := pl.p
	listed := map[string]entry{}
	if e.key != nil {
		es, _ := pl.entries(e.val, `"steps"`, "steps entry")
		for _, se := range es {
			if p.Concrete.Action(se.name()) == nil {
				var names []string
				for _, a := range p.Concrete.Actions {
					names = append(names, a.Name)
				}
				msg := fmt.Sprintf("unknown action %q: %s has no action of that name", se.name(), p.Concrete.Name)
				if s := suggest(se.name(), names); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				pl.errorf(se.key, source.ErrName, "%s", msg)
				continue
			}
			listed[se.name()] = se
		}
	}
	blame := nameNode
	if e.key != nil {
		blame = e.key
	}
	for _, act := range p.Concrete.Actions {
		if se, ok := listed[act.Name]; ok {
			sm := &ioa.StepMatch{Action: act, Pos: pl.f.pos(se.key)}
			sm.Scope = pl.stepScope(act, se.key)
			sm.Cases = pl.cases(act, se.val, sm.Scope)
			p.Steps = append(p.Steps, sm)
			continue
		}
		if sm := pl.implicitStep(act, blame); sm != nil {
			p.Steps = append(p.Steps, sm)
		}
	}
}

// implicitStep returns the correspondence of an action with no `steps:`
// entry: the same-named abstract action with the same arguments.
func (pl *proofLoader) implicitStep(act *ioa.Action, blame *yaml.Node) *ioa.StepMatch {
	p := pl.p
	abs := p.Abstract.Action(act.Name)
	if abs == nil {
		pl.errorf(blame, source.ErrModel, "missing steps entry for action %s of %s: %s has no action %s to match it implicitly",
			act.Name, p.Concrete.Name, p.Abstract.Name, act.Name)
		return nil
	}
	if why := sameParams(act, abs); why != "" {
		pl.errorf(blame, source.ErrModel, "missing steps entry for action %s of %s: it cannot match %s's %s implicitly (%s)",
			act.Name, p.Concrete.Name, p.Abstract.Name, abs.Name, why)
		return nil
	}
	pos := pl.f.pos(blame)
	sm := &ioa.StepMatch{Action: act, Pos: pos, Implicit: true, Scope: pl.stepScope(act, blame)}
	step := &ioa.AbstractStep{Pos: pos, Action: abs}
	for _, b := range act.Params {
		id := &expr.Ident{Name: b.Var.Name, Obj: b.Var}
		id.SetPos(pos)
		id.SetSort(b.Var.Sort)
		step.Args = append(step.Args, id)
	}
	c := &ioa.Case{Index: 1, Pos: pos, Steps: []*ioa.AbstractStep{step}}
	if p.Kind == ioa.ProofBackward {
		c.Pre = pl.defaultPre(pos)
	}
	sm.Cases = []*ioa.Case{c}
	pl.checkEvents(act, c)
	return sm
}

// sameParams explains why abstract action abs cannot take the parameters
// of act unchanged, or returns "".
func sameParams(act, abs *ioa.Action) string {
	if len(act.Params) != len(abs.Params) {
		return fmt.Sprintf("%d parameter%s against %d", len(act.Params), plural(len(act.Params)), len(abs.Params))
	}
	for i, b := range act.Params {
		if !expr.Assignable(b.Var.Sort, abs.Params[i].Var.Sort) {
			return fmt.Sprintf("parameter %s is %s, %s's %s is %s", b.Var.Name, b.Var.Sort, abs.Name, abs.Params[i].Var.Name, abs.Params[i].Var.Sort)
		}
	}
	return ""
}

// defaultPre returns the backward pre-state witness that keeps every
// variable of a.
func (pl *proofLoader) defaultPre(pos source.Pos) *ioa.StateMap {
	m := &ioa.StateMap{Pos: pos, Target: pl.p.Abstract}
	for _, v := range pl.p.Abstract.Vars {
		m.Entries = append(m.Entries, &ioa.MapEntry{Var: v, Pos: pos, Value: pl.selectVar(pl.p.A, v, pos), Default: true})
	}
	return m
}

// cases reads the value of a steps entry: a call, a list of calls (one
// case), a mapping {when, steps, pre} (one case), or a list of such
// mappings (cases in order).
func (pl *proofLoader) cases(act *ioa.Action, n *yaml.Node, sc *expr.Scope) []*ioa.Case {
	if !pl.noAlias(n) {
		return nil
	}
	var out []*ioa.Case
	switch {
	case n.Kind == yaml.MappingNode:
		out = append(out, pl.caseMap(act, n, sc, 1))
	case n.Kind == yaml.SequenceNode && len(n.Content) > 0 && n.Content[0].Kind == yaml.MappingNode:
		for i, item := range n.Content {
			if item.Kind != yaml.MappingNode {
				pl.errorf(item, source.ErrModel, "expected a case {when, steps} like the others, found %s", kindName(item))
				continue
			}
			out = append(out, pl.caseMap(act, item, sc, i+1))
		}
		for _, c := range out[:max(len(out)-1, 0)] {
			if c.When == nil {
				pl.l.errs.Add(c.Pos, source.ErrModel, "case %d of action %s has no `when`: only the last case may omit it", c.Index, act.Name)
			}
		}
	default:
		c := &ioa.Case{Index: 1, Pos: pl.f.pos(n)}
		c.Steps = pl.calls(n, sc)
		out = append(out, c)
	}
	for _, c := range out {
		if pl.p.Kind == ioa.ProofBackward && c.Pre == nil {
			c.Pre = pl.defaultPre(c.Pos)
		}
		if pl.p.Kind == ioa.ProofSimpleRefinement && len(c.Steps) > 1 {
			pl.l.errs.Add(c.Steps[1].Pos, source.ErrModel, "a simple refinement matches each concrete step with at most one abstract step; use kind refinement")
		}
		pl.checkEvents(act, c)
	}
	return out
}

// caseMap reads one case `{when: guard, steps: calls, pre: witness}`.
func (pl *proofLoader) caseMap(act *ioa.Action, n *yaml.Node, sc *expr.Scope, index int) *ioa.Case {
	c := &ioa.Case{Index: index, Pos: pl.f.pos(n)}
	allowed := []string{"when", "steps", "strategy"}
	if pl.p.Kind == ioa.ProofBackward {
		allowed = append(allowed, "pre")
	}
	fs := pl.fields(n, nil, fmt.Sprintf("case %d of action %s", index, act.Name), allowed, []string{"steps"})
	if w, ok := fs["when"]; ok {
		c.When = pl.parseExpr(w.val, fmt.Sprintf("the guard of case %d of action %s", index, act.Name))
		if c.When != nil {
			pl.chk.CheckExpr(c.When, sc, expr.BoolSort)
		}
	}
	if s, ok := fs["steps"]; ok {
		c.Steps = pl.calls(s.val, sc)
	}
	if pre, ok := fs["pre"]; ok {
		c.Pre = pl.stateMap(pre, pl.p.Abstract, sc, "pre-state witness", true)
	}
	if st, ok := fs["strategy"]; ok {
		pl.caseStrategy(act, c, st, sc) // strategy.go
	}
	return c
}

// calls reads a list of abstract action calls: a scalar `Act(args)` or a
// sequence of them; `[]` is the empty list (a stutter).
func (pl *proofLoader) calls(n *yaml.Node, sc *expr.Scope) []*ioa.AbstractStep {
	if isNull(n) || !pl.noAlias(n) {
		return nil
	}
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
		if n.Style&yaml.FlowStyle != 0 {
			for _, it := range items {
				if it.Kind == yaml.ScalarNode && strings.Count(it.Value, "(") != strings.Count(it.Value, ")") {
					pl.errorf(n, source.ErrSyntax, "in a YAML flow sequence [...] commas separate items, which splits calls with several arguments: write one `- Action(args)` per line")
					return nil
				}
			}
		}
	}
	var out []*ioa.AbstractStep
	for _, it := range items {
		if s := pl.call(it, sc); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// call reads one abstract step `Act(args)` (or `Act` with no parameters)
// and checks its arguments against the abstract action's parameter sorts.
func (pl *proofLoader) call(n *yaml.Node, sc *expr.Scope) *ioa.AbstractStep {
	x := pl.parseExpr(n, "an abstract step")
	if x == nil {
		return nil
	}
	var fun *expr.Ident
	var args []expr.Expr
	switch x := x.(type) {
	case *expr.Ident:
		fun = x
	case *expr.Call:
		if x.Recv == nil {
			fun, args = x.Fun, x.Args
		}
	}
	if fun == nil {
		pl.l.errs.Add(x.Pos(), source.ErrModel, "an abstract step is an action of %s applied to arguments, Action(args)", pl.p.Abstract.Name)
		return nil
	}
	abs := pl.p.Abstract.Action(fun.Name)
	if abs == nil {
		var names []string
		for _, a := range pl.p.Abstract.Actions {
			names = append(names, a.Name)
		}
		msg := fmt.Sprintf("unknown abstract action %q: %s has no action of that name", fun.Name, pl.p.Abstract.Name)
		if s := suggest(fun.Name, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		pl.l.errs.Add(fun.Pos(), source.ErrName, "%s", msg)
		return nil
	}
	if len(args) != len(abs.Params) {
		pl.l.errs.Add(fun.Pos(), source.ErrSort, "abstract action %s takes %d argument%s, found %d", abs.Name, len(abs.Params), plural(len(abs.Params)), len(args))
		return nil
	}
	for i, arg := range args {
		want := abs.Params[i].Var.Sort
		pl.chk.CheckExpr(arg, sc, want)
	}
	return &ioa.AbstractStep{Pos: x.Pos(), Action: abs, Args: args}
}

// checkEvents checks that a case matches the concrete action's event: an
// external action needs exactly one external abstract step, mapped to the
// same event; an internal action needs none (LV95 Def. 3.5, move).
// The equality of the event arguments is an obligation (clause event).
func (pl *proofLoader) checkEvents(act *ioa.Action, c *ioa.Case) {
	var ext []*ioa.AbstractStep
	for _, s := range c.Steps {
		if s.Action.Kind.External() {
			ext = append(ext, s)
		}
	}
	where := fmt.Sprintf("case %d of action %s", c.Index, act.Name)
	switch {
	case !act.Kind.External() && len(ext) > 0:
		pl.l.errs.Add(ext[0].Pos, source.ErrModel, "%s is internal but abstract step %s is external: an internal step must match internal abstract steps only", where, ext[0].Action.Name)
	case act.Kind.External() && len(ext) == 0:
		pl.l.errs.Add(c.Pos, source.ErrModel, "%s is external (event %s) but its abstract steps contain no external action", where, eventName(act))
	case act.Kind.External() && len(ext) > 1:
		pl.l.errs.Add(ext[1].Pos, source.ErrModel, "%s is external but its abstract steps contain %d external actions: the trace must be the one event %s", where, len(ext), eventName(act))
	case act.Kind.External() && act.View != nil && ext[0].Action.View != nil && act.View.Event.Name != ext[0].Action.View.Event.Name:
		pl.l.errs.Add(ext[0].Pos, source.ErrModel, "events must be equal: concrete %s maps to event %s, abstract %s to event %s",
			act.Name, act.View.Event.Name, ext[0].Action.Name, ext[0].Action.View.Event.Name)
	case act.Kind.External() && act.Kind != ext[0].Action.Kind:
		pl.l.errs.Add(ext[0].Pos, source.ErrModel, "concrete %s is an %s action, abstract %s an %s action", act.Name, act.Kind, ext[0].Action.Name, ext[0].Action.Kind)
	}
}

func eventName(act *ioa.Action) string {
	if act.View == nil || act.View.Event == nil {
		return "?"
	}
	return act.View.Event.Name
}

// historyActions checks that the actions of C and A correspond by name,
// with the same kinds, parameter sorts and events, as a history mapping's
// combined rule requires (docs/proofs.md, kind history).
func (pl *proofLoader) historyActions() {
	p := pl.p
	for _, ca := range p.Concrete.Actions {
		aa := p.Abstract.Action(ca.Name)
		if aa == nil {
			pl.l.errs.Add(p.AbstractPos, source.ErrModel, "history mapping: %s has no action %s (every action must exist on both sides)", p.Abstract.Name, ca.Name)
			continue
		}
		if why := sameParams(ca, aa); why != "" {
			pl.l.errs.Add(p.AbstractPos, source.ErrModel, "history mapping: action %s differs between %s and %s: %s", ca.Name, p.Concrete.Name, p.Abstract.Name, why)
			continue
		}
		if ca.Kind != aa.Kind {
			pl.l.errs.Add(p.AbstractPos, source.ErrModel, "history mapping: action %s is %s in %s and %s in %s", ca.Name, ca.Kind, p.Concrete.Name, aa.Kind, p.Abstract.Name)
			continue
		}
		if ca.View != nil && aa.View != nil && ca.View.Event.Name != aa.View.Event.Name {
			pl.l.errs.Add(p.AbstractPos, source.ErrModel, "history mapping: events must be equal: %s maps to %s in %s and to %s in %s",
				ca.Name, ca.View.Event.Name, p.Concrete.Name, aa.View.Event.Name, p.Abstract.Name)
		}
	}
	for _, aa := range p.Abstract.Actions {
		if p.Concrete.Action(aa.Name) == nil {
			pl.l.errs.Add(p.AbstractPos, source.ErrModel, "history mapping: %s has no action %s (every action must exist on both sides)", p.Concrete.Name, aa.Name)
		}
	}
}

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
