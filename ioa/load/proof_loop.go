// This file implements a repeated abstract step of a forward simulation's
// step correspondence: `{repeat: β(θ), for: k, from: lo, to: hi,
// invariant: J}` (docs/proofs.md, "Repeated steps").

package load

import (
	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// loopStateName is the name of the abstract state in a loop invariant.
const loopStateName = "u"

// isLoop reports whether n is a repeated step: a mapping with the key
// repeat (a case has when and steps instead).
func isLoop(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "repeat" {
			return true
		}
	}
	return false
}

// loopStep reads a repeated step of a case of act. sc is the step
// correspondence's scope; the loop variable k is a parameter numbered
// after act's, and the invariant also sees the abstract state u.
func (pl *proofLoader) loopStep(act *ioa.Action, n *yaml.Node, sc *expr.Scope) *ioa.AbstractStep {
	keys := []string{"repeat", "for", "from", "to", "invariant"}
	fs := pl.fields(n, nil, "a repeated step", keys, keys)
	if fs == nil || len(fs) < len(keys) {
		return nil
	}
	p := pl.p
	if p.Kind != ioa.ProofForward {
		pl.errorf(n, source.ErrModel, "a repeated step (repeat:) needs a forward simulation; this proof is a %s", p.Kind)
		return nil
	}
	fk := fs["for"].val
	if fk.Kind != yaml.ScalarNode || !pl.checkName(fk, "loop variable") {
		if fk.Kind != yaml.ScalarNode {
			pl.errorf(fk, source.ErrModel, "`for:` names the loop variable, e.g. `for: k`")
		}
		return nil
	}
	for _, name := range []string{fk.Value, loopStateName} {
		if old := sc.Lookup(name); old != nil && (old.Kind == expr.ObjParam || old.Kind == expr.ObjState) {
			pl.errorf(fk, source.ErrName, "the loop's %q would hide %s of the step correspondence with that name: rename one of them", name, objKindName(old))
			return nil
		}
	}
	if fk.Value == loopStateName {
		pl.errorf(fk, source.ErrName, "the loop variable cannot be named %q: the invariant calls the abstract state so", loopStateName)
		return nil
	}
	pos := pl.f.pos(n)
	k := &expr.Object{Kind: expr.ObjParam, Name: fk.Value, Sort: expr.IntSort, Pos: pl.f.pos(fk), Index: len(act.Params)}
	ksc := expr.NewScope(sc)
	ksc.Insert(k)
	lp := &ioa.Loop{Pos: pos, Var: k}
	lp.From = pl.intExpr(fs["from"].val, sc, "the loop's `from`")
	lp.To = pl.intExpr(fs["to"].val, sc, "the loop's `to`")
	lp.State = &expr.Object{Kind: expr.ObjState, Name: loopStateName, Sort: p.Abstract.StateSort, Pos: pos, Owner: p.Abstract}
	usc := expr.NewScope(ksc)
	usc.Insert(lp.State)
	lp.Invariant = pl.parseExpr(fs["invariant"].val, "the loop invariant")
	if lp.Invariant != nil {
		pl.chk.CheckExpr(lp.Invariant, usc, expr.BoolSort)
	}
	lp.Counter = &ioa.Action{Name: "repeat " + k.Name, Pos: pos, Kind: ioa.Internal, Params: []*expr.Binder{{P: k.Pos, Var: k}}, Scope: ksc}
	step := pl.call(fs["repeat"].val, ksc)
	if step == nil || lp.From == nil || lp.To == nil || lp.Invariant == nil {
		return nil
	}
	if step.Action.Kind.External() {
		pl.l.errs.Add(step.Pos, source.ErrModel, "a repeated step must be internal: %s is an %s action", step.Action.Name, step.Action.Kind)
		return nil
	}
	ident := func() expr.Expr {
		id := &expr.Ident{Name: k.Name}
		id.SetPos(k.Pos)
		return id
	}
	bin := func(op expr.Op, x, y expr.Expr) expr.Expr {
		b := &expr.Binary{Op: op, X: x, Y: y}
		b.SetPos(x.Pos())
		return b
	}
	one := &expr.IntLit{Value: 1}
	one.SetPos(k.Pos)
	lp.Bounds = bin(expr.OpLe, lp.From, lp.To)
	lp.InRange = bin(expr.OpAnd, bin(expr.OpLe, lp.From, ident()), bin(expr.OpLt, ident(), lp.To))
	lp.Next = bin(expr.OpAdd, ident(), one)
	pl.chk.CheckExpr(lp.Bounds, sc, expr.BoolSort)
	pl.chk.CheckExpr(lp.InRange, ksc, expr.BoolSort)
	pl.chk.CheckExpr(lp.Next, ksc, expr.IntSort)
	step.Loop = lp
	return step
}

// intExpr parses n as an Int expression in sc.
func (pl *proofLoader) intExpr(n *yaml.Node, sc *expr.Scope, what string) expr.Expr {
	x := pl.parseExpr(n, what)
	if x != nil {
		pl.chk.CheckExpr(x, sc, expr.IntSort)
	}
	return x
}
