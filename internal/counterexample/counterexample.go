// Package counterexample holds the replayed counterexample of an
// obligation: the data that package simulation computes when the
// reference evaluator replays a solver model, and that the kernel renders
// with a Refuted verdict. It is a leaf of the trusted core: it depends on
// the evaluator's values only.
package counterexample

import (
	"fmt"
	"strings"

	"ladder/ioa/eval"
)

// Counterexample is a replayed refutation of an obligation: the states and
// parameters of the model, the states computed from them, and the goal
// that fails. It is data; String renders it in the language's notation.
type Counterexample struct {
	Obligation string // the obligation's ID
	Clause     string // its clause (Obligation.Clause)
	Action     string // the concrete action, or ""
	Case       string // "case k", or ""
	Goal       string // the goal that fails, e.g. "R2(cpost, u0)"
	Step       string // the concrete step, e.g. "Flush(2)", or ""
	Abstract   []string
	States     []State
	Constants  []string // "v0 = V#0", sorted
	Instance   string   // the sizes of the parameter sorts, e.g. "T=2,V=1"
}

// State is one state of a counterexample.
type State struct {
	Name      string     // "c", "a", "cpost", "u1", "apre", ...
	Automaton string     // its automaton
	Value     eval.State // every variable
	Text      string     // rendered: all variables, or for a computed post-state only those that changed
	Changed   bool       // Text lists only the variables that differ from Base
	Base      string     // the state it was computed from by a step, or ""
}

// String renders the counterexample, one item per line.
func (c *Counterexample) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "counterexample to %s\n", c.Obligation)
	fmt.Fprintf(&b, "  fails: %s\n", c.Goal)
	if c.Step != "" {
		fmt.Fprintf(&b, "  concrete step: %s\n", c.Step)
		// A step obligation's pre-state need only satisfy its hypotheses.
		b.WriteString("  (a counterexample to induction: the pre-state satisfies every hypothesis but need not be reachable)\n")
	}
	if len(c.Abstract) > 0 {
		fmt.Fprintf(&b, "  abstract steps: %s\n", strings.Join(c.Abstract, ", "))
	}
	w := 0
	for _, s := range c.States {
		w = max(w, len([]rune(s.Name)))
	}
	for _, s := range c.States {
		pad := strings.Repeat(" ", w-len([]rune(s.Name)))
		switch {
		case s.Changed && strings.HasSuffix(s.Text, "{}"):
			fmt.Fprintf(&b, "  %s%s = %s (unchanged)\n", s.Name, pad, s.Base)
		case c.Partial(s):
			fmt.Fprintf(&b, "  %s%s = %s (otherwise as %s)\n", s.Name, pad, s.Text, s.Base)
		default:
			fmt.Fprintf(&b, "  %s%s = %s\n", s.Name, pad, s.Text)
		}
	}
	if len(c.Constants) > 0 {
		fmt.Fprintf(&b, "  constants: %s\n", strings.Join(c.Constants, ", "))
	}
	if c.Instance != "" {
		fmt.Fprintf(&b, "  instance: %s\n", c.Instance)
	}
	return b.String()
}

// Partial reports whether s's Text lists only some of its variables, those
// that differ from its Base: s is Changed, and some variable is equal in
// s and in the state named Base. A difference that lists every variable is
// the whole state: nothing is "otherwise as" the base.
func (c *Counterexample) Partial(s State) bool {
	if !s.Changed {
		return false
	}
	for _, b := range c.States {
		if b.Name != s.Base {
			continue
		}
		if len(b.Value) != len(s.Value) || len(s.Value) == 0 {
			return true
		}
		for i, v := range s.Value {
			if v.Equal(b.Value[i]) {
				return true
			}
		}
		return false
	}
	return true
}
