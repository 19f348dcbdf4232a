package main

import (
	"regexp"
	"testing"
)

// TestTPL checks strict two-phase locking (algorithms/TPL.yaml, EMM10's
// first system with values and buffered writes) on small instances: its
// files load, every invariant holds and no reachable state is a deadlock
// (a transaction that cannot get a lock aborts), every trace is a trace of
// TMS2, and the forward simulation to TMS2 (proofs/TPL-TMS2.yaml) holds with
// every case of its step correspondence taken, so that the refutations of
// the buggy variants below come from their bugs and not from a broken
// relation.
func TestTPL(t *testing.T) {
	const tpl = "../../algorithms/TPL.yaml"
	const edge = "../../proofs/TPL-TMS2.yaml"
	const specs = "../../specs"
	t.Run("check", func(t *testing.T) {
		code, stdout, stderr := runLadder("check", tpl, edge, specs)
		if code != exitOK {
			t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
		}
	})
	t.Run("explore", func(t *testing.T) {
		code, stdout, stderr := runLadder("explore", tpl, "--bound", "T=2,L=2,V=2")
		if code != exitOK {
			t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
		}
		want := `(?s)OK: all 5 invariant\(s\) and the Nat conditions hold.*OK: the terminal states \(enabling no action: \d+\) are all final \(no deadlock\)`
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("stdout does not match %s:\n%s", want, stdout)
		}
	})
	t.Run("implements", func(t *testing.T) {
		code, stdout, stderr := runLadder("crosscheck", "--implements", specs+"/TMS2.yaml", tpl, "--bound", "T=2,L=1,V=2")
		if code != exitOK || !regexp.MustCompile(`OK: every trace of TPL in the instance is a trace of TMS2`).MatchString(stdout) {
			t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
		}
	})
	t.Run("crosscheck", func(t *testing.T) {
		code, stdout, stderr := runLadder("crosscheck", edge, tpl, specs, "--bound", "T=2,L=1,V=2")
		if code != exitOK {
			t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
		}
		want := `(?s)TPL→TMS2 \(forward, proof TPL-TMS2\).*cases taken: ReadLock case 1: [1-9]\d*, case 2: [1-9]\d*; Write case 1: [1-9]\d*, case 2: [1-9]\d*; Commit case 1: [1-9]\d*, case 2: [1-9]\d*\n(note: [^\n]*\n)*OK: every obligation holds`
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("stdout does not match %s:\n%s", want, stdout)
		}
	})
}

// TestTPLWait checks that the deadlock check of `ladder explore` is not
// vacuous on TPL: the fixture algorithms/testdata/TPLWait.yaml, whose
// transactions wait for a lock instead of aborting, deadlocks when two
// transactions hold the read lock of a location and both want to write it
// (each waits for the other to release its read lock).
func TestTPLWait(t *testing.T) {
	expectRefuted(t, []string{"explore", "../../algorithms/testdata/TPLWait.yaml", "--bound", "T=2,L=1,V=2"},
		`(?s)DEADLOCK after 14 steps \(a shortest trace to a state that enables no action and is not final\).*ReadLock\(T#0\)\n.*ReadLock\(T#1\)\n.*WriteInv\(T#0, L#0, V#\d\).*WriteInv\(T#1, L#0, V#\d\).*\nThe last state enables no action and is not final: a deadlock\.`)
}

// TestTPLBuggy checks that the negative fixtures of the TPL edge are refuted
// three ways each: their traces are not TMS2's (a transaction re-reads a
// location and returns the value of a writer that committed after its first
// read: a non-repeatable read), the bounded check of the forward simulation
// (the edge of proofs/TPL-TMS2.yaml) fails at the named step and clause on a
// reachable execution, and Z3 (with the kernel's bounded search) refutes
// that obligation with a counterexample.
//
//   - TPLEarlyReadUnlock releases the read lock at R2, right after reading:
//     the relation requires a live transaction to hold the lock of every
//     location it has read (rdCur), which the read itself breaks.
//   - TPLWriteNoLock buffers a write without taking the write lock: the
//     writer's commit appends a memory that differs from a live reader's
//     read set (rdCur again, at the commit point).
func TestTPLBuggy(t *testing.T) {
	const td = "../../algorithms/testdata/"
	const specs = "../../specs"
	const nonRepeatable = `ReadInv\(T#0, L#0\), ReadResp\(T#0, V#0\), ReadInv\(T#0, L#0\), WriteInv\(T#1, L#0, V#1\), WriteResp\(T#1\), CommitInv\(T#1\), ReadResp\(T#0, V#1\)\n`
	tests := []struct {
		fixture     string
		only        string // the refuted obligation, a regexp for --only
		crosscheck  string // regexp of the crosscheck's execution after the FAILED line
		concreteRun string // the concrete step of the prover's counterexample
	}{
		{"TPLEarlyReadUnlock", `Read › relation\(rdCur\)`,
			`false: c\.holds\(t, l\).*\d+: ReadLock\(T#0\)\n.*failing step: Read\(T#0\)`,
			`Read\(T#0\)`},
		{"TPLWriteNoLock", `Commit › case 2 › relation\(rdCur\)`,
			`false: get\(a\.rdSet\[t\]\[l\]\) = last\(a\.mems\)\[l\].*\d+: Read\(T#0\)\n.*\d+: Write\(T#1\)\n.*failing step: Commit\(T#1\), case 2 of 2`,
			`Commit\(T#1\)`},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			file := td + tc.fixture + ".yaml"
			edge := td + tc.fixture + "-TMS2.yaml"
			id := tc.fixture + `→TMS2 › forward › ` + tc.only
			t.Run("implements", func(t *testing.T) {
				expectRefuted(t, []string{"crosscheck", "--implements", specs + "/TMS2.yaml", file, "--bound", "T=2,L=1,V=2"},
					`(?s)FAILED: TMS2 cannot produce this trace of `+tc.fixture+` .*`+nonRepeatable)
			})
			t.Run("crosscheck", func(t *testing.T) {
				expectRefuted(t, []string{"crosscheck", edge, file, specs, "--bound", "T=2,L=1,V=2"},
					`(?s)FAILED: `+id+`\n.*`+tc.crosscheck)
			})
			t.Run("prove", func(t *testing.T) {
				expectRefuted(t, []string{"prove", "--no-cache", "-j", "1", "--rlimit", "2000000", "--only", id, edge, file, specs},
					`(?s)relation\(rdCur\)\s+refuted.*counterexample to `+id+`\n.*concrete step: `+tc.concreteRun+`.*0 proved, 0 trivial, 1 refuted, 0 unknown`)
			})
		})
	}
}
