package encode

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"ladder/internal/logic"
	"ladder/ioa"
	"ladder/ioa/load"
)

func loadAutomaton(t *testing.T, file, name string) *ioa.Automaton {
	t.Helper()
	set, errs := load.Files(file)
	if len(errs) > 0 {
		t.Fatalf("load %s: %v", file, errs)
	}
	a := set.Automaton(name)
	if a == nil {
		t.Fatalf("no automaton %s in %s", name, file)
	}
	return a
}

// z3Verdict runs the z3 command line on p's text (skipping the test when
// z3 is not installed).
func z3Verdict(t *testing.T, p *logic.Problem) string {
	t.Helper()
	path, err := exec.LookPath("z3")
	if err != nil {
		t.Skip("z3 command line not installed")
	}
	text, err := p.Text()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "-in", "-T:60")
	cmd.Stdin = strings.NewReader(text)
	out, _ := cmd.CombinedOutput()
	got := strings.TrimSpace(string(out))
	if strings.Contains(got, "error") {
		t.Fatalf("z3 rejected the problem: %s\n%s", got, text)
	}
	return got
}

// invStep builds the inductive step of invariant inv for action act:
// all invariants and Nat facts in the pre-state, Pre, and not inv(Post).
func invStep(t *testing.T, a *ioa.Automaton, act *ioa.Action, inv *ioa.Invariant) *logic.Problem {
	t.Helper()
	e := New()
	s, err := e.NewState(a, "s")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := e.NewParams(act, "p")
	if err != nil {
		t.Fatal(err)
	}
	var hyps []logic.Named
	for _, i := range a.Invariants {
		f, err := e.Formula(i.Body, &Env{State: s})
		if err != nil {
			t.Fatal(err)
		}
		hyps = append(hyps, logic.Named{Name: "inv " + i.Name, Term: f})
	}
	nf, err := e.NatFacts(s)
	if err != nil {
		t.Fatal(err)
	}
	hyps = append(hyps, logic.Named{Name: "nat", Term: nf})
	pre, err := e.Pre(act, s, ps)
	if err != nil {
		t.Fatal(err)
	}
	hyps = append(hyps, logic.Named{Name: "pre " + act.Name, Term: pre})
	post, err := e.Post(act, s, ps, "s'")
	if err != nil {
		t.Fatal(err)
	}
	goal, err := e.Formula(inv.Body, &Env{State: post})
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Problem(hyps, goal)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTMS2InvariantsInductive(t *testing.T) {
	a := loadAutomaton(t, "../../specs/TMS2.yaml", "TMS2")
	start := time.Now()
	for _, inv := range a.Invariants {
		for _, act := range a.Actions {
			p := invStep(t, a, act, inv)
			if got := z3Verdict(t, p); got != "unsat" {
				text, _ := p.Text()
				t.Errorf("%s / %s: z3 says %s\n%s", inv.Name, act.Name, got, text)
			}
		}
	}
	t.Logf("%d obligations in %v", len(a.Invariants)*len(a.Actions), time.Since(start))
}

func TestTMS2NonInvariantFails(t *testing.T) {
	a := loadAutomaton(t, "../../specs/TMS2.yaml", "TMS2")
	// readRespValue without the other invariants is still inductive for
	// DoRead, but beginIdxBound is not preserved by BeginInv if mems could be
	// empty: drop memsNonEmpty's effect by asking for a stronger claim.
	act := a.Action("DoCommitWriter")
	inv := &ioa.Invariant{Name: "memsShort", Body: a.Invariant("memsNonEmpty").Body}
	p := invStep(t, a, act, inv)
	if got := z3Verdict(t, p); got != "unsat" {
		t.Fatalf("memsNonEmpty/DoCommitWriter: %s", got)
	}
	// A false claim: the step of CommitResp reaches Committed.
	e := New()
	s, _ := e.NewState(a, "s")
	ps, _ := e.NewParams(a.Action("CommitResp"), "p")
	pre, err := e.Pre(a.Action("CommitResp"), s, ps)
	if err != nil {
		t.Fatal(err)
	}
	post, err := e.Post(a.Action("CommitResp"), s, ps, "s'")
	if err != nil {
		t.Fatal(err)
	}
	eq, err := StateEq(s, post)
	if err != nil {
		t.Fatal(err)
	}
	q, err := e.Problem([]logic.Named{{Name: "pre", Term: pre}}, eq)
	if err != nil {
		t.Fatal(err)
	}
	if got := z3Verdict(t, q); got != "sat" {
		text, _ := q.Text()
		t.Fatalf("CommitResp changes the state, but z3 says %s\n%s", got, text)
	}
}
