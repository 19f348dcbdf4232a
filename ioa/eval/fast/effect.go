// This file implements Flat's compilation of actions: parameters (with
// their gates and bindings, the leading conjuncts of their levels),
// preconditions and effects, whose assignments write the bytes of the
// assigned variables' encodings.

package fast

import (
	"fmt"

	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// action compiles action number index.
func (c *flatCompiler) action(index int, act *ioa.Action) (*flatAction, error) {
	fa := &flatAction{index: index, params: make([]flatParam, len(act.Params))}
	for i, b := range act.Params {
		p := &fa.params[i]
		if b.Lo != nil && b.Hi != nil {
			var err error
			if p.lo, err = c.scalar(b.Lo); err != nil {
				return nil, err
			}
			if p.hi, err = c.scalar(b.Hi); err != nil {
				return nil, err
			}
			p.nat = b.Var.Sort != nil && b.Var.Sort.Kind == expr.KNat
			continue
		}
		if !eval.AtomicKey(b.Var.Sort) {
			return nil, fmt.Errorf("%w: parameter %s of sort %s", errNotFlat, b.Var.Name, b.Var.Sort)
		}
		p.n = int64(c.m.Inst.Count(b.Var.Sort))
	}
	if act.Pre != nil {
		for _, cj := range expr.Conjuncts(act.Pre, nil) {
			f, err := c.scalar(cj)
			if err != nil {
				return nil, err
			}
			last := expr.MaxParam(cj)
			if last < 0 {
				fa.pre0 = append(fa.pre0, f)
				continue
			}
			p := &fa.params[last]
			if len(p.pre) == 0 && p.n > 0 && p.bind == nil && p.gate == nil {
				if p.gate = c.gate(cj, last); p.gate != nil {
					continue // the gate is this conjunct
				}
				p.bind = c.binding(cj, last)
			}
			p.pre = append(p.pre, f)
		}
	}
	var err error
	if fa.eff, err = c.stmts(act.Eff); err != nil {
		return nil, err
	}
	fa.plan = staticPlan(fa.eff, len(c.fl.vars))
	return fa, nil
}

// staticPlan returns the assignments of an effect without if, in the
// order of their variables (each is assigned at most once), or nil.
func staticPlan(eff []flatStmt, nvars int) []*flatAssign {
	byVar := make([]*flatAssign, nvars)
	for _, s := range eff {
		if s.asg == nil {
			return nil
		}
		byVar[s.asg.v] = s.asg
	}
	plan := []*flatAssign{}
	for _, a := range byVar {
		if a != nil {
			plan = append(plan, a)
		}
	}
	return plan
}

// gate returns conjunct cj as a table test of parameter number i when it
// is x[p] = K, x[p] != K, x[p] in S or x[p] notin S for p that parameter
// (entryTest), or nil.
func (c *flatCompiler) gate(cj expr.Expr, i int) *flatGate {
	b, ok := cj.(*expr.Binary)
	if !ok {
		return nil
	}
	var negate bool
	switch b.Op {
	case expr.OpEq, expr.OpIn:
	case expr.OpNeq, expr.OpNotIn:
		negate = true
	default:
		return nil
	}
	ix, ok := b.X.(*expr.Index)
	if !ok || (b.Op == expr.OpEq || b.Op == expr.OpNeq) && !c.isScalar(b.X.Sort()) {
		return nil
	}
	id, ok1 := ix.X.(*expr.Ident)
	k, ok2 := ix.Index.(*expr.Ident)
	if !ok1 || !ok2 || id.Obj == nil || id.Obj.Kind != expr.ObjVar || k.Obj == nil || k.Obj.Kind != expr.ObjParam || k.Obj.Index != i {
		return nil
	}
	table, ok := c.testTable(b.X, b.Y, negate)
	if !ok {
		return nil
	}
	return &flatGate{v: id.Obj.Index, table: table}
}

// binding returns the value that conjunct cj, `p = e` or `e = p` for
// parameter number i with e mentioning no later parameter, fixes for p,
// or nil.
func (c *flatCompiler) binding(cj expr.Expr, i int) sfn {
	b, ok := cj.(*expr.Binary)
	if !ok || b.Op != expr.OpEq {
		return nil
	}
	isP := func(x expr.Expr) bool {
		id, ok := x.(*expr.Ident)
		return ok && id.Obj != nil && id.Obj.Kind == expr.ObjParam && id.Obj.Index == i
	}
	var other expr.Expr
	switch {
	case isP(b.X) && expr.MaxParam(b.Y) < i:
		other = b.Y
	case isP(b.Y) && expr.MaxParam(b.X) < i:
		other = b.X
	default:
		return nil
	}
	f, err := c.scalar(other)
	if err != nil {
		return nil
	}
	return f
}

func (c *flatCompiler) stmts(ss []expr.Stmt) ([]flatStmt, error) {
	var out []flatStmt
	for _, s := range ss {
		switch s := s.(type) {
		case *expr.Assign:
			a, err := c.assign(s)
			if err != nil {
				return nil, err
			}
			out = append(out, flatStmt{asg: a})
		case *expr.IfStmt:
			cond, err := c.scalar(s.Cond)
			if err != nil {
				return nil, err
			}
			then, err := c.stmts(s.Then)
			if err != nil {
				return nil, err
			}
			els, err := c.stmts(s.Else)
			if err != nil {
				return nil, err
			}
			out = append(out, flatStmt{cond: cond, then: then, els_: els})
		case nil:
		default:
			return nil, fmt.Errorf("%w: statement %T", errNotFlat, s)
		}
	}
	return out, nil
}

// flatSel is one selector of an assignment's target: an entry of a table
// or sequence (k), or a record field (a fixed offset).
type flatSel struct {
	k    sfn
	size int // the entry's size
	n    int64
	seq  bool
	off  int
}

// assign compiles an assignment: the function appends the variable's new
// encoding, the pre-state's with the target's bytes replaced.
func (c *flatCompiler) assign(s *expr.Assign) (*flatAssign, error) {
	var sels []flatSel
	t := s.Target
	for {
		switch x := t.(type) {
		case *expr.Index:
			size, err := c.entry(x, x.X.Sort())
			if err != nil {
				return nil, err
			}
			k, err := c.scalar(x.Index)
			if err != nil {
				return nil, err
			}
			sel := flatSel{k: k, size: size, seq: x.X.Sort().Kind == expr.KSeq}
			if !sel.seq {
				K, _ := eval.TableSorts(x.X.Sort())
				sel.n = int64(c.m.Inst.Count(K))
			}
			sels = append(sels, sel)
			t = x.X
			continue
		case *expr.FieldSel:
			off, err := c.fieldOffset(x, x.X.Sort(), x.Field)
			if err != nil {
				return nil, err
			}
			sels = append(sels, flatSel{off: off})
			t = x.X
			continue
		}
		break
	}
	root, ok := t.(*expr.Ident)
	if !ok || root.Obj == nil || root.Obj.Kind != expr.ObjVar {
		return nil, notFlat(s.Target, "assignment target")
	}
	v := root.Obj.Index
	fv := &c.fl.vars[v]
	for i, j := 0, len(sels)-1; i < j; i, j = i+1, j-1 {
		sels[i], sels[j] = sels[j], sels[i]
	}
	for i := range sels {
		if sels[i].seq && i > 0 {
			return nil, notFlat(s.Target, "a sequence inside a value")
		}
	}
	ts := s.Target.Sort()
	if len(sels) == 0 && fv.seq {
		val, err := c.region(s.Value)
		if err != nil {
			return nil, err
		}
		nats := fv.nats
		size := fv.size
		return &flatAssign{v: v, write: func(f *flatCtx, out []byte) []byte {
			r := val(f)
			if len(nats) > 0 {
				for p := 1; p+size <= len(r); p += size {
					if !natsOK(r[p:], nats) {
						f.bad = true
					}
				}
			}
			return append(out, r...)
		}}, nil
	}
	put, err := c.put(s.Value)
	if err != nil {
		return nil, err
	}
	var nats []int
	if c.isScalar(ts) {
		if ts.Kind == expr.KNat {
			nats = []int{0}
		}
	} else {
		_, nats = c.fl.intOffsets(ts, 0, nil, nil)
	}
	if a := c.constEntry(s, sels, put, nats, v); a != nil {
		return a, nil
	}
	return &flatAssign{v: v, write: func(f *flatCtx, out []byte) []byte {
		start := len(out)
		out = append(out, f.st[f.offs[v]:f.offs[v+1]]...)
		o := start
		for i := range sels {
			sel := &sels[i]
			if sel.k == nil {
				o += sel.off
				continue
			}
			k := sel.k(f)
			if sel.seq {
				if k < 0 || k >= int64(out[start]) {
					return out // outside the sequence: unchanged
				}
				o += 1 + int(k)*sel.size
				continue
			}
			if k < 0 || k >= sel.n {
				f.bad = true
				return out
			}
			o += int(k) * sel.size
		}
		put(f, out[o:])
		if len(nats) > 0 && !natsOK(out[o:], nats) {
			f.bad = true
		}
		return out
	}}, nil
}

// constEntry returns the assignment s, `v[p] := e` for a parameter p and
// a closed e, as a copy of v with e's bytes, computed once, at row p, or
// nil when s has another form (sels and put are its target's selectors
// and its value's writer, as assign compiled them). Every action of a TM
// automaton sets its transaction's pc so.
func (c *flatCompiler) constEntry(s *expr.Assign, sels []flatSel, put func(*flatCtx, []byte), nats []int, v int) *flatAssign {
	ix, ok := s.Target.(*expr.Index)
	if !ok || len(sels) != 1 || sels[0].seq || sels[0].k == nil || !c.isClosed(s.Value) {
		return nil
	}
	p, ok := ix.Index.(*expr.Ident)
	if !ok || p.Obj == nil || p.Obj.Kind != expr.ObjParam {
		return nil
	}
	bs, ok := constBytes(put, sels[0].size)
	if !ok || len(nats) > 0 && !natsOK(bs, nats) {
		return nil
	}
	pi, n, size := p.Obj.Index, sels[0].n, sels[0].size
	return &flatAssign{v: v, write: func(f *flatCtx, out []byte) []byte {
		start := len(out)
		out = append(out, f.st[f.offs[v]:f.offs[v+1]]...)
		k := f.params[pi]
		if k < 0 || k >= n {
			f.bad = true
			return out
		}
		copy(out[start+int(k)*size:], bs)
		return out
	}}
}

// constBytes returns the size bytes that put writes for a closed value,
// or false when it cannot tell.
func constBytes(put func(*flatCtx, []byte), size int) (bs []byte, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	bs = make([]byte, size)
	f := &flatCtx{}
	put(f, bs)
	return bs, !f.bad
}

// natsOK reports whether the integers at the offsets nats of b are >= 0.
func natsOK(b []byte, nats []int) bool {
	for _, o := range nats {
		if b[o]&1 != 0 {
			return false
		}
	}
	return true
}
