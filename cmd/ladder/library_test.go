package main

import (
	"strings"
	"testing"
)

// TestNamesFromLibrary checks that an automaton named but not given is
// found in specs/ or algorithms/ of the repository: by a proof file given
// alone (`abstract: TMS2`), and by `crosscheck --implements TMS2`.
func TestNamesFromLibrary(t *testing.T) {
	code, stdout, stderr := runLadder("check", "../../proofs/TML-TMS2.yaml")
	if code != exitOK || !strings.Contains(stdout, "2 automata") {
		t.Errorf("check of a proof alone: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runLadder("crosscheck", "--implements", "TMS2", "../../algorithms/TML.yaml", "--bound", "T=2,L=1,V=1")
	if code != exitOK || !strings.Contains(stdout, "OK: every trace of TML in the instance is a trace of TMS2") {
		t.Errorf("crosscheck --implements TMS2: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, _, stderr = runLadder("crosscheck", "--implements", "NoSuchSpec", "../../algorithms/TML.yaml", "--bound", "T=2,L=1,V=1")
	if code != exitUsage || !strings.Contains(stderr, "no automaton NoSuchSpec is loaded") {
		t.Errorf("crosscheck --implements NoSuchSpec: exit %d\nstderr:\n%s", code, stderr)
	}
}
