// This file checks the bodies of constants and definitions in dependency
// order, reports recursion, and finds what reads the state.

package load

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa/expr"
)

// decl is a constant with a value or a definition, whose body is checked
// after every header is known.
type decl struct {
	obj  *expr.Object
	key  *yaml.Node
	body expr.Expr
	sc   *expr.Scope // the automaton scope, or a child holding the parameters
	want *expr.Sort  // the declared sort; nil: inferred from the body
	what string      // "constant" or "definition"

	deps      []*decl
	recursive bool
	// reads is the first state variable the body reads, directly or through
	// the definitions it calls, and via the path of definitions to it.
	reads *expr.Object
	via   []string
}

// checkDecls orders constants and definitions callees first, reports
// recursion, and checks the bodies in that order, so that the inferred sort
// of a nullary definition is known before its callers are checked. It sets
// Automaton.Defs and orders Automaton.Consts callees first too.
func (al *autoLoader) checkDecls() {
	byObj := make(map[*expr.Object]*decl, len(al.decls))
	for _, d := range al.decls {
		byObj[d.obj] = d
	}
	// Edges: the free names of each body that resolve to a constant or
	// definition with a body; and the state variables it reads directly.
	for _, d := range al.decls {
		seen := map[*decl]bool{}
		freeIdents(d.body, paramNames(d.obj), func(id *expr.Ident) {
			obj := d.sc.Lookup(id.Name)
			if obj == nil {
				return
			}
			if obj.Kind == expr.ObjVar && d.reads == nil {
				d.reads = obj
			}
			if callee := byObj[obj]; callee != nil && !seen[callee] {
				seen[callee] = true
				d.deps = append(d.deps, callee)
			}
		})
	}

	// Depth-first search: post-order is callees first; a grey node reached
	// again closes a cycle.
	const (
		white = iota
		grey
		black
	)
	color := make(map[*decl]int, len(al.decls))
	var stack, order []*decl
	var visit func(d *decl)
	visit = func(d *decl) {
		color[d] = grey
		stack = append(stack, d)
		for _, c := range d.deps {
			switch color[c] {
			case white:
				visit(c)
			case grey:
				al.reportCycle(stack, c)
			}
		}
		stack = stack[:len(stack)-1]
		color[d] = black
		order = append(order, d)
	}
	for _, d := range al.decls {
		if color[d] == white {
			visit(d)
		}
	}

	var defs, consts []*expr.Object
	done := map[*expr.Object]bool{}
	al.readers = make(map[*expr.Object]*decl, len(al.decls))
	for _, d := range order {
		if d.recursive && d.obj.Sort == nil {
			d.obj.Sort = expr.InvalidSort
		}
	}
	for _, d := range order {
		s := al.check(d.body, d.sc, d.want)
		if d.obj.Sort == nil {
			d.obj.Sort = s
		}
		for _, c := range d.deps {
			if d.reads == nil && c.reads != nil && !c.recursive {
				d.reads, d.via = c.reads, append([]string{c.obj.Name}, c.via...)
			}
		}
		if d.reads != nil {
			al.readers[d.obj] = d
		}
		if d.what == "constant" {
			al.noState(d.body, d.obj.Params, fmt.Sprintf("the value of constant %q", d.obj.Name))
			consts = append(consts, d.obj)
		} else {
			defs = append(defs, d.obj)
		}
		done[d.obj] = true
	}
	al.a.Defs = defs
	// Constants without a value first, then those with one, callees first.
	var ordered []*expr.Object
	for _, c := range al.a.Consts {
		if !done[c] {
			ordered = append(ordered, c)
		}
	}
	al.a.Consts = append(ordered, consts...)
}

// reportCycle reports the cycle from c to the top of the stack and back to c.
func (al *autoLoader) reportCycle(stack []*decl, c *decl) {
	i := len(stack) - 1
	for i > 0 && stack[i] != c {
		i--
	}
	cycle := stack[i:]
	names := make([]string, 0, len(cycle)+1)
	for _, d := range cycle {
		names = append(names, d.obj.Name)
		d.recursive = true
	}
	names = append(names, c.obj.Name)
	al.l.errs.Add(c.obj.Pos, source.ErrModel, "%s %q is recursive: %s", c.what, c.obj.Name, strings.Join(names, " → "))
}

func paramNames(obj *expr.Object) []string {
	var out []string
	for _, p := range obj.Params {
		out = append(out, p.Name)
	}
	return out
}

// noState reports the state variables that e reads, directly or through
// definitions; names in bound are not free. what names the expression.
func (al *autoLoader) noState(e expr.Expr, bound []*expr.Object, what string) {
	var names []string
	for _, b := range bound {
		names = append(names, b.Name)
	}
	freeIdents(e, names, func(id *expr.Ident) {
		obj := al.a.Scope.Lookup(id.Name)
		if obj == nil {
			return
		}
		if obj.Kind == expr.ObjVar {
			al.l.errs.Add(id.Pos(), source.ErrModel, "%s mentions state variable %q: it may use constants and enum constants only", what, id.Name)
			return
		}
		if d := al.readers[obj]; d != nil {
			through := ""
			if len(d.via) > 0 {
				through = " through " + strings.Join(d.via, " → ")
			}
			al.l.errs.Add(id.Pos(), source.ErrModel, "%s mentions %s %q, which reads state variable %q%s", what, d.what, id.Name, d.reads.Name, through)
		}
	})
}

// freeIdents calls f for each identifier of e that is not bound in e or by
// the names in bound: plain names and the functions of calls.
func freeIdents(e expr.Expr, bound []string, f func(*expr.Ident)) {
	w := &identWalker{bound: map[string]int{}, f: f}
	for _, b := range bound {
		w.bound[b]++
	}
	w.expr(e)
}

type identWalker struct {
	bound map[string]int
	f     func(*expr.Ident)
}

func (w *identWalker) ident(id *expr.Ident) {
	if id != nil && w.bound[id.Name] == 0 {
		w.f(id)
	}
}

// bind binds the binders' variables (after visiting their ranges) and
// returns a function that unbinds them.
func (w *identWalker) bind(bs []*expr.Binder) func() {
	var names []string
	for _, b := range bs {
		if b == nil {
			continue
		}
		w.expr(b.Lo)
		w.expr(b.Hi)
		if b.Var != nil {
			w.bound[b.Var.Name]++
			names = append(names, b.Var.Name)
		}
	}
	return func() {
		for _, n := range names {
			w.bound[n]--
		}
	}
}

func (w *identWalker) exprs(es []expr.Expr) {
	for _, e := range es {
		w.expr(e)
	}
}

func (w *identWalker) expr(e expr.Expr) {
	switch e := e.(type) {
	case nil:
	case *expr.Ident:
		w.ident(e)
	case *expr.Unary:
		w.expr(e.X)
	case *expr.Binary:
		w.expr(e.X)
		w.expr(e.Y)
	case *expr.Ite:
		w.expr(e.Cond)
		w.expr(e.Then)
		w.expr(e.Else)
	case *expr.Let:
		w.expr(e.Value)
		if e.Var != nil {
			w.bound[e.Var.Name]++
			w.expr(e.Body)
			w.bound[e.Var.Name]--
		} else {
			w.expr(e.Body)
		}
	case *expr.Quant:
		unbind := w.bind(e.Binders)
		w.expr(e.Body)
		unbind()
	case *expr.Lambda:
		unbind := w.bind([]*expr.Binder{e.Binder})
		w.expr(e.Body)
		unbind()
	case *expr.Call:
		if e.Recv != nil {
			w.ident(e.Recv)
		} else {
			w.ident(e.Fun)
		}
		w.exprs(e.Args)
	case *expr.Index:
		w.expr(e.X)
		w.expr(e.Index)
	case *expr.Update:
		w.expr(e.X)
		w.expr(e.Index)
		w.expr(e.Value)
	case *expr.FieldSel:
		w.expr(e.X)
	case *expr.RecordUpdate:
		w.expr(e.X)
		for _, fi := range e.Fields {
			w.expr(fi.Value)
		}
	case *expr.RecordLit:
		for _, fi := range e.Fields {
			w.expr(fi.Value)
		}
	case *expr.SetLit:
		w.exprs(e.Elems)
	case *expr.SeqLit:
		w.exprs(e.Elems)
	}
}
