package main

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestProofsAbove checks which proof files of proofs/ a proof given alone
// is proved with: those that continue its chain upwards (a history mapping
// the other way), so that the end-to-end theorem is derived and the
// invariants assumed by transfer are found.
func TestProofsAbove(t *testing.T) {
	for _, c := range []struct {
		given string
		want  []string
	}{
		{"TL2-ReservationTMS2.yaml", []string{"ReservationTMS2-TxnOrdTMS2WithFailures.yaml", "TMS2-CommitSer.yaml",
			"TMS2-TxnOrdTMS2.yaml", "TxnOrdTMS2-ReservationTMS2.yaml", "TxnOrdTMS2WithFailures-TxnOrdTMS2.yaml"}},
		{"NOrecPaperPseudocode-NOrec.yaml", []string{"NOrec-NOrecDerived.yaml", "NOrecAtomicCommitValidate-TMS2.yaml",
			"NOrecDerived-NOrecAtomicCommitValidate.yaml", "TMS2-CommitSer.yaml"}},
		{"TMS2-CommitSer.yaml", nil},
		// a history mapping of proofs/objects given alone continues from
		// its copy with history variables, up to the specification
		{"objects/MSQueue-MSQueueHist.yaml", []string{"MSQueueHist-AtomicQueue.yaml"}},
		{"objects/TreiberStack-TreiberStackHist.yaml", []string{"TreiberStackHist-AtomicStack.yaml"}},
	} {
		var got []string
		for _, p := range proofsAbove([]string{filepath.Join("..", "..", "proofs", c.given)}) {
			got = append(got, filepath.Base(p))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: proved with %q, want %q", c.given, got, c.want)
		}
	}
	// The whole directory given: nothing to add.
	if got := proofsAbove([]string{filepath.Join("..", "..", "proofs")}); len(got) != 0 {
		t.Errorf("proofs/ given: %q added", got)
	}
}
