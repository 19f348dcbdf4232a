package main

import (
	"regexp"
	"testing"
)

// TestDSTMNoValidate checks that the negative fixture of the DSTM edge
// (algorithms/testdata/DSTMNoValidate.yaml: a read does not validate its
// read set) is refuted two ways: its traces are not TMS2's (a transaction
// re-reads a location and returns the value of a writer that committed
// after its first read), and Z3 (with the kernel's bounded search) refutes
// the obligation of the edge that says a transaction's reads agree with
// the memory of its last read, with a counterexample.
func TestDSTMNoValidate(t *testing.T) {
	const td = "../../algorithms/testdata/"
	const specs = "../../specs"
	tests := []struct {
		name   string
		args   []string
		stdout string // regexp
	}{
		{"implements", []string{"crosscheck", "--implements", specs + "/TMS2.yaml", td + "DSTMNoValidate.yaml", "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: TMS2 cannot produce this trace of DSTMNoValidate .*ReadInv\(T#0, L#0\), ReadResp\(T#0, V#0\), ReadInv\(T#0, L#0\), .*CommitInv\(T#1\), ReadResp\(T#0, V#1\)\n`},
		{"prove", []string{"prove", "--no-cache", "-j", "1", "--only", `DSTMNoValidate→TMS2 › forward › Read › case 2 › relation\(snapOK\)`, td + "DSTMNoValidate-TMS2.yaml", td + "DSTMNoValidate.yaml", specs},
			`(?s)relation\(snapOK\)\s+refuted.*counterexample to DSTMNoValidate→TMS2 › forward › Read › case 2 › relation\(snapOK\).*concrete step: Read\(T#0\).*0 proved, 1 refuted`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runLadder(tc.args...)
			if code != exitFailure {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFailure, stdout, stderr)
			}
			if !regexp.MustCompile(tc.stdout).MatchString(stdout) {
				t.Errorf("stdout does not match %s:\n%s", tc.stdout, stdout)
			}
		})
	}
}
