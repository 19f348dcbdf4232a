// Package counterexample holds the replayed counterexample of an
// obligation: the data that package simulation computes when the
// reference evaluator replays a solver model, and that the kernel renders
// with a Refuted verdict. It is a leaf of the trusted core and crosses into
// the kernel as text: it imports nothing of the module, so that the
// kernel's closure holds neither the evaluator nor the model (the values a
// state was rendered from stay with simulation, which computes Partial).
package counterexample

import (
	"fmt"
	"strings"
)

// Unshowable is a replay's error when the evaluator has no value for a
// sort of the model (a map over Int): a limit, so the verdict is Unknown.
type Unshowable struct{ Reason string }

func (e *Unshowable) Error() string { return e.Reason }

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
	Name      string // "c", "a", "cpost", "u1", "apre", ...
	Automaton string // its automaton
	Text      string // rendered: all variables, or for a computed post-state only those that changed
	Changed   bool   // Text lists only the variables that differ from Base
	Base      string // the state it was computed from by a step, or ""
	// Partial reports that Text lists only some of the state's variables,
	// those that differ from Base: the state is Changed, and some variable
	// is equal in it and in the state named Base. A difference that lists
	// every variable is the whole state: nothing is "otherwise as" the
	// base. The producer (simulation's replay) computes it from the values.
	Partial bool
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
		case s.Partial:
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
