package main

import (
	"regexp"
	"testing"
)

// TestTMLCrosscheck checks that TML's forward simulation to TMS2 holds on
// the small instance (every obligation at every reachable step), so that the
// refutations of TestTMLReadNoCheck below come from the bug and not from a
// broken relation.
func TestTMLCrosscheck(t *testing.T) {
	code, stdout, stderr := runLadder("crosscheck", "../../proofs/TML-TMS2.yaml", "../../algorithms/TML.yaml", "../../specs", "--bound", "T=2,L=1,V=2")
	if code != exitOK {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
	}
	want := `(?s)TML→TMS2 \(forward, proof TML-TMS2\).*cases taken: ReadCheck case 1: \d+, case 2: \d+; Commit case 1: \d+, case 2: \d+\n(note: [^\n]*\n)*OK: every obligation holds`
	if !regexp.MustCompile(want).MatchString(stdout) {
		t.Errorf("stdout does not match %s:\n%s", want, stdout)
	}
}

// TestTMLReadNoCheck checks that the negative fixture of the TML edge
// (algorithms/testdata/TMLReadNoCheck.yaml: R2 returns the value read at R1
// without checking glb = loc, a dirty read) is refuted three ways: its
// traces are not TMS2's (a reader returns a writer's uncommitted value), the
// bounded check of the forward simulation fails at the read's value
// register, and Z3 (with the kernel's bounded search) refutes that
// obligation with a counterexample.
func TestTMLReadNoCheck(t *testing.T) {
	const td = "../../algorithms/testdata/"
	const specs = "../../specs"
	tests := []struct {
		name   string
		args   []string
		stdout string // regexp
	}{
		{"implements", []string{"crosscheck", "--implements", specs + "/TMS2.yaml", td + "TMLReadNoCheck.yaml", "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: TMS2 cannot produce this trace of TMLReadNoCheck .*WriteInv\(T#1, L#0, V#1\), ReadResp\(T#0, V#1\)\n`},
		{"crosscheck", []string{"crosscheck", td + "TMLReadNoCheck-TMS2.yaml", td + "TMLReadNoCheck.yaml", specs, "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: TMLReadNoCheck→TMS2 › forward › ReadCheck › relation\(valRead\)\n.*false: a.valRead\[t\] = c.val\[t\].*\d+: Write\(T#1\).*failing step: ReadCheck\(T#0\)`},
		{"prove", []string{"prove", "--no-cache", "-j", "1", "--only", `TMLReadNoCheck→TMS2 › forward › ReadCheck › relation\(valRead\)`, td + "TMLReadNoCheck-TMS2.yaml", td + "TMLReadNoCheck.yaml", specs},
			`(?s)relation\(valRead\)\s+refuted.*counterexample to TMLReadNoCheck→TMS2 › forward › ReadCheck › relation\(valRead\).*concrete step: ReadCheck\(T#0\).*0 proved, 0 trivial, 1 refuted`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectRefuted(t, tc.args, tc.stdout)
		})
	}
}
