package simulation

import (
	"strings"
	"testing"

	"ladder/internal/kernel"
	"ladder/internal/source"
	"ladder/internal/theorems"
	"ladder/ioa"
)

// TestCheckClaims checks that a claimed theorem the derivation has passes
// and one it lacks is reported at its position.
func TestCheckClaims(t *testing.T) {
	in := &theorems.Input{
		Automata: []theorems.Automaton{{Name: "A", Interface: "TM"}, {Name: "C", Interface: "TM"}},
		Edges: []theorems.Edge{{Name: "C→A", Kind: theorems.Refinement, Concrete: "C", Abstract: "A",
			Obligations: []string{"C→A › start"}}},
	}
	d := theorems.Derive(in, theorems.Verdicts{"C→A › start": kernel.Proved})
	good := source.Pos{File: "p.yaml", Line: 2, Col: 5}
	bad := source.Pos{File: "p.yaml", Line: 3, Col: 5}
	proofs := []*ioa.Proof{{Theorems: []*ioa.TheoremClaim{
		{Pos: good, Subject: "C", Verb: "implements", Object: "A"},
		{Pos: bad, Subject: "A", Verb: "implements", Object: "C"},
	}}}
	errs := CheckClaims(proofs, d)
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, "A implements C") || errs[0].Pos != bad {
		t.Errorf("CheckClaims = %v; want one error about A implements C at p.yaml:3:5", errs)
	}
}
