package crosscheck

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/load"
)

// loadProof loads the proof file path (with the automata it names by
// file, and the extra paths).
func loadProof(t testing.TB, path string, extra ...string) *ioa.Proof {
	t.Helper()
	set, errs := load.Files(append([]string{path}, extra...)...)
	if len(errs) > 0 {
		t.Fatalf("loading %s:\n%v", path, errs)
	}
	for _, p := range set.Proofs {
		if filepath.Clean(p.File) == filepath.Clean(path) {
			return p
		}
	}
	t.Fatalf("%s: no proof", path)
	return nil
}

func bounds(t testing.TB, s string) Config {
	t.Helper()
	inst, err := explore.ParseBounds(s)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Instance: inst}
}

// lastAction returns the action of the last step of a trace.
func lastAction(tr *explore.Trace) string {
	if tr == nil || len(tr.Steps) == 0 {
		return ""
	}
	return tr.Steps[len(tr.Steps)-1].Action
}

// TestProofFixtures checks every fixture proof of testdata/chan and
// testdata/choice: the correct ones pass completely, and each wrong one
// fails at the expected obligation, action, case and clause, after a
// shortest execution whose length is counted by hand.
func TestProofFixtures(t *testing.T) {
	tests := []struct {
		file       string
		obligation string // "" for a passing proof
		action     string
		kase       int
		clause     string
		steps      int    // the length of the trace (steps after the start state)
		last       string // the trace's last action, or ""
		message    string // a substring of the message or a detail
	}{
		{file: "chan/ok_refinement.yaml"},
		{file: "chan/ok_simple.yaml"},
		{file: "chan/ok_forward.yaml"},
		{file: "chan/ok_history.yaml"},
		{file: "choice/ok_backward.yaml"},
		// Refinements.
		{"chan/bad_ref_start.yaml", "Relay→Queue1 › refinement › start", "", 0, "start", 0, "", "buf = Some(V#0), not its init None"},
		{"chan/bad_ref_pre.yaml", "Relay→Queue1 › refinement › Recv › pre(Recv)", "Recv", 1, "pre(Recv)", 3, "Recv(V#1)", "false: buf = Some(v)"},
		{"chan/bad_ref_post.yaml", "Relay→Queue1 › refinement › Move › post(buf)", "Move", 1, "post(buf)", 2, "Move", "u0.buf = Some(V#0) but f(cpost).buf = None"},
		{"chan/bad_ref_event.yaml", "Relay→Queue1 › refinement › Recv › case 1 › event", "Recv", 1, "event", 3, "Recv(V#1)", "shows Recv(V#1) but the abstract step Drop(V#0) shows Recv(V#0)"},
		{"chan/bad_ref_cases.yaml", "Relay→Queue1 › refinement › Recv › cases", "Recv", 0, "cases", 3, "Recv(V#1)", "no case's guard holds"},
		{"chan/bad_assume.yaml", "Relay→Queue1 › refinement › assume Relay.outEmpty", "", 0, "assume Relay.outEmpty", 2, "Move", "violates outEmpty"},
		// Forward simulations.
		{"chan/bad_fwd_start.yaml", "Relay→Queue1 › forward › start › init", "", 0, "start › init", 0, "", "not a start state of Queue1"},
		{"chan/bad_fwd_rel.yaml", "Relay→Queue1 › forward › Move › relation(inEmpty)", "Move", 1, "relation(inEmpty)", 2, "Move", "inEmpty(cpost, u0) is false"},
		{"chan/bad_fwd_assume.yaml", "Relay→Queue1 › forward › assume Relay.outEmpty", "", 0, "assume Relay.outEmpty", 2, "Move", "the last state violates outEmpty"},
		{"chan/bad_fwd_assume_abstract.yaml", "Relay→Queue1Inv › forward › assume Queue1Inv.bufEmpty", "", 0, "assume Queue1Inv.bufEmpty", 1, "Send(V#0)", "violates the invariant bufEmpty of Queue1Inv"},
		// Backward simulations.
		{"choice/bad_bwd_pre.yaml", "Late→Early › backward › Out › pre(Out)", "Out", 1, "pre(Out)", 2, "Out(V#1)", "false: v = val"},
		{"choice/bad_bwd_total.yaml", "Late→Early › backward › totality › st", "", 0, "totality › st", 1, "Go", "st(c, τ(c)) is false"},
		{"choice/bad_bwd_rel.yaml", "Late→Early › backward › Out › relation(fixed)", "Out", 1, "relation(fixed)", 2, "Out(V#1)", "fixed(c, apre) is false"},
		{"choice/bad_bwd_choice.yaml", "Late→Early › backward › Go › post(val)", "Go", 1, "post(val)", 1, "Go", "u1.val = V#0 but a.val = V#1"},
		{"choice/bad_bwd_start.yaml", "Late→Early › backward › start", "", 0, "start", 0, "", "val = V#1, not its init V#0"},
		// History mappings.
		{"chan/bad_hist_start.yaml", "Queue1→Queue1H › history › start › init", "", 0, "start › init", 0, "", "sent = true, not its init false"},
		{"chan/bad_hist_guard.yaml", "Queue1→Queue1HOnce › history › Send › guard", "Send", 0, "guard", 2, "Recv(V#0)", "false: not sent"},
		{"chan/bad_hist_commute.yaml", "Queue1→Queue1HSticky › history › Recv › commute", "Recv", 0, "commute", 2, "Recv(V#0)", "f(apost).buf = Some(V#0) but cpost.buf = None"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			p := loadProof(t, filepath.Join("testdata", tc.file))
			for _, workers := range []int{1, 3} {
				cfg := bounds(t, "V=2")
				cfg.Workers = workers
				res, err := Check(p, cfg)
				if err != nil {
					t.Fatal(err)
				}
				var out bytes.Buffer
				if err := res.WriteText(&out); err != nil {
					t.Fatal(err)
				}
				f := res.Failure
				if tc.obligation == "" {
					if f != nil || !res.Complete {
						t.Fatalf("want a complete pass, got:\n%s", out.String())
					}
					if res.Transitions == 0 {
						t.Fatalf("no step checked:\n%s", out.String())
					}
					continue
				}
				if f == nil {
					t.Fatalf("want a failure of %s, got:\n%s", tc.obligation, out.String())
				}
				if f.Obligation != tc.obligation || f.Action != tc.action || f.Case != tc.kase || f.Clause != tc.clause {
					t.Errorf("failure %q (action %q, case %d, clause %q), want %q (%q, %d, %q)\n%s",
						f.Obligation, f.Action, f.Case, f.Clause, tc.obligation, tc.action, tc.kase, tc.clause, out.String())
				}
				if f.Trace.Len() != tc.steps || lastAction(f.Trace) != tc.last && tc.last != "" {
					t.Errorf("trace of %d steps ending with %q, want %d ending with %q\n%s", f.Trace.Len(), lastAction(f.Trace), tc.steps, tc.last, out.String())
				}
				// the depth reported is the length of the execution printed
				if res.MaxDepth != f.Trace.Len() {
					t.Errorf("depth %d, but the execution printed has %d steps\n%s", res.MaxDepth, f.Trace.Len(), out.String())
				}
				if !strings.Contains(out.String(), tc.message) {
					t.Errorf("output does not mention %q:\n%s", tc.message, out.String())
				}
				if !strings.Contains(out.String(), "FAILED: "+tc.obligation) {
					t.Errorf("output does not name the obligation:\n%s", out.String())
				}
			}
		})
	}
}

// TestBackwardCandidates shows what the abstract mode changes: a wrong
// step correspondence that agrees with the totality witness passes when
// only τ(cpost) is tried, and fails when the other related abstract
// states are tried too (reachable or all).
func TestBackwardCandidates(t *testing.T) {
	p := loadProof(t, "testdata/choice/bad_bwd_choice.yaml")
	for _, tc := range []struct {
		mode AbstractMode
		fail bool
		n    int // candidate abstract states
	}{{AbstractWitness, false, 0}, {AbstractReachable, true, 4}, {AbstractAll, true, 6}, {AbstractAuto, true, 6}} {
		cfg := bounds(t, "V=2")
		cfg.Abstract = tc.mode
		res, err := Check(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if (res.Failure != nil) != tc.fail || res.AbstractStates != tc.n {
			t.Errorf("mode %s: failure %v with %d candidate states, want %v with %d", tc.mode, res.Failure != nil, res.AbstractStates, tc.fail, tc.n)
		}
		if len(res.Notes) == 0 {
			t.Errorf("mode %s: no note says what was tried", tc.mode)
		}
	}
	// bad_bwd_start relates the start state to an unreachable abstract
	// state: only the mode that tries every state finds it.
	p = loadProof(t, "testdata/choice/bad_bwd_start.yaml")
	for mode, fail := range map[AbstractMode]bool{AbstractReachable: false, AbstractAll: true} {
		cfg := bounds(t, "V=2")
		cfg.Abstract = mode
		res, err := Check(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if (res.Failure != nil) != fail {
			t.Errorf("bad_bwd_start, mode %s: failure %v, want %v", mode, res.Failure != nil, fail)
		}
	}
}

// TestAbstractLimit checks that candidates cut by the abstract state
// limit make the backward result incomplete.
func TestAbstractLimit(t *testing.T) {
	p := loadProof(t, "testdata/choice/ok_backward.yaml")
	cfg := bounds(t, "V=2")
	cfg.Abstract, cfg.MaxAbstractStates = AbstractReachable, 2
	res, err := Check(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || !strings.Contains(res.Limit, "abstract state limit 2") {
		t.Errorf("complete %v, limit %q", res.Complete, res.Limit)
	}
	cfg.Abstract = AbstractAll
	if _, err := Check(p, cfg); err == nil || !strings.Contains(err.Error(), "more than 2 states") {
		t.Errorf("all with a limit of 2: %v", err)
	}
}

// TestCaseCounts checks that every case taken is counted.
func TestCaseCounts(t *testing.T) {
	p := loadProof(t, "testdata/chan/ok_simple.yaml")
	res, err := Check(p, bounds(t, "V=2"))
	if err != nil {
		t.Fatal(err)
	}
	want := []CaseCount{{"Send", 1, 1, 2}, {"Move", 1, 1, 2}, {"Recv", 1, 2, 1}, {"Recv", 2, 2, 1}}
	if !reflect.DeepEqual(res.Cases, want) {
		t.Errorf("cases %+v, want %+v", res.Cases, want)
	}
}

// TestLimits checks that a limit gives an incomplete result, not a pass.
func TestLimits(t *testing.T) {
	p := loadProof(t, "testdata/chan/bad_ref_pre.yaml") // fails at depth 3
	for _, cfg := range []Config{{MaxDepth: 2}, {MaxStates: 3}} {
		c := bounds(t, "V=2")
		c.MaxDepth, c.MaxStates = cfg.MaxDepth, cfg.MaxStates
		res, err := Check(p, c)
		if err != nil {
			t.Fatal(err)
		}
		if res.Failure != nil || res.Complete || res.Limit == "" {
			t.Errorf("%+v: failure %v, complete %v, limit %q; want an incomplete pass", cfg, res.Failure != nil, res.Complete, res.Limit)
		}
	}
	p = loadProof(t, "testdata/chan/bad_fwd_rel.yaml") // fails at depth 2
	c := bounds(t, "V=2")
	c.MaxDepth = 1
	res, err := Check(p, c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil || res.Complete {
		t.Errorf("forward at depth 1: failure %v, complete %v", res.Failure != nil, res.Complete)
	}
}

// TestBadBounds checks the errors for instances that cannot be built.
func TestBadBounds(t *testing.T) {
	p := loadProof(t, "testdata/chan/ok_refinement.yaml")
	for bound, want := range map[string]string{
		"V=2,W=1": "bound W names neither a parameter sort nor a constant of Relay or Queue1",
		"V=0":     "size of V must be at least 1",
		"":        "V",
	} {
		_, err := Check(p, bounds(t, bound))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bound %q: error %v, want %q", bound, err, want)
		}
	}
	// A constant of either automaton may be bound.
	res, err := Check(p, bounds(t, "V=2,v0=1"))
	if err != nil || res.Failure != nil || !strings.Contains(res.Instance, "v0=1") {
		t.Errorf("bound v0=1: %v, %+v", err, res)
	}
	if _, err := Check(nil, Config{}); err == nil {
		t.Error("Check(nil): no error")
	}
}

// TestJSON checks that a result with a failure marshals, with the trace
// and the states.
func TestJSON(t *testing.T) {
	p := loadProof(t, "testdata/choice/bad_bwd_pre.yaml")
	res, err := Check(p, bounds(t, "V=2"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Kind    string
		Cases   []CaseCount
		Failure struct {
			Obligation    string
			Clause        string
			Trace         struct{ Steps []struct{ Action string } }
			States        []struct{ Name string }
			AbstractSteps []string
		}
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	f := back.Failure
	if back.Kind != "backward" || f.Obligation != "Late→Early › backward › Out › pre(Out)" || len(f.Trace.Steps) != 3 ||
		len(f.States) < 2 || f.States[1].Name != "apre" || !reflect.DeepEqual(f.AbstractSteps, []string{"Out(V#1)"}) {
		t.Errorf("JSON %s", b)
	}
}

// TestImplements checks trace inclusion on the fixtures: trace-equivalent
// automata pass both ways, and the leaky relay fails with the trace of
// two Sends (Queue1's lossy Drop likewise fails Relay).
func TestImplements(t *testing.T) {
	set, errs := load.Files("testdata/chan", "testdata/choice")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		c, a   string
		events []string // nil: passes
	}{
		{"Relay", "Queue1", nil},
		{"Queue1", "Relay", []string{"Send(V#0)", "Recv(V#1)"}}, // Drop shows any value
		{"Late", "Early", nil},
		{"Early", "Late", nil},
		{"Queue1H", "Queue1", nil},
		{"LeakyRelay", "Queue1", []string{"Send(V#0)", "Send(V#0)"}},
		{"Queue1", "Queue1HOnce", []string{"Send(V#0)", "Recv(V#0)", "Send(V#0)"}},
	} {
		res, err := Implements(set.Automaton(tc.c), set.Automaton(tc.a), bounds(t, "V=2"))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := res.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.events == nil && (res.Failure != nil || !res.Complete):
			t.Errorf("%s ⊆ %s: want a complete pass, got\n%s", tc.c, tc.a, out.String())
		case tc.events != nil && res.Failure == nil:
			t.Errorf("%s ⊆ %s: want a failure, got\n%s", tc.c, tc.a, out.String())
		case tc.events != nil && !reflect.DeepEqual(res.Failure.Events, tc.events):
			t.Errorf("%s ⊆ %s: events %v, want %v\n%s", tc.c, tc.a, res.Failure.Events, tc.events, out.String())
		case tc.events != nil && res.MaxDepth != res.Failure.Trace.Len():
			t.Errorf("%s ⊆ %s: depth %d, but the execution printed has %d steps\n%s", tc.c, tc.a, res.MaxDepth, res.Failure.Trace.Len(), out.String())
		}
	}
	// A depth limit leaves the leaky relay's failure unfound.
	cfg := bounds(t, "V=2")
	cfg.MaxDepth = 2
	res, err := Implements(set.Automaton("LeakyRelay"), set.Automaton("Queue1"), cfg)
	if err != nil || res.Failure != nil || res.Complete {
		t.Errorf("depth 2: %v %+v", err, res)
	}
	// The abstract state limit makes the result incomplete.
	cfg = bounds(t, "V=2")
	cfg.MaxAbstractStates = 2
	res, err = Implements(set.Automaton("Relay"), set.Automaton("Queue1"), cfg)
	if err != nil || res.Complete || !strings.Contains(res.Limit, "abstract state limit 2") {
		t.Errorf("abstract limit: %v %+v", err, res)
	}
}

// TestTMS2Family checks the specs and their negative fixtures: trace
// inclusion in TMS2, and refinements and forward simulations from the
// buggy automata (testdata/tms2), at T=2, L=1, V=2 (T=1, L=1, V=2 in short
// mode, where the buggy traces do not exist and only passes are checked).
func TestTMS2Family(t *testing.T) {
	bound := "T=2,L=1,V=2"
	if testing.Short() {
		bound = "T=1,L=1,V=2"
	}
	set, errs := load.Files("../../specs", "../../specs/testdata")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tms2 := set.Automaton("TMS2")
	for _, tc := range []struct {
		c    string
		last string // the last event of the failing trace; "" passes
	}{
		{"TMS2", ""},
		{"TxnOrdTMS2", ""},
		{"ReservationTMS2", ""},
		{"TMS2ReadIgnoresValidIdx", "ReadResp(T#1, V#0)"},
		{"TxnOrdTMS2NoCommitValidation", "CommitResp(T#0)"},
	} {
		if testing.Short() && tc.last != "" {
			continue
		}
		res, err := Implements(set.Automaton(tc.c), tms2, bounds(t, bound))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		res.WriteText(&out)
		switch {
		case tc.last == "" && !res.Complete:
			t.Errorf("%s ⊆ TMS2: want a complete pass, got\n%s", tc.c, out.String())
		case tc.last != "" && (res.Failure == nil || res.Failure.Events[len(res.Failure.Events)-1] != tc.last):
			t.Errorf("%s ⊆ TMS2: want a failure ending with %s, got\n%s", tc.c, tc.last, out.String())
		}
	}
	for _, tc := range []struct {
		file, obligation string
	}{
		{"TxnOrdTMS2-TMS2.yaml", ""},
		{"TMS2-TMS2.yaml", ""},
		{"TxnOrdTMS2NoCommitValidation-TMS2.yaml", "TxnOrdTMS2NoCommitValidation→TMS2 › refinement › DoCommitWriter › pre(DoCommitWriter)"},
		{"TMS2ReadIgnoresValidIdx-TMS2.yaml", "TMS2ReadIgnoresValidIdx→TMS2 › forward › DoRead › pre(DoRead)"},
	} {
		if testing.Short() && tc.obligation != "" {
			continue
		}
		p := loadProof(t, filepath.Join("testdata/tms2", tc.file))
		cfg := bounds(t, bound)
		cfg.Workers = 1
		res, err := Check(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		// The explorer's parallel levels do not change the result.
		cfg.Workers = 4
		res4, err := Check(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !sameOutcome(res, res4) {
			t.Errorf("%s: the outcome depends on the number of workers", tc.file)
		}
		var out bytes.Buffer
		res.WriteText(&out)
		switch {
		case tc.obligation == "" && !res.Complete:
			t.Errorf("%s: want a complete pass, got\n%s", tc.file, out.String())
		case tc.obligation != "" && (res.Failure == nil || res.Failure.Obligation != tc.obligation):
			t.Errorf("%s: want a failure of %s, got\n%s", tc.file, tc.obligation, out.String())
		}
	}
}

// sameOutcome reports whether two results found the same failure after
// the same execution, or both passed after the same search.
func sameOutcome(a, b *Result) bool {
	if (a.Failure == nil) != (b.Failure == nil) || a.States != b.States && a.Failure == nil {
		return false
	}
	if a.Failure == nil {
		return a.Transitions == b.Transitions
	}
	if a.Failure.Obligation != b.Failure.Obligation || a.Failure.Trace.Len() != b.Failure.Trace.Len() {
		return false
	}
	for i, st := range a.Failure.Trace.Steps {
		if st.Action != b.Failure.Trace.Steps[i].Action {
			return false
		}
	}
	return true
}

// explorable reports whether p's automata have values in the evaluator
// (no map over Int, as POQueueProph's prediction).
func explorable(p *ioa.Proof) bool {
	return eval.RepresentableAutomaton(p.Concrete) == nil && eval.RepresentableAutomaton(p.Abstract) == nil
}

// TestRepositoryProofs runs every proof of proofs/ at T=1, L=1, V=1 (and
// at T=2, L=1, V=2 unless in short mode): each must pass completely, but
// the proofs that no instance can explore (explorable).
func TestRepositoryProofs(t *testing.T) {
	set, errs := load.Files("../../specs", "../../proofs")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	proofs := set.Proofs
	if len(proofs) == 0 {
		t.Fatal("no proofs")
	}
	bs := []string{"T=1,L=1,V=1"}
	if !testing.Short() {
		bs = append(bs, "T=2,L=1,V=2")
	}
	for _, b := range bs {
		for _, p := range proofs {
			if !explorable(p) {
				t.Logf("%s: not explorable, skipped", p.Name)
				continue
			}
			res, err := Check(p, bounds(t, b))
			if err != nil {
				t.Errorf("%s at %s: %v", p.Name, b, err)
				continue
			}
			var out bytes.Buffer
			res.WriteText(&out)
			if !res.Complete {
				t.Errorf("%s at %s:\n%s", p.Name, b, out.String())
			}
			t.Logf("%s at %s: %d states, %d checks", p.Name, b, res.States, res.Checks)
		}
	}
}

// TestExplainQuantifiedClause checks that a failing quantified relation
// clause is explained: the binding of its variable, the antecedent that
// holds and the conjunct that fails, with the value of its side.
func TestExplainQuantifiedClause(t *testing.T) {
	p := loadProof(t, "testdata/explain/NOrecPcWrong.yaml", "../../specs")
	res, err := Check(p, bounds(t, "T=2,L=1,V=2"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure == nil {
		t.Fatal("the wrong status correspondence passed")
	}
	var out bytes.Buffer
	res.WriteText(&out)
	for _, want := range []string{
		"FAILED: NOrecAtomicCommitValidate→TMS2 › forward › BeginResp › relation(pc)",
		"      at t = T#0\n      holds: c.pc[t] = Active\n      false: a.pc[t] = ReadPending, where a.pc[t] = Ready\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
}

// TestImplementsSymmetry checks trace inclusion with symmetry reduction
// against the unreduced search on the TMS2 family at T=2, L=1, V=2: the
// same verdicts, fewer pairs where the instance has symmetric pairs, a
// failing trace as long as the shortest one, and that trace checked
// independently: every step is a step of C from the start state (the
// reference Machine.Step), its events are those of the steps, and the
// subset construction of A without symmetry can follow every event but the
// last.
func TestImplementsSymmetry(t *testing.T) {
	if testing.Short() {
		t.Skip("explores T=2 instances")
	}
	set, errs := load.Files("../../specs", "../../specs/testdata")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tms2 := set.Automaton("TMS2")
	for _, name := range []string{"TxnOrdTMS2", "TMS2ReadIgnoresValidIdx", "TxnOrdTMS2NoCommitValidation"} {
		c := set.Automaton(name)
		plain, err := Implements(c, tms2, bounds(t, "T=2,L=1,V=2"))
		if err != nil {
			t.Fatal(err)
		}
		cfg := bounds(t, "T=2,L=1,V=2")
		cfg.Symmetry = []string{"T"}
		red, err := Implements(c, tms2, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if red.Symmetry == nil || red.Symmetry.Permutations != 2 {
			t.Fatalf("%s: symmetry %+v, want 2 permutations", name, red.Symmetry)
		}
		if (plain.Failure == nil) != (red.Failure == nil) || plain.Complete != red.Complete {
			t.Fatalf("%s: verdicts differ: failure %v/%v, complete %v/%v", name, plain.Failure != nil, red.Failure != nil, plain.Complete, red.Complete)
		}
		if plain.Failure == nil {
			if red.Pairs >= plain.Pairs {
				t.Errorf("%s: %d pairs with symmetry, %d without", name, red.Pairs, plain.Pairs)
			}
			continue
		}
		f := red.Failure
		if len(f.Events) != len(plain.Failure.Events) || len(f.Trace.Steps) != len(plain.Failure.Trace.Steps) {
			t.Errorf("%s: failing trace of %d events (%d steps) with symmetry, %d (%d) without", name,
				len(f.Events), len(f.Trace.Steps), len(plain.Failure.Events), len(plain.Failure.Trace.Steps))
		}
		checkTraceNotInA(t, c, tms2, f)
	}
}

// TestImplementsReduceDead checks that the dead-register reduction keeps
// the verdict of trace inclusion and the length of a shortest failing
// trace, alone and with symmetry, and that the failing trace is a real
// execution.
func TestImplementsReduceDead(t *testing.T) {
	if testing.Short() {
		t.Skip("explores T=2 instances")
	}
	set, errs := load.Files("../../specs", "../../specs/testdata", "../../algorithms/NOrecAtomicCommitValidate.yaml", "../../algorithms/testdata/NOrecCommitNoCheck.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tms2 := set.Automaton("TMS2")
	for _, name := range []string{"TxnOrdTMS2", "TMS2ReadIgnoresValidIdx", "TxnOrdTMS2NoCommitValidation", "NOrecAtomicCommitValidate", "NOrecCommitNoCheck"} {
		c := set.Automaton(name)
		if c == nil {
			t.Fatalf("no automaton %s", name)
		}
		plain, err := Implements(c, tms2, bounds(t, "T=2,L=1,V=2"))
		if err != nil {
			t.Fatal(err)
		}
		for _, sym := range [][]string{nil, {"T"}} {
			cfg := bounds(t, "T=2,L=1,V=2")
			cfg.Symmetry, cfg.ReduceDead = sym, true
			red, err := Implements(c, tms2, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(red.DeadAbstract) == 0 {
				t.Fatalf("%s: no register of TMS2 reset: %+v", name, red.DeadAbstract)
			}
			if (plain.Failure == nil) != (red.Failure == nil) || plain.Complete != red.Complete {
				t.Fatalf("%s, symmetry %v: verdicts differ: failure %v/%v, complete %v/%v", name, sym, plain.Failure != nil, red.Failure != nil, plain.Complete, red.Complete)
			}
			if plain.Failure == nil {
				if red.Pairs >= plain.Pairs || red.AbstractStates >= plain.AbstractStates {
					t.Errorf("%s, symmetry %v: %d pairs, %d abstract states with the reduction; %d, %d without", name, sym,
						red.Pairs, red.AbstractStates, plain.Pairs, plain.AbstractStates)
				}
				continue
			}
			f := red.Failure
			if len(f.Events) != len(plain.Failure.Events) || len(f.Trace.Steps) != len(plain.Failure.Trace.Steps) {
				t.Errorf("%s, symmetry %v: failing trace of %d events (%d steps) with the reduction, %d (%d) without", name, sym,
					len(f.Events), len(f.Trace.Steps), len(plain.Failure.Events), len(plain.Failure.Trace.Steps))
			}
			checkTraceNotInA(t, c, tms2, f)
		}
	}
}

// checkTraceNotInA checks that f's trace is an execution of c from a start
// state showing f.Events, and that a (without symmetry) can follow every
// event but the last.
func checkTraceNotInA(t *testing.T, c, a *ioa.Automaton, f *TraceFailure) {
	t.Helper()
	inst := bounds(t, "T=2,L=1,V=2").Instance
	mC, err := explore.Machine(c, explore.Config{Instance: inst})
	if err != nil {
		t.Fatal(err)
	}
	mA, err := explore.Machine(a, explore.Config{Instance: inst})
	if err != nil {
		t.Fatal(err)
	}
	inits, err := mC.Init()
	if err != nil {
		t.Fatal(err)
	}
	start := false
	for _, s := range inits {
		start = start || s.Equal(f.Trace.Steps[0].State)
	}
	if !start {
		t.Fatalf("%s: the trace does not begin in a start state", c.Name)
	}
	var events []string
	for i, st := range f.Trace.Steps[1:] {
		post, ok, err := mC.Step(st.Act, f.Trace.Steps[i].State, st.Params)
		if err != nil || !ok || !post.Equal(st.State) {
			t.Fatalf("%s: step %d (%s) is not a step of %s: %v %v", c.Name, i+1, st.Action, c.Name, ok, err)
		}
		if st.Act.Kind.External() {
			ev, err := mC.FormatEvent(st.Act, st.Params)
			if err != nil || ev != st.Event {
				t.Fatalf("%s: step %d shows %q, its view gives %q (%v)", c.Name, i+1, st.Event, ev, err)
			}
			events = append(events, ev)
		}
	}
	if !reflect.DeepEqual(events, f.Events) {
		t.Fatalf("%s: the steps show %v, the failure lists %v", c.Name, events, f.Events)
	}
	abs := newAbsSide(mA, DefaultMaxAbstractStates)
	aInits, err := mA.Init()
	if err != nil {
		t.Fatal(err)
	}
	var ids []int32
	for _, s := range aInits {
		id, err := abs.intern(s)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	set, err := abs.closeSet(ids)
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range events {
		if set, err = abs.step(set, ev); err != nil {
			t.Fatal(err)
		}
		if empty := abs.size(set) == 0; empty != (i == len(events)-1) {
			t.Fatalf("%s: after %d of %d events %s can be in %d states", c.Name, i+1, len(events), a.Name, abs.size(set))
		}
	}
}

// TestBoundOfOneSide bounds an Int constant that only the concrete
// automaton declares (RelayLimit's limit): the edge's cross-check and the
// trace check, with symmetry over V, explore each automaton in its own
// instance, so the bound is no error for the abstract one.
func TestBoundOfOneSide(t *testing.T) {
	p := loadProof(t, "testdata/chan/ok_limit.yaml")
	cfg := bounds(t, "V=2,limit=2")
	cfg.Symmetry = []string{"V"}
	res, err := Check(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil || !res.Complete {
		t.Errorf("the edge fails: %+v", res.Failure)
	}
	tr, err := Implements(p.Concrete, p.Abstract, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Failure != nil || !tr.Complete {
		t.Errorf("the trace check fails: %+v", tr.Failure)
	}
}
