// This file implements the dead-register analysis: for a state variable
// that holds one entry per process, the values of the process's control
// variable at which no action, invariant or final-state predicate can read
// the entry before it is next overwritten.

package ioa

import "ladder/ioa/expr"

// Register is a state variable x of sort Map[P, X], one entry per element
// p of a parameter sort P, together with a control variable c of sort
// Map[P, E] (E an enum sort, typically a program counter), such that the
// entry x[p] matters only at some values of c[p].
//
// Live[k] is false when, from any state in which c[p] has the enum value of
// ordinal k, no execution reads x[p] before it overwrites it: two states
// that differ only in such entries satisfy the same invariants and
// final-state predicates and have the same enabled actions, whose
// successors again differ only in such entries (they are bisimilar). A
// search may therefore replace each dead entry by a fixed value without
// changing which invariants fail, which actions are possible or which
// traces exist: this is the dead-variable reduction of explicit-state
// model checkers (SPIN applies it to the local variables of processes).
type Register struct {
	Var     *StateVar
	Control *StateVar
	Live    []bool // per ordinal of the control's enum sort
}

// DeadRegisters returns the registers of a that are dead at one control
// value at least, with the first control variable (in declaration order)
// that shows it. The analysis is syntactic and conservative; it reports a
// variable only when:
//
//   - every write to c is `c[p] := K` (K an enum constant) in an action whose
//     precondition has a top-level conjunct constraining c[p] (c[p] = K,
//     c[p] != K, c[p] in {K1, ...}, or `or`s and `and`s of these, and
//     `not`s of exact ones; also in the body of a definition it calls with
//     p): the action is owned by its parameter p, and runs only at those
//     values of c[p];
//   - x occurs only as x[p] in the actions owned by p (in the precondition,
//     the effect, the parameters' ranges and the view's arguments, and in
//     the definitions they call), and in no other action;
//   - x occurs in an invariant only as x[t] within a conjunct
//     `forall t: P. G => B` (G constrains c[t] as above and does not read
//     x, or is absent), and
//     not at all in the final-state predicates;
//   - x is not the control of another register.
//
// An owned action reads x[p] where it mentions it, updates part of it
// (`x[p][l] := e`), or runs at a control value from which a state with x[p]
// live is reachable without an unconditional `x[p] := e`. Liveness is the
// least fixed point of these rules over the enum's values.
func DeadRegisters(a *Automaton) []Register {
	var out []Register
	done := map[*StateVar]bool{}
	for _, c := range a.Vars {
		if !isControl(c) {
			continue
		}
		an := newLiveness(a, c)
		if an == nil {
			continue
		}
		for _, x := range a.Vars {
			if x == c || done[x] || !sameKey(x.Sort, c.Sort) {
				continue
			}
			live, ok := an.registerLive(x)
			if !ok {
				continue
			}
			dead := false
			for _, l := range live {
				dead = dead || !l
			}
			if dead {
				done[x] = true
				out = append(out, Register{Var: x, Control: c, Live: live})
			}
		}
	}
	// A control keeps its values: which entries of its registers are dead
	// is read from it, so it is never reset itself.
	controls := map[*StateVar]bool{}
	for _, r := range out {
		controls[r.Control] = true
	}
	kept := out[:0]
	for _, r := range out {
		if !controls[r.Var] {
			kept = append(kept, r)
		}
	}
	return kept
}

// isControl reports whether v has sort Map[P, E] for a parameter sort P
// and an enum sort E.
func isControl(v *StateVar) bool {
	s := v.Sort
	return s != nil && s.Kind == expr.KMap && s.Key != nil && s.Key.Kind == expr.KParam &&
		s.Elem != nil && s.Elem.Kind == expr.KEnum && len(s.Elem.Elems) > 0
}

// sameKey reports whether x is a map keyed by the control's parameter sort.
func sameKey(x, c *expr.Sort) bool {
	return x != nil && x.Kind == expr.KMap && x.Key != nil && x.Key.Kind == expr.KParam && x.Key.Name == c.Key.Name
}

// liveness holds what the analysis of one control variable learned about
// the actions: who owns each, where it runs and where it moves the control.
type liveness struct {
	a    *Automaton
	c    *StateVar
	n    int // the control's enum values
	acts []ownedAction
}

type ownedAction struct {
	act   *Action
	owner *expr.Object // the parameter p; nil when the action is not owned
	at    []bool       // the control values c[p] the precondition allows
	next  []bool       // the values the effect may assign to c[p]
}

// newLiveness analyses the actions for control c, or returns nil when c is
// written other than as `c[p] := K` by the owner p.
func newLiveness(a *Automaton, c *StateVar) *liveness {
	l := &liveness{a: a, c: c, n: len(c.Sort.Elem.Elems)}
	for _, act := range a.Actions {
		oa := ownedAction{act: act}
		for _, b := range act.Params {
			if b == nil || b.Var == nil || b.Var.Sort == nil || b.Var.Sort.Kind != expr.KParam || b.Var.Sort.Name != c.Sort.Key.Name {
				continue
			}
			if at := l.preGuard(act.Pre, b.Var, 0); at != nil {
				oa.owner, oa.at = b.Var, at
				break
			}
		}
		oa.next = make([]bool, l.n)
		if !l.controlWrites(act.Eff, oa.owner, oa.next) {
			return nil
		}
		l.acts = append(l.acts, oa)
	}
	return l
}

// preGuard returns the control values that the top-level conjuncts of
// the precondition e allow for c[p] (following the calls of definitions
// that pass p, whose bodies' conjuncts are conjuncts of e), or nil when
// none constrains c[p].
func (l *liveness) preGuard(e expr.Expr, p *expr.Object, depth int) []bool {
	var at []bool
	meet := func(g []bool) {
		if g == nil {
			return
		}
		if at == nil {
			at = g
			return
		}
		for k := range at {
			at[k] = at[k] && g[k]
		}
	}
	for _, conj := range splitAnd(e, nil) {
		if call, ok := conj.(*expr.Call); ok && call.Recv == nil && call.Fun != nil && call.Fun.Obj != nil &&
			call.Fun.Obj.Kind == expr.ObjDef && call.Fun.Obj.Body != nil && depth < 16 {
			d := call.Fun.Obj
			for i, arg := range call.Args {
				if id, ok := arg.(*expr.Ident); ok && id.Obj == p && i < len(d.Params) {
					meet(l.preGuard(d.Body, d.Params[i], depth+1))
				}
			}
			continue
		}
		meet(l.guard(conj, p))
	}
	return at
}

// controlWrites records in next the constants the statements assign to
// c[owner] on some path, and reports false when they write c in any other
// way. (A path that leaves c[owner] alone stays at the same value, which
// adds nothing to liveness.)
func (l *liveness) controlWrites(ss []expr.Stmt, owner *expr.Object, next []bool) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *expr.Assign:
			if rootVar(s.Target) != l.c.Obj {
				continue
			}
			k := l.constant(s.Value)
			if owner == nil || !isEntry(s.Target, l.c.Obj, owner) || k < 0 {
				return false
			}
			next[k] = true
		case *expr.IfStmt:
			if !l.controlWrites(s.Then, owner, next) || !l.controlWrites(s.Else, owner, next) {
				return false
			}
		}
	}
	return true
}

// constant returns the ordinal of e when e is a constant of the control's
// enum sort, and -1 otherwise.
func (l *liveness) constant(e expr.Expr) int {
	id, ok := e.(*expr.Ident)
	if !ok || id.Obj == nil || id.Obj.Kind != expr.ObjEnum || id.Obj.Sort == nil || id.Obj.Sort.Kind != expr.KEnum || id.Obj.Sort.Name != l.c.Sort.Elem.Name || id.Obj.Index < 0 || id.Obj.Index >= l.n {
		return -1
	}
	return id.Obj.Index
}

// guard returns the control values that e allows for c[p], or nil when e
// is not a constraint on c[p]. The set may be larger than the values e
// allows (a conjunct that does not constrain c[p] is ignored), never
// smaller.
func (l *liveness) guard(e expr.Expr, p *expr.Object) []bool {
	g, _ := l.guardExact(e, p)
	return g
}

// guardExact is guard, also reporting whether the set is exactly the
// values e allows, as a negation needs.
func (l *liveness) guardExact(e expr.Expr, p *expr.Object) ([]bool, bool) {
	switch e := e.(type) {
	case *expr.Binary:
		switch e.Op {
		case expr.OpEq, expr.OpNeq:
			k := -1
			if isEntry(e.X, l.c.Obj, p) {
				k = l.constant(e.Y)
			} else if isEntry(e.Y, l.c.Obj, p) {
				k = l.constant(e.X)
			}
			if k < 0 {
				return nil, false
			}
			g := make([]bool, l.n)
			for i := range g {
				g[i] = (i == k) == (e.Op == expr.OpEq)
			}
			return g, true
		case expr.OpIn, expr.OpNotIn:
			set, ok := e.Y.(*expr.SetLit)
			if !ok || !isEntry(e.X, l.c.Obj, p) {
				return nil, false
			}
			g := make([]bool, l.n)
			for _, x := range set.Elems {
				k := l.constant(x)
				if k < 0 {
					return nil, false
				}
				g[k] = true
			}
			if e.Op == expr.OpNotIn {
				for i := range g {
					g[i] = !g[i]
				}
			}
			return g, true
		case expr.OpOr, expr.OpAnd:
			gx, ex := l.guardExact(e.X, p)
			gy, ey := l.guardExact(e.Y, p)
			if e.Op == expr.OpAnd {
				// a conjunction allows at most what either side allows
				if gx == nil {
					return gy, false
				}
				if gy == nil {
					return gx, false
				}
			}
			if gx == nil || gy == nil {
				return nil, false
			}
			for i := range gx {
				if e.Op == expr.OpOr {
					gx[i] = gx[i] || gy[i]
				} else {
					gx[i] = gx[i] && gy[i]
				}
			}
			return gx, ex && ey
		}
	case *expr.Unary:
		// the complement of a larger set would be too small
		if g, exact := l.guardExact(e.X, p); e.Op == expr.OpNot && g != nil && exact {
			for i := range g {
				g[i] = !g[i]
			}
			return g, true
		}
	}
	return nil, false
}

// registerLive returns the control values at which x[p] is live, and false
// when x is not a register of the control (see DeadRegisters).
func (l *liveness) registerLive(x *StateVar) ([]bool, bool) {
	live := make([]bool, l.n)
	type use struct {
		at, next    []bool
		read, kills bool
	}
	var uses []use
	for _, oa := range l.acts {
		r := reader{x: x.Obj, own: map[*expr.Object]bool{}}
		if oa.owner != nil {
			r.own[oa.owner] = true
		}
		r.expr(oa.act.Pre)
		for _, b := range oa.act.Params {
			if b != nil {
				r.expr(b.Lo)
				r.expr(b.Hi)
			}
		}
		if v := oa.act.View; v != nil {
			for _, arg := range v.Args {
				r.expr(arg)
			}
		}
		kills := r.stmts(oa.act.Eff, oa.owner)
		if r.bad {
			return nil, false
		}
		if r.read || kills {
			if oa.owner == nil {
				return nil, false
			}
			uses = append(uses, use{at: oa.at, next: oa.next, read: r.read, kills: kills})
		} else if oa.owner != nil {
			// it moves the control without touching x: liveness flows back along it
			uses = append(uses, use{at: oa.at, next: oa.next})
		}
	}
	for _, inv := range l.a.Invariants {
		for _, conj := range splitAnd(inv.Body, nil) {
			at, ok := l.invariantReads(conj, x)
			if !ok {
				return nil, false
			}
			for k := range at {
				live[k] = live[k] || at[k]
			}
		}
	}
	for _, f := range l.a.Final {
		r := reader{x: x.Obj, own: map[*expr.Object]bool{}}
		r.expr(f)
		if r.bad || r.read {
			return nil, false
		}
	}
	for changed := true; changed; {
		changed = false
		for k := range live {
			if live[k] {
				continue
			}
			for _, u := range uses {
				if !u.at[k] {
					continue
				}
				if u.read {
					live[k] = true
					break
				}
				if u.kills {
					continue
				}
				// without a write to c[p] the step stays at k: nothing new
				for k2, ok := range u.next {
					if ok && live[k2] {
						live[k] = true
						break
					}
				}
				if live[k] {
					break
				}
			}
			changed = changed || live[k]
		}
	}
	return live, true
}

// invariantReads returns the control values at which the invariant
// conjunct e reads x[t], and false when it reads x otherwise.
func (l *liveness) invariantReads(e expr.Expr, x *StateVar) ([]bool, bool) {
	none := make([]bool, l.n)
	r := reader{x: x.Obj, own: map[*expr.Object]bool{}}
	q, ok := e.(*expr.Quant)
	if !ok || !q.Forall {
		r.expr(e)
		return none, !r.bad && !r.read
	}
	for _, b := range q.Binders {
		if b == nil || b.Var == nil || b.Var.Sort == nil || b.Var.Sort.Kind != expr.KParam || b.Var.Sort.Name != l.c.Sort.Key.Name {
			continue
		}
		r := reader{x: x.Obj, own: map[*expr.Object]bool{b.Var: true}}
		body := q.Body
		var at []bool
		if im, ok := body.(*expr.Binary); ok && im.Op == expr.OpImplies {
			if g := l.guard(im.X, b.Var); g != nil {
				// the guard itself is evaluated at every control value
				rg := reader{x: x.Obj, own: r.own}
				rg.expr(im.X)
				if rg.bad {
					return nil, false
				}
				if !rg.read {
					at, body = g, im.Y
				}
			}
		}
		r.expr(body)
		if r.bad {
			return nil, false
		}
		if !r.read {
			return none, true
		}
		if at == nil {
			at = make([]bool, l.n)
			for k := range at {
				at[k] = true
			}
		}
		return at, true
	}
	r.expr(e)
	return none, !r.bad && !r.read
}

// reader looks for the occurrences of the variable x in expressions: read
// is set by an occurrence x[p] for an owner p (an object of own), bad by
// any other occurrence.
type reader struct {
	x         *expr.Object
	own       map[*expr.Object]bool
	read, bad bool
	depth     int // definitions entered, to stop at recursion
}

func (r *reader) expr(e expr.Expr) {
	if e == nil || r.bad {
		return
	}
	expr.Inspect(e, func(e expr.Expr) bool {
		if r.bad {
			return false
		}
		switch e := e.(type) {
		case *expr.Index:
			if id, ok := e.X.(*expr.Ident); ok && id.Obj == r.x {
				if ix, ok := e.Index.(*expr.Ident); ok && ix.Obj != nil && r.own[ix.Obj] {
					r.read = true
				} else {
					r.bad = true
				}
				return false
			}
		case *expr.Ident:
			if e.Obj == r.x {
				r.bad = true
				return false
			}
			if e.Obj != nil && e.Obj.Kind == expr.ObjDef && len(e.Obj.Params) == 0 {
				r.def(e.Obj, nil)
			}
		case *expr.Call:
			if e.Recv != nil {
				// another automaton's state: not x
				return true
			}
			if e.Fun != nil && e.Fun.Obj != nil && e.Fun.Obj.Kind == expr.ObjDef {
				for _, a := range e.Args {
					r.expr(a)
				}
				r.def(e.Fun.Obj, e.Args)
				return false
			}
		}
		return true
	})
}

// def reads the body of the definition d applied to args: a parameter
// whose argument is an owner is an owner in the body.
func (r *reader) def(d *expr.Object, args []expr.Expr) {
	if d.Body == nil {
		return
	}
	if r.depth > 32 {
		r.bad = true
		return
	}
	own := map[*expr.Object]bool{}
	for i, p := range d.Params {
		if i < len(args) {
			if id, ok := args[i].(*expr.Ident); ok && id.Obj != nil && r.own[id.Obj] {
				own[p] = true
			}
		}
	}
	sub := reader{x: r.x, own: own, depth: r.depth + 1}
	sub.expr(d.Body)
	r.read = r.read || sub.read
	r.bad = r.bad || sub.bad
}

// stmts reads the statements of an effect and reports whether every path
// through them overwrites x[owner] whole.
func (r *reader) stmts(ss []expr.Stmt, owner *expr.Object) (kills bool) {
	for _, s := range ss {
		switch s := s.(type) {
		case *expr.Assign:
			r.expr(s.Value)
			if rootVar(s.Target) != r.x {
				r.target(s.Target)
				continue
			}
			if owner != nil && isEntry(s.Target, r.x, owner) {
				kills = true
				continue
			}
			// a partial update of x[owner] keeps the rest of the entry
			r.expr(s.Target)
		case *expr.IfStmt:
			r.expr(s.Cond)
			k1 := r.stmts(s.Then, owner)
			k2 := r.stmts(s.Else, owner)
			kills = kills || k1 && k2
		}
	}
	return kills
}

// target reads the indices of an assignment's target to another variable.
func (r *reader) target(e expr.Expr) {
	for {
		switch t := e.(type) {
		case *expr.Index:
			r.expr(t.Index)
			e = t.X
		case *expr.FieldSel:
			e = t.X
		default:
			return
		}
	}
}

// rootVar returns the state variable an assignment target writes.
func rootVar(e expr.Expr) *expr.Object {
	for {
		switch t := e.(type) {
		case *expr.Index:
			e = t.X
		case *expr.FieldSel:
			e = t.X
		case *expr.Ident:
			return t.Obj
		default:
			return nil
		}
	}
}

// isEntry reports whether e is v[p].
func isEntry(e expr.Expr, v, p *expr.Object) bool {
	ix, ok := e.(*expr.Index)
	if !ok {
		return false
	}
	id, ok := ix.X.(*expr.Ident)
	if !ok || id.Obj != v {
		return false
	}
	k, ok := ix.Index.(*expr.Ident)
	return ok && k.Obj == p
}

// splitAnd splits e at its top-level `and`s.
func splitAnd(e expr.Expr, out []expr.Expr) []expr.Expr {
	if e == nil {
		return out
	}
	if b, ok := e.(*expr.Binary); ok && b.Op == expr.OpAnd {
		return splitAnd(b.Y, splitAnd(b.X, out))
	}
	return append(out, e)
}
