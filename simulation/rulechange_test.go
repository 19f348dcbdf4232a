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
// with the rules unchanged. It runs a forward simulation, a refinement
// and a backward simulation.
func TestRuleChangeChangesBoth(t *testing.T) {
	if testing.Short() {
		t.Skip("solver test")
	}
	tests := []struct {
		file         string
		clause, name string // the clause whose goals are made false
		want         string // the ID of the failing obligation
	}{
		{"chan/ok_forward.yaml", simulation.ClauseRelation, "buf", "Relay→Queue1 › forward › Send › relation(buf)"},
		{"chan/ok_refinement.yaml", simulation.ClausePost, "buf", "Relay→Queue1 › refinement › Send › post(buf)"},
		{"choice/ok_backward.yaml", simulation.ClauseRelation, "idle", "Late→Early › backward › Go › relation(idle)"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
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
				inst, err := explore.ParseBounds("V=2")
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
			if mstatus != smt.Sat {
				t.Errorf("changed rules: %s is %v, want sat", tc.want, mstatus)
			}
			if mtext == text || !strings.Contains(mtext, "; goal (negated)\n(assert true)") {
				t.Errorf("changed rules: the problem of %s does not change to a false goal:\n%s", tc.want, mtext)
			}
		})
	}
}
