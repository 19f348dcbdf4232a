package main

import (
	"regexp"
	"testing"
)

// TestPSTM checks the verdict on PSTM (algorithms/PSTM.yaml, KPG's Python
// STM) on small instances: with one location every trace is a trace of
// TMS2, and reachable states without successors are final (no deadlock);
// its forward simulation to CommitSer (proofs/PSTM-CommitSer.yaml: the
// committed transactions are strictly serializable) holds with every case
// taken; with two locations PSTM is not TMS2: a transaction reads one
// t-var before and the other after a commit that wrote both.
func TestPSTM(t *testing.T) {
	const pstm = "../../algorithms/PSTM.yaml"
	const specs = "../../specs"
	t.Run("explore", func(t *testing.T) {
		code, stdout, stderr := runLadder("explore", pstm, "--bound", "T=2,L=1,V=2")
		if code != exitOK {
			t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
		}
		want := `(?s)OK: all \d+ invariant\(s\) and the Nat conditions hold.*OK: the terminal states \(enabling no action: \d+\) are all final \(no deadlock\)`
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("stdout does not match %s:\n%s", want, stdout)
		}
	})
	t.Run("CommitSer", func(t *testing.T) {
		code, stdout, stderr := runLadder("crosscheck", "../../proofs/PSTM-CommitSer.yaml", pstm, specs, "--bound", "T=2,L=1,V=2")
		if code != exitOK {
			t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
		}
		want := `(?s)PSTM→CommitSer \(forward, proof PSTM-CommitSer\).*cases taken: Read case 1: [1-9]\d*, case 2: [1-9]\d*, case 3: [1-9]\d*; Process case 1: [1-9]\d*, case 2: [1-9]\d*, case 3: [1-9]\d*\n.*OK: every obligation holds`
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("stdout does not match %s:\n%s", want, stdout)
		}
	})
	t.Run("TMS2 one location", func(t *testing.T) {
		code, stdout, stderr := runLadder("crosscheck", "--implements", specs+"/TMS2.yaml", pstm, "--bound", "T=2,L=1,V=2")
		if code != exitOK || !regexp.MustCompile(`OK: every trace of PSTM in the instance is a trace of TMS2`).MatchString(stdout) {
			t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
		}
	})
	t.Run("TMS2 two locations", func(t *testing.T) {
		expectRefuted(t, []string{"crosscheck", "--implements", specs + "/TMS2.yaml", pstm, "--bound", "T=2,L=2,V=2"},
			`(?s)FAILED: TMS2 cannot produce this trace of PSTM .*ReadInv\(T#0, L#0\), .*WriteInv\(T#1, L#0, V#1\), .*WriteInv\(T#1, L#1, V#1\), .*CommitInv\(T#1\), ReadResp\(T#0, V#0\), ReadInv\(T#0, L#1\), ReadResp\(T#0, V#1\)\n`)
	})
}

// TestPSTMAbortNoResponse checks that the deadlock check of `ladder explore`
// is not vacuous on PSTM: the fixture
// algorithms/testdata/PSTMAbortNoResponse.yaml, whose server does not answer
// a transaction whose CommitVars fails, reaches a state where that
// transaction waits forever, no action is enabled, and the state is not final.
func TestPSTMAbortNoResponse(t *testing.T) {
	expectRefuted(t, []string{"explore", "../../algorithms/testdata/PSTMAbortNoResponse.yaml", "--bound", "T=2,L=1,V=2"},
		`(?s)DEADLOCK after \d+ steps \(a shortest trace to a state that enables no action and is not final\).*Process\n.*The last state enables no action and is not final: a deadlock\.`)
}
