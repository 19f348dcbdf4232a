package main

import (
	"testing"
)

// TestNOrecCommitNoCheck checks that the negative fixture of the NOrec edge
// (algorithms/testdata/NOrecCommitNoCheck.yaml: an atomic writer commit that
// does not check its snapshot, a lost update) is refuted three ways: its
// traces are not TMS2's, the bounded check of its forward simulation fails
// at the writer commit's precondition, and Z3 (with the kernel's bounded
// search) refutes that obligation with a counterexample.
func TestNOrecCommitNoCheck(t *testing.T) {
	const td = "../../algorithms/testdata/"
	const specs = "../../specs"
	tests := []struct {
		name   string
		args   []string
		stdout string // regexp
	}{
		{"implements", []string{"crosscheck", "--implements", specs + "/TMS2.yaml", td + "NOrecCommitNoCheck.yaml", "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: TMS2 cannot produce this trace of NOrecCommitNoCheck .*CommitResp\(T#1\), CommitInv\(T#0\), CommitResp\(T#0\)\n`},
		{"crosscheck", []string{"crosscheck", td + "NOrecCommitNoCheck-TMS2.yaml", td, specs, "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: NOrecCommitNoCheck→TMS2 › forward › Commit › case 2 › pre\(DoCommitWriter\)\n.*false: rdSet\[t\] subset latestMem`},
		{"prove", []string{"prove", "--no-cache", "--only", `NOrecCommitNoCheck→TMS2 › forward › Commit › case 2 › pre`, td, specs},
			`(?s)pre\(DoCommitWriter\)\s+refuted.*counterexample to NOrecCommitNoCheck→TMS2 › forward › Commit › case 2 › pre\(DoCommitWriter\).*0 proved, 0 trivial, 1 refuted`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectRefuted(t, tc.args, tc.stdout)
		})
	}
}
