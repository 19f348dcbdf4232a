package counterexample

import (
	"strings"
	"testing"
)

// TestOtherwiseAs checks the rendering of a state given as a difference
// from another: "(otherwise as c)" when it is Partial, the base's name
// alone when none changed, and no suffix when the difference lists every
// variable (it is then the whole state, not Partial).
func TestOtherwiseAs(t *testing.T) {
	c := &Counterexample{Obligation: "o", Goal: "g", States: []State{
		{Name: "c", Automaton: "A", Text: "A{n: 1, on: false}"},
		{Name: "some", Automaton: "A", Text: "A{n: 2}", Changed: true, Base: "c", Partial: true},
		{Name: "all", Automaton: "A", Text: "A{n: 2, on: true}", Changed: true, Base: "c"},
		{Name: "none", Automaton: "A", Text: "A{}", Changed: true, Base: "c", Partial: true},
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
}
