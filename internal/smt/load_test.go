package smt

import (
	"testing"

	"ladder/ioa"
	"ladder/ioa/load"
)

func loadAutomaton(t *testing.T, file, name string) *ioa.Automaton {
	t.Helper()
	set, errs := load.Files(file)
	if len(errs) > 0 {
		for _, e := range errs {
			t.Log(e)
		}
		t.Fatalf("load %s failed", file)
	}
	a := set.Automaton(name)
	if a == nil {
		t.Fatalf("no automaton %s in %s", name, file)
	}
	return a
}

func TestLoadGadgets(t *testing.T) {
	loadAutomaton(t, "testdata/gadgets.yaml", "Gadgets")
}
