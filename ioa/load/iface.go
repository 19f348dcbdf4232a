// This file loads interface files and the sort declarations that interfaces
// and automata share.

package load

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// loadInterface loads an interface file whose top-level mapping is root.
func (fl *fileLoader) loadInterface(root *yaml.Node) *ioa.Interface {
	fs := fl.fields(root, nil, "an interface", []string{"interface", "doc", "sorts", "symmetry", "events"}, []string{"interface", "events"})
	if fs == nil {
		return nil
	}
	nameNode := fs["interface"].val
	name, ok := fl.scalar(nameNode, `"interface"`)
	if !ok || !fl.checkName(nameNode, "interface") {
		return nil
	}
	it := &ioa.Interface{Name: name, File: fl.f.path, Pos: fl.f.pos(nameNode)}
	fl.l.declareInterface(it)
	if e, ok := fs["doc"]; ok {
		it.Doc = fl.doc(e.val)
	}
	it.Scope = expr.NewScope(fl.l.set.universe)
	chk := NewChecker(&fl.l.errs)
	if e, ok := fs["sorts"]; ok {
		it.Sorts = fl.declSorts(e.val, it.Scope, chk, it, "")
	}
	if e, ok := fs["symmetry"]; ok {
		fl.symmetry(it, e)
	}
	events, _ := fl.entries(fs["events"].val, `"events"`, "event")
	for _, e := range events {
		if !fl.checkName(e.key, "event") {
			continue
		}
		ev := &ioa.Event{Name: e.name(), Pos: fl.f.pos(e.key)}
		ev.Params = fl.params(e.val, fmt.Sprintf("the parameters of event %q", ev.Name), it.Scope, chk)
		ev.Obj = &expr.Object{Kind: expr.ObjEvent, Name: ev.Name, Pos: ev.Pos, Params: ev.Params, Owner: it}
		if fl.declare(it.Scope, ev.Obj, e.key) {
			it.Events = append(it.Events, ev)
		}
	}
	return it
}

// doc returns the text of a doc scalar.
func (fl *fileLoader) doc(n *yaml.Node) string {
	s, _ := fl.scalar(n, `"doc"`)
	return s
}

// params reads a mapping from parameter names to sorts (event and definition
// parameters) into ObjBound objects.
func (fl *fileLoader) params(n *yaml.Node, what string, sc *expr.Scope, chk *expr.Checker) []*expr.Object {
	es, _ := fl.entries(n, what, "parameter")
	var out []*expr.Object
	for i, e := range es {
		if !fl.checkName(e.key, "parameter") {
			continue
		}
		s := fl.sortOf(e.val, fmt.Sprintf("the sort of parameter %q", e.name()), sc, chk)
		out = append(out, &expr.Object{Kind: expr.ObjBound, Name: e.name(), Sort: s, Pos: fl.f.pos(e.key), Index: i})
	}
	return out
}

// sortOf parses and resolves the sort written in scalar n.
func (fl *fileLoader) sortOf(n *yaml.Node, what string, sc *expr.Scope, chk *expr.Checker) *expr.Sort {
	text, ok := fl.scalar(n, what)
	if !ok {
		return expr.InvalidSort
	}
	se, errs := expr.ParseSortExpr(text, fl.f.mapper(n))
	fl.l.errs.Append(errs)
	if se == nil || len(errs) > 0 {
		return expr.InvalidSort
	}
	s := chk.ResolveSort(se, sc)
	if s == nil {
		return expr.InvalidSort
	}
	return s
}

// isConstructor reports whether name is a sort constructor.
func isConstructor(name string) bool {
	switch name {
	case "Map", "Set", "Seq", "Option":
		return true
	}
	return false
}

// declSorts reads a `sorts:` mapping, declaring each sort (and each enum
// constant) in sc with the given owner, and returns the new named sorts
// (parameter sorts, enums and records) in order; aliases are only declared.
// forbidden is a name a sort may not take (the automaton's, which names its
// state sort).
func (fl *fileLoader) declSorts(n *yaml.Node, sc *expr.Scope, chk *expr.Checker, owner any, forbidden string) []*expr.Sort {
	es, _ := fl.entries(n, `"sorts"`, "sort")
	var out []*expr.Sort
	for _, e := range es {
		name := e.name()
		if !fl.checkName(e.key, "sort") {
			continue
		}
		if isConstructor(name) {
			fl.errorf(e.key, source.ErrName, "%q is predeclared as a sort constructor", name)
			continue
		}
		if name == forbidden && forbidden != "" {
			fl.errorf(e.key, source.ErrName, "sort %q has the name of its automaton, which names the automaton's state", name)
			continue
		}
		var s *expr.Sort
		var consts []*yaml.Node
		named := true
		switch {
		case e.val.Kind == yaml.ScalarNode && !isNull(e.val) && e.val.Value == "param":
			s = &expr.Sort{Kind: expr.KParam, Name: name}
		case e.val.Kind == yaml.ScalarNode && !isNull(e.val):
			s = fl.sortOf(e.val, fmt.Sprintf("sort %q", name), sc, chk)
			named = false
		default:
			s, consts = fl.compoundSort(e, sc, chk)
		}
		if s == nil {
			continue
		}
		obj := &expr.Object{Kind: expr.ObjSort, Name: name, Sort: s, Pos: fl.f.pos(e.key), Owner: owner}
		if !fl.declare(sc, obj, e.key) {
			continue
		}
		if named && !s.IsInvalid() {
			out = append(out, s)
		}
		for i, c := range consts {
			obj := &expr.Object{Kind: expr.ObjEnum, Name: c.Value, Sort: s, Pos: fl.f.pos(c), Index: i, Owner: owner}
			fl.declare(sc, obj, c)
		}
	}
	return out
}

// compoundSort reads `{enum: [A, B]}` or `{record: {f: S}}`. For an enum it
// also returns the nodes of the constants.
func (fl *fileLoader) compoundSort(e entry, sc *expr.Scope, chk *expr.Checker) (*expr.Sort, []*yaml.Node) {
	what := fmt.Sprintf("sort %q", e.name())
	fs := fl.fields(e.val, e.key, what, []string{"enum", "record", "doc"}, nil)
	if fs == nil {
		return nil, nil
	}
	en, isEnum := fs["enum"]
	rec, isRec := fs["record"]
	switch {
	case isEnum && isRec:
		fl.errorf(rec.key, source.ErrModel, "sort %q is either an enum or a record", e.name())
		return nil, nil
	case isEnum:
		s := &expr.Sort{Kind: expr.KEnum, Name: e.name()}
		var nodes []*yaml.Node
		seen := map[string]bool{}
		for _, c := range fl.sequence(en.val, fmt.Sprintf("the constants of enum %q", e.name()), false) {
			name, ok := fl.scalar(c, "an enum constant")
			if !ok || !fl.checkName(c, "enum constant") {
				continue
			}
			if seen[name] {
				fl.errorf(c, source.ErrName, "duplicate enum constant %q", name)
				continue
			}
			seen[name] = true
			s.Elems = append(s.Elems, name)
			nodes = append(nodes, c)
		}
		if len(s.Elems) == 0 {
			fl.errorf(en.val, source.ErrModel, "enum %q has no constants", e.name())
			return nil, nil
		}
		return s, nodes
	case isRec:
		s := &expr.Sort{Kind: expr.KRecord, Name: e.name()}
		fields, _ := fl.entries(rec.val, fmt.Sprintf("the fields of record %q", e.name()), "field")
		for _, f := range fields {
			if !fl.checkName(f.key, "field") {
				continue
			}
			fs := fl.sortOf(f.val, fmt.Sprintf("the sort of field %q", f.name()), sc, chk)
			s.Fields = append(s.Fields, expr.Field{Name: f.name(), Sort: fs})
		}
		return s, nil
	}
	fl.errorf(e.key, source.ErrModel, "sort %q needs a key enum or record, or a sort such as param or Map[K, V]", e.name())
	return nil, nil
}

// symmetry reads `symmetry: [T, L]`: parameter sorts of the interface,
// each once.
func (fl *fileLoader) symmetry(it *ioa.Interface, e entry) {
	it.SymmetryPos = fl.f.pos(e.key)
	it.Symmetry = []string{}
	for _, n := range fl.names(e.val, `"symmetry"`) {
		name := n.Value
		var s *expr.Sort
		for _, x := range it.Sorts {
			if x != nil && x.Name == name {
				s = x
			}
		}
		switch {
		case s == nil:
			fl.errorf(n, source.ErrName, "symmetry: %q is not a sort of interface %s", name, it.Name)
		case s.Kind != expr.KParam:
			fl.errorf(n, source.ErrModel, "symmetry: %s is not a parameter sort (only the elements of a `param` sort can be permuted)", name)
		case contains(it.Symmetry, name):
			fl.errorf(n, source.ErrModel, "symmetry: %s is given twice", name)
		default:
			it.Symmetry = append(it.Symmetry, name)
		}
	}
}
