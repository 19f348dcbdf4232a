package main

import (
	"testing"
)

// TestNOrecMidFixtures checks that the negative fixtures of the two middle
// edges of the NOrec chain are refuted three ways: their traces are not
// TMS2's, the bounded check of the refinement fails at the step the bug is
// in, and Z3 (with the kernel's bounded search) refutes that obligation with
// a counterexample.
//
//   - NOrecDerivedUnlockedWriteBack (algorithms/testdata): the CAS moves glb
//     to loc + 2 at once, so a reader can see a half-written redo log; its
//     refinement to NOrecAtomicCommitValidate fails at the reader's atomic
//     Read, whose abstract memory already holds the whole redo log.
//   - NOrecR3NoCheck: R3 logs and returns the value read without comparing
//     loc with glb; its refinement to NOrecDerived fails at R3, where the
//     atomic Read goes to validation.
func TestNOrecMidFixtures(t *testing.T) {
	const td = "../../algorithms/testdata/"
	const specs = "../../specs"
	const unlocked = "NOrecDerivedUnlockedWriteBack→NOrecAtomicCommitValidate › refinement › Read › post"
	const r3 = "NOrecR3NoCheck→NOrecDerived › refinement › R3 › post"
	tests := []struct {
		name   string
		args   []string
		stdout string // regexp
	}{
		{"unlocked/implements", []string{"crosscheck", "--implements", specs + "/TMS2.yaml", td + "NOrecDerivedUnlockedWriteBack.yaml", specs, "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: TMS2 cannot produce this trace of NOrecDerivedUnlockedWriteBack .*ReadInv\(T#1, L#0\), ReadResp\(T#1, V#0\), ReadInv\(T#1, L#0\), ReadResp\(T#1, V#1\)\n`},
		{"unlocked/crosscheck", []string{"crosscheck", td + "NOrecDerivedUnlockedWriteBack-NOrecAtomicCommitValidate.yaml", "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: ` + unlocked + `\(rdSet\)\n.*u1\.val = .* but f\(cpost\)\.val = `},
		{"unlocked/prove", []string{"prove", "--no-cache", "-j", "1", "--only", unlocked + `\(rdSet\)`, td + "NOrecDerivedUnlockedWriteBack-NOrecAtomicCommitValidate.yaml"},
			`(?s)post\(rdSet\)\s+refuted.*counterexample to ` + unlocked + `\(rdSet\).*concrete step: Read\(T#\d\).*0 proved, 0 trivial, 1 refuted`},
		{"r3/implements", []string{"crosscheck", "--implements", specs + "/TMS2.yaml", td + "NOrecR3NoCheck.yaml", specs, "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: TMS2 cannot produce this trace of NOrecR3NoCheck .*ReadResp\(T#0, V#0\), ReadInv\(T#0, L#0\), .*ReadResp\(T#0, V#1\)\n`},
		{"r3/crosscheck", []string{"crosscheck", td + "NOrecR3NoCheck-NOrecDerived.yaml", "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: ` + r3 + `\(pc\)\n.*u1\.pc = .* but f\(cpost\)\.pc = `},
		{"r3/prove", []string{"prove", "--no-cache", "-j", "1", "--only", r3 + `\(pc\)`, td + "NOrecR3NoCheck-NOrecDerived.yaml"},
			`(?s)post\(pc\)\s+refuted.*counterexample to ` + r3 + `\(pc\).*concrete step: R3\(T#\d\).*0 proved, 0 trivial, 1 refuted`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectRefuted(t, tc.args, tc.stdout)
		})
	}
}
