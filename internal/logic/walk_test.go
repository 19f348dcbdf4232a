package logic

import (
	"fmt"
	"strings"
	"testing"
)

// TestTermSet adds thousands of terms, each twice, among them
// structurally equal ones: a set of terms by identity keeps every
// distinct pointer once, however many times it grows.
func TestTermSet(t *testing.T) {
	var s termSet
	var ts []*Term
	for i := range 5000 {
		ts = append(ts, Add(Const(fmt.Sprintf("x%d", i%100), IntSort()), IntVal(1)))
	}
	for _, x := range ts {
		if !s.add(x) {
			t.Fatalf("%s reported present before it was added", x)
		}
	}
	for _, x := range ts {
		if s.add(x) {
			t.Fatalf("%s reported new a second time", x)
		}
	}
	if s.n != len(ts) {
		t.Errorf("the set holds %d terms, want %d", s.n, len(ts))
	}
	pre := newTermSet(1000)
	if len(pre.slots) < 2000 || pre.add(ts[0]) != true || pre.add(ts[0]) != false {
		t.Errorf("newTermSet(1000): %d slots, or a wrong answer", len(pre.slots))
	}
}

// TestLooseVars checks the loose variables of terms whose arguments have
// overlapping, disjoint and nested sets of them: sorted by name, each
// once, bound ones removed.
func TestLooseVars(t *testing.T) {
	v := func(n string) *Term { return Var(n, IntSort()) }
	names := func(x *Term) string {
		var out []string
		for _, y := range FreeVars(x) {
			out = append(out, y.Name())
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct {
		t    *Term
		want string
	}{
		{Add(v("b"), v("a")), "a,b"},
		{Add(Add(v("a"), v("c")), Add(v("b"), v("c")), v("a")), "a,b,c"},
		{Add(Add(v("a"), v("b")), v("a")), "a,b"},
		{Add(v("a"), Add(v("a"), v("b")), IntVal(2)), "a,b"},
		{Add(Add(v("c"), v("d")), Add(v("a"), v("b"))), "a,b,c,d"},
		{Forall([]*Term{v("b")}, Lt(Add(v("a"), v("b")), v("c"))), "a,c"},
		{Add(Const("k", IntSort()), IntVal(1)), ""},
	} {
		if got := names(c.t); got != c.want {
			t.Errorf("loose variables of %s: %s, want %s", c.t, got, c.want)
		}
	}
	// a term whose one argument has loose variables shares its list;
	// extending that list for a parent never changes the argument's
	x := Add(v("a"), v("c"))
	y := Add(x, v("b"))
	if names(x) != "a,c" || names(y) != "a,b,c" {
		t.Errorf("loose variables %s and %s", names(x), names(y))
	}
}

// TestAnyConst checks AnyConst against FreeConsts: under binders and
// patterns, stopping at the first constant that satisfies the predicate.
func TestAnyConst(t *testing.T) {
	a := Const("a", ArraySort(IntSort(), IntSort()))
	x, y := Const("x", IntSort()), Const("y", IntSort())
	v := Var("v", IntSort())
	q := Forall([]*Term{v}, Lt(Select(a, v), x), []*Term{Select(a, v)})
	term := And(q, Lt(y, IntVal(3)))
	for _, name := range []string{"a", "x", "y"} {
		if !AnyConst(term, func(n string) bool { return n == name }) {
			t.Errorf("AnyConst misses %s in %s", name, term)
		}
	}
	if AnyConst(term, func(n string) bool { return n == "v" || n == "z" }) {
		t.Errorf("AnyConst finds a bound variable or an absent name in %s", term)
	}
	calls := 0
	AnyConst(term, func(string) bool { calls++; return true })
	if calls != 1 {
		t.Errorf("AnyConst went on after a match: %d calls", calls)
	}
	if AnyConst(nil, func(string) bool { return true }) {
		t.Errorf("AnyConst(nil) is true")
	}
}

// TestConstNames checks ConstNames against FreeConsts on terms with
// binders, patterns and shared subterms.
func TestConstNames(t *testing.T) {
	a := Const("a", ArraySort(IntSort(), IntSort()))
	x, y := Const("x", IntSort()), Const("y", IntSort())
	v := Var("v", IntSort())
	shared := Add(x, IntVal(1))
	ts := []*Term{Forall([]*Term{v}, Lt(Select(a, v), shared), []*Term{Select(a, v)}), Lt(shared, y), True()}
	got := map[string]bool{"z": true}
	ConstNames(got, ts...)
	want := map[string]bool{"z": true}
	for _, c := range FreeConsts(ts...) {
		want[c.Name()] = true
	}
	if len(got) != len(want) || len(want) != 4 {
		t.Fatalf("ConstNames %v, FreeConsts (and z) %v", got, want)
	}
	for n := range want {
		if !got[n] {
			t.Errorf("ConstNames misses %s", n)
		}
	}
}
