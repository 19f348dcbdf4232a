package simulation_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/crosscheck"
	"ladder/internal/explore"
	"ladder/internal/smt"
	"ladder/ioa"
	"ladder/ioa/load"
	"ladder/simulation"
)

// TestRuleChangeChangesBoth changes one clause of the rules in one place
// (MutateGoalsForTesting, export_test.go, makes the goal of one clause false)
// and checks that the prover and the cross-checker both see the change:
// on a correct proof, the cross-check then fails at an obligation of
// that clause, and Z3 refutes the obligation of that ID, which it proves
// with the rules unchanged. It runs a forward simulation, a refinement,
// a backward simulation and the loop clauses of a repeated step.
func TestRuleChangeChangesBoth(t *testing.T) {
	if testing.Short() {
		t.Skip("solver test")
	}
	const batch = "../../../proofs/objects/BatchQueue-AtomicQueue.yaml"
	tests := []struct {
		file         string
		clause, name string // the clause whose goals are made false
		want         string // the ID of the failing obligation
		bounds       string // the cross-check's instance; default V=2
	}{
		{"chan/ok_forward.yaml", simulation.ClauseRelation, "buf", "Relay→Queue1 › forward › Send › relation(buf)", ""},
		{"chan/ok_refinement.yaml", simulation.ClausePost, "buf", "Relay→Queue1 › refinement › Send › post(buf)", ""},
		{"choice/ok_backward.yaml", simulation.ClauseRelation, "idle", "Late→Early › backward › Go › relation(idle)", ""},
		// a repeated step's three clauses (the cross-check runs the
		// iterations; the prover states them for a fresh iteration)
		{batch, simulation.ClauseLoop, ioa.LoopStart, "BatchQueue→AtomicQueue › forward › Commit › loop(start)", "T=2,L=2,V=2"},
		{batch, simulation.ClauseLoop, ioa.LoopPre, "BatchQueue→AtomicQueue › forward › Commit › loop(pre)", "T=2,L=2,V=2"},
		{batch, simulation.ClauseLoop, ioa.LoopStep, "BatchQueue→AtomicQueue › forward › Commit › loop(step)", "T=2,L=2,V=2"},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.clause+"/"+tc.name, func(t *testing.T) {
			path := filepath.Join("..", "internal", "crosscheck", "testdata", tc.file)
			set, errs := load.Files(path)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			var p *ioa.Proof
			for _, q := range set.Proofs {
				if filepath.Clean(q.File) == filepath.Clean(path) {
					p = q
				}
			}
			if p == nil {
				t.Fatalf("%s: no proof", path)
			}
			cross := func() string {
				bounds := tc.bounds
				if bounds == "" {
					bounds = "V=2"
				}
				inst, err := explore.ParseBounds(bounds)
				if err != nil {
					t.Fatal(err)
				}
				res, err := crosscheck.Check(p, crosscheck.Config{Instance: inst})
				if err != nil {
					t.Fatal(err)
				}
				if res.Failure == nil {
					return ""
				}
				return res.Failure.Obligation
			}
			prove := func() (smt.Status, string) {
				obls, _, errs := simulation.Generate(&set.Hierarchy, simulation.Config{NoInvariants: true})
				if len(errs) > 0 {
					t.Fatal(errs)
				}
				for _, o := range obls {
					if o.ID != tc.want {
						continue
					}
					text, err := o.Problem.Text()
					if err != nil {
						t.Fatal(err)
					}
					r, err := smt.CheckText(context.Background(), o.Problem, smt.Config{RLimit: 50_000_000, Seed: 1})
					if err != nil {
						t.Fatal(err)
					}
					return r.Status, text
				}
				t.Fatalf("no obligation %s", tc.want)
				return 0, ""
			}
			if got := cross(); got != "" {
				t.Fatalf("the proof fails unchanged, at %s", got)
			}
			status, text := prove()
			if status != smt.Unsat {
				t.Fatalf("%s: %v unchanged, want unsat", tc.want, status)
			}
			simulation.MutateGoalsForTesting(func(clause, name string) bool { return clause == tc.clause && name == tc.name })
			defer simulation.MutateGoalsForTesting(nil)
			if got := cross(); got != tc.want {
				t.Errorf("changed rules: the cross-check fails at %q, want %q", got, tc.want)
			}
			mstatus, mtext := prove()
			// BatchQueue's hypotheses are quantified: with the goal false
			// Z3 may not find a model (unknown), but must not prove it
			if mstatus != smt.Sat && (tc.bounds == "" || mstatus == smt.Unsat) {
				t.Errorf("changed rules: %s is %v, want sat", tc.want, mstatus)
			}
			if mtext == text || !strings.Contains(mtext, "; goal (negated)\n(assert true)") {
				t.Errorf("changed rules: the problem of %s does not change to a false goal:\n%s", tc.want, mtext)
			}
		})
	}
}
