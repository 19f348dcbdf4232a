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
		core, err := s.UnsatCore()
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range core {
			names = append(names, c.String())
		}
		sort.Strings(names)
		if strings.Join(names, " ") != "p0 p2" {
			t.Errorf("simple=%v: core %q; want p0 p2", cfg.Simple, names)
		}
		if r, err := s.CheckAssumptionsContext(context.Background(), lits[:2]); err != nil || r != Sat {
			t.Errorf("simple=%v: without p2: %v, %v; want sat", cfg.Simple, r, err)
		}
		s.Close()
	}
}
