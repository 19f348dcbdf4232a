// This file implements the step correspondence of a proof: the cases of
// each concrete action with their abstract call sequences (the implicit
// step of an action the abstract automaton shares, the default
// pre-mapping), the check that a case's external actions show the
// concrete action's event, and the history actions of a history proof.

package load

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

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
	case n.Kind == yaml.MappingNode && !isLoop(n):
		out = append(out, pl.caseMap(act, n, sc, 1))
	case n.Kind == yaml.SequenceNode && len(n.Content) > 0 && n.Content[0].Kind == yaml.MappingNode && !isLoop(n.Content[0]):
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
		c.Steps = pl.calls(act, n, sc)
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
		c.Steps = pl.calls(act, s.val, sc)
	}
	if pre, ok := fs["pre"]; ok {
		c.Pre = pl.stateMap(pre, pl.p.Abstract, sc, "pre-state witness", true)
	}
	if st, ok := fs["strategy"]; ok {
		pl.caseStrategy(act, c, st, sc) // strategy.go
	}
	return c
}

// calls reads a list of abstract action calls of a case of act: a scalar
// `Act(args)` or a sequence of them, where an item may be a repeated step
// (loopStep); `[]` is the empty list (a stutter).
func (pl *proofLoader) calls(act *ioa.Action, n *yaml.Node, sc *expr.Scope) []*ioa.AbstractStep {
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
	loops := 0
	for _, it := range items {
		s := (*ioa.AbstractStep)(nil)
		if it.Kind == yaml.MappingNode {
			s = pl.loopStep(act, it, sc)
			if loops++; loops > 1 {
				pl.errorf(it, source.ErrModel, "a case may repeat one step: split the concrete action's cases, or repeat a step that does both")
				continue
			}
		} else {
			s = pl.call(it, sc)
		}
		if s != nil {
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
