// This file implements the dead-register reduction of a forward
// simulation's pairs (Config.ReduceDead on a proof edge).
//
// A pair (c, a) is stored with the dead entries of the abstract state's
// registers reset (ioa.DeadRegisters, eval.Dead): an entry a.x[p] is dead
// when a.pc[p], the register's control, is a value from which every path
// of A writes a.x[p] before any action or invariant of A reads it. Two
// abstract states that differ only in dead entries are bisimilar in A, so
// they have the same abstract steps, up to dead entries again. They have
// the same checks too when the proof's own expressions never read a dead
// entry either: the relation, at every pair where it is evaluated, and the
// guards and arguments of the step correspondence, at every step. That is
// what this file makes sure of, at run time.
//
// For every read a.x[e] of a register x in a relation clause, a step
// correspondence or an invariant of A assumed by transfer (P∘g, which
// reads A through refinement mappings), deadReads derives a read
// condition: the conditions under which the read is evaluated (the
// antecedents of =>, the left operands of `and` and `or`, the branches of
// `if`, with the quantifiers, lambdas and lets around it, in their order)
// imply that a.pc[e] is a value at which x is live. A register read
// otherwise than as a.x[e] (a.x whole, the whole state, or inside a
// definition of A) is refused: it is stored whole.
//
// The search evaluates the read conditions of the relation and of the
// transferred invariants at every pair it stores, on the pair the step
// check evaluated the relation on, and those of the step correspondence at
// every step, in the step's pre-states. A false condition stops the check
// with a deadReadError that names the read; Check then runs the edge
// again with that register stored whole, after a note. When every
// condition holds, every value the proof's expressions took depends only
// on live entries: a pair's relation and steps are those of any pair it
// stands for, by induction along the search, and the verdict is that of
// the search without the reduction.
//
// A failing step is still shown on a real execution: the failure is
// checked again on the pair the replay reaches from a start state
// (search.stepFailed), and a failure that does not recur there is
// reported as a read of a dead entry, never as a verdict.

package crosscheck

import (
	"fmt"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// deadPlan is the reduction of a forward check's abstract states.
type deadPlan struct {
	d    *eval.Dead     // the registers reset, compiled for A's machine
	gA   *eval.Symmetry // with symmetry reduction: A's group with d
	regs []ioa.Register // the registers reset
	// refused lists the registers stored whole, with why
	refused []string
	// rel are the read conditions of the relation, over c and a; inv
	// those of the abstract invariants assumed by transfer, over a
	rel, inv []readCond
	// steps are the read conditions of each action's step
	// correspondence, over the step's states and parameters
	steps map[*ioa.Action][]readCond
}

// readCond is the read condition of one register read a.x[e].
type readCond struct {
	where string     // "relation clause rd", "step Read, case 1"
	pos   string     // the read's position
	read  string     // the read as written, e.g. "a.valRead[t]"
	reg   string     // the register's name
	cond  expr.Expr  // the condition
	f     *eval.Func // compiled over the checker's state objects
}

// setupDead compiles the dead-register reduction of a forward check's
// abstract states (cfg.ReduceDead).
func (x *checker) setupDead() error {
	if !x.cfg.ReduceDead {
		return nil
	}
	if x.p.Kind != ioa.ProofForward {
		x.res.Notes = append(x.res.Notes, fmt.Sprintf("dead-register reduction applies to the pairs of forward simulations; the states of this %s edge are stored whole", x.p.Kind))
		return nil
	}
	all := ioa.DeadRegisters(x.p.Abstract)
	byName := map[string]*ioa.Register{}
	for i := range all {
		byName[all[i].Var.Name] = &all[i]
	}
	an := &deadReads{a: x.p.A, regs: byName, refused: map[string]string{}}
	for _, w := range x.cfg.deadWhole {
		an.refused[w.reg] = w.why
	}
	plan := &deadPlan{steps: map[*ioa.Action][]readCond{}}
	for _, cl := range x.p.Relation {
		plan.rel = append(plan.rel, an.conds(cl.Body, "relation clause "+cl.Name)...)
	}
	for _, sm := range x.p.Steps {
		for _, c := range sm.Cases {
			where := fmt.Sprintf("step %s, case %d", sm.Action.Name, c.Index)
			var conds []readCond
			if c.When != nil {
				conds = append(conds, an.conds(c.When, where)...)
			}
			for _, st := range c.Steps {
				exprs := st.Args
				if lp := st.Loop; lp != nil {
					// a repeated step's bounds and invariant are evaluated too
					exprs = append(append([]expr.Expr(nil), exprs...), lp.From, lp.To, lp.Invariant)
				}
				for _, arg := range exprs {
					// an argument is evaluated when the case is taken
					for _, rc := range an.conds(arg, where) {
						if c.When != nil {
							rc.cond = implies(c.When, rc.cond)
						}
						conds = append(conds, rc)
					}
				}
			}
			plan.steps[sm.Action] = append(plan.steps[sm.Action], conds...)
		}
	}
	// an invariant of A assumed by transfer, P∘g, reads A's registers
	// through the mappings g: its reads get read conditions too, written
	// over the proof's a
	for _, r := range x.p.AssumeAbstract {
		if !r.Transferred() {
			continue
		}
		body, err := simulation.Transferred(r, x.p.Abstract, x.p.A)
		if err != nil {
			return fmt.Errorf("%s: %v", r.Pos, err)
		}
		plan.inv = append(plan.inv, an.conds(body, "the invariant "+r.Name+" assumed by transfer")...)
	}
	for _, r := range all {
		if why, ok := an.refused[r.Var.Name]; ok {
			plan.refused = append(plan.refused, r.Var.Name+": "+why)
			continue
		}
		plan.regs = append(plan.regs, r)
	}
	// only the conditions of the registers reset are checked
	keep := func(cs []readCond) ([]readCond, error) {
		var out []readCond
		for _, rc := range cs {
			if _, ok := an.refused[rc.reg]; ok {
				continue
			}
			f, err := x.compile(rc.cond)
			if err != nil {
				return nil, fmt.Errorf("%s: the read condition of %s: %v", rc.pos, rc.read, err)
			}
			rc.f = f
			out = append(out, rc)
		}
		return out, nil
	}
	var err error
	if plan.rel, err = keep(plan.rel); err != nil {
		return err
	}
	if plan.inv, err = keep(plan.inv); err != nil {
		return err
	}
	for act, cs := range plan.steps {
		if plan.steps[act], err = keep(cs); err != nil {
			return err
		}
	}
	x.res.DeadAbstract = explore.DescribeDead(plan.regs)
	x.res.DeadRefused = plan.refused
	if x.res.DeadRefused == nil {
		x.res.DeadRefused = []string{}
	}
	if len(plan.regs) == 0 {
		return nil
	}
	if plan.d, err = x.mA.NewDead(plan.regs); err != nil {
		return err
	}
	if x.sym != nil {
		plan.gA = x.sym.gA.WithDead(plan.d)
	}
	x.dead = plan
	return nil
}

// checkRel evaluates the relation's read conditions at the pair (c, a).
func (x *checker) checkDeadRel(c, a eval.State) error {
	if x.dead == nil {
		return nil
	}
	if err := x.checkDead(x.dead.rel, &env{c: c, a: a}); err != nil {
		return err
	}
	return x.checkDead(x.dead.inv, &env{a: a})
}

// checkDeadStep evaluates the read conditions of the step correspondence
// of tr's action in the step's pre-states (c, a).
func (x *checker) checkDeadStep(tr *explore.Transition, a eval.State) error {
	if x.dead == nil {
		return nil
	}
	cs := x.dead.steps[tr.Action]
	if len(cs) == 0 {
		return nil
	}
	return x.checkDead(cs, &env{c: tr.Pre, a: a, cpost: tr.Post, params: tr.Params})
}

// checkDead evaluates read conditions in e; the first false one is an
// error that names the read and the state it reads in.
func (x *checker) checkDead(cs []readCond, e *env) error {
	for _, rc := range cs {
		ok, err := x.holds(rc.f, e)
		if err == nil && ok {
			continue
		}
		msg := fmt.Sprintf("%s: %s reads %s where the register %s of %s may be dead (the read condition is false: %s)",
			rc.pos, rc.where, rc.read, rc.reg, x.p.Abstract.Name, oneLine(expr.Print(rc.cond)))
		if err != nil {
			msg += fmt.Sprintf("; evaluating it: %v", err)
		}
		return &deadReadError{msg: msg, reg: rc.reg, why: fmt.Sprintf("%s reads %s where it is dead at a pair reached (%s)", rc.where, rc.read, rc.pos)}
	}
	return nil
}

// deadReadError is a read condition found false: the proof reads an
// entry of register reg that may be dead, so the reduction does not apply
// to it, and Check runs the edge again with reg stored whole (every
// register, when reg is empty).
type deadReadError struct{ msg, reg, why string }

// wholeRegister is a register Check stores whole after a read condition
// of it was found false.
type wholeRegister struct{ reg, why string }

func (e *deadReadError) Error() string { return e.msg }

// deadReads derives read conditions: a is the abstract state object,
// regs A's registers by name, and refused collects the registers read
// otherwise than as a.x[e], with why.
type deadReads struct {
	a       *expr.Object
	regs    map[string]*ioa.Register
	refused map[string]string
	out     []readCond
	where   string
}

// ctx is one enclosing condition or binding of a read, outermost first.
type ctx struct {
	guard expr.Expr                 // a condition under which the read is evaluated, or nil
	wrap  func(expr.Expr) expr.Expr // a binding around it (forall, let), or nil
}

// conds returns the read conditions of the register reads in e.
func (an *deadReads) conds(e expr.Expr, where string) []readCond {
	an.out, an.where = nil, where
	an.walk(e, nil)
	return an.out
}

// register returns the register e reads when e is a.x for one.
func (an *deadReads) register(e expr.Expr) *ioa.Register {
	o, _, ok := expr.StateField(e)
	if !ok || o != an.a {
		return nil
	}
	return an.regs[e.(*expr.FieldSel).Name]
}

// walk collects the reads in e, evaluated under the contexts cs.
func (an *deadReads) walk(e expr.Expr, cs []ctx) {
	if e == nil {
		return
	}
	with := func(c ctx) []ctx { return append(cs[:len(cs):len(cs)], c) }
	switch e := e.(type) {
	case *expr.Index:
		if r := an.register(e.X); r != nil {
			an.read(e, r, cs)
			an.walk(e.Index, cs)
			return
		}
	case *expr.FieldSel:
		if o, _, ok := expr.StateField(e); ok && o == an.a {
			if r := an.register(e); r != nil {
				an.refuse(r, fmt.Sprintf("%s reads %s whole", an.where, expr.Print(e)))
			}
			return
		}
	case *expr.Ident:
		if e.Obj == an.a {
			for _, r := range an.regs {
				an.refuse(r, fmt.Sprintf("%s reads the abstract state whole", an.where))
			}
			return
		}
	case *expr.Binary:
		switch e.Op {
		case expr.OpImplies, expr.OpAnd:
			an.walk(e.X, cs)
			an.walk(e.Y, with(ctx{guard: e.X}))
			return
		case expr.OpOr:
			an.walk(e.X, cs)
			an.walk(e.Y, with(ctx{guard: not(e.X)}))
			return
		}
	case *expr.Ite:
		an.walk(e.Cond, cs)
		an.walk(e.Then, with(ctx{guard: e.Cond}))
		an.walk(e.Else, with(ctx{guard: not(e.Cond)}))
		return
	case *expr.Quant:
		for _, b := range e.Binders {
			an.walk(b.Lo, cs)
			an.walk(b.Hi, cs)
			bs := []*expr.Binder{b}
			cs = with(ctx{wrap: func(x expr.Expr) expr.Expr { return forall(bs, x) }})
		}
		an.walk(e.Body, cs)
		return
	case *expr.Lambda:
		bs := []*expr.Binder{e.Binder}
		an.walk(e.Body, with(ctx{wrap: func(x expr.Expr) expr.Expr { return forall(bs, x) }}))
		return
	case *expr.Let:
		an.walk(e.Value, cs)
		l := e
		an.walk(e.Body, with(ctx{wrap: func(x expr.Expr) expr.Expr {
			out := &expr.Let{Var: l.Var, Value: l.Value, Body: x}
			out.SetSort(expr.BoolSort)
			out.SetPos(l.Pos())
			return out
		}}))
		return
	case *expr.Call:
		// a definition of A reads its registers by name, whatever the
		// receiver: defReads matches the registers' own objects
		if e.Fun != nil && e.Fun.Obj != nil {
			for _, name := range an.defReads(e.Fun.Obj) {
				an.refuse(an.regs[name], fmt.Sprintf("%s calls %s, which reads %s", an.where, expr.Print(e.Fun), name))
			}
		}
		for _, arg := range e.Args {
			an.walk(arg, cs)
		}
		return
	}
	expr.Inspect(e, func(n expr.Expr) bool {
		if n == e {
			return true
		}
		an.walk(n, cs)
		return false
	})
}

// read records the read condition of the read e = a.x[i] of register r.
func (an *deadReads) read(e *expr.Index, r *ioa.Register, cs []ctx) {
	ctrl := r.Control
	sel := expr.NewFieldSel(expr.NewIdent(an.a.Name), ctrl.Name)
	sel.X.(*expr.Ident).Obj = an.a
	sel.X.(*expr.Ident).SetSort(an.a.Sort)
	sel.Field = ctrl.Obj.Index
	sel.SetSort(ctrl.Sort)
	// a.pc[i] notin {dead values}, or in {live values}, whichever is
	// shorter
	var dead, live []expr.Expr
	for k, l := range r.Live {
		id := expr.NewIdent(ctrl.Sort.Elem.Elems[k])
		id.Obj = &expr.Object{Kind: expr.ObjEnum, Name: id.Name, Sort: ctrl.Sort.Elem, Index: k}
		id.SetSort(ctrl.Sort.Elem)
		if l {
			live = append(live, id)
		} else {
			dead = append(dead, id)
		}
	}
	at := expr.NewIndex(sel, e.Index)
	at.SetSort(ctrl.Sort.Elem)
	op, set := expr.OpNotIn, expr.NewSetLit(dead...)
	if len(live) < len(dead) {
		op, set = expr.OpIn, expr.NewSetLit(live...)
	}
	set.SetSort(expr.SetOf(ctrl.Sort.Elem))
	var isLive expr.Expr = boolOp(op, at, set)
	if len(live) == 0 {
		isLive = boolLit(false)
	}
	cond := isLive
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].guard != nil {
			cond = implies(cs[i].guard, cond)
		} else {
			cond = cs[i].wrap(cond)
		}
	}
	an.out = append(an.out, readCond{where: an.where, pos: e.Pos().String(), read: expr.Print(e), reg: r.Var.Name, cond: cond})
}

// refuse records that register r is stored whole, for why (the first
// reason found).
func (an *deadReads) refuse(r *ioa.Register, why string) {
	if _, ok := an.refused[r.Var.Name]; !ok {
		an.refused[r.Var.Name] = why
	}
}

// defReads returns the registers the definition d of A reads, following
// the definitions it calls.
func (an *deadReads) defReads(d *expr.Object) []string {
	if d.Kind != expr.ObjDef {
		return nil
	}
	seen := map[*expr.Object]bool{}
	found := map[string]bool{}
	var visit func(o *expr.Object)
	visit = func(o *expr.Object) {
		if o == nil || o.Kind != expr.ObjDef || seen[o] {
			return
		}
		seen[o] = true
		expr.Inspect(o.Body, func(n expr.Expr) bool {
			id, ok := n.(*expr.Ident)
			if !ok || id.Obj == nil {
				return true
			}
			switch id.Obj.Kind {
			case expr.ObjVar:
				if r := an.regs[id.Obj.Name]; r != nil && r.Var.Obj == id.Obj {
					found[id.Obj.Name] = true
				}
			case expr.ObjDef:
				visit(id.Obj)
			}
			return true
		})
	}
	visit(d)
	var out []string
	for name := range an.regs {
		if found[name] {
			out = append(out, name)
		}
	}
	return out
}

// describeDead writes the reduction's lines of a forward check (nothing
// without one).
func describeDead(ew *errWriter, r *Result) {
	if r.DeadAbstract == nil {
		return
	}
	if len(r.DeadAbstract) == 0 {
		ew.printf("dead registers: none reset; every pair is stored whole\n")
	} else {
		ew.printf("dead registers: %s of the abstract state reset where dead; the pairs counted are pairs up to dead entries\n", explore.DeadNames(r.DeadAbstract))
		for _, d := range r.DeadAbstract {
			ew.printf("  %s\n", d.Where("a"))
		}
	}
	for _, why := range r.DeadRefused {
		ew.printf("  stored whole: %s\n", why)
	}
}

// not returns `not x`.
func not(x expr.Expr) expr.Expr {
	u := expr.NewUnary(expr.OpNot, x)
	u.SetSort(expr.BoolSort)
	u.SetPos(x.Pos())
	return u
}

// implies returns `g => x`.
func implies(g, x expr.Expr) expr.Expr { return boolOp(expr.OpImplies, g, x) }

// boolOp returns the Bool expression `x op y`.
func boolOp(op expr.Op, x, y expr.Expr) expr.Expr {
	b := expr.NewBinary(op, x, y)
	b.SetSort(expr.BoolSort)
	b.SetPos(x.Pos())
	return b
}

// forall returns `forall bs. x`.
func forall(bs []*expr.Binder, x expr.Expr) expr.Expr {
	q := expr.NewQuant(true, bs, x)
	q.SetSort(expr.BoolSort)
	q.SetPos(x.Pos())
	return q
}

// boolLit returns true or false.
func boolLit(v bool) expr.Expr {
	b := expr.NewBoolLit(v)
	b.SetSort(expr.BoolSort)
	return b
}
