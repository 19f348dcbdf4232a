package infer

import (
	"context"
	"strings"
	"testing"

	"ladder/internal/logic"
	"ladder/internal/smt"
)

// stepProblem is the step obligation of the candidate ∀t: T. a[t] ≥ 0
// (assuming only itself) for an action with parameter p.t that writes v
// to a[p.t] and whose precondition is ∀u: T. b[u] = 0.
func stepProblem(v int64) *logic.Problem {
	T := logic.UninterpretedSort("T")
	arr := logic.ArraySort(T, logic.IntSort())
	a, b := logic.Const("s.a", arr), logic.Const("s.b", arr)
	pt := logic.Const("p.t", T)
	t, u := logic.Var("t", T), logic.Var("u", T)
	body := func(x *logic.Term) *logic.Term {
		return logic.Forall([]*logic.Term{t}, logic.Ge(logic.Select(x, t), logic.IntVal(0)))
	}
	post := logic.Store(a, pt, logic.IntVal(v))
	return &logic.Problem{Assertions: []logic.Named{
		{Name: "assume A.c(s)", Term: body(a)},
		// A quantifier in a negative position stays.
		{Name: "nat A.x:Nat(s)", Term: logic.Implies(logic.Forall([]*logic.Term{u}, logic.Eq(logic.Select(b, u), logic.IntVal(1))), logic.Ge(logic.Select(a, pt), logic.IntVal(0)))},
		{Name: "pre Act(s, p)", Term: logic.Forall([]*logic.Term{u}, logic.Eq(logic.Select(b, u), logic.IntVal(0)))},
		{Name: goalName, Term: logic.Not(body(post))},
	}}
}

// TestInstantiate checks how the search makes an obligation ground: the
// hypothesis, the precondition and the Nat conditions become instances
// at the parameters and the skolem constants, the negated goal a
// witness, and the answers stay those of the quantified problem.
func TestInstantiate(t *testing.T) {
	p := instantiate(stepProblem(1), "assume A.c(s)")
	hyp := p.Assertions[0].Term.String()
	for _, at := range []string{"p.t", "sk!T!1", "sk!T!2", "sk!T!3"} {
		if !strings.Contains(hyp, "(select s.a "+at+")") {
			t.Errorf("hypothesis %s has no instance at %s", hyp, at)
		}
	}
	for i, want := range []bool{false, true, false, false} {
		if got := strings.Contains(p.Assertions[i].Term.String(), "forall"); got != want {
			t.Errorf("%s: quantified %v, want %v: %s", p.Assertions[i].Name, got, want, p.Assertions[i].Term)
		}
	}
	if goal := p.Assertions[3].Term.String(); !strings.Contains(goal, "sk!T!1") {
		t.Errorf("the goal %s has no witness sk!T!1", goal)
	}
	// The step writing 1 preserves the candidate; writing -1 does not.
	for _, c := range []struct {
		v    int64
		want smt.Status
	}{{1, smt.Unsat}, {-1, smt.Sat}} {
		w, err := smt.OpenWorkspace("lambda!")
		if err != nil {
			t.Fatal(err)
		}
		fs, err := w.Translate(instantiate(stepProblem(c.v), "assume A.c(s)"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := w.NewSolver(smt.Config{RLimit: 10_000_000})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Assert(fs...); err != nil {
			t.Fatal(err)
		}
		r, err := s.Check(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != c.want {
			t.Errorf("writing %d: %v, want %v", c.v, r.Status, c.want)
		}
		s.Close()
		w.Close()
	}
}

// TestWitnessLimit checks that a goal needing more skolem constants of a
// sort than there are keeps its quantifier.
func TestWitnessLimit(t *testing.T) {
	T := logic.UninterpretedSort("T")
	arr := logic.ArraySort(T, logic.IntSort())
	a := logic.Const("s.a", arr)
	var vars []*logic.Term
	var sum []*logic.Term
	for _, n := range []string{"x", "y", "z", "w"} {
		v := logic.Var(n, T)
		vars = append(vars, v)
		sum = append(sum, logic.Ge(logic.Select(a, v), logic.IntVal(0)))
	}
	q := logic.Forall(vars, logic.And(sum...))
	if got := witness(q, map[string]int{}); got != q {
		t.Errorf("four variables of T were replaced: %s", got)
	}
	q3 := logic.Forall(vars[:3], logic.And(sum[:3]...))
	if got := witness(q3, map[string]int{}).String(); strings.Contains(got, "forall") || !strings.Contains(got, "sk!T!3") {
		t.Errorf("three variables of T: %s, want the body at sk!T!1..3", got)
	}
}
