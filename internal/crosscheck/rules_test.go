package crosscheck

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
	"ladder/simulation"
)

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
			x := pointChecker(t, file)
			points, failures := 0, 0
			eachPoint(t, x, func(action *ioa.Action, c, a eval.State, ps []eval.Value) {
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
			})
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

// TestEvalStepScratch checks that the rules computing in scratch memory
// (simulation.PointChecker.UseScratch, reused from one point to the next)
// give what they give allocating: the failing obligation, the case, the
// states of a failing verdict and the final abstract state u_m, at every
// point of a correct and a wrong proof of each kind; and that they do
// reuse the memory (some u_m is where an earlier point's was).
func TestEvalStepScratch(t *testing.T) {
	files := []string{
		"chan/ok_refinement.yaml", "chan/ok_forward.yaml", "choice/ok_backward.yaml",
		"chan/bad_ref_post.yaml", "chan/bad_fwd_rel.yaml", "choice/bad_bwd_pre.yaml", "choice/bad_bwd_rel.yaml",
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			x := pointChecker(t, file)
			scratch := x.rules.Clone()
			scratch.UseScratch()
			points, lasts, reused := 0, 0, 0
			seen := map[*eval.Value]bool{}
			eachPoint(t, x, func(action *ioa.Action, c, a eval.State, ps []eval.Value) {
				pt := &simulation.Point{States: map[string]eval.State{"c": c, "a": a}, Params: ps}
				x.rules.Reset()
				want, err := x.rules.EvalStep(action, pt)
				if err != nil {
					t.Fatal(err)
				}
				scratch.Reset()
				got, err := scratch.EvalStep(action, pt)
				if err != nil {
					t.Fatal(err)
				}
				at := fmt.Sprintf("%s at c = %v, a = %v, p = %v", action.Name, c, a, ps)
				if got.Case != want.Case || (got.Failed == nil) != (want.Failed == nil) || (got.Last == nil) != (want.Last == nil) {
					t.Fatalf("%s: in scratch memory case %d, failed %v, u_m %v; allocating %d, %v, %v", at, got.Case, got.Failed, got.Last, want.Case, want.Failed, want.Last)
				}
				if want.Last != nil {
					lasts++
					if !got.Last.Equal(want.Last) {
						t.Fatalf("%s: u_m %v in scratch memory, %v allocating", at, got.Last, want.Last)
					}
					if seen[&got.Last[0]] {
						reused++
					}
					seen[&got.Last[0]] = true
				}
				if want.Failed != nil {
					g, w := got.Failed, want.Failed
					if g.Plan.ID != w.Plan.ID || len(g.States) != len(w.States) {
						t.Fatalf("%s: fails %s with %d states in scratch memory, %s with %d allocating", at, g.Plan.ID, len(g.States), w.Plan.ID, len(w.States))
					}
					for i := range w.States {
						if g.States[i].Name != w.States[i].Name || !g.States[i].State.Equal(w.States[i].State) {
							t.Fatalf("%s: state %s = %v in scratch memory, %s = %v allocating", at, g.States[i].Name, g.States[i].State, w.States[i].Name, w.States[i].State)
						}
					}
				}
				points++
			})
			t.Logf("%d points, %d with u_m, %d of them in reused memory", points, lasts, reused)
			if points == 0 || lasts > 0 && reused == 0 {
				t.Errorf("%d points, %d with u_m, none in reused memory", points, lasts)
			}
		})
	}
}

// TestEvalStepRelated checks Point.Related, which the forward search
// passes so that the rules take the relation as holding at the pairs it
// has stored, and the backward check at its candidates: told the truth
// (the relation's own value at the pair), EvalStep gives the verdicts it
// gives without being told, at every point of a correct and a wrong
// proof of each kind. Told that every pair is related, a forward step
// finds no relation clause false, which shows that the rules consult it
// for the hypothesis R(c, a) and the goals R(cpost, u_m); a backward step
// fails at points where R(cpost, a) is false, where it held vacuously,
// which shows that the rules consult it for that hypothesis.
func TestEvalStepRelated(t *testing.T) {
	for _, file := range []string{"chan/ok_forward.yaml", "chan/bad_fwd_rel.yaml", "choice/ok_backward.yaml", "choice/bad_bwd_rel.yaml"} {
		t.Run(file, func(t *testing.T) {
			x := pointChecker(t, file)
			backward := x.p.Kind == ioa.ProofBackward
			truth := func(c, a eval.State) bool {
				ok, err := x.relates(&env{c: c, a: a})
				if err != nil {
					t.Fatal(err)
				}
				return ok
			}
			always := func(eval.State, eval.State) bool { return true }
			verdict := func(action *ioa.Action, pt *simulation.Point) string {
				x.rules.Reset()
				r, err := x.rules.EvalStep(action, pt)
				if err != nil {
					t.Fatal(err)
				}
				if r.Failed == nil {
					return ""
				}
				return r.Failed.Plan.ID
			}
			points, relFailures, lies := 0, 0, 0
			eachPoint(t, x, func(action *ioa.Action, c, a eval.State, ps []eval.Value) {
				pt := &simulation.Point{States: map[string]eval.State{"c": c, "a": a}, Params: ps}
				want := verdict(action, pt)
				pt.Related = truth
				if got := verdict(action, pt); got != want {
					t.Fatalf("%s at c = %v, a = %v: told the truth, EvalStep fails %q; untold %q", action.Name, c, a, got, want)
				}
				pt.Related = always
				got := verdict(action, pt)
				if !backward && strings.Contains(got, "relation(") {
					t.Fatalf("%s at c = %v, a = %v: told every pair is related, EvalStep fails %q", action.Name, c, a, got)
				}
				if strings.Contains(want, "relation(") {
					relFailures++
				}
				if got != want {
					lies++ // a hypothesis R was false: vacuous when not told
				}
				points++
			})
			t.Logf("%d points, %d failing a relation clause, %d failing otherwise once told R", points, relFailures, lies)
			if lies == 0 || strings.Contains(file, "bad_") && relFailures == 0 {
				t.Errorf("the relation fails no relation clause (%d) or no step from an unrelated pair (%d)", relFailures, lies)
			}
		})
	}
}

// pointChecker returns the checker of the proof testdata/file in V=2.
func pointChecker(t *testing.T, file string) *checker {
	t.Helper()
	x, err := newChecker(loadProof(t, filepath.Join("testdata", file)), bounds(t, "V=2"))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// eachPoint calls fn at every point of x's edge: every enabled step of
// the concrete automaton from every state of the instance (reachable or
// not), with every abstract state.
func eachPoint(t *testing.T, x *checker, fn func(action *ioa.Action, c, a eval.State, ps []eval.Value)) {
	t.Helper()
	p := x.p
	cvals, err := x.instC.Values(p.Concrete.StateSort)
	if err != nil {
		t.Fatal(err)
	}
	avals, err := x.instA.Values(p.Abstract.StateSort)
	if err != nil {
		t.Fatal(err)
	}
	for _, cv := range cvals {
		c := eval.StateOf(cv)
		err := x.rC.Successors(c, func(act int, params []eval.Value, post eval.State) bool {
			ps := append([]eval.Value(nil), params...)
			for _, av := range avals {
				fn(p.Concrete.Actions[act], c, eval.StateOf(av), ps)
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestStateOfCopies checks that stateOf, which reads an entry `o.x` of a
// state map instead of evaluating it (simulation.StateMap), gives what
// evaluating every entry gives, on every state map of the repository's proofs (mappings, start
// and totality witnesses, backward pre-state witnesses) at reachable
// states of a small instance.
func TestStateOfCopies(t *testing.T) {
	files, err := filepath.Glob("../../proofs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatal(err, files)
	}
	copies := 0
	for _, file := range files {
		p := loadProof(t, file, "../../specs", "../../algorithms", "../../proofs")
		x, err := newChecker(p, bounds(t, "T=2,L=1,V=2"))
		if err != nil {
			t.Fatal(err)
		}
		type use struct {
			m  *ioa.StateMap
			ps []eval.Value // the action's parameters, for a witness
		}
		uses := []use{{p.Mapping, nil}, {p.Start, nil}, {p.Total, nil}}
		for act, sm := range x.steps {
			var ps []eval.Value
			for _, b := range act.Params {
				if b.Lo != nil {
					ps = append(ps, eval.Int(0))
					continue
				}
				vs, err := x.inst.Values(b.Var.Sort)
				if err != nil || len(vs) == 0 {
					t.Fatal(err)
				}
				ps = append(ps, vs[len(vs)-1])
			}
			for _, c := range sm.Cases {
				uses = append(uses, use{c.Pre, ps})
			}
		}
		meter := explore.NewMeter(explore.Budget{})
		cs, _, err := reachable(x.mC, nil, 40, meter, explore.NewReporter(nil, meter))
		if err != nil {
			t.Fatal(err)
		}
		as, _, err := reachable(x.mA, nil, 40, meter, explore.NewReporter(nil, meter))
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range uses {
			if u.m == nil {
				continue
			}
			code, err := x.rules.StateMap(u.m)
			if err != nil {
				t.Fatal(err)
			}
			var funcs []*eval.Func
			for _, v := range u.m.Target.Vars {
				en := u.m.Entry(v.Name)
				if _, _, ok := expr.StateField(en.Value); ok {
					copies++
				}
				f, err := x.compile(en.Value)
				if err != nil {
					t.Fatal(err)
				}
				funcs = append(funcs, f)
			}
			for i := 0; i < cs.Len(); i++ {
				c, err := x.mC.DecodeState(cs.Key(i))
				if err != nil {
					t.Fatal(err)
				}
				cpost, err := x.mC.DecodeState(cs.Key((i + 1) % cs.Len()))
				if err != nil {
					t.Fatal(err)
				}
				a, err := x.mA.DecodeState(as.Key(i % as.Len()))
				if err != nil {
					t.Fatal(err)
				}
				e := &env{c: c, a: a, cpost: cpost, apre: a, params: u.ps}
				got, err := x.stateOf(code, e)
				if err != nil {
					t.Fatal(err)
				}
				for j, f := range funcs {
					want, err := x.eval(f, e)
					if err != nil {
						t.Fatal(err)
					}
					if !got[j].Equal(want) {
						t.Fatalf("%s: variable %s of a state map: stateOf gives %v, evaluating it %v", p.Name, u.m.Target.Vars[j].Name, got[j], want)
					}
				}
			}
		}
	}
	t.Logf("%d variables of state maps are read, not evaluated", copies)
	if copies == 0 {
		t.Error("no state map variable is read")
	}
}
