package crosscheck

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/smt"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/load"
	"ladder/simulation"
)

// TestRuleChangeChangesBoth changes one clause of the rules in one place
// (simulation.MutateGoalsForTesting makes the goal of one clause false)
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
			path := filepath.Join("testdata", tc.file)
			set, errs := load.Files(path)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			var p *ioa.Proof
			for _, q := range set.LoadedProofs() {
				if filepath.Clean(q.File) == filepath.Clean(path) {
					p = q
				}
			}
			if p == nil {
				t.Fatalf("%s: no proof", path)
			}
			crosscheck := func() string {
				res, err := Check(p, bounds(t, "V=2"))
				if err != nil {
					t.Fatal(err)
				}
				if res.Failure == nil {
					return ""
				}
				return res.Failure.Obligation
			}
			prove := func() (smt.Status, string) {
				obls, _, errs := simulation.Generate(set, simulation.Config{NoInvariants: true})
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
			if got := crosscheck(); got != "" {
				t.Fatalf("the proof fails unchanged, at %s", got)
			}
			status, text := prove()
			if status != smt.Unsat {
				t.Fatalf("%s: %v unchanged, want unsat", tc.want, status)
			}
			simulation.MutateGoalsForTesting(func(clause, name string) bool { return clause == tc.clause && name == tc.name })
			defer simulation.MutateGoalsForTesting(nil)
			if got := crosscheck(); got != tc.want {
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

// TestEvalStepAgreesWithEval checks that one all-goals run of the rules
// per step (simulation.PointChecker.EvalStep, what the cross-check uses)
// gives the verdict that evaluating each step obligation by its own
// scenario (Eval) gives: the first failing obligation in Generate's order
// and the case the guards select (where an obligation's hypotheses all
// hold). The points are every enabled step from
// every state of the concrete automaton of the instance (reachable or
// not) and every abstract state, so that hypotheses are false (vacuous
// verdicts), true, and goals false, on correct and wrong proofs.
func TestEvalStepAgreesWithEval(t *testing.T) {
	files := []string{
		"chan/ok_refinement.yaml", "chan/ok_forward.yaml", "choice/ok_backward.yaml",
		"chan/bad_ref_pre.yaml", "chan/bad_ref_post.yaml", "chan/bad_ref_event.yaml", "chan/bad_ref_cases.yaml",
		"chan/bad_fwd_rel.yaml", "choice/bad_bwd_pre.yaml", "choice/bad_bwd_rel.yaml", "choice/bad_bwd_choice.yaml",
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			p := loadProof(t, filepath.Join("testdata", file))
			x, err := newChecker(p, bounds(t, "V=2"))
			if err != nil {
				t.Fatal(err)
			}
			cvals, err := x.instC.Values(p.Concrete.StateSort)
			if err != nil {
				t.Fatal(err)
			}
			avals, err := x.instA.Values(p.Abstract.StateSort)
			if err != nil {
				t.Fatal(err)
			}
			points, failures := 0, 0
			for _, cv := range cvals {
				c := eval.StateOf(cv)
				err := x.rC.Successors(c, func(act int, params []eval.Value, post eval.State) bool {
					action := p.Concrete.Actions[act]
					ps := append([]eval.Value(nil), params...)
					for _, av := range avals {
						a := eval.StateOf(av)
						pt := &simulation.Point{States: map[string]eval.State{"c": c, "a": a}, Params: ps}
						// the reference: each obligation by its own scenario
						x.rules.Reset()
						wantCase, want := -1, ""
						for _, pl := range x.rules.StepPlans(action) {
							v, err := x.rules.Eval(pl, pt)
							if err != nil {
								t.Fatal(err)
							}
							if pl.Clause != simulation.ClauseCases && wantCase < 0 && v.Vacuous == "" {
								wantCase = pl.Case
							}
							if !v.Holds && want == "" {
								want = pl.ID
							}
						}
						x.rules.Reset()
						r, err := x.rules.EvalStep(action, pt)
						if err != nil {
							t.Fatal(err)
						}
						got := ""
						if r.Failed != nil {
							got = r.Failed.Plan.ID
							failures++
						}
						if got != want {
							t.Fatalf("%s at c = %v, a = %v, p = %v: EvalStep fails %q, Eval %q", action.Name, c, a, ps, got, want)
						}
						if want == "" && r.Case != wantCase && wantCase >= 0 {
							t.Fatalf("%s at c = %v, a = %v, p = %v: EvalStep takes case %d, Eval %d", action.Name, c, a, ps, r.Case, wantCase)
						}
						points++
					}
					return true
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("%d points, %d failing", points, failures)
			if points == 0 {
				t.Fatal("no point")
			}
			// (a correct proof may fail at an unreachable point, where
			// the invariants the points take as true do not hold)
			if strings.Contains(file, "bad_") && failures == 0 {
				t.Errorf("no failing point")
			}
		})
	}
}
