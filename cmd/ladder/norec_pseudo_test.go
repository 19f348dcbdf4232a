package main

import (
	"regexp"
	"testing"
)

// TestNOrecPseudoFixtures checks that each seeded bug of the pseudocode-level
// NOrec (algorithms/testdata/NOrecPseudo*.yaml, each a copy of
// algorithms/NOrecPaperPseudocode.yaml with one bug) is caught twice: on a
// small instance, by `ladder explore` (an invariant the fixture keeps is
// violated) or by `ladder crosscheck --implements` (a trace TMS2 cannot
// produce); and by `ladder prove`, which refutes the forward simulation to
// NOrec (the fixture's proof file) at the buggy step, naming the clause.
//
// The prove runs lower Z3's resource limit: on these quantified obligations
// Z3 answers unknown after spending the whole limit, and the counterexample
// comes from the kernel's bounded search either way, so a small limit only
// makes the answer arrive sooner.
func TestNOrecPseudoFixtures(t *testing.T) {
	const td = "../../algorithms/testdata/"
	const norec = "../../algorithms/NOrec.yaml"
	const tms2 = "../../specs/TMS2.yaml"
	bound := []string{"--bound", "T=2,L=1,V=2"}
	tests := []struct {
		fixture  string
		caught   []string // explore or crosscheck arguments after the fixture file
		caughtRE string   // what they print
		only     string   // the refuted obligation of the forward simulation (regexp)
		proveRE  string   // the counterexample's failing clause
	}{
		{"NOrecPseudoReadNoCheck", []string{"--implements", tms2},
			`(?s)FAILED: TMS2 cannot produce this trace of NOrecPseudoReadNoCheck .*ReadInv\(T#0, L#0\), ReadResp\(T#0, V#0\), ReadInv\(T#0, L#0\), .*ReadResp\(T#0, V#1\)\n.*offer: .*ReadResp\(T#0, V#0\)`,
			`Read4 › relation\(pc\)`, `fails: relation: pc\(cpost, u1\)\n\s+concrete step: Read4\(T#0\)`},
		{"NOrecPseudoValidateNoWait", nil,
			`VIOLATION of timeEven after \d+ steps`,
			`Validate4 › relation\(pc\)`, `fails: relation: pc\(cpost, u0\)\n\s+concrete step: Validate4\(T#0\)`},
		{"NOrecPseudoCommitNoCAS", []string{"--implements", tms2},
			`(?s)FAILED: TMS2 cannot produce this trace of NOrecPseudoCommitNoCAS .*ReadResp\(T#0, V#0\), .*CommitResp\(T#1\), CommitInv\(T#0\), CommitResp\(T#0\)\n.*offer: Abort\(T#0\)\n`,
			`Commit3 › relation\(shared\)`, `fails: relation: shared\(cpost, u1\)\n\s+concrete step: Commit3\(T#0\)`},
		{"NOrecPseudoWriteBackEarly", nil,
			`(?s)Commit6\(T#\d, L#0\)\n.*The last state violates snapshotValid\.`,
			`Commit2 › relation\(pc\)`, `fails: relation: pc\(cpost, u1\)\n\s+concrete step: Commit2\(T#0\)`},
		{"NOrecPseudoReleaseOdd", nil,
			`(?s)Commit7\(T#\d\)\n.*The last state violates lockHeld\.`,
			`Commit7 › relation\(shared\)`, `fails: relation: shared\(cpost, u1\)\n\s+concrete step: Commit7\(T#0\)`},
		{"NOrecPseudoBeginNoWait", nil,
			`(?s)Begin4\(T#\d\)\n.*The last state violates snapshotEven\.`,
			`Begin4 › relation\(pc\)`, `fails: relation: pc\(cpost, u0\)\n\s+concrete step: Begin4\(T#0\)`},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			file := td + tc.fixture + ".yaml"
			var args []string
			if tc.caught == nil {
				args = append([]string{"explore", file}, bound...)
			} else {
				args = append(append(append([]string{"crosscheck"}, tc.caught...), file), bound...)
			}
			expectRefuted(t, args, tc.caughtRE)
			id := tc.fixture + `→NOrec › forward › ` + tc.only
			expectRefuted(t, []string{"prove", "--no-cache", "-j", "1", "--rlimit", "2000000", "--only", id,
				file, td + tc.fixture + "-NOrec.yaml", norec},
				`(?s)`+tc.only+`\s+refuted.*counterexample to `+id+`\n\s+`+tc.proveRE+`.*0 proved, 0 trivial, 1 refuted, 0 unknown`)
		})
	}
}

// TestNOrecPseudoRoundDown checks the claim of algorithms/NOrecDoWhileRead.yaml about
// RSTM's round-down Begin (algorithms/testdata/NOrecPseudoRoundDown.yaml):
// its traces are NOrec's on a small instance, but the forward simulation of
// the pseudocode to NOrec fails at Begin2, where NOrec's B1 keeps waiting on
// an odd glb.
func TestNOrecPseudoRoundDown(t *testing.T) {
	const td = "../../algorithms/testdata/"
	file := td + "NOrecPseudoRoundDown.yaml"
	code, stdout, stderr := runLadder("crosscheck", "--implements", "../../algorithms/NOrec.yaml", file, "--bound", "T=2,L=1,V=2")
	if code != 0 || !regexp.MustCompile(`OK: every trace of NOrecPseudoRoundDown in the instance is a trace of NOrec`).MatchString(stdout) {
		t.Errorf("crosscheck --implements NOrec: exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	expectRefuted(t, []string{"crosscheck", td + "NOrecPseudoRoundDown-NOrec.yaml", file, "../../algorithms/NOrec.yaml", "--bound", "T=2,L=1,V=2"},
		`(?s)FAILED: NOrecPseudoRoundDown→NOrec › forward › Begin2 › relation\(regs\)\n.*\(2 clauses fail: regs, pc\)`)
}

// TestSatWithoutAPIModel checks an obligation whose SMT-LIB text Z3 finds
// sat while the same problem built through the API is unknown (Z3 4.8.12):
// with no model to replay nothing is refuted by the first check, and the
// kernel's bounded search then finds and replays a counterexample, instead
// of the run ending in an internal error.
func TestSatWithoutAPIModel(t *testing.T) {
	const id = "NOrecPseudoReadNoCheck › invariant readLogged › Read4"
	expectRefuted(t, []string{"prove", "--no-cache", "-j", "1", "--only", id, "../../algorithms/testdata/NOrecPseudoReadNoCheck.yaml"},
		`(?s)counterexample to `+id+`\n\s+fails: invariant: readLogged\(s'\).*found in the bounded instance.*0 proved, 0 trivial, 1 refuted, 0 unknown`)
}
