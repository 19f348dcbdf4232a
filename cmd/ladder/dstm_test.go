package main

import (
	"regexp"
	"testing"
)

// TestDSTMCrosscheck checks that DSTM's forward simulation to
// ReservationTMS2 holds on the small instance (every obligation at every
// reachable step), so that the refutations of TestDSTMNoValidate below come
// from the bug and not from a broken relation.
func TestDSTMCrosscheck(t *testing.T) {
	code, stdout, stderr := runLadder("crosscheck", "../../proofs/DSTM-ReservationTMS2.yaml", "../../algorithms/DSTM.yaml", "../../specs", "--bound", "T=2,L=1,V=2")
	if code != exitOK {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
	}
	want := `(?s)DSTM→ReservationTMS2 \(forward, proof DSTM-ReservationTMS2\).*cases taken: .*CommitInv case 1: \d+, case 2: \d+; CommitCas case 1: \d+, case 2: \d+, case 3: \d+\n.*OK: every obligation holds`
	if !regexp.MustCompile(want).MatchString(stdout) {
		t.Errorf("stdout does not match %s:\n%s", want, stdout)
	}
}

// TestDSTMNoValidate checks that the negative fixture of the DSTM edge
// (algorithms/testdata/DSTMNoValidate.yaml: a read does not validate its
// read set) is refuted two ways: its traces are not TMS2's (a transaction
// re-reads a location and returns the value of a writer that committed
// after its first read), and Z3 (with the kernel's bounded search) refutes
// the obligation of the edge (algorithms/testdata/DSTMNoValidate-
// ReservationTMS2.yaml, the edge of proofs/DSTM-ReservationTMS2.yaml) that
// says a transaction's reads agree with the memory at the position of its
// last read, with a counterexample.
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
		{"prove", []string{"prove", "--no-cache", "-j", "1", "--only", `DSTMNoValidate→ReservationTMS2 › forward › Read › case 2 › relation\(rdVal\)`, td + "DSTMNoValidate-ReservationTMS2.yaml", td + "DSTMNoValidate.yaml", specs},
			`(?s)relation\(rdVal\)\s+refuted.*counterexample to DSTMNoValidate→ReservationTMS2 › forward › Read › case 2 › relation\(rdVal\).*concrete step: Read\(T#0\).*0 proved, 0 trivial, 1 refuted`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectRefuted(t, tc.args, tc.stdout)
		})
	}
}

// TestDSTMCommitAtCas checks why DSTM's proof goes through ReservationTMS2:
// the forward simulation to TMS2 that serialises a writer at its commit CAS
// (algorithms/testdata/DSTMCommitAtCas-TMS2.yaml) holds on one location and
// fails on two, where a writer's validated read is overwritten by another
// writer's commit before its own CAS.
func TestDSTMCommitAtCas(t *testing.T) {
	const edge = "../../algorithms/testdata/DSTMCommitAtCas-TMS2.yaml"
	code, stdout, stderr := runLadder("crosscheck", edge, "../../algorithms/DSTM.yaml", "../../specs", "--bound", "T=2,L=1,V=2")
	if code != exitOK {
		t.Fatalf("L=1: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
	}
	code, stdout, stderr = runLadder("crosscheck", edge, "../../algorithms/DSTM.yaml", "../../specs", "--bound", "T=2,L=2,V=2")
	if code != exitFailure {
		t.Fatalf("L=2: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFailure, stdout, stderr)
	}
	want := `(?s)FAILED: DSTM→TMS2 › forward › CommitCas › case 1 › relation\(cval\)\n.*ReadInv\(T#0, L#0\).*CommitInv\(T#0\).*Validate\(T#0, L#0\)\n.*Write\(T#1\)\n.*CommitCas\(T#1\)\n.*failing step: CommitCas\(T#1\)`
	if !regexp.MustCompile(want).MatchString(stdout) {
		t.Errorf("stdout does not match %s:\n%s", want, stdout)
	}
}
