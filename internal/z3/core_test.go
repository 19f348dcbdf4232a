package z3

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestUnsatCore checks a check under assumptions and its unsat core: the
// literals of the two contradictory facts, not the third's; and that the
// same assumptions without the contradiction are sat.
func TestUnsatCore(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	bs := ok[Sort](t)(ctx.BoolSort())
	x, y := a(ctx.Const("x", is)), a(ctx.Const("y", is))
	facts := []AST{a(ctx.Gt(x, a(ctx.Int(0)))), a(ctx.Gt(y, a(ctx.Int(0)))), a(ctx.Lt(x, a(ctx.Int(0))))}
	for _, cfg := range []SolverConfig{{}, {Simple: true}} {
		s := newSolver(t, ctx, cfg)
		var lits []AST
		for i, f := range facts {
			p := a(ctx.Const("p"+strconv.Itoa(i), bs))
			lits = append(lits, p)
			if err := s.Assert(a(ctx.Implies(p, f))); err != nil {
				t.Fatal(err)
			}
		}
		r, err := s.CheckAssumptionsContext(context.Background(), lits)
		if err != nil || r != Unsat {
			t.Fatalf("simple=%v: CheckAssumptions = %v, %v; want unsat", cfg.Simple, r, err)
		}
		if names := coreNames(t, s); names != "p0 p2" {
			t.Errorf("simple=%v: core %q; want p0 p2", cfg.Simple, names)
		}
		if r, err := s.CheckAssumptionsContext(context.Background(), lits[:2]); err != nil || r != Sat {
			t.Errorf("simple=%v: without p2: %v, %v; want sat", cfg.Simple, r, err)
		}
		s.Close()
	}
}

// TestAssertSMTLIB2Tracked checks that a script's last n assertions are
// tracked by the literals returned, in order, and the others not: the core
// names the contradictory tracked facts only; and that more tracked
// assertions than the script has, or fewer than none, are errors.
func TestAssertSMTLIB2Tracked(t *testing.T) {
	ctx := newCtx(t)
	const text = "(declare-fun x () Int)\n(declare-fun y () Int)\n(assert (> y 0))\n(assert (> x 0))\n(assert (> y 1))\n(assert (< x 0))\n"
	s := newSolver(t, ctx, SolverConfig{Simple: true})
	lits, err := s.AssertSMTLIB2Tracked(text, 3, "t!")
	if err != nil || len(lits) != 3 {
		t.Fatalf("AssertSMTLIB2Tracked = %v, %v", lits, err)
	}
	for i, l := range lits {
		if l.String() != "t!"+strconv.Itoa(i) {
			t.Errorf("literal %d is %s", i, l)
		}
	}
	if r, err := s.CheckAssumptionsContext(context.Background(), lits); err != nil || r != Unsat {
		t.Fatalf("check = %v, %v; want unsat", r, err)
	}
	if names := coreNames(t, s); names != "t!0 t!2" {
		t.Errorf("core %q; want t!0 t!2 (x > 0 and x < 0)", names)
	}
	s.Close()
	for _, n := range []int{-1, 5} {
		s := newSolver(t, ctx, SolverConfig{Simple: true})
		if _, err := s.AssertSMTLIB2Tracked(text, n, "t!"); err == nil {
			t.Errorf("%d tracked assertions of 4: no error", n)
		}
		s.Close()
	}
}

// coreNames returns the names of the literals of s's unsat core, sorted
// and joined by spaces.
func coreNames(t *testing.T, s *Solver) string {
	t.Helper()
	core, err := s.UnsatCore()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range core {
		names = append(names, c.String())
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}
