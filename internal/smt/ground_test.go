package smt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"ladder/internal/encode"
	"ladder/internal/logic"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// gen generates random ground expressions of the language's concrete
// syntax, by sort, over the sorts of testdata/gadgets.yaml (T, V, Cell).
type gen struct {
	rng *rand.Rand
	n   int // fresh bound names
}

func (g *gen) pick(alts ...func() string) string { return alts[g.rng.IntN(len(alts))]() }

func (g *gen) fresh(p string) string {
	g.n++
	return fmt.Sprintf("%s%d", p, g.n)
}

func (g *gen) expr(sort string, d int) string {
	if d <= 0 {
		return g.leaf(sort)
	}
	d--
	I := func() string { return g.expr("Int", d) }
	B := func() string { return g.expr("Bool", d) }
	S := func() string { return g.expr("Seq", d) }
	SS := func() string { return g.expr("SeqSeq", d) }
	St := func() string { return g.expr("Set", d) }
	E := func() string { return g.expr("T", d) }
	O := func() string { return g.expr("Opt", d) }
	M := func() string { return g.expr("Map", d) }
	P := func() string { return g.expr("Part", d) }
	C := func() string { return g.expr("Cell", d) }
	switch sort {
	case "Int":
		return g.pick(
			func() string { return "(" + I() + " + " + I() + ")" },
			func() string { return "(" + I() + " - " + I() + ")" },
			func() string { return "(" + I() + " * " + I() + ")" },
			func() string { return "(" + I() + " div " + I() + ")" },
			func() string { return "(" + I() + " mod " + I() + ")" },
			func() string { return "(-" + I() + ")" },
			func() string { return "abs(" + I() + ")" },
			func() string { return "min(" + I() + ", " + I() + ")" },
			func() string { return "max(" + I() + ", " + I() + ")" },
			func() string { return "len(" + S() + ")" },
			func() string { return S() + "[" + I() + "]" },
			func() string { return "last(" + S() + ")" },
			func() string { return "(if " + B() + " then " + I() + " else " + I() + ")" },
			func() string { return "get(" + O() + ")" },
			func() string { return M() + "[" + E() + "]" },
			func() string {
				y := g.fresh("y")
				return "(let " + y + " = " + I() + " in " + y + " * " + y + " - " + I() + ")"
			},
			func() string { return C() + ".val" },
			func() string { return SS() + "[" + I() + "][" + I() + "]" },
			func() string { return "len(" + SS() + ")" },
		)
	case "Bool":
		return g.pick(
			func() string { return "(" + I() + " < " + I() + ")" },
			func() string { return "(" + I() + " <= " + I() + ")" },
			func() string { return "(" + I() + " = " + I() + ")" },
			func() string { return "(" + S() + " = " + S() + ")" },
			func() string { return "(" + SS() + " != " + SS() + ")" },
			func() string { return "(" + St() + " = " + St() + ")" },
			func() string { return "(" + M() + " = " + M() + ")" },
			func() string { return "(" + P() + " = " + P() + ")" },
			func() string { return "(" + M() + " = const(" + I() + "))" },
			func() string { return "(" + P() + " = const(None))" },
			func() string { return "(" + P() + " != const(Some(" + I() + ")))" },
			func() string { return "(" + C() + " = " + C() + ")" },
			func() string { return "(" + O() + " = " + O() + ")" },
			func() string { return "(" + B() + " and " + B() + ")" },
			func() string { return "(" + B() + " or " + B() + ")" },
			func() string { return "(not " + B() + ")" },
			func() string { return "(" + B() + " => " + B() + ")" },
			func() string { return "(" + B() + " <=> " + B() + ")" },
			func() string { return "even(" + I() + ")" },
			func() string { return "odd(" + I() + ")" },
			func() string { return "(" + E() + " in " + St() + ")" },
			func() string { return "(" + E() + " notin " + St() + ")" },
			func() string { return "(" + St() + " subset " + St() + ")" },
			func() string { return "(" + P() + " subset " + M() + ")" },
			func() string { return "isSome(" + O() + ")" },
			func() string { return "isNone(" + O() + ")" },
			func() string { x := g.fresh("x"); return "(forall " + x + ": T. " + x + " in " + St() + ")" },
			func() string { x := g.fresh("x"); return "(exists " + x + ": T. " + M() + "[" + x + "] > " + I() + ")" },
			func() string {
				i := g.fresh("i")
				s := S()
				return "(exists " + i + " in " + I() + ".." + I() + ". " + s + "[" + i + "] = " + I() + ")"
			},
			func() string {
				i := g.fresh("i")
				return "(forall " + i + " in 0..len(" + S() + "). " + i + " < " + I() + ")"
			},
		)
	case "Seq":
		return g.pick(
			func() string { return "[" + I() + "]" },
			func() string { return "[" + I() + ", " + I() + "]" },
			func() string { return "append(" + S() + ", " + I() + ")" },
			func() string { return S() + "[" + I() + " := " + I() + "]" },
			func() string { return "(if " + B() + " then " + S() + " else " + S() + ")" },
			func() string { return SS() + "[" + I() + "]" },
			func() string { return "last(" + SS() + ")" },
		)
	case "SeqSeq":
		return g.pick(
			func() string { return "[" + S() + "]" },
			func() string { return "append(" + SS() + ", " + S() + ")" },
			func() string { return SS() + "[" + I() + " := " + S() + "]" },
		)
	case "Set":
		return g.pick(
			func() string { return "{" + E() + "}" },
			func() string { return "{" + E() + ", " + E() + "}" },
			func() string { return "(" + St() + " union " + St() + ")" },
			func() string { return "(" + St() + " inter " + St() + ")" },
			func() string { return "(" + St() + " \\ " + St() + ")" },
			func() string { x := g.fresh("x"); return "{" + x + ": T | " + x + " != " + E() + "}" },
			func() string { return "dom(" + P() + ")" },
		)
	case "T":
		return g.pick(
			func() string { return "(if " + B() + " then " + E() + " else " + E() + ")" },
			func() string { return "get(" + C() + ".owner)" },
		)
	case "Opt":
		return g.pick(
			func() string { return "Some(" + I() + ")" },
			func() string { return P() + "[" + E() + "]" },
			func() string { return "(if " + B() + " then " + O() + " else None)" },
		)
	case "Map":
		return g.pick(
			func() string { return M() + "[" + E() + " := " + I() + "]" },
			func() string {
				x := g.fresh("x")
				return "(lambda " + x + ": T. if " + x + " = " + E() + " then " + I() + " else " + I() + ")"
			},
			func() string { return "override(" + M() + ", " + P() + ")" },
		)
	case "Part":
		return g.pick(
			func() string { return P() + "[" + E() + " := Some(" + I() + ")]" },
			func() string { return P() + "[" + E() + " := None]" },
			func() string {
				x := g.fresh("x")
				return "(lambda " + x + ": T. if " + x + " in " + St() + " then Some(" + I() + ") else None)"
			},
		)
	case "Cell":
		return g.pick(
			func() string { return "Cell{owner: Some(" + E() + "), val: " + I() + ", tags: {V#1}}" },
			func() string { return "(" + C() + " with {val := " + I() + "})" },
			func() string { return "(" + C() + " with {owner := None, tags := {}})" },
		)
	}
	return g.leaf(sort)
}

func (g *gen) leaf(sort string) string {
	switch sort {
	case "Int":
		return fmt.Sprint(g.rng.IntN(9) - 4)
	case "Bool":
		return []string{"true", "false"}[g.rng.IntN(2)]
	case "Seq":
		return []string{"[0]", "[1, -2]", "[3, 3, 0]"}[g.rng.IntN(3)]
	case "SeqSeq":
		return []string{"[[1]]", "[[0, 2], [-1]]"}[g.rng.IntN(2)]
	case "Set":
		return []string{"{T#0}", "{T#1}", "{T#0, T#1}"}[g.rng.IntN(3)]
	case "T":
		return []string{"T#0", "T#1"}[g.rng.IntN(2)]
	case "Opt":
		return []string{"Some(0)", "Some(-3)", "Some(2)"}[g.rng.IntN(3)]
	case "Map":
		return []string{"(lambda z: T. 0)", "(lambda z: T. 2)[T#1 := -1]", "mem0"}[g.rng.IntN(3)]
	case "Part":
		return []string{"(lambda z: T. Some(1))", "(lambda z: T. None)[T#0 := Some(5)]", "part0"}[g.rng.IntN(3)]
	case "Cell":
		return "Cell{owner: Some(T#1), val: 2, tags: {V#0}}"
	}
	return "?"
}

// TestGroundExpressions checks, for random ground expressions of every
// sort, that the encoding's value equals the evaluator's (as unsat of the
// negated equality, with the parameter sorts pinned to the instance).
func TestGroundExpressions(t *testing.T) {
	a := loadAutomaton(t, "testdata/gadgets.yaml", "Gadgets")
	inst := &eval.Instance{Sizes: map[string]int{"T": 2, "V": 2}}
	g := &gen{rng: rand.New(rand.NewPCG(3, 5))}
	ss := newSession(t)
	sorts := []string{"Int", "Bool", "Seq", "SeqSeq", "Set", "T", "Opt", "Map", "Part", "Cell"}
	if v := os.Getenv("GROUND_SORTS"); v != "" {
		sorts = strings.Split(v, ",")
	}
	checked, skipped := 0, 0
	perSort := map[string]int{}
	for k := 0; k < 400; k++ {
		sort := sorts[k%len(sorts)]
		text := g.expr(sort, 1+g.rng.IntN(3))
		x, errs := expr.ParseExpr(text, nil)
		if len(errs) > 0 {
			t.Fatalf("generated unparsable %s: %v", text, errs)
		}
		c := &expr.Checker{}
		s := c.CheckExpr(x, a.Scope, nil)
		if c.Errors != nil && c.Errors.Len() > 0 {
			skipped++ // e.g. a sort the checker cannot infer
			if testing.Verbose() {
				t.Logf("skip %s: %v", text, c.Errors)
			}
			continue
		}
		want, err := eval.Eval(x, &eval.Env{Inst: inst})
		if err != nil {
			skipped++ // integer overflow
			continue
		}
		e := encode.New()
		v, err := e.Expr(x, &encode.Env{})
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		lit, err := e.Literal(want, s, inst)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		hyps := pinUniverse(t, e, a.Sorts, inst)
		p, err := e.Problem(hyps, encode.Eq(v, lit))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		r, err := ss.Check(context.Background(), p, cfg)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		checked++
		perSort[sort]++
		if r.Status != Unsat {
			ptext, _ := p.Text()
			t.Errorf("%s: the encoding's value is not the evaluator's %s (%s %s)\n%s", text, eval.Format(want, s), r.Status, r.Reason, ptext)
		}
	}
	if checked < 300 {
		t.Errorf("only %d of 400 expressions were compared (%d skipped)", checked, skipped)
	}
	var b strings.Builder
	for _, s := range sorts {
		fmt.Fprintf(&b, " %s:%d", s, perSort[s])
	}
	t.Logf("%d ground expressions compared, %d skipped;%s", checked, skipped, b.String())
	_ = logic.True
}
