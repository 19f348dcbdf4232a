// This file loads automaton files.

package load

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// The keys of an automaton file, in the order of docs/language.md.
var automatonKeys = []string{"automaton", "interface", "doc", "sorts", "constants", "definitions",
	"state", "initially", "final", "actions", "invariants", "view"}

// autoLoader loads one automaton.
type autoLoader struct {
	*fileLoader
	a     *ioa.Automaton
	chk   *expr.Checker
	decls []*decl // constants with values and definitions, in declaration order
	// badKind records the actions whose kind was reported as wrong, whose
	// view is not checked.
	badKind map[*ioa.Action]bool
	// readers maps the constants and definitions that read the state to
	// their declarations (set by checkDecls).
	readers map[*expr.Object]*decl
}

// loadAutomaton loads an automaton file whose top-level mapping is root.
func (fl *fileLoader) loadAutomaton(root *yaml.Node) *ioa.Automaton {
	fs := fl.fields(root, nil, "an automaton", automatonKeys, []string{"automaton", "state", "actions"})
	if fs == nil {
		return nil
	}
	nameNode := fs["automaton"].val
	name, ok := fl.scalar(nameNode, `"automaton"`)
	if !ok || !fl.checkName(nameNode, "automaton") {
		return nil
	}
	a := &ioa.Automaton{Name: name, File: fl.f.path, Pos: fl.f.pos(nameNode)}
	fl.l.declareAutomaton(a)
	if e, ok := fs["doc"]; ok {
		a.Doc = fl.doc(e.val)
	}
	a.StateSort = &expr.Sort{Kind: expr.KRecord, Name: a.Name, State: a}
	parent := fl.l.set.universe
	if e, ok := fs["interface"]; ok {
		a.Interface = fl.interfaceRef(e.val)
		if a.Interface == nil {
			// Without its interface the automaton's sorts and events are
			// unknown: checking it would only report follow-on errors.
			a.Scope = expr.NewScope(parent)
			return a
		}
		parent = a.Interface.Scope
		a.Sorts = append(a.Sorts, a.Interface.Sorts...)
	}
	a.Scope = expr.NewScope(parent)
	al := &autoLoader{fileLoader: fl, a: a, chk: NewChecker(&fl.l.errs), badKind: map[*ioa.Action]bool{}}

	// Declarations first, so that bodies may refer to later declarations.
	if e, ok := fs["sorts"]; ok {
		a.Sorts = append(a.Sorts, fl.declSorts(e.val, a.Scope, al.chk, a, a.Name)...)
	}
	al.constants(fs["constants"].val)
	al.definitions(fs["definitions"].val)
	al.state(fs["state"].val)

	// Then the bodies.
	al.checkDecls()
	al.checkInits()
	al.initially(fs["initially"].val)
	al.final(fs["final"].val)
	al.actions(fs["actions"].val)
	al.invariants(fs["invariants"].val)
	al.view(fs["view"])
	return a
}

// parseExpr parses the expression in scalar n; it returns nil after
// reporting an error.
func (fl *fileLoader) parseExpr(n *yaml.Node, what string) expr.Expr {
	text, ok := fl.scalar(n, what)
	if !ok {
		return nil
	}
	e, errs := expr.ParseExpr(text, fl.f.mapper(n))
	fl.l.errs.Append(errs)
	if len(errs) > 0 {
		return nil
	}
	return e
}

// parseStmts parses the effect in scalar n; ok is false after an error.
func (fl *fileLoader) parseStmts(n *yaml.Node, what string) ([]expr.Stmt, bool) {
	if isNull(n) {
		return nil, true
	}
	text, ok := fl.scalar(n, what)
	if !ok {
		return nil, false
	}
	ss, errs := expr.ParseStmts(text, fl.f.mapper(n))
	fl.l.errs.Append(errs)
	return ss, len(errs) == 0
}

// check sort-checks e (if not nil) in sc against want (nil: any sort) and
// returns its sort.
func (al *autoLoader) check(e expr.Expr, sc *expr.Scope, want *expr.Sort) *expr.Sort {
	if e == nil {
		return expr.InvalidSort
	}
	s := al.chk.CheckExpr(e, sc, want)
	if s == nil {
		return expr.InvalidSort
	}
	return s
}

// constants reads `constants:`: `name: Sort` or `name: {sort: S, value: e}`.
func (al *autoLoader) constants(n *yaml.Node) {
	es, _ := al.entries(n, `"constants"`, "constant")
	for _, e := range es {
		if !al.checkName(e.key, "constant") {
			continue
		}
		obj := &expr.Object{Kind: expr.ObjConst, Name: e.name(), Pos: al.f.pos(e.key), Owner: al.a}
		what := fmt.Sprintf("constant %q", e.name())
		var body expr.Expr
		if e.val.Kind == yaml.MappingNode {
			fs := al.fields(e.val, e.key, what, []string{"sort", "value", "doc"}, []string{"sort"})
			obj.Sort = expr.InvalidSort
			if s, ok := fs["sort"]; ok {
				obj.Sort = al.sortOf(s.val, fmt.Sprintf("the sort of %s", what), al.a.Scope, al.chk)
			}
			if v, ok := fs["value"]; ok {
				body = al.parseExpr(v.val, fmt.Sprintf("the value of %s", what))
				if body == nil {
					body = badExpr(al.f.pos(v.val))
				}
			}
		} else {
			obj.Sort = al.sortOf(e.val, fmt.Sprintf("the sort of %s", what), al.a.Scope, al.chk)
		}
		if !al.declare(al.a.Scope, obj, e.key) {
			continue
		}
		al.a.Consts = append(al.a.Consts, obj)
		if body != nil {
			obj.Body = body
			al.decls = append(al.decls, &decl{obj: obj, key: e.key, body: body, sc: al.a.Scope, want: obj.Sort, what: "constant"})
		}
	}
}

// badExpr returns a placeholder for an expression that did not parse.
func badExpr(p source.Pos) expr.Expr {
	b := &expr.BadExpr{}
	b.SetPos(p)
	b.SetSort(expr.InvalidSort)
	return b
}

// definitions reads `definitions:`: `name: expr` (nullary, sort inferred) or
// `name: {params: {x: S}, sort: S, body: expr, doc: text}`.
func (al *autoLoader) definitions(n *yaml.Node) {
	es, _ := al.entries(n, `"definitions"`, "definition")
	for _, e := range es {
		if !al.checkName(e.key, "definition") {
			continue
		}
		obj := &expr.Object{Kind: expr.ObjDef, Name: e.name(), Pos: al.f.pos(e.key), Owner: al.a}
		what := fmt.Sprintf("definition %q", e.name())
		d := &decl{obj: obj, key: e.key, sc: al.a.Scope, what: "definition"}
		var bodyNode *yaml.Node
		if e.val.Kind == yaml.MappingNode {
			fs := al.fields(e.val, e.key, what, []string{"params", "sort", "body", "doc"}, []string{"body"})
			if p, ok := fs["params"]; ok {
				obj.Params = al.params(p.val, fmt.Sprintf("the parameters of %s", what), al.a.Scope, al.chk)
				d.sc = expr.NewScope(al.a.Scope)
				for _, p := range obj.Params {
					d.sc.Insert(p)
				}
			}
			if s, ok := fs["sort"]; ok {
				obj.Sort = al.sortOf(s.val, fmt.Sprintf("the sort of %s", what), al.a.Scope, al.chk)
				d.want = obj.Sort
			}
			if b, ok := fs["body"]; ok {
				bodyNode = b.val
			}
		} else {
			bodyNode = e.val
		}
		if bodyNode != nil {
			d.body = al.parseExpr(bodyNode, fmt.Sprintf("the body of %s", what))
			if d.body == nil {
				d.body = badExpr(al.f.pos(bodyNode))
			}
		} else {
			d.body = badExpr(obj.Pos)
		}
		obj.Body = d.body
		if !al.declare(al.a.Scope, obj, e.key) {
			continue
		}
		al.decls = append(al.decls, d)
	}
}

// state reads `state:`: `name: Sort` or `name: {sort: S, init: e, doc: text}`.
func (al *autoLoader) state(n *yaml.Node) {
	es, _ := al.entries(n, `"state"`, "state variable")
	for _, e := range es {
		if !al.checkName(e.key, "state variable") {
			continue
		}
		what := fmt.Sprintf("state variable %q", e.name())
		v := &ioa.StateVar{Name: e.name(), Pos: al.f.pos(e.key)}
		if e.val.Kind == yaml.MappingNode {
			fs := al.fields(e.val, e.key, what, []string{"sort", "init", "doc"}, []string{"sort"})
			v.Sort = expr.InvalidSort
			if s, ok := fs["sort"]; ok {
				v.Sort = al.sortOf(s.val, fmt.Sprintf("the sort of %s", what), al.a.Scope, al.chk)
			}
			if i, ok := fs["init"]; ok {
				v.Init = al.parseExpr(i.val, fmt.Sprintf("the init of %s", what))
			}
		} else {
			v.Sort = al.sortOf(e.val, fmt.Sprintf("the sort of %s", what), al.a.Scope, al.chk)
		}
		v.Obj = &expr.Object{Kind: expr.ObjVar, Name: v.Name, Sort: v.Sort, Pos: v.Pos, Index: len(al.a.Vars), Owner: al.a}
		if !al.declare(al.a.Scope, v.Obj, e.key) {
			continue
		}
		al.a.Vars = append(al.a.Vars, v)
		al.a.StateSort.Fields = append(al.a.StateSort.Fields, expr.Field{Name: v.Name, Sort: v.Sort})
	}
}

// checkInits checks each variable's init against its sort. An init may not
// read the state.
func (al *autoLoader) checkInits() {
	for _, v := range al.a.Vars {
		if v.Init == nil {
			continue
		}
		al.check(v.Init, al.a.Scope, v.Sort)
		al.noState(v.Init, nil, fmt.Sprintf("the init of %q", v.Name))
	}
}

// initially reads `initially:`, a predicate or a sequence of predicates.
func (al *autoLoader) initially(n *yaml.Node) {
	for _, item := range al.sequence(n, `"initially"`, true) {
		e := al.parseExpr(item, `"initially"`)
		if e == nil {
			continue
		}
		al.check(e, al.a.Scope, expr.BoolSort)
		al.a.Initially = append(al.a.Initially, e)
	}
}

// final reads `final:`, a predicate or a sequence of predicates over the
// state: the proper final states (Automaton.Final).
func (al *autoLoader) final(n *yaml.Node) {
	if n == nil {
		return
	}
	al.a.Final = []expr.Expr{}
	for _, item := range al.sequence(n, `"final"`, true) {
		e := al.parseExpr(item, `"final"`)
		if e == nil {
			continue
		}
		al.check(e, al.a.Scope, expr.BoolSort)
		al.a.Final = append(al.a.Final, e)
	}
}

// actions reads `actions:`.
func (al *autoLoader) actions(n *yaml.Node) {
	es, _ := al.entries(n, `"actions"`, "action")
	for _, e := range es {
		if !al.checkName(e.key, "action") {
			continue
		}
		what := fmt.Sprintf("action %q", e.name())
		act := &ioa.Action{Name: e.name(), Pos: al.f.pos(e.key), Scope: expr.NewScope(al.a.Scope)}
		al.a.Actions = append(al.a.Actions, act)
		fs := al.fields(e.val, e.key, what, []string{"kind", "params", "pre", "eff", "doc"}, []string{"kind"})
		if fs == nil {
			al.badKind[act] = true
			continue
		}
		al.badKind[act] = true // until a kind is read
		if k, ok := fs["kind"]; ok {
			if s, ok := al.scalar(k.val, fmt.Sprintf("the kind of %s", what)); ok {
				switch s {
				case "input":
					act.Kind, al.badKind[act] = ioa.Input, false
				case "output":
					act.Kind, al.badKind[act] = ioa.Output, false
				case "internal":
					act.Kind, al.badKind[act] = ioa.Internal, false
				default:
					al.errorf(k.val, source.ErrModel, "unknown action kind %q: expected input, output or internal", shorten(s))
				}
			}
		}
		if d, ok := fs["doc"]; ok {
			act.Doc = al.doc(d.val)
		}
		if p, ok := fs["params"]; ok {
			al.actionParams(act, p.val)
		}
		if p, ok := fs["pre"]; ok {
			act.Pre = al.parseExpr(p.val, fmt.Sprintf("the precondition of %s", what))
			if act.Pre != nil {
				al.check(act.Pre, act.Scope, expr.BoolSort)
			}
		}
		if ef, ok := fs["eff"]; ok {
			stmts, ok := al.parseStmts(ef.val, fmt.Sprintf("the effect of %s", what))
			if ok {
				act.Eff = stmts
				// The checker also reports a variable assigned twice on a path.
				al.chk.CheckStmts(stmts, act.Scope)
			}
		}
	}
}

// actionParams reads an action's parameters: `t: T` or `k: "in lo..hi"`.
// Ranges are evaluated in the pre-state and may use earlier parameters.
func (al *autoLoader) actionParams(act *ioa.Action, n *yaml.Node) {
	es, _ := al.entries(n, fmt.Sprintf("the parameters of action %q", act.Name), "parameter")
	for _, e := range es {
		if !al.checkName(e.key, "parameter") {
			continue
		}
		pos := al.f.pos(e.key)
		obj := &expr.Object{Kind: expr.ObjParam, Name: e.name(), Pos: pos, Index: len(act.Params), Owner: act, Sort: expr.InvalidSort}
		b := &expr.Binder{P: pos, Var: obj}
		what := fmt.Sprintf("parameter %q of action %q", e.name(), act.Name)
		if text, ok := al.scalar(e.val, what); ok {
			se, lo, hi, errs := expr.ParseParam(text, al.f.mapper(e.val))
			al.l.errs.Append(errs)
			switch {
			case len(errs) > 0:
			case se != nil:
				b.SortExpr = *se
				if s := al.chk.ResolveSort(se, act.Scope); s != nil {
					obj.Sort = s
				}
				if obj.Sort.IsNumeric() {
					al.errorf(e.val, source.ErrModel, "%s has sort %s: an integer parameter needs a range, %s: \"in lo..hi\"", what, obj.Sort, e.name())
				}
			case lo != nil && hi != nil:
				b.Lo, b.Hi = lo, hi
				al.check(lo, act.Scope, expr.IntSort)
				al.check(hi, act.Scope, expr.IntSort)
				obj.Sort = expr.IntSort
			}
		}
		if old := al.a.Scope.Lookup(obj.Name); old != nil && old.Kind != expr.ObjSort {
			al.errorf(e.key, source.ErrName, "parameter %q hides %s declared %s", obj.Name, objKindName(old), al.where(old.Pos))
			continue
		}
		if !al.declare(act.Scope, obj, e.key) {
			continue
		}
		act.Params = append(act.Params, b)
	}
}

// invariants reads `invariants:`: `name: expr` or
// `name: {body: expr, doc: text, assumes: [names], strategy: [steps]}`.
func (al *autoLoader) invariants(n *yaml.Node) {
	es, _ := al.entries(n, `"invariants"`, "invariant")
	type assume struct {
		inv  *ioa.Invariant
		node *yaml.Node
	}
	var assumes []assume
	var strategies []func()
	for _, e := range es {
		if !al.checkName(e.key, "invariant") {
			continue
		}
		what := fmt.Sprintf("invariant %q", e.name())
		inv := &ioa.Invariant{Name: e.name(), Pos: al.f.pos(e.key)}
		bodyNode := e.val
		if e.val.Kind == yaml.MappingNode {
			fs := al.fields(e.val, e.key, what, []string{"body", "doc", "assumes", "strategy"}, []string{"body"})
			if st, ok := fs["strategy"]; ok {
				strategies = append(strategies, func() { al.invariantStrategy(inv, st) }) // strategy.go, once all invariants are known
			}
			bodyNode = fs["body"].val
			if d, ok := fs["doc"]; ok {
				inv.Doc = al.doc(d.val)
			}
			if as, ok := fs["assumes"]; ok {
				inv.Assumes = []string{}
				for _, item := range al.sequence(as.val, fmt.Sprintf("the assumptions of %s", what), true) {
					if name, ok := al.scalar(item, "an invariant name"); ok {
						inv.Assumes = append(inv.Assumes, name)
						assumes = append(assumes, assume{inv, item})
					}
				}
			}
		}
		al.a.Invariants = append(al.a.Invariants, inv)
		if bodyNode != nil {
			inv.Body = al.parseExpr(bodyNode, fmt.Sprintf("the body of %s", what))
			if inv.Body != nil {
				al.check(inv.Body, al.a.Scope, expr.BoolSort)
			}
		}
	}
	for _, as := range assumes {
		if al.a.Invariant(as.node.Value) == nil {
			al.errorf(as.node, source.ErrName, "unknown invariant %q in the assumptions of invariant %q", as.node.Value, as.inv.Name)
		}
	}
	for _, read := range strategies {
		read()
	}
}

// view reads `view:`, mapping each external action to an event of the
// interface: `Action: Event(args)`.
func (al *autoLoader) view(e entry) {
	entries, _ := al.entries(e.val, `"view"`, "view entry")
	seen := map[*ioa.Action]bool{}
	for _, ve := range entries {
		act := al.a.Action(ve.name())
		if act == nil {
			al.errorf(ve.key, source.ErrName, "view entry for unknown action %q", ve.name())
			continue
		}
		seen[act] = true
		if al.badKind[act] {
			continue
		}
		if !act.Kind.External() {
			al.errorf(ve.key, source.ErrModel, "internal action %q cannot have a view entry: only external actions map to events", act.Name)
			continue
		}
		if al.a.Interface == nil {
			al.errorf(ve.key, source.ErrModel, "view entry for action %q, but the automaton has no interface", act.Name)
			continue
		}
		x := al.parseExpr(ve.val, fmt.Sprintf("the view of action %q", act.Name))
		if x == nil {
			continue
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
			al.l.errs.Add(x.Pos(), source.ErrModel, "the view of action %q must be an event applied to arguments, Event(args)", act.Name)
			continue
		}
		ev := al.a.Interface.Event(fun.Name)
		if ev == nil {
			al.l.errs.Add(fun.Pos(), source.ErrName, "unknown event %q: interface %s has no such event", fun.Name, al.a.Interface.Name)
			continue
		}
		fun.Obj = ev.Obj
		if len(args) != len(ev.Params) {
			al.l.errs.Add(fun.Pos(), source.ErrSort, "event %s takes %d argument%s, the view of action %q gives %d", ev.Name, len(ev.Params), plural(len(ev.Params)), act.Name, len(args))
			continue
		}
		// The checker checks an event term's arguments against the event's
		// parameter sorts, and sorts every node of it.
		al.check(x, act.Scope, nil)
		act.View = &ioa.ViewEntry{Pos: al.f.pos(ve.key), Action: act, Event: ev, Args: args}
	}
	for _, act := range al.a.Actions {
		if act.View != nil {
			al.a.View = append(al.a.View, act.View)
		} else if act.Kind.External() && !seen[act] && !al.badKind[act] {
			if al.a.Interface == nil {
				al.l.errs.Add(act.Pos, source.ErrModel, "external action %q has no view entry (and the automaton no interface to map it to)", act.Name)
			} else {
				al.l.errs.Add(act.Pos, source.ErrModel, "external action %q has no view entry", act.Name)
			}
		}
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
