package smt

import (
	"context"
	"slices"
	"testing"

	"ladder/internal/logic"
)

// TestWorkspaceSolver checks a solver that keeps its assertions across
// checks: constants shared by name between problems, literals assumed or
// not, the literals and formulas a model makes true, and unsat cores.
func TestWorkspaceSolver(t *testing.T) {
	w, err := OpenWorkspace("lambda!")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	x := logic.Const("x", logic.IntSort())
	// Problem 1: h1 ⇒ x ≥ 0, g1 ⇒ x < 0. Problem 2: h2 ⇒ x ≤ 5, g2 ⇒ x > 5.
	p1 := &logic.Problem{Assertions: []logic.Named{{Name: "hyp", Term: logic.Ge(x, logic.IntVal(0))}, {Name: "goal", Term: logic.Lt(x, logic.IntVal(0))}}}
	p2 := &logic.Problem{Assertions: []logic.Named{{Name: "hyp", Term: logic.Le(x, logic.IntVal(5))}, {Name: "goal", Term: logic.Gt(x, logic.IntVal(5))}}}
	f1, err := w.Translate(p1)
	if err != nil {
		t.Fatal(err)
	}
	f2, err := w.Translate(p2)
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.NewSolver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, e := range []error{s.AssertUnder("h1", f1[0]), s.AssertUnder("g1", f1[1]), s.AssertUnder("h2", f2[0]), s.AssertUnder("g2", f2[1])} {
		if e != nil {
			t.Fatal(e)
		}
	}
	ctx := context.Background()
	check := func(want Status, assume ...string) *Result {
		t.Helper()
		r, err := s.Check(ctx, assume)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != want {
			t.Fatalf("check %v: %v, want %v", assume, r.Status, want)
		}
		return r
	}
	// Both hypotheses: neither goal is possible (x is one constant in
	// both problems).
	if err := s.AssertAny("q1", []string{"g1", "g2"}); err != nil {
		t.Fatal(err)
	}
	check(Unsat, "h1", "h2", "q1")
	core, err := s.Core()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(core)
	if !slices.Equal(core, []string{"h1", "h2", "q1"}) {
		t.Errorf("core %v, want [h1 h2 q1]: the refutation needs all three", core)
	}
	// Without h2, g2 is possible, and the model says which goal it chose.
	check(Sat, "h1", "q1")
	lits, holds, err := s.True([]string{"g1", "g2"}, []Conj{NewConj(f1[0]), NewConj(f1[1]), NewConj(f2[0]), NewConj(f2[1]),
		NewConj(f1[0], f2[1]), NewConj(f2[1], f1[1]), NewConj()})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lits, []string{"g2"}) {
		t.Errorf("true literals %v, want [g2]", lits)
	}
	// a conjunction is true when all its parts are (a part shared with
	// another is evaluated once); the empty one is true
	if !slices.Equal(holds, []bool{true, false, false, true, true, false, true}) {
		t.Errorf("formulas true in the model: %v, want [true false false true true false true]", holds)
	}
	// A lower limit applies to the next checks.
	if err := s.SetRLimit(1); err != nil {
		t.Fatal(err)
	}
	if r := check(Unknown, "h1", "h2", "q1"); r.Reason == "" {
		t.Error("an unknown answer without a reason")
	}
}

// TestWorkspaceLocalConstants checks that the constants of the local
// prefix are renamed apart per problem, except those defined by the same
// axiom, which are shared and whose repeated definition asserts nothing.
func TestWorkspaceLocalConstants(t *testing.T) {
	w, err := OpenWorkspace("lambda!")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	T := logic.UninterpretedSort("T")
	arr := logic.ArraySort(T, logic.IntSort())
	f := logic.Const("lambda!0", arr)
	k := logic.Var("k", T)
	def := func(v int64) logic.Named {
		return logic.Named{Name: "definition of lambda!0", Term: logic.Forall([]*logic.Term{k}, logic.Eq(logic.Select(f, k), logic.IntVal(v)))}
	}
	a := logic.Const("a", T)
	use := logic.Named{Name: "use", Term: logic.Eq(logic.Select(f, a), logic.IntVal(2))}
	// Problems 1 and 3 define lambda!0 alike (constantly 1), problem 2 as
	// constantly 2.
	var fs [][]Formula
	for _, v := range []int64{1, 2, 1} {
		x, err := w.Translate(&logic.Problem{Assertions: []logic.Named{def(v), use}})
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, x)
	}
	if fs[0][0] == (Formula{}) || fs[1][0] == (Formula{}) {
		t.Fatal("a first definition translated to nothing")
	}
	if fs[2][0] != (Formula{}) {
		t.Error("the repeated definition was translated again")
	}
	s, err := w.NewSolver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Assert(fs[0][0], fs[1][0]); err != nil {
		t.Fatal(err)
	}
	if err := s.AssertUnder("u1", fs[0][1]); err != nil {
		t.Fatal(err)
	}
	if err := s.AssertUnder("u2", fs[1][1]); err != nil {
		t.Fatal(err)
	}
	if err := s.AssertUnder("u3", fs[2][1]); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lit  string
		want Status
	}{{"u1", Unsat}, {"u2", Sat}, {"u3", Unsat}} {
		r, err := s.Check(context.Background(), []string{c.lit})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != c.want {
			t.Errorf("%s: %v, want %v (problem 2's lambda!0 is another constant; problem 3's is problem 1's)", c.lit, r.Status, c.want)
		}
	}
}
