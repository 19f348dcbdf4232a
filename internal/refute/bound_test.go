package refute

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"ladder/internal/logic"
	"ladder/internal/smt"
	"ladder/internal/z3"
)

var (
	sortT = logic.UninterpretedSort("T")
	sortL = logic.UninterpretedSort("L")
)

func TestSchedule(t *testing.T) {
	var got []string
	for _, in := range schedule([]string{"L", "T"}, 2) {
		got = append(got, in.String())
	}
	want := []string{"L=1, T=1", "L=1, T=2", "L=2, T=1", "L=2, T=2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schedule = %q; want %q", got, want)
	}
	if n := len(schedule([]string{"L", "T", "V"}, 3)); n != 27 {
		t.Errorf("len(schedule(3 sorts, 3)) = %d; want 27", n)
	}
	if s := schedule(nil, 3); s != nil {
		t.Errorf("schedule(no sorts) = %v; want nil", s)
	}
	if s := (instance{Sizes: map[string]int{"T": 2}, Ints: 4, Split: 3}).String(); s != "T=2, Int constants within ±4" {
		t.Errorf("instance text %q", s)
	}
}

// checkBounded decides the bounded problem with Z3 and returns the status
// and, on sat, the model read in the original sorts (closed with the
// returned function).
func checkBounded(t *testing.T, p *logic.Problem, in instance) (smt.Status, *boundedProblem, logic.Model, func()) {
	t.Helper()
	bp, err := bound(p, in)
	if err != nil {
		t.Fatalf("bound(%s): %v", in, err)
	}
	ctx, err := z3.NewContext(nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := smt.NewSession(ctx).Check(context.Background(), bp.problem, smt.Config{RLimit: 1_000_000, Model: true})
	if err != nil {
		ctx.Close()
		t.Fatalf("check %s: %v", in, err)
	}
	if r.Status != smt.Sat {
		ctx.Close()
		return r.Status, bp, nil, func() {}
	}
	return r.Status, bp, boundedModel{tr: bp.tr, m: r.Model}, func() { r.Model.Close(); ctx.Close() }
}

// TestBoundSizes checks that a bounded sort has exactly its size: "there
// are three distinct elements" is unsat with 2 and sat with 3, and
// "everything equals c" is sat with 1 only.
func TestBoundSizes(t *testing.T) {
	x, y, z := logic.Var("x", sortT), logic.Var("y", sortT), logic.Var("z", sortT)
	c := logic.Const("c", sortT)
	three := &logic.Problem{Assertions: []logic.Named{{Name: "three", Term: logic.Exists([]*logic.Term{x, y, z}, logic.Distinct(x, y, z))}}}
	single := &logic.Problem{Assertions: []logic.Named{{Name: "single", Term: logic.Forall([]*logic.Term{x}, logic.Eq(x, c))}}}
	tests := []struct {
		p    *logic.Problem
		size int
		want smt.Status
	}{
		{three, 2, smt.Unsat}, {three, 3, smt.Sat}, {single, 1, smt.Sat}, {single, 2, smt.Unsat},
	}
	for _, tt := range tests {
		st, bp, _, done := checkBounded(t, tt.p, instance{Sizes: map[string]int{"T": tt.size}})
		done()
		if st != tt.want {
			t.Errorf("%s with T=%d: %v; want %v", tt.p.Assertions[0].Name, tt.size, st, tt.want)
		}
		text, _ := bp.problem.Text()
		if strings.Contains(text, "declare-sort") || strings.Contains(text, "((%0 T") {
			t.Errorf("bounded problem still has the sort T or a quantifier over it:\n%s", text)
		}
	}
}

// TestBoundedModel checks that a model of a bounded problem is read as a
// model of the original problem: universes, constants, arrays over the
// bounded sort, a datatype with a field of the bounded sort, and a
// quantifier over Int split into instances.
func TestBoundedModel(t *testing.T) {
	opt, err := logic.NewDatatype("Option[T]", logic.Constructor{Name: "None[T]"},
		logic.Constructor{Name: "Some[T]", Fields: []logic.Field{{Name: "Some[T].val", Sort: sortT}}})
	if err != nil {
		t.Fatal(err)
	}
	a := logic.Const("a", logic.ArraySort(sortT, logic.IntSort()))
	m := logic.Const("m", logic.ArraySort(sortT, sortL))
	c, d := logic.Const("c", sortT), logic.Const("d", sortT)
	o := logic.Const("o", logic.DatatypeSort(opt))
	n := logic.Const("n", logic.IntSort())
	x, i := logic.Var("x", sortT), logic.Var("i", logic.IntSort())
	p := &logic.Problem{Assertions: []logic.Named{
		{Name: "distinct", Term: logic.Distinct(c, d)},
		{Name: "a positive", Term: logic.Forall([]*logic.Term{x}, logic.Gt(logic.Select(a, x), logic.IntVal(0)),
			[]*logic.Term{logic.Select(a, x)})},
		{Name: "a[c] above n", Term: logic.Forall([]*logic.Term{i},
			logic.Implies(logic.And(logic.Le(logic.IntVal(0), i), logic.Lt(i, n)), logic.Lt(i, logic.Select(a, c))))},
		{Name: "n", Term: logic.Eq(n, logic.IntVal(5))},
		{Name: "o", Term: logic.Eq(o, logic.Ctor(opt, 1, d))},
		{Name: "m not constant", Term: logic.Not(logic.Eq(logic.Select(m, c), logic.Select(m, d)))},
	}}
	st, bp, model, done := checkBounded(t, p, instance{Sizes: map[string]int{"T": 2, "L": 2}, Split: 3})
	defer done()
	if st != smt.Sat {
		t.Fatalf("bounded problem is %v; want sat", st)
	}
	text, _ := bp.problem.Text()
	if strings.Contains(text, "(forall ((%0 T") || !strings.Contains(text, "(forall ((%0 Int)) (=> (or (< %0 0) (> %0 3))") {
		t.Errorf("bounded text does not expand T and split Int:\n%s", text)
	}
	u, err := model.Universe(sortT)
	if err != nil || len(u) != 2 || u[0].Name() != "bound!T!0" || !logic.Same(u[0].Sort(), sortT) {
		t.Fatalf("Universe(T) = %v, %v; want bound!T!0, bound!T!1 of sort T", u, err)
	}
	cv, err1 := model.Eval(c)
	dv, err2 := model.Eval(d)
	if err1 != nil || err2 != nil || !logic.Same(cv.Sort(), sortT) || logic.Equal(cv, dv) {
		t.Fatalf("c = %v (%v), d = %v (%v); want two elements of T", cv, err1, dv, err2)
	}
	for _, e := range u {
		v, err := model.Eval(logic.Select(a, e))
		if err != nil || v.Kind() != logic.KindInt || v.Int64() <= 0 {
			t.Errorf("a[%s] = %v, %v; want a positive integer", e.Name(), v, err)
		}
	}
	if v, err := model.Eval(logic.Select(a, c)); err != nil || v.Int64() < 5 {
		t.Errorf("a[c] = %v, %v; want at least 5", v, err)
	}
	ov, err := model.Eval(o)
	if err != nil || ov.Op() != logic.OpCtor || ov.Datatype() != opt || !logic.Equal(ov.Arg(0), dv) {
		t.Errorf("o = %v, %v; want Some(%v) of the original datatype", ov, err, dv)
	}
	mv, err := model.Eval(m)
	if err != nil || !logic.Same(mv.Sort(), m.Sort()) {
		t.Fatalf("m = %v, %v", mv, err)
	}
	mc, err1 := model.Eval(logic.Select(mv, cv))
	md, err2 := model.Eval(logic.Select(mv, dv))
	if err1 != nil || err2 != nil || logic.Equal(mc, md) {
		t.Errorf("m[c] = %v, m[d] = %v (%v, %v); want two different elements of L", mc, md, err1, err2)
	}
}

func TestBoundRefusesReservedNames(t *testing.T) {
	p := &logic.Problem{Assertions: []logic.Named{{Name: "x", Term: logic.Eq(logic.Const("bound!T!0", sortT), logic.Const("c", sortT))}}}
	if _, err := bound(p, instance{Sizes: map[string]int{"T": 1}}); err == nil {
		t.Error("bound accepted a problem that declares bound!T!0")
	}
	dt, err := logic.NewDatatype("bound!T", logic.Constructor{Name: "A"})
	if err != nil {
		t.Fatal(err)
	}
	p = &logic.Problem{Assertions: []logic.Named{{Name: "x", Term: logic.Eq(logic.Const("e", logic.DatatypeSort(dt)), logic.Ctor(dt, 0))}}}
	if _, err := bound(p, instance{}); err == nil {
		t.Error("bound accepted a problem that declares the datatype bound!T")
	}
}
