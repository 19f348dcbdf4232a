// This file implements probes: Bool expressions over a pair (c, a) that a
// forward check evaluates at every pair it reaches without requiring them
// (Config.Probes), and at a pair given as text (ProbeAt). Relation repair
// (package infer) filters its candidate clauses with both.

package crosscheck

import (
	"errors"
	"fmt"
	"strings"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// probe evaluates at the pair (c, a) every probe not yet found false. A
// probe whose evaluation fails there (an arithmetic overflow, say) counts
// as false: it is a guess, and the check goes on.
func (x *checker) probe(c, a eval.State) error {
	e := &env{c: c, a: a}
	for i, f := range x.probes {
		if x.probeFalse[i] {
			continue
		}
		ok, err := x.holds(f, e)
		x.probeFalse[i] = err != nil || !ok
	}
	return nil
}

// ProbeAt evaluates probes (Bool expressions over c and a, sort-checked
// in p's relation scope, as Config.Probes) at the pair of states whose
// texts are cText and aText, as counterexamples render whole states
// ("A{x: v, …}", every variable listed), in the instance given as bounds
// ("L=1,T=1,V=2"). It returns whether each holds there (true for one
// whose evaluation fails).
func ProbeAt(p *ioa.Proof, bounds string, probes []expr.Expr, cText, aText string) ([]bool, error) {
	if p == nil || p.Concrete == nil || p.Abstract == nil {
		return nil, errors.New("no proof, or a proof that did not load")
	}
	inst, err := explore.ParseBounds(bounds)
	if err != nil {
		return nil, fmt.Errorf("instance %s: %v", bounds, err)
	}
	x, err := newChecker(p, Config{Instance: inst, Probes: probes})
	if err != nil {
		return nil, err
	}
	c, err := parseState(p.Concrete, x.mC, cText)
	if err != nil {
		return nil, fmt.Errorf("state c: %v", err)
	}
	a, err := parseState(p.Abstract, x.mA, aText)
	if err != nil {
		return nil, fmt.Errorf("state a: %v", err)
	}
	out := make([]bool, len(x.probes))
	for i, f := range x.probes {
		ok, err := x.holds(f, &env{c: c, a: a})
		// a probe that cannot be evaluated there says nothing of it
		out[i] = err != nil || ok
	}
	return out, nil
}

// parseState reads a state of automaton au rendered whole, "A{x: v, …}":
// each value is an expression of the language, sort-checked against its
// variable's sort in au's scope and evaluated by m.
func parseState(au *ioa.Automaton, m *eval.Machine, text string) (eval.State, error) {
	text = strings.TrimSpace(text)
	body, ok := strings.CutPrefix(text, au.Name+"{")
	if !ok || !strings.HasSuffix(body, "}") {
		return nil, fmt.Errorf("not a state of %s: %.40q", au.Name, text)
	}
	fields := splitTop(strings.TrimSuffix(body, "}"))
	st := make(eval.State, len(au.Vars))
	set := make([]bool, len(au.Vars))
	for _, fld := range fields {
		name, val, ok := strings.Cut(fld, ":")
		name = strings.TrimSpace(name)
		i := -1
		for k, v := range au.Vars {
			if v.Name == name {
				i = k
			}
		}
		if !ok || i < 0 {
			return nil, fmt.Errorf("%s has no variable %q", au.Name, name)
		}
		e, errs := expr.ParseExpr(strings.TrimSpace(val), nil)
		if len(errs) == 0 {
			chk := &expr.Checker{Errors: &errs}
			chk.CheckExpr(e, au.Scope, au.Vars[i].Sort)
		}
		if len(errs) > 0 {
			return nil, fmt.Errorf("%s: %v", name, errs[0].Msg)
		}
		f, err := m.Compile(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if st[i], err = f.Eval(nil, nil); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		set[i] = true
	}
	for i, ok := range set {
		if !ok {
			return nil, fmt.Errorf("no value for %s", au.Vars[i].Name)
		}
	}
	return st, nil
}

// splitTop splits s at the commas outside brackets, braces and
// parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}
