// This file reads strategy declarations: the `strategy:` lists of
// invariants, of proofs and of the cases of step correspondences
// (docs/proofs.md, "Strategies"), into the strategy model of package ioa
// (ioa/strategy.go). The loader owns their syntax: it checks the strategy
// names, resolves invariant names and sort-checks every expression in the
// scope of each action the step applies to.
//
// This file holds the common syntax of a strategy list (names, actions,
// clauses, the scopes of its expressions) and where each list attaches;
// the four strategies are in strategy_kinds.go.

package load

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// strategyNames lists the strategy names in the order of docs/proofs.md
// (read-only).
var strategyNames = []string{ioa.StrategySplit, ioa.StrategyAssume, ioa.StrategyInstantiate, ioa.StrategyParametrized}

// strategyActionsKey restricts a step of an invariant's or a proof's
// strategy to some actions; strategyClausesKey restricts a step of a
// proof's or a case's strategy to some clauses.
const (
	strategyActionsKey = "actions"
	strategyClausesKey = "clauses"
)

// ---- reading ----

// strategyItem is an item of a strategy list before its arguments are
// read.
type strategyItem struct {
	name       string
	nameNode   *yaml.Node
	arg        *yaml.Node // nil for a bare name
	actionNode *yaml.Node // the `actions:` value, or nil
	clauseNode *yaml.Node // the `clauses:` value, or nil
}

// strategyCtx says where a strategy list is and how its expressions are
// checked.
type strategyCtx struct {
	what    string         // e.g. `the strategy of invariant "p"`
	auto    *ioa.Automaton // invariant strategies: the automaton
	inv     *ioa.Invariant // invariant strategies: the invariant
	proof   *ioa.Proof     // proof and case strategies
	actions []*ioa.Action  // the actions the list applies to, in order
	scope   func(act *ioa.Action) *expr.Scope
	single  bool           // a case's strategy: no `actions:`
	index   []*expr.Object // parametrized index names, once read
	// parametrized is set once a parametrized step is read.
	parametrized bool
}

// strategyItems reads the items of a strategy list: a sequence (or a
// single item) of bare names and one-key mappings {name: args}, with an
// optional `actions:` key.
func (fl *fileLoader) strategyItems(n *yaml.Node, cx *strategyCtx) []strategyItem {
	var out []strategyItem
	for _, it := range fl.sequence(n, cx.what, true) {
		if !fl.noAlias(it) {
			continue
		}
		switch it.Kind {
		case yaml.ScalarNode:
			if isNull(it) {
				fl.errorf(it, source.ErrModel, "expected a strategy in %s, found nothing", cx.what)
				continue
			}
			if fl.strategyName(it, it.Value) {
				out = append(out, strategyItem{name: it.Value, nameNode: it})
			}
		case yaml.MappingNode:
			es, ok := fl.entries(it, cx.what, "key")
			if !ok {
				continue
			}
			var item strategyItem
			bad := false
			for _, e := range es {
				if e.name() == strategyClausesKey {
					if cx.proof == nil {
						fl.errorf(e.key, source.ErrModel, "%q restricts a step of a proof's strategy to some clauses; an invariant's step has one clause", strategyClausesKey)
						bad = true
						continue
					}
					item.clauseNode = e.val
					continue
				}
				if e.name() == strategyActionsKey {
					if cx.single {
						fl.errorf(e.key, source.ErrModel, "a case's strategy applies to its action only: %q is not allowed here", strategyActionsKey)
						bad = true
						continue
					}
					item.actionNode = e.val
					continue
				}
				if !fl.strategyName(e.key, e.name()) {
					bad = true
					continue
				}
				if item.nameNode != nil {
					fl.errorf(e.key, source.ErrModel, "one strategy per list item: %q follows %q (write each as its own `- name: args`)", e.name(), item.name)
					bad = true
					continue
				}
				item.name, item.nameNode, item.arg = e.name(), e.key, e.val
			}
			if item.nameNode == nil {
				if !bad {
					fl.errorf(it, source.ErrModel, "missing strategy name in %s: expected one of %s", cx.what, strings.Join(strategyNames, ", "))
				}
				continue
			}
			if !bad {
				out = append(out, item)
			}
		default:
			fl.errorf(it, source.ErrModel, "expected a strategy (a name or `name: arguments`) in %s, found %s", cx.what, kindName(it))
		}
	}
	return out
}

// strategyName reports an unknown strategy name at n.
func (fl *fileLoader) strategyName(n *yaml.Node, name string) bool {
	if contains(strategyNames, name) {
		return true
	}
	msg := fmt.Sprintf("unknown strategy %q: expected one of %s", name, strings.Join(strategyNames, ", "))
	if s := suggest(name, strategyNames); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	fl.errorf(n, source.ErrName, "%s", msg)
	return false
}

// strategy reads a strategy list in context cx.
func (fl *fileLoader) strategy(key, n *yaml.Node, cx *strategyCtx) *ioa.Strategy {
	items := fl.strategyItems(n, cx)
	s := &ioa.Strategy{Pos: fl.f.pos(key)}
	// parametrized first: its index names are in scope of the other steps.
	var rest []strategyItem
	for _, it := range items {
		if it.name != ioa.StrategyParametrized {
			rest = append(rest, it)
			continue
		}
		if cx.inv == nil {
			fl.errorf(it.nameNode, source.ErrModel, "strategy %q applies to invariants of the form forall x: S. P (S a parameter sort), not to %s", it.name, strings.TrimPrefix(cx.what, "the strategy of "))
			continue
		}
		if cx.parametrized {
			fl.errorf(it.nameNode, source.ErrModel, "duplicate strategy %q", it.name)
			continue
		}
		cx.parametrized = true
		if st := fl.parametrized(it, cx); st != nil {
			s.Steps = append(s.Steps, st)
		}
	}
	for _, it := range rest {
		st := &ioa.StrategyStep{Name: it.name, Pos: fl.f.pos(it.nameNode)}
		if it.actionNode != nil {
			acts, ok := fl.strategyActions(it.actionNode, cx)
			if !ok {
				continue
			}
			st.Actions = acts
		}
		if it.clauseNode != nil {
			cls, ok := fl.strategyClauses(it.clauseNode, cx)
			if !ok {
				continue
			}
			st.Clauses = cls
		}
		ok := false
		switch it.name {
		case ioa.StrategySplit:
			ok = fl.splitStep(st, it, cx)
		case ioa.StrategyAssume:
			ok = fl.assumeStep(st, it, cx)
		case ioa.StrategyInstantiate:
			ok = fl.instantiateStep(st, it, cx)
		}
		if ok {
			s.Steps = append(s.Steps, st)
		}
	}
	return s
}

// strategyActions reads an `actions:` list.
func (fl *fileLoader) strategyActions(n *yaml.Node, cx *strategyCtx) ([]*ioa.Action, bool) {
	var out []*ioa.Action
	ok := true
	for _, it := range fl.sequence(n, "the actions of a strategy", true) {
		name, good := fl.scalar(it, "an action name")
		if !good {
			ok = false
			continue
		}
		var found *ioa.Action
		var names []string
		for _, a := range cx.actions {
			names = append(names, a.Name)
			if a.Name == name {
				found = a
			}
		}
		if found == nil {
			msg := fmt.Sprintf("unknown action %q in the actions of a strategy", name)
			if s := suggest(name, names); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			fl.errorf(it, source.ErrName, "%s", msg)
			ok = false
			continue
		}
		out = append(out, found)
	}
	if ok && len(out) == 0 {
		fl.errorf(n, source.ErrModel, "empty actions list in a strategy: omit `actions:` to apply the step to every action")
		ok = false
	}
	return out, ok
}

// strategyClauses reads a `clauses:` list: clause names as obligation IDs
// write them, for the relation clauses, abstract actions and variables
// of the proof.
func (fl *fileLoader) strategyClauses(n *yaml.Node, cx *strategyCtx) ([]ioa.StepClause, bool) {
	p := cx.proof
	var out []ioa.StepClause
	ok := true
	for _, it := range fl.sequence(n, "the clauses of a strategy", true) {
		name, good := fl.scalar(it, "a clause name")
		if !good {
			ok = false
			continue
		}
		name = strings.TrimSpace(name)
		c, why := clauseOf(p, name)
		if why != "" {
			fl.errorf(it, source.ErrName, "unknown clause %q in the clauses of a strategy: %s", name, why)
			ok = false
			continue
		}
		out = append(out, c)
	}
	if ok && len(out) == 0 {
		fl.errorf(n, source.ErrModel, "empty clauses list in a strategy: omit `clauses:` to apply the step to every clause")
		ok = false
	}
	return out, ok
}

// clauseOf returns the clause of p's step obligations that name writes,
// or why name is not one.
func clauseOf(p *ioa.Proof, name string) (ioa.StepClause, string) {
	c, err := ioa.ParseStepClause(name)
	if err != nil {
		return c, err.Error()
	}
	switch c.Kind {
	case ioa.ClauseRelation:
		if p.Clause(c.Arg) == nil {
			return c, fmt.Sprintf("the proof has no relation clause %s", c.Arg)
		}
	case ioa.ClausePre:
		if p.Abstract.Action(c.Arg) == nil {
			return c, fmt.Sprintf("%s has no action %s", p.Abstract.Name, c.Arg)
		}
	case ioa.ClausePost:
		if p.Abstract.Var(c.Arg) == nil {
			return c, fmt.Sprintf("%s has no variable %s", p.Abstract.Name, c.Arg)
		}
	}
	return c, ""
}

// stepActions returns the actions a step applies to.
func stepActions(st *ioa.StrategyStep, cx *strategyCtx) []*ioa.Action {
	if st.Actions != nil {
		return st.Actions
	}
	return cx.actions
}

// scopeFor returns the scope of act's expressions in cx, with the index
// names of a parametrized step.
func (cx *strategyCtx) scopeFor(act *ioa.Action) *expr.Scope {
	sc := cx.scope(act)
	if len(cx.index) == 0 {
		return sc
	}
	sc = expr.NewScope(sc)
	for _, o := range cx.index {
		sc.Insert(o)
	}
	return sc
}

// perAction parses the expression in scalar n once per action and runs
// check on each copy in that action's scope, collecting its errors. An
// error every action reports is reported once; the others name their
// action. It returns the copies, or nil after a syntax error.
func (fl *fileLoader) perAction(n *yaml.Node, what string, acts []*ioa.Action, cx *strategyCtx,
	check func(act *ioa.Action, x expr.Expr, sc *expr.Scope, chk *expr.Checker, errs *source.ErrorList) bool) map[*ioa.Action]expr.Expr {
	if fl.parseExpr(n, what) == nil {
		return nil // syntax error, reported once
	}
	text := n.Value
	out := map[*ioa.Action]expr.Expr{}
	errsOf := map[*ioa.Action]source.ErrorList{}
	count := map[source.Error]int{}
	for _, act := range acts {
		x, perrs := expr.ParseExpr(text, fl.f.mapper(n))
		if len(perrs) > 0 || x == nil {
			return nil
		}
		var errs source.ErrorList
		if check(act, x, cx.scopeFor(act), NewChecker(&errs), &errs) && len(errs) == 0 {
			out[act] = x
		}
		seen := map[source.Error]bool{}
		for _, e := range errs {
			if !seen[*e] {
				seen[*e] = true
				count[*e]++
			}
		}
		errsOf[act] = errs
	}
	reported := map[source.Error]bool{}
	for _, act := range acts {
		for _, e := range errsOf[act] {
			if count[*e] == len(acts) {
				if !reported[*e] {
					reported[*e] = true
					fl.l.errs.Add(e.Pos, e.Code, "%s", e.Msg)
				}
				continue
			}
			fl.l.errs.Add(e.Pos, e.Code, "%s (in the scope of action %s)", e.Msg, act.Name)
		}
	}
	if len(out) != len(acts) {
		return nil
	}
	return out
}

// ---- the three places a strategy list may appear ----

// invariantStrategy reads the `strategy:` of invariant inv of al's
// automaton; it applies to the obligations of inv's inductive step, one
// per action.
func (al *autoLoader) invariantStrategy(inv *ioa.Invariant, e entry) {
	a := al.a
	cx := &strategyCtx{
		what: fmt.Sprintf("the strategy of invariant %q", inv.Name), auto: a, inv: inv, actions: a.Actions,
		scope: func(act *ioa.Action) *expr.Scope {
			if act.Scope != nil {
				return act.Scope
			}
			return a.Scope
		},
	}
	inv.Strategy = al.strategy(e.key, e.val, cx)
}

// proofStrategy reads the top-level `strategy:` of the proof; it applies
// to the step obligations of every case of every concrete action.
func (pl *proofLoader) proofStrategy(e entry) {
	p := pl.p
	if p.Kind == ioa.ProofHistory {
		pl.errorf(e.key, source.ErrModel, "a history proof has no step cases: strategies apply to the steps of refinements, forward and backward simulations")
		return
	}
	var acts []*ioa.Action
	for _, sm := range p.Steps {
		acts = append(acts, sm.Action)
	}
	cx := &strategyCtx{what: fmt.Sprintf("the strategy of proof %s", p.Name), proof: p, actions: acts,
		scope: func(act *ioa.Action) *expr.Scope { return p.Step(act.Name).Scope }}
	p.Strategy = pl.strategy(e.key, e.val, cx)
}

// caseStrategy reads the `strategy:` of case c of act's step
// correspondence, whose expressions are checked in sc.
func (pl *proofLoader) caseStrategy(act *ioa.Action, c *ioa.Case, e entry, sc *expr.Scope) {
	cx := &strategyCtx{what: fmt.Sprintf("the strategy of case %d of action %s", c.Index, act.Name), proof: pl.p,
		actions: []*ioa.Action{act}, single: true, scope: func(*ioa.Action) *expr.Scope { return sc }}
	c.Strategy = pl.strategy(e.key, e.val, cx)
}
