package main

import (
	"strings"
	"testing"
)

// The trace-inclusion checks of GHS08's deterministic specifications,
// specs/StrictSerializability.yaml (Σ_ss) and specs/Opacity.yaml (Σ_op), on
// small instances: the specifications among themselves and against TMS2,
// GHS08's occ and TL2 mod., and the algorithms. The longer checks (two
// locations for the specifications, DSTM and TL2) are in scripts/ghs08.sh.

const (
	ghsSS   = "../../specs/StrictSerializability.yaml"
	ghsOp   = "../../specs/Opacity.yaml"
	ghsTMS2 = "../../specs/TMS2.yaml"
	ghsTD   = "../../algorithms/testdata/"
)

// implementsHolds runs crosscheck --implements abs conc and wants every
// trace of conc in the instance to be a trace of abs.
func implementsHolds(t *testing.T, abs, conc, bound string) {
	t.Helper()
	args := []string{"crosscheck", "--implements", abs, conc, "--bound", bound}
	code, stdout, stderr := runLadder(args...)
	if code != exitOK || !strings.Contains(stdout, "\nOK: every trace of ") || strings.Contains(stdout, "INCOMPLETE") {
		t.Errorf("ladder %v: exit code %d, want %d and OK\nstdout:\n%s\nstderr:\n%s", args, code, exitOK, stdout, stderr)
	}
}

// implementsRefuted runs crosscheck --implements abs conc, wants a trace of
// conc that abs cannot produce, and wants its events to contain want in
// this order (not necessarily adjacent), the last event being the last of
// want. It returns the events.
//
// The search is run without reductions, where the trace is the one the
// events describe, and with the default reductions (symmetry and dead
// registers), which must refute with a trace of the same length.
func implementsRefuted(t *testing.T, abs, conc, bound string, want ...string) []string {
	t.Helper()
	args := []string{"crosscheck", "--implements", abs, conc, "--bound", bound}
	code, stdout, stderr := runLadder(args...)
	reduced := failedEvents(stdout)
	if code != exitFailure || reduced == nil {
		t.Errorf("ladder %v: exit code %d, want %d and a trace\nstdout:\n%s\nstderr:\n%s", args, code, exitFailure, stdout, stderr)
		return nil
	}
	args = append(args, "--symmetry", "none", "--reduce-dead=false")
	code, stdout, stderr = runLadder(args...)
	if code != exitFailure {
		t.Errorf("ladder %v: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, exitFailure, stdout, stderr)
		return nil
	}
	events := failedEvents(stdout)
	if events == nil {
		t.Errorf("ladder %v: no FAILED trace in stdout:\n%s", args, stdout)
		return nil
	}
	if len(reduced) != len(events) {
		t.Errorf("ladder %v: %d events, and %d with the default reductions", args, len(events), len(reduced))
	}
	if !subsequence(events, want) || events[len(events)-1] != want[len(want)-1] {
		t.Errorf("ladder %v: the trace\n  %s\ndoes not contain, in order and ending with the last one,\n  %s",
			args, strings.Join(events, ", "), strings.Join(want, ", "))
	}
	return events
}

// failedEvents returns the events of the trace printed after "FAILED: ",
// or nil.
func failedEvents(stdout string) []string {
	_, after, ok := strings.Cut(stdout, "\nFAILED: ")
	if !ok {
		return nil
	}
	lines := strings.SplitN(after, "\n", 3)
	if len(lines) < 2 {
		return nil
	}
	// Split at the commas outside parentheses: "A(x, y), B(z)".
	var events []string
	depth, start := 0, 0
	line := strings.TrimSpace(lines[1])
	for i, r := range line {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				events = append(events, strings.TrimSpace(line[start:i]))
				start = i + 1
			}
		}
	}
	return append(events, strings.TrimSpace(line[start:]))
}

// subsequence reports whether want occurs in events in order.
func subsequence(events, want []string) bool {
	i := 0
	for _, e := range events {
		if i < len(want) && e == want[i] {
			i++
		}
	}
	return i == len(want)
}

// GHS08's w_1 = (w,1)_2 (r,1)_1 c_2 (r,1)_1 with thread 1 = T#0, thread 2
// = T#1 and variable 1 = L#0: T#0 reads L#0 before and after T#1 commits a
// write of it, and sees both values. The trace may place T#1's write
// invocation after T#0's first read; the conflicts are the same.
var ghsW1 = []string{"ReadInv(T#0, L#0)", "ReadResp(T#0, V#0)", "WriteInv(T#1, L#0, V#1)",
	"CommitInv(T#1)", "ReadResp(T#0, V#1)"}

// TestGHS08OCC checks GHS08's occ (algorithms/testdata/OCC.yaml): its reads
// are not validated, so it is not opaque (w_1 is one of its traces, refused
// by TMS2 and by Σ_op), but its commit is, so it is strictly serializable
// (included in Σ_ss on the instance).
func TestGHS08OCC(t *testing.T) {
	occ := ghsTD + "OCC.yaml"
	t.Run("TMS2", func(t *testing.T) { implementsRefuted(t, ghsTMS2, occ, "T=2,L=1,V=2", ghsW1...) })
	t.Run("Opacity", func(t *testing.T) { implementsRefuted(t, ghsOp, occ, "T=2,L=1,V=2", ghsW1...) })
	// With one value, w_1 is still refused by Σ_op: conflicts, not values.
	t.Run("Opacity V=1", func(t *testing.T) {
		implementsRefuted(t, ghsOp, occ, "T=2,L=1,V=1", "ReadInv(T#0, L#0)", "ReadResp(T#0, V#0)",
			"WriteInv(T#1, L#0, V#0)", "CommitInv(T#1)", "ReadResp(T#0, V#0)")
	})
	t.Run("StrictSerializability", func(t *testing.T) { implementsHolds(t, ghsSS, occ, "T=2,L=1,V=2") })
}

// TestGHS08TL2Mod checks GHS08's TL2 mod. (algorithms/testdata/TL2Mod.yaml,
// lock and validate swapped): neither strictly serializable nor opaque. On
// one location its shortest refused trace is a lost update; on two, the
// client of TL2ModW2 drives it to GHS08's w_2 = (w,2)_1 (w,1)_2 (r,2)_2
// (r,1)_1 c_2 c_1 (thread 1 = T#0, variable 1 = L#0), a write skew.
func TestGHS08TL2Mod(t *testing.T) {
	lost := []string{"ReadResp(T#0, V#0)", "ReadResp(T#1, V#0)", "WriteInv(T#0, L#0, V#0)",
		"WriteInv(T#1, L#0, V#0)", "CommitResp(T#0)", "CommitResp(T#1)"}
	w2 := []string{"WriteInv(T#0, L#1, V#1)", "WriteInv(T#1, L#0, V#1)", "ReadInv(T#1, L#1)",
		"ReadResp(T#1, V#0)", "ReadInv(T#0, L#0)", "ReadResp(T#0, V#0)", "CommitInv(T#1)",
		"CommitInv(T#0)", "CommitResp(T#1)", "CommitResp(T#0)"}
	for name, spec := range map[string]string{"Opacity": ghsOp, "StrictSerializability": ghsSS} {
		t.Run(name, func(t *testing.T) {
			implementsRefuted(t, spec, ghsTD+"TL2Mod.yaml", "T=2,L=1,V=2", lost...)
			implementsRefuted(t, spec, ghsTD+"TL2ModW2.yaml", "T=2,L=2,V=2,v0=0", w2...)
		})
	}
}

// TestGHS08Specs checks the inclusions among TMS2, Σ_op and Σ_ss on one
// location: Σ_op ⊆ Σ_ss and Σ_op ⊆ TMS2 hold; Σ_ss ⊄ Σ_op (a transaction
// that will not commit may read anything in Σ_ss); TMS2 ⊄ Σ_op and TMS2 ⊄
// Σ_ss, because TMS2 is value-based and Σ_op and Σ_ss are conflict-based.
// (On two locations Σ_op ⊄ TMS2: scripts/ghs08.sh.)
func TestGHS08Specs(t *testing.T) {
	t.Run("Opacity in StrictSerializability", func(t *testing.T) { implementsHolds(t, ghsSS, ghsOp, "T=2,L=1,V=2") })
	t.Run("Opacity in TMS2", func(t *testing.T) { implementsHolds(t, ghsTMS2, ghsOp, "T=2,L=1,V=2") })
	// Σ_ss lets a transaction that will not commit read any value.
	t.Run("StrictSerializability not in Opacity", func(t *testing.T) {
		implementsRefuted(t, ghsOp, ghsSS, "T=2,L=1,V=2", "ReadInv(T#0, L#0)", "ReadResp(T#0, V#1)")
	})
	t.Run("StrictSerializability not in TMS2", func(t *testing.T) {
		implementsRefuted(t, ghsTMS2, ghsSS, "T=2,L=1,V=2", "ReadInv(T#0, L#0)", "ReadResp(T#0, V#1)")
	})
	// TMS2 lets T#1, which began before T#0 committed, read the value of
	// L#0 from before that commit; by conflicts it reads after it.
	t.Run("TMS2 not in Opacity", func(t *testing.T) {
		implementsRefuted(t, ghsOp, ghsTMS2, "T=2,L=1,V=2", "BeginInv(T#1)", "WriteInv(T#0, L#0, V#1)",
			"CommitResp(T#0)", "ReadInv(T#1, L#0)", "ReadResp(T#1, V#0)")
	})
	// With one value: T#0 re-reads L#0 after T#1 committed a write of it
	// (of the value already there). TMS2 accepts, by values; Σ_op refuses,
	// by conflicts (T#0 must come both before and after T#1).
	t.Run("TMS2 not in Opacity V=1", func(t *testing.T) {
		implementsRefuted(t, ghsOp, ghsTMS2, "T=2,L=1,V=1", "ReadInv(T#0, L#0)", "ReadResp(T#0, V#0)",
			"WriteInv(T#1, L#0, V#0)", "CommitResp(T#1)", "ReadInv(T#0, L#0)", "ReadResp(T#0, V#0)")
	})
	// CommitSer is strictly serializable by values, not by conflicts (its
	// doc): T#0 reads V#1 before T#1 writes it, and commits after T#1's
	// commit, serialised after it. By conflicts T#0's read precedes T#1's
	// commit, so T#0 comes first, and no order is left.
	t.Run("CommitSer not in StrictSerializability", func(t *testing.T) {
		implementsRefuted(t, ghsSS, "../../specs/CommitSer.yaml", "T=2,L=1,V=2", "ReadResp(T#0, V#1)",
			"WriteInv(T#1, L#0, V#1)", "CommitInv(T#0)", "CommitInv(T#1)", "CommitResp(T#0)")
	})
	// A lost update of the value already there: both read L#0, both write
	// it, both commit.
	t.Run("TMS2 not in StrictSerializability V=1", func(t *testing.T) {
		implementsRefuted(t, ghsSS, ghsTMS2, "T=2,L=1,V=1", "ReadResp(T#0, V#0)", "WriteInv(T#0, L#0, V#0)",
			"WriteInv(T#1, L#0, V#0)", "CommitResp(T#1)", "CommitInv(T#0)", "CommitResp(T#0)")
	})
}

// TestGHS08Algorithms checks algorithms against Σ_op on one location: TML,
// DSTM and TL2 are included; NOrec, whose validation compares values, is
// not (the re-read of a location overwritten with the value it had, as for
// TMS2). Two locations are in scripts/ghs08.sh.
func TestGHS08Algorithms(t *testing.T) {
	for _, alg := range []string{"TML", "DSTM", "TL2"} {
		t.Run(alg, func(t *testing.T) { implementsHolds(t, ghsOp, "../../algorithms/"+alg+".yaml", "T=2,L=1,V=2") })
	}
	t.Run("NOrec", func(t *testing.T) {
		implementsRefuted(t, ghsOp, "../../algorithms/NOrec.yaml", "T=2,L=1,V=1", "ReadInv(T#0, L#0)",
			"ReadResp(T#0, V#0)", "WriteInv(T#1, L#0, V#0)", "CommitResp(T#1)", "ReadInv(T#0, L#0)", "ReadResp(T#0, V#0)")
	})
}

// TestGHS08Words checks Σ_ss and Σ_op on GHS08's example words (§3.1 and
// Table 1), shown one statement at a time by specs/testdata/GHS08Words.yaml
// with one value: each word is accepted, or refused at the statement where
// the paper's argument says it goes wrong (the last event of the trace).
func TestGHS08Words(t *testing.T) {
	const words = "../../specs/testdata/GHS08Words.yaml"
	tests := []struct {
		word   string
		ss, op string // "" when accepted, else the event it is refused at
	}{
		{"0", "CommitResp(T#2)", "CommitResp(T#0)"}, // Fig. 1(a)
		{"1", "", "CommitResp(T#0)"},                // Fig. 2(a)
		{"2", "CommitResp(T#2)", "CommitResp(T#2)"}, // Fig. 1(b)
		{"3", "", "CommitResp(T#0)"},                // Fig. 2(b)
		{"4", "", "ReadResp(T#0, V#0)"},             // w_1
		{"5", "CommitResp(T#0)", "CommitResp(T#0)"}, // w_2
		{"6", "", ""}, // (r,1)_1 (w,1)_1 c_1
		{"7", "", ""}, // Fig. 1(a), thread 1 aborts
	}
	for _, tc := range tests {
		for _, spec := range []struct{ file, want string }{{ghsSS, tc.ss}, {ghsOp, tc.op}} {
			bound := "T=3,L=3,V=1,word=" + tc.word
			if spec.want == "" {
				implementsHolds(t, spec.file, words, bound)
			} else {
				implementsRefuted(t, spec.file, words, bound, spec.want)
			}
		}
	}
}
