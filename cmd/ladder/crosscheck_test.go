package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func TestCrosscheck(t *testing.T) {
	const td = "../../internal/crosscheck/testdata/"
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // regexp ("" matches anything)
		stderr string
	}{
		{"ok refinement", []string{"crosscheck", td + "chan/ok_refinement.yaml", "--bound", "V=2", "--symmetry", "none"}, exitOK,
			`(?s)^Relay→Queue1 \(refinement, proof Relay-Queue1-refinement\) in V=2\nexplored states of Relay: 5 found, 6 steps checked.*OK: every obligation holds`, `^$`},
		{"failing refinement", []string{"crosscheck", "--bound=V=2", td + "chan/bad_ref_pre.yaml"}, exitFailure,
			`(?s)FAILED: Relay→Queue1 › refinement › Recv › pre\(Recv\)\n  the abstract step Recv\(V#0\) is not enabled in u0 = f\(c\)\n    false: buf = Some\(v\)\n.*  3: Recv\(V#1\)    \[event Recv\(V#1\)\]\n.*failing step: Recv\(V#1\), case 1 of 1\nabstract steps: Recv\(V#0\)\n  u0 = f\(c\):\n       buf = Some\(V#1\)\n$`, notesOnly},
		{"directory of proofs", []string{"crosscheck", td + "choice", "--bound", "V=2"}, exitFailure,
			`(?s)proof Late-Early-bad-choice.*FAILED.*proof Late-Early\).*OK:`, notesOnly},
		{"witness mode", []string{"crosscheck", td + "choice/bad_bwd_choice.yaml", "--bound", "V=2", "--abstract", "witness"}, exitOK, `OK:`, notesOnly},
		{"limit", []string{"crosscheck", td + "chan/bad_ref_pre.yaml", "--bound", "V=2", "--max-depth", "2"}, exitOK, `INCOMPLETE: stopped at the depth limit 2`, notesOnly},
		{"implements ok", []string{"crosscheck", "--implements", "Queue1", td + "chan", "--automaton", "Relay", "--bound", "V=2"}, exitOK,
			`(?s)traces of Relay ⊆ traces of Queue1\? in V=2.*OK: every trace of Relay`, `^$`},
		{"implements file", []string{"crosscheck", "--implements", td + "chan/queue.yaml", td + "chan/leaky.yaml", "--bound", "V=2"}, exitFailure,
			`(?s)FAILED: Queue1 cannot produce this trace of LeakyRelay \(2 events; the last one is impossible\):\n  Send\(V#0\), Send\(V#0\)\n`, `^$`},
		{"no arguments", []string{"crosscheck"}, exitUsage, "", `expected a PROOF`},
		{"bad mode", []string{"crosscheck", td + "chan/ok_refinement.yaml", "--abstract", "some"}, exitUsage, "", `unknown abstract mode "some"`},
		{"automaton without implements", []string{"crosscheck", td + "chan/ok_refinement.yaml", "--automaton", "Relay"}, exitUsage, "", `--automaton needs --implements`},
		{"bad bound", []string{"crosscheck", td + "chan/ok_refinement.yaml", "--bound", "W=1"}, exitUsage, "", `bound W names neither`},
		{"no proof", []string{"crosscheck", td + "chan/relay.yaml"}, exitUsage, "", `no proof file`},
		{"unknown abstract", []string{"crosscheck", "--implements", "Nope", td + "chan"}, exitUsage, "", `no automaton Nope is loaded`},
		{"several concrete", []string{"crosscheck", "--implements", "Queue1", td + "chan"}, exitUsage, "", `choose one with --automaton`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runLadder(tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			if tc.stdout != "" && !regexp.MustCompile(tc.stdout).MatchString(stdout) {
				t.Errorf("stdout does not match %s:\n%s", tc.stdout, stdout)
			}
			if tc.stderr != "" && !regexp.MustCompile(tc.stderr).MatchString(stderr) {
				t.Errorf("stderr does not match %s:\n%s", tc.stderr, stderr)
			}
		})
	}
}

// notesOnly matches a stderr of notes alone, such as the default
// symmetry's refusal of a sort that a proof's constant names.
const notesOnly = `^(ladder [a-z]+: note: [^\n]*\n)*$`

func TestCrosscheckJSON(t *testing.T) {
	code, stdout, stderr := runLadder("crosscheck", "../../internal/crosscheck/testdata/chan/bad_fwd_rel.yaml", "--bound", "V=2", "--json")
	if code != exitFailure || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var out struct {
		Results []struct {
			Kind     string
			Complete bool
			Failure  struct {
				Obligation string
				Abstract   []struct {
					Case  int
					Steps []string
				}
			}
		}
		OK bool
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if out.OK || len(out.Results) != 1 || out.Results[0].Kind != "forward" || out.Results[0].Complete ||
		out.Results[0].Failure.Obligation != "Relay→Queue1 › forward › Move › relation(inEmpty)" ||
		len(out.Results[0].Failure.Abstract) != 2 || out.Results[0].Failure.Abstract[1].Steps[0] != "Send(V#0)" {
		t.Errorf("JSON:\n%s", stdout)
	}
	code, stdout, _ = runLadder("crosscheck", "--implements", "Queue1", "../../internal/crosscheck/testdata/chan", "--automaton", "LeakyRelay", "--bound", "V=2", "--json")
	var tr struct {
		Failure struct{ Events []string }
	}
	if err := json.Unmarshal([]byte(stdout), &tr); err != nil || code != exitFailure || len(tr.Failure.Events) != 2 {
		t.Errorf("exit %d, %v:\n%s", code, err, stdout)
	}
}

// TestCrosscheckSymmetry checks --symmetry: the line saying what was
// reduced, the usage errors (a sort that is not a parameter sort, a proof
// expression naming an element), and trace inclusion with symmetry.
func TestCrosscheckSymmetry(t *testing.T) {
	const fwd = "../../internal/crosscheck/testdata/chan/ok_forward.yaml"
	code, stdout, stderr := runLadder("crosscheck", fwd, "--bound", "V=3", "--symmetry", "V")
	if code != exitOK || !strings.Contains(stdout, "symmetry: V (3 elements): 6 permutations") || !strings.Contains(stdout, "OK:") {
		t.Errorf("--symmetry V: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runLadder("crosscheck", fwd, "--bound", "V=3", "--symmetry", "X")
	if code != exitUsage || !strings.Contains(stderr, "--symmetry X: X is not a parameter sort") || strings.Contains(stderr, "--bound") {
		t.Errorf("--symmetry X: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runLadder("crosscheck", "--implements", "Queue1", "../../internal/crosscheck/testdata/chan", "--automaton", "LeakyRelay", "--bound", "V=2", "--symmetry", "V")
	if code != exitFailure || !strings.Contains(stdout, "symmetry: V (2 elements): 2 permutations; the pairs counted are orbit representatives") ||
		!strings.Contains(stdout, "FAILED: Queue1 cannot produce this trace of LeakyRelay (2 events; the last one is impossible):\n  Send(V#0), Send(V#0)\n") {
		t.Errorf("--implements --symmetry: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runLadder("crosscheck", "../../proofs/NOrecAtomicCommitValidate-TMS2.yaml", "../../specs", "../../algorithms", "--bound", "T=2,L=1,V=2", "--symmetry", "T")
	if code != exitOK || !strings.Contains(stdout, "symmetry: T (2 elements): 2 permutations") {
		t.Errorf("NOrecAtomicCommitValidate-TMS2 --symmetry T: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
