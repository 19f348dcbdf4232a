package driver

import (
	"reflect"
	"testing"

	"ladder/internal/logic"
)

func TestRelevantSlice(t *testing.T) {
	T := logic.UninterpretedSort("T")
	arr := logic.ArraySort(T, logic.IntSort())
	pc, cnt, other := logic.Const("c.pc", arr), logic.Const("c.cnt", arr), logic.Const("a.other", arr)
	pt := logic.Const("p.t", T)
	x := logic.Var("x", T)
	ge := func(a *logic.Term) *logic.Term {
		return logic.Forall([]*logic.Term{x}, logic.Ge(logic.Select(a, x), logic.IntVal(0)))
	}
	p := &logic.Problem{Assertions: []logic.Named{
		{Name: "wf(c.pc)", Term: ge(pc)},
		{Name: "assume A.pcPos(c)", Term: ge(pc)},
		{Name: "assume A.cntPos(c)", Term: ge(cnt)},
		{Name: "assume B.otherPos(a)", Term: ge(other)},
		{Name: "pre Step(c, p)", Term: logic.Ge(logic.Select(cnt, pt), logic.IntVal(1))},
		{Name: "goal (negated)", Term: logic.Not(logic.Ge(logic.Select(pc, pt), logic.IntVal(0)))},
	}}
	// The invariants over cnt and other share no state variable with the
	// goal (p.t, a parameter, does not count); everything else stays.
	if got, want := relevantSlice(p), []int{0, 1, 4, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("relevantSlice = %v; want %v", got, want)
	}
	// Nothing to drop: no slice.
	p.Assertions = append(p.Assertions[:2], p.Assertions[4:]...)
	if got := relevantSlice(p); got != nil {
		t.Errorf("relevantSlice = %v; want nil when every hypothesis is relevant", got)
	}
	for name, want := range map[string]bool{"c.pc": true, "s.mems.len": true, "p.t": false, "TMS2::v0": false, "V#0": false} {
		if stateVar(name) != want {
			t.Errorf("stateVar(%q) = %v", name, !want)
		}
	}
}
