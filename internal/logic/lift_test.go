package logic

import (
	"strings"
	"testing"
)

func TestLiftLambdas(t *testing.T) {
	T := UninterpretedSort("T")
	a, b := Const("a", T), Const("b", T)
	x := Var("x", T)
	lam := Lambda(x, Ite(Eq(x, b), IntVal(1), IntVal(0)))
	// the Z3 4.8.12 case: unsat, but Z3 says sat with the lambda inline
	goal := Eq(Store(lam, a, IntVal(0)), ConstArray(T, IntVal(0)))
	p := &Problem{Assertions: []Named{{"distinct", Distinct(a, b)}, {"store", goal}, {"again", Eq(Select(lam, a), IntVal(0))}}}
	q, err := LiftLambdas(p, "lambda!")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := q.Text()
	for _, as := range q.Assertions {
		if HasLambda(as.Term) {
			t.Errorf("lambda left in %s", as.Name)
		}
	}
	// one constant for the two occurrences, defined first
	if len(q.Assertions) != 4 || !strings.HasPrefix(q.Assertions[0].Name, "definition of lambda!0") {
		t.Fatalf("lifted problem:\n%s", text)
	}
	if !strings.Contains(text, "(forall ((%0 T)) (! (= (select lambda!0 %0) (ite (= %0 b) 1 0)) :pattern ((select lambda!0 %0))))") {
		t.Errorf("definition:\n%s", text)
	}
	checkWithZ3(t, text, "unsat")
	// a lambda under a quantifier with a free variable becomes a select
	// from an array of arrays
	y := Var("y", IntSort())
	inner := Lambda(x, Ite(Eq(x, b), y, IntVal(0)))
	q2, err := LiftLambdas(&Problem{Assertions: []Named{{"q", Not(Forall([]*Term{y}, Eq(Select(inner, b), y)))}}}, "f!")
	if err != nil {
		t.Fatal(err)
	}
	text2, _ := q2.Text()
	if !strings.Contains(text2, "(declare-fun f!0 () (Array Int (Array T Int)))") ||
		!strings.Contains(text2, "(forall ((%0 Int) (%1 T)) (! (= (select (select f!0 %0) %1) (ite (= %1 b) %0 0)) :pattern ((select (select f!0 %0) %1))))") {
		t.Errorf("lifting under a binder:\n%s", text2)
	}
	checkWithZ3(t, text2, "unsat")
	// problems without lambdas are unchanged
	r, err := LiftLambdas(&Problem{Assertions: []Named{{"g", goal.Arg(0).Arg(0).Arg(0).Arg(0)}}}, "f!")
	if err == nil && len(r.Assertions) != 1 {
		t.Errorf("lambda-free problem changed")
	}
}

func TestBeta(t *testing.T) {
	T := UninterpretedSort("T")
	b, c := Const("b", T), Const("c", T)
	x, z := Var("x", T), Var("z", T)
	inner := Lambda(z, Eq(z, x))
	outer := Lambda(x, Select(inner, b))
	got := Beta(Select(outer, c))
	if got.String() != "(= b c)" || HasLambda(got) {
		t.Errorf("Beta = %s", got)
	}
	// selects are pushed through store, ite and const to reach lambdas
	st := Store(ConstArray(T, Lambda(z, Eq(z, b))), c, Ite(Const("p", BoolSort()), outer, Lambda(z, False())))
	got = Beta(Select(Select(st, b), c))
	if HasLambda(got) || got.String() != "(ite (= c b) (ite p (= b c) false) (= c b))" {
		t.Errorf("Beta through store = %s", got)
	}
	// a lambda that is not applied stays
	if !HasLambda(Beta(Eq(outer, Const("arr", outer.Sort())))) {
		t.Errorf("Beta removed an unapplied lambda")
	}
}
