package main

import (
	"regexp"
	"testing"
)

// TestTL2Fixtures checks that each negative fixture of the TL2 edge
// (algorithms/testdata/TL2*.yaml, each a known TL2 bug) is refuted three
// ways on T=2, L=1, V=2: one of its traces is not a trace of TMS2, the
// bounded check of its forward simulation to ReservationTMS2 fails at the
// step where the bug shows, and Z3 (with the kernel's bounded search)
// refutes that obligation with a counterexample.
func TestTL2Fixtures(t *testing.T) {
	const td = "../../algorithms/testdata/"
	const specs = "../../specs"
	fixtures := []struct {
		name  string
		trace string // regexp matching the end of the trace TMS2 cannot produce
		id    string // the obligation the cross-check refutes (a regexp for --only)
		fails string // regexp matching the cross-check's explanation
	}{
		// The lock/validate order swapped (EMM10, GHS08's "TL2 mod."): a lost update.
		{"TL2Mod",
			`ReadResp\(T#0, V#0\).*ReadResp\(T#1, V#0\).*CommitResp\(T#0\)\s.*CommitResp\(T#1\)\s`,
			`TL2Mod→ReservationTMS2 › forward › DrawVersion › pre\(CommitReserved\)`,
			`false: rdSet\[t\] subset memBefore\[t\]`},
		// No post-read check: a second read of a location sees a newer value.
		{"TL2NoPostCheck",
			`ReadResp\(T#0, V#0\).*CommitInv\(T#1\).*ReadResp\(T#0, V#1\)\s`,
			`TL2NoPostCheck→ReservationTMS2 › forward › ReadValue › relation\(sets\)`,
			`false: a\.rdSet = c\.rdSet`},
		// Validation skipped when wv != rv + 1: a stale read commits.
		{"TL2SkipValidation",
			`ReadResp\(T#0, V#0\).*CommitResp\(T#1\).*CommitInv\(T#0\).*CommitResp\(T#0\)\s`,
			`TL2SkipValidation→ReservationTMS2 › forward › DrawVersion › case 1 › pre\(CommitReserved\)`,
			`false: rdSet\[t\] subset memBefore\[t\]`},
		// Locks released before the write-back: the old value, then the new one.
		{"TL2EarlyRelease",
			`CommitInv\(T#0\).*ReadResp\(T#1, V#0\).*ReadResp\(T#1, V#1\)\s`,
			`TL2EarlyRelease→ReservationTMS2 › forward › ReleaseLoc › relation\(memLatest\)`,
			`false: a\.latest\[k\] = c\.mem\[k\]`},
	}
	for _, f := range fixtures {
		file := td + f.name + ".yaml"
		proof := td + f.name + "-ReservationTMS2.yaml"
		tests := []struct {
			name   string
			args   []string
			stdout string
		}{
			{"implements", []string{"crosscheck", "--implements", specs + "/TMS2.yaml", file, specs, "--bound", "T=2,L=1,V=2"},
				`(?s)FAILED: TMS2 cannot produce this trace of ` + f.name + ` .*` + f.trace},
			{"crosscheck", []string{"crosscheck", proof, file, specs, "--bound", "T=2,L=1,V=2"},
				`(?s)FAILED: ` + f.id + `\n.*` + f.fails},
			{"prove", []string{"prove", "--no-cache", "--only", f.id, file, proof, specs},
				`(?s)\s+refuted.*counterexample to ` + f.id + `.*0 proved, 0 trivial, 1 refuted`},
		}
		for _, tc := range tests {
			t.Run(f.name+"/"+tc.name, func(t *testing.T) {
				expectRefuted(t, tc.args, tc.stdout)
			})
		}
	}
}

// TestTL2ModW2 checks that the non-opaque word w_2 of GHS08 for "TL2 mod."
// (validation before locking), (w,2)_1 (w,1)_2 (r,2)_2 (r,1)_1 c_2 c_1, is a
// trace of TL2Mod under the client of that word and not a trace of TMS2:
// both transactions read the initial values and both commit.
func TestTL2ModW2(t *testing.T) {
	const td = "../../algorithms/testdata/"
	const specs = "../../specs"
	code, stdout, stderr := runLadder("crosscheck", "--implements", specs+"/TMS2.yaml", td+"TL2ModW2.yaml", specs, "--bound", "T=2,L=2,V=2,v0=0")
	if code != exitFailure {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFailure, stdout, stderr)
	}
	want := `(?s)FAILED: TMS2 cannot produce this trace of TL2ModW2 .*` +
		`WriteInv\(T#0, L#1, V#1\).*WriteInv\(T#1, L#0, V#1\).*` +
		`ReadInv\(T#1, L#1\).*ReadResp\(T#1, V#0\).*ReadInv\(T#0, L#0\).*ReadResp\(T#0, V#0\).*` +
		`CommitResp\(T#1\).*CommitResp\(T#0\)`
	if !regexp.MustCompile(want).MatchString(stdout) {
		t.Errorf("stdout does not match %s:\n%s", want, stdout)
	}
}
