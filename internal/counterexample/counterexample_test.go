package counterexample

import (
	"strings"
	"testing"

	"ladder/ioa/eval"
)

// TestOtherwiseAs checks the rendering of a state given as a difference
// from another: "(otherwise as c)" when some variable is left out, the
// base's name alone when none changed, and no suffix when the difference
// lists every variable (it is then the whole state).
func TestOtherwiseAs(t *testing.T) {
	c0 := eval.State{eval.Int(1), eval.Bool(false)}
	c := &Counterexample{Obligation: "o", Goal: "g", States: []State{
		{Name: "c", Automaton: "A", Value: c0, Text: "A{n: 1, on: false}"},
		{Name: "some", Automaton: "A", Value: eval.State{eval.Int(2), eval.Bool(false)}, Text: "A{n: 2}", Changed: true, Base: "c"},
		{Name: "all", Automaton: "A", Value: eval.State{eval.Int(2), eval.Bool(true)}, Text: "A{n: 2, on: true}", Changed: true, Base: "c"},
		{Name: "none", Automaton: "A", Value: c0, Text: "A{}", Changed: true, Base: "c"},
	}}
	got := c.String()
	for _, want := range []string{
		"  some = A{n: 2} (otherwise as c)\n",
		"  all  = A{n: 2, on: true}\n",
		"  none = c (unchanged)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("String() lacks %q:\n%s", want, got)
		}
	}
	for i, want := range []bool{false, true, false, true} {
		if p := c.Partial(c.States[i]); p != want {
			t.Errorf("Partial(%s) = %v, want %v", c.States[i].Name, p, want)
		}
	}
}
