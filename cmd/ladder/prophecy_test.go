package main

import "testing"

// The prophecy example of docs/examples/prophecy (docs/proofs.md,
// "Prophecy variables"): LazyCoin chooses its outcome when it shows it,
// EagerCoin when it tosses, so no forward simulation relates them;
// LazyCoinP is LazyCoin with a prophecy variable, related to it by a
// backward simulation (the variable never blocks) and a refinement (it
// does not change the trace), and to EagerCoin by a forward simulation.
const (
	prophecyDir = "../../docs/examples/prophecy"
	prophecyTD  = "../../docs/examples/prophecy/testdata"
)

// TestProphecy checks and cross-checks the three edges on their one
// instance and proves them, and expects the end-to-end theorem, derived by
// transitivity through the automaton with the prophecy variable.
func TestProphecy(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdout string // regexp
	}{
		{"check", []string{"check", prophecyDir}, `^checked 7 files: 3 automata, 1 interface, 3 proofs\n$`},
		{"never blocks", []string{"crosscheck", prophecyDir + "/LazyCoin-LazyCoinP.yaml", prophecyDir},
			`(?s)LazyCoin→LazyCoinP \(backward, proof LazyCoin-LazyCoinP\).*OK: every obligation holds`},
		{"does not change the trace", []string{"crosscheck", prophecyDir + "/LazyCoinP-LazyCoin.yaml", prophecyDir},
			`(?s)LazyCoinP→LazyCoin \(refinement, proof LazyCoinP-LazyCoin\).*OK: every obligation holds`},
		{"forward with the prophecy", []string{"crosscheck", prophecyDir + "/LazyCoinP-EagerCoin.yaml", prophecyDir},
			`(?s)LazyCoinP→EagerCoin \(forward, proof LazyCoinP-EagerCoin\).*OK: every obligation holds`},
		{"same traces", []string{"crosscheck", "--implements", prophecyDir + "/EagerCoin.yaml", prophecyDir + "/LazyCoin.yaml"},
			`(?s)OK: every trace of LazyCoin in the instance is a trace of EagerCoin`},
		{"prove", []string{"prove", "--no-cache", "-j", "1", prophecyDir},
			`(?s)Theorems\n  LazyCoin implements EagerCoin \(transitivity: LazyCoin implements LazyCoinP, LazyCoinP implements EagerCoin\)\n` +
				`.*\n\d+ obligations: \d+ proved, \d+ trivial, 0 refuted, 0 unknown`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectOK(t, tc.args, tc.stdout)
		})
	}
}

// TestProphecyRefused checks that a prophecy variable that blocks a step,
// or that changes the trace, is refused at the step and condition it
// breaks, by the bounded cross-check and by the prover, and that the
// forward simulation without a prophecy variable is refuted at the Show it
// cannot match.
func TestProphecyRefused(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdout string // regexp
	}{
		{"blocks: crosscheck", []string{"crosscheck", prophecyTD + "/LazyCoin-LazyCoinPBlocks.yaml"},
			`(?s)FAILED: LazyCoin→LazyCoinPBlocks › backward › Show › pre\(Show\)\n.*failing step: Show\(false\)`},
		{"blocks: prove", []string{"prove", "--no-cache", "-j", "1", prophecyTD + "/LazyCoin-LazyCoinPBlocks.yaml"},
			`(?s)Show › pre\(Show\)\s+refuted.*fails: pre: precondition of Show\(b\) in a\n    concrete step: Show\(false\)`},
		{"changes the trace: crosscheck", []string{"crosscheck", prophecyTD + "/LazyCoinPTwice-LazyCoin.yaml"},
			`(?s)FAILED: LazyCoinPTwice→LazyCoin › refinement › Show › pre\(Show\)\n.*3: Show\(false\)`},
		{"changes the trace: implements", []string{"crosscheck", "--implements", prophecyDir + "/LazyCoin.yaml", prophecyTD + "/LazyCoinPTwice.yaml"},
			`(?s)FAILED: LazyCoin cannot produce this trace of LazyCoinPTwice \(2 events; the last one is impossible\):\n  Show\((true|false)\), Show\((true|false)\)\n`},
		{"changes the trace: prove", []string{"prove", "--no-cache", "-j", "1", prophecyTD + "/LazyCoinPTwice-LazyCoin.yaml"},
			`(?s)Show › pre\(Show\)\s+refuted.*fails: pre: precondition of Show\(b\) in a`},
		{"no prophecy: forward refuted", []string{"prove", "--no-cache", "-j", "1", prophecyTD + "/LazyCoin-EagerCoin.yaml"},
			`(?s)LazyCoin→EagerCoin › forward › Show › pre\(Show\)\s+refuted.*concrete step: Show\(false\)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectRefuted(t, tc.args, tc.stdout)
		})
	}
}
