package driver

import (
	"slices"
	"strings"
	"testing"

	"ladder/ioa/load"
)

// TestProofAlone checks that a proof file given alone loads the automata
// it names from the library, and that a run proves the invariants of
// those automata only because the edge assumes them: no other automaton
// of the library is loaded or proved.
func TestProofAlone(t *testing.T) {
	cfg := load.Config{Library: []string{"../../specs", "../../algorithms"}}
	set, errs := cfg.Files("../../proofs/NOrecAtomicCommitValidate-TMS2.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var names []string
	for _, a := range set.Resolved {
		names = append(names, a.Name)
	}
	slices.Sort(names)
	// The concrete automaton is named by its path, the abstract one by
	// its name only.
	if strings.Join(names, ",") != "TMS2" {
		t.Fatalf("resolved %v, want TMS2", names)
	}
	got := needed(&set.Hierarchy)
	slices.Sort(got)
	if strings.Join(got, ",") != "NOrecAtomicCommitValidate,TMS2" {
		t.Errorf("needed = %v", got)
	}
	in, errs := Generate(set)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, o := range in.Obligations {
		if o.Invariant != "" && !strings.HasPrefix(o.ID, "TMS2 ›") && !strings.HasPrefix(o.ID, "NOrecAtomicCommitValidate ›") {
			t.Errorf("unexpected invariant obligation %s", o.ID)
		}
	}

	// Without a library the name is an error, as before.
	if _, errs := load.Files("../../proofs/NOrecAtomicCommitValidate-TMS2.yaml"); len(errs) == 0 || !strings.Contains(errs.Error(), `unknown automaton "TMS2"`) {
		t.Errorf("without a library: %v", errs)
	}
}

// TestNeededDropsUnassumed checks that an automaton resolved from the
// library whose invariants no edge assumes is not proved.
func TestNeededDropsUnassumed(t *testing.T) {
	cfg := load.Config{Library: []string{"testdata/library"}}
	set, errs := cfg.Files("testdata/library-proof/Impl-Spec.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := needed(&set.Hierarchy); len(got) != 0 || got == nil {
		t.Errorf("needed = %#v, want an empty list", got)
	}
	in, errs := Generate(set)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, o := range in.Obligations {
		if o.Invariant != "" {
			t.Errorf("invariant obligation %s generated", o.ID)
		}
	}
	if len(in.Obligations) == 0 {
		t.Error("no obligations for the edge")
	}
}
