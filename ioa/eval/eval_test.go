package eval

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"ladder/ioa/expr"
)

type evalCase struct {
	name string
	e    expr.Expr
	want string // the value in the language's notation
}

// runCases evaluates each case with and without constant folding (which
// computes closed expressions at compile time, taking other code paths).
func runCases(t *testing.T, inst *Instance, cases []evalCase) {
	t.Helper()
	for _, c := range cases {
		for _, noFold := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/nofold=%v", c.name, noFold), func(t *testing.T) {
				v, err := evalWith(c.e, &Env{Inst: inst}, noFold)
				if err != nil {
					t.Fatalf("Eval: %v", err)
				}
				if got := Format(v, c.e.Sort()); got != c.want {
					t.Errorf("got %s, want %s", got, c.want)
				}
			})
		}
	}
}

func TestArithmetic(t *testing.T) {
	runCases(t, testInst(), []evalCase{
		{"add", op(expr.OpAdd, n(1), n(2)), "3"},
		{"sub", op(expr.OpSub, n(5), n(7)), "-2"},
		{"mul", op(expr.OpMul, n(3), n(-4)), "-12"},
		{"neg", neg(n(5)), "-5"},
		{"negneg", neg(n(-5)), "5"},
		{"min", call("min", sInt, n(3), n(-2)), "-2"},
		{"max", call("max", sInt, n(3), n(-2)), "3"},
		{"abs-neg", call("abs", sInt, n(-4)), "4"},
		{"abs-pos", call("abs", sInt, n(4)), "4"},
		{"even0", call("even", sBool, n(0)), "true"},
		{"even-3", call("even", sBool, n(-3)), "false"},
		{"even-4", call("even", sBool, n(-4)), "true"},
		{"odd-3", call("odd", sBool, n(-3)), "true"},
		{"odd4", call("odd", sBool, n(4)), "false"},
		{"lt", op(expr.OpLt, n(1), n(2)), "true"},
		{"lt-eq", op(expr.OpLt, n(2), n(2)), "false"},
		{"le", op(expr.OpLe, n(2), n(2)), "true"},
		{"gt", op(expr.OpGt, n(-1), n(2)), "false"},
		{"ge", op(expr.OpGe, n(2), n(2)), "true"},
		{"eq", eq(n(2), n(2)), "true"},
		{"neq", op(expr.OpNeq, n(2), n(3)), "true"},
	})
}

// TestDivMod checks Euclidean division with the SMT-LIB convention for 0,
// on hand-computed values and on the defining property over a range.
func TestDivMod(t *testing.T) {
	for _, c := range []struct{ a, b, q, r int64 }{
		{7, 2, 3, 1}, {-7, 2, -4, 1}, {7, -2, -3, 1}, {-7, -2, 4, 1},
		{6, 3, 2, 0}, {-6, 3, -2, 0}, {0, 5, 0, 0}, {7, 0, 0, 7}, {-7, 0, 0, -7}, {0, 0, 0, 0},
		{1, 7, 0, 1}, {-1, 7, -1, 6}, {-1, -7, 1, 6},
		{math.MinInt64, 2, math.MinInt64 / 2, 0}, {math.MaxInt64, -1, -math.MaxInt64, 0},
	} {
		q, err := Eval(op(expr.OpDiv, n(c.a), n(c.b)), nil)
		if err != nil {
			t.Fatalf("%d div %d: %v", c.a, c.b, err)
		}
		r, err := Eval(op(expr.OpMod, n(c.a), n(c.b)), nil)
		if err != nil {
			t.Fatalf("%d mod %d: %v", c.a, c.b, err)
		}
		if q.Int() != c.q || r.Int() != c.r {
			t.Errorf("%d div/mod %d = %d, %d; want %d, %d", c.a, c.b, q.Int(), r.Int(), c.q, c.r)
		}
	}
	for a := int64(-20); a <= 20; a++ {
		for b := int64(-6); b <= 6; b++ {
			q, _, _ := divmod(a, b)
			_, r, _ := divmod(a, b)
			if b == 0 {
				if q != 0 || r != a {
					t.Errorf("%d div/mod 0 = %d, %d", a, q, r)
				}
				continue
			}
			ab := b
			if ab < 0 {
				ab = -ab
			}
			if a != b*q+r || r < 0 || r >= ab {
				t.Errorf("%d div/mod %d = %d, %d violates a = b*q + r, 0 <= r < |b|", a, b, q, r)
			}
		}
	}
}

func TestOverflow(t *testing.T) {
	for _, c := range []struct {
		name string
		e    expr.Expr
	}{
		{"add", op(expr.OpAdd, n(math.MaxInt64), n(1))},
		{"sub", op(expr.OpSub, n(math.MinInt64), n(1))},
		{"mul", op(expr.OpMul, n(math.MaxInt64), n(2))},
		{"mul-min", op(expr.OpMul, n(math.MinInt64), n(-1))},
		{"neg", neg(n(math.MinInt64))},
		{"div", op(expr.OpDiv, n(math.MinInt64), n(-1))},
		{"abs", call("abs", sInt, n(math.MinInt64))},
	} {
		if _, err := Eval(c.e, nil); err == nil || !strings.Contains(err.Error(), "overflow") {
			t.Errorf("%s: got error %v, want an overflow", c.name, err)
		}
	}
	// no overflow at the edges
	for _, e := range []expr.Expr{
		op(expr.OpAdd, n(math.MaxInt64-1), n(1)),
		op(expr.OpSub, n(math.MinInt64+1), n(1)),
		op(expr.OpMul, n(math.MinInt64/2), n(2)),
		op(expr.OpMul, n(-1), n(math.MaxInt64)),
	} {
		if _, err := Eval(e, nil); err != nil {
			t.Errorf("unexpected error %v", err)
		}
	}
}

func TestLogic(t *testing.T) {
	var cases []evalCase
	for _, a := range []bool{false, true} {
		for _, b := range []bool{false, true} {
			name := func(op string) string {
				return op + "/" + map[bool]string{false: "f", true: "t"}[a] + map[bool]string{false: "f", true: "t"}[b]
			}
			fmtb := func(x bool) string { return map[bool]string{false: "false", true: "true"}[x] }
			cases = append(cases,
				evalCase{name("and"), op(expr.OpAnd, bl(a), bl(b)), fmtb(a && b)},
				evalCase{name("or"), op(expr.OpOr, bl(a), bl(b)), fmtb(a || b)},
				evalCase{name("implies"), op(expr.OpImplies, bl(a), bl(b)), fmtb(!a || b)},
				evalCase{name("iff"), op(expr.OpIff, bl(a), bl(b)), fmtb(a == b)},
				evalCase{name("eq"), eq(bl(a), bl(b)), fmtb(a == b)},
			)
		}
	}
	cases = append(cases,
		evalCase{"not-t", not(tt()), "false"},
		evalCase{"not-f", not(ff()), "true"},
		evalCase{"ite-t", ite(tt(), n(1), n(2)), "1"},
		evalCase{"ite-f", ite(ff(), n(1), n(2)), "2"},
	)
	runCases(t, testInst(), cases)
}

// TestLazy checks that and, or, => and if-then-else do not evaluate the
// operand they do not need: the skipped operand would overflow.
func TestLazy(t *testing.T) {
	boom := eq(op(expr.OpAdd, n(math.MaxInt64), n(1)), n(0))
	runCases(t, nil, []evalCase{
		{"and", op(expr.OpAnd, ff(), boom), "false"},
		{"or", op(expr.OpOr, tt(), boom), "true"},
		{"implies", op(expr.OpImplies, ff(), boom), "true"},
		{"ite", ite(tt(), n(1), op(expr.OpAdd, n(math.MaxInt64), n(1))), "1"},
	})
	if _, err := Eval(op(expr.OpAnd, tt(), boom), nil); err == nil {
		t.Errorf("true and overflow: no error")
	}
}

func TestSeq(t *testing.T) {
	s123 := seq(sInt, n(1), n(2), n(3))
	s12 := seq(sInt, n(1), n(2))
	runCases(t, testInst(), []evalCase{
		{"lit", s123, "[1, 2, 3]"},
		{"empty", seq(sInt), "[]"},
		{"len", call("len", sInt, s123), "3"},
		{"len0", call("len", sInt, seq(sT)), "0"},
		{"index", idx(s123, n(1)), "2"},
		{"index-high", idx(s12, n(2)), "0"},
		{"index-neg", idx(s12, n(-1)), "0"},
		{"index-enum-default", idx(seq(sPhase, enumc(sPhase, "Busy")), n(3)), "Idle"},
		{"index-param-default", idx(seq(sT), n(0)), "T#0"},
		{"index-bool-default", idx(seq(sBool), n(0)), "false"},
		{"index-option-default", idx(seq(expr.OptionOf(sT)), n(0)), "None"},
		{"index-record-default", idx(seq(sCell), n(0)), "Cell{owner: T#0, value: 0}"},
		{"index-map-default", idx(seq(expr.MapOf(sL, sV)), n(0)), "const(V#0)"},
		{"index-set-default", idx(seq(expr.SetOf(sL)), n(0)), "{}"},
		{"index-seq-default", idx(seq(expr.SeqOf(sInt)), n(0)), "[]"},
		{"update", upd(s12, n(0), n(9)), "[9, 2]"},
		{"update-high", upd(s12, n(2), n(9)), "[1, 2]"},
		{"update-neg", upd(s12, n(-1), n(9)), "[1, 2]"},
		{"last", call("last", sInt, s12), "2"},
		{"last-empty", call("last", sInt, seq(sInt)), "0"},
		{"last-empty-enum", call("last", sPhase, seq(sPhase)), "Idle"},
		{"last-empty-map", call("last", expr.MapOf(sT, sBool), seq(expr.MapOf(sT, sBool))), "const(false)"},
		{"append", call("append", expr.SeqOf(sInt), s12, n(7)), "[1, 2, 7]"},
		{"append-empty", call("append", expr.SeqOf(sInt), seq(sInt), n(7)), "[7]"},
		{"eq", eq(s12, seq(sInt, n(1), n(2))), "true"},
		{"eq-len", eq(s12, s123), "false"},
		{"eq-elem", eq(s12, seq(sInt, n(1), n(3))), "false"},
		{"eq-empty", eq(seq(sInt), seq(sInt)), "true"},
	})
}

func TestOption(t *testing.T) {
	runCases(t, testInst(), []evalCase{
		{"some", some(elem(sT, 1)), "Some(T#1)"},
		{"some-big", some(n(1000)), "Some(1000)"},
		{"some-neg", some(n(-3)), "Some(-3)"},
		{"none", none(sT), "None"},
		{"isSome", call("isSome", sBool, some(n(3))), "true"},
		{"isSome-none", call("isSome", sBool, none(sInt)), "false"},
		{"isNone", call("isNone", sBool, none(sInt)), "true"},
		{"isNone-some", call("isNone", sBool, some(n(0))), "false"},
		{"get", call("get", sInt, some(n(3))), "3"},
		{"get-none-int", call("get", sInt, none(sInt)), "0"},
		{"get-none-param", call("get", sT, none(sT)), "T#0"},
		{"get-none-record", call("get", sCell, none(sCell)), "Cell{owner: T#0, value: 0}"},
		{"get-none-seq", call("get", expr.SeqOf(sT), none(expr.SeqOf(sT))), "[]"},
		{"eq-some", eq(some(n(1)), some(n(1))), "true"},
		{"neq-some", eq(some(n(1)), some(n(2))), "false"},
		{"eq-none-some", eq(none(sInt), some(n(0))), "false"},
		{"nested", some(some(n(1))), "Some(Some(1))"},
	})
}

func TestMaps(t *testing.T) {
	m0 := konstMap(sT, elem(sV, 0))
	m1 := upd(m0, elem(sT, 1), elem(sV, 2))
	mS := upd(upd(konstMap(sS, elem(sV, 0)), elem(sS, 0), elem(sV, 1)), elem(sS, 1), elem(sV, 1))
	mO := upd(upd(konstMap(expr.OptionOf(sT), n(0)), some(elem(sT, 1)), n(5)), none(sT), n(3))
	kTL := func(tv, lv int) expr.Expr { return rec(sTL, elem(sT, tv), elem(sL, lv)) }
	mR := upd(konstMap(sTL, ff()), kTL(1, 0), tt())
	runCases(t, testInst(), []evalCase{
		{"const", m0, "const(V#0)"},
		{"update", m1, "const(V#0)[T#1 := V#2]"},
		{"index-updated", idx(m1, elem(sT, 1)), "V#2"},
		{"index-other", idx(m1, elem(sT, 0)), "V#0"},
		{"update-back", upd(m1, elem(sT, 1), elem(sV, 0)), "const(V#0)"},
		{"majority", mS, "const(V#1)[S#2 := V#0]"},
		{"tie-default-wins", upd(m0, elem(sT, 0), elem(sV, 1)), "const(V#0)[T#0 := V#1]"},
		{"tie-first-wins", upd(konstMap(sT, elem(sV, 1)), elem(sT, 1), elem(sV, 2)), "const(V#1)[T#1 := V#2]"},
		{"tie-first-wins-2", upd(konstMap(sT, elem(sV, 2)), elem(sT, 0), elem(sV, 1)), "const(V#1)[T#1 := V#2]"},
		{"extensional-eq", eq(upd(upd(m0, elem(sT, 0), elem(sV, 1)), elem(sT, 1), elem(sV, 1)), konstMap(sT, elem(sV, 1))), "true"},
		{"neq", eq(m1, m0), "false"},
		{"option-key", mO, "const(0)[None := 3][Some(T#1) := 5]"},
		{"option-key-none", idx(mO, none(sT)), "3"},
		{"option-key-some0", idx(mO, some(elem(sT, 0))), "0"},
		{"option-key-some1", idx(mO, some(elem(sT, 1))), "5"},
		{"record-key", mR, "const(false)[TL{t: T#1, l: L#0} := true]"},
		{"record-key-get", idx(mR, kTL(1, 0)), "true"},
		{"record-key-get-other", idx(mR, kTL(0, 1)), "false"},
		{"bool-key", upd(konstMap(sBool, n(1)), tt(), n(2)), "const(1)[true := 2]"},
		{"enum-key", upd(konstMap(sPhase, n(0)), enumc(sPhase, "Done"), n(2)), "const(0)[Done := 2]"},
		{"nested", upd(konstMap(sT, m0), elem(sT, 0), m1), "const(const(V#0))[T#0 := const(V#0)[T#1 := V#2]]"},
		{"nested-index", idx(idx(upd(konstMap(sT, m0), elem(sT, 0), m1), elem(sT, 0)), elem(sT, 1)), "V#2"},
	})
}

func TestLambda(t *testing.T) {
	x := bound("x", sT)
	r := bound("r", sTL)
	o := bound("o", expr.OptionOf(sT))
	runCases(t, testInst(), []evalCase{
		{"map", lambda(x, eq(ref(x), elem(sT, 1))), "const(false)[T#1 := true]"},
		{"setcomp", setComp(x, op(expr.OpNeq, ref(x), elem(sT, 0))), "{T#1}"},
		{"setcomp-empty", setComp(x, ff()), "{}"},
		{"record-key", lambda(r, eq(field(ref(r), "l"), elem(sL, 1))), "const(false)[TL{t: T#0, l: L#1} := true][TL{t: T#1, l: L#1} := true]"},
		{"option-key", setComp(o, call("isSome", sBool, ref(o))), "{Some(T#0), Some(T#1)}"},
		{"index", idx(lambda(x, ite(eq(ref(x), elem(sT, 0)), n(10), n(20))), elem(sT, 1)), "20"},
	})
	// An indexed lambda is applied without building its table: the body
	// sees the index and the variables bound outside the lambda.
	y := bound("y", sT)
	z := bound("z", sT)
	runCases(t, testInst(), []evalCase{
		{"apply-outer", forall(idx(lambda(x, eq(ref(x), ref(y))), ref(y)), over(y)), "true"},
		{"apply-other", exists(idx(lambda(x, eq(ref(x), ref(y))), ref(z)), over(y), over(z)), "true"},
		{"apply-other-all", forall(idx(lambda(x, eq(ref(x), ref(y))), ref(z)), over(y), over(z)), "false"},
		{"apply-nested", forall(eq(idx(lambda(x, idx(lambda(z, op(expr.OpNeq, ref(z), ref(x))), ref(y))), ref(y)), ff()), over(y)), "true"},
		{"apply-map-value", idx(idx(lambda(x, lambda(z, eq(ref(x), ref(z)))), elem(sT, 1)), elem(sT, 1)), "true"},
	})
}

func TestSets(t *testing.T) {
	s0 := set(sL, elem(sL, 0))
	s01 := set(sL, elem(sL, 1), elem(sL, 0))
	s1 := set(sL, elem(sL, 1))
	e := set(sL)
	runCases(t, testInst(), []evalCase{
		{"lit", s01, "{L#0, L#1}"},
		{"dup", set(sL, elem(sL, 1), elem(sL, 1)), "{L#1}"},
		{"empty", e, "{}"},
		{"in", op(expr.OpIn, elem(sL, 0), s0), "true"},
		{"in-not", op(expr.OpIn, elem(sL, 1), s0), "false"},
		{"notin", op(expr.OpNotIn, elem(sL, 1), s0), "true"},
		{"notin-not", op(expr.OpNotIn, elem(sL, 0), s0), "false"},
		{"union", op(expr.OpUnion, s0, s1), "{L#0, L#1}"},
		{"inter", op(expr.OpInter, s01, s1), "{L#1}"},
		{"inter-empty", op(expr.OpInter, s0, s1), "{}"},
		{"diff", op(expr.OpDiff, s01, s0), "{L#1}"},
		{"subset", op(expr.OpSubset, s0, s01), "true"},
		{"subset-not", op(expr.OpSubset, s01, s0), "false"},
		{"subset-empty", op(expr.OpSubset, e, e), "true"},
		{"subset-self", op(expr.OpSubset, s01, s01), "true"},
		{"eq", eq(op(expr.OpUnion, s0, s1), s01), "true"},
		{"eq-empty", eq(op(expr.OpDiff, s0, s0), e), "true"},
		{"option-elems", set(expr.OptionOf(sT), none(sT), some(elem(sT, 1))), "{None, Some(T#1)}"},
		{"record-elems", set(sTL, rec(sTL, elem(sT, 1), elem(sL, 0)), rec(sTL, elem(sT, 0), elem(sL, 1))), "{TL{t: T#0, l: L#1}, TL{t: T#1, l: L#0}}"},
		{"record-in", op(expr.OpIn, rec(sTL, elem(sT, 1), elem(sL, 0)), set(sTL, rec(sTL, elem(sT, 1), elem(sL, 0)))), "true"},
		{"bool-elems", set(sBool, tt()), "{true}"},
		{"enum-elems", set(sPhase, enumc(sPhase, "Done"), enumc(sPhase, "Idle")), "{Idle, Done}"},
	})
}

func TestPartialMaps(t *testing.T) {
	pv := expr.OptionOf(sV)
	p := upd(konstMap(sL, none(sV)), elem(sL, 1), some(elem(sV, 2)))
	empty := konstMap(sL, none(sV))
	m := upd(konstMap(sL, elem(sV, 0)), elem(sL, 1), elem(sV, 2))
	m0 := konstMap(sL, elem(sV, 0))
	q := upd(upd(konstMap(sL, none(sV)), elem(sL, 1), some(elem(sV, 2))), elem(sL, 0), some(elem(sV, 1)))
	_ = pv
	runCases(t, testInst(), []evalCase{
		{"dom", call("dom", expr.SetOf(sL), p), "{L#1}"},
		{"dom-empty", call("dom", expr.SetOf(sL), empty), "{}"},
		{"override", call("override", expr.MapOf(sL, sV), m0, p), "const(V#0)[L#1 := V#2]"},
		{"override-empty", call("override", expr.MapOf(sL, sV), m0, empty), "const(V#0)"},
		{"override-all", call("override", expr.MapOf(sL, sV), m0, q), "const(V#1)[L#1 := V#2]"},
		{"subset-agrees", op(expr.OpSubset, p, m), "true"},
		{"subset-differs", op(expr.OpSubset, p, m0), "false"},
		{"subset-empty", op(expr.OpSubset, empty, m0), "true"},
		{"subset-partial", op(expr.OpSubset, p, q), "true"},
		{"subset-partial-not", op(expr.OpSubset, q, p), "false"},
		{"partial-format", q, "const(Some(V#1))[L#1 := Some(V#2)]"},
		{"partial-format-none", p, "const(None)[L#1 := Some(V#2)]"},
	})
}

func TestQuantifiers(t *testing.T) {
	x, y := bound("x", sT), bound("y", sT)
	i := bound("i", sInt)
	o := bound("o", expr.OptionOf(sT))
	b := bound("b", sBool)
	p := bound("p", sPhase)
	m := upd(konstMap(sT, elem(sV, 0)), elem(sT, 1), elem(sV, 2))
	runCases(t, testInst(), []evalCase{
		{"forall-true", forall(eq(idx(konstMap(sT, elem(sV, 0)), ref(x)), elem(sV, 0)), over(x)), "true"},
		{"forall-false", forall(eq(idx(m, ref(x)), elem(sV, 0)), over(x)), "false"},
		{"exists-true", exists(eq(idx(m, ref(x)), elem(sV, 2)), over(x)), "true"},
		{"exists-false", exists(eq(idx(m, ref(x)), elem(sV, 1)), over(x)), "false"},
		{"two-binders", forall(op(expr.OpOr, eq(ref(x), ref(y)), op(expr.OpNeq, ref(x), ref(y))), over(x), over(y)), "true"},
		{"two-binders-exists", exists(op(expr.OpAnd, op(expr.OpNeq, ref(x), ref(y)), eq(ref(y), elem(sT, 0))), over(x), over(y)), "true"},
		{"range", forall(op(expr.OpLt, ref(i), n(3)), rng(i, n(0), n(3))), "true"},
		{"range-hi-excluded", exists(eq(ref(i), n(3)), rng(i, n(0), n(3))), "false"},
		{"range-lo-included", exists(eq(ref(i), n(-2)), rng(i, n(-2), n(3))), "true"},
		{"range-empty-exists", exists(tt(), rng(i, n(0), n(0))), "false"},
		{"range-empty-forall", forall(ff(), rng(i, n(2), n(1))), "true"},
		{"range-over-seq", forall(op(expr.OpGt, idx(seq(sInt, n(4), n(5)), ref(i)), n(3)), rng(i, n(0), call("len", sInt, seq(sInt, n(4), n(5))))), "true"},
		{"option", exists(call("isNone", sBool, ref(o)), over(o)), "true"},
		{"bool", forall(op(expr.OpOr, ref(b), not(ref(b))), over(b)), "true"},
		{"bool-exists", exists(op(expr.OpAnd, ref(b), not(ref(b))), over(b)), "false"},
		{"enum", exists(eq(ref(p), enumc(sPhase, "Done")), over(p)), "true"},
		{"enum-forall", forall(op(expr.OpNeq, ref(p), enumc(sPhase, "Done")), over(p)), "false"},
	})
}

// TestQuantifierBinds checks binder scoping by counting: the number of
// pairs (x, i) with x: S and 0 <= i < 2 such that ... is exactly 6.
func TestQuantifierCount(t *testing.T) {
	x := bound("x", sS)
	i := bound("i", sInt)
	// { (x) | exists i in 0..2. ... } over S with 3 elements: all of S.
	e := setComp(x, exists(op(expr.OpGe, ref(i), n(1)), rng(i, n(0), n(2))))
	runCases(t, testInst(), []evalCase{{"comp", e, "{S#0, S#1, S#2}"}})
}

func TestRecords(t *testing.T) {
	c := rec(sCell, elem(sT, 1), n(3))
	runCases(t, testInst(), []evalCase{
		{"lit", c, "Cell{owner: T#1, value: 3}"},
		{"field", field(c, "value"), "3"},
		{"field-owner", field(c, "owner"), "T#1"},
		{"with", with(c, "value", n(4)), "Cell{owner: T#1, value: 4}"},
		{"with-keeps", field(with(c, "value", n(4)), "owner"), "T#1"},
		{"eq", eq(c, rec(sCell, elem(sT, 1), n(3))), "true"},
		{"neq", eq(c, rec(sCell, elem(sT, 1), n(4))), "false"},
	})
}

func TestLetEnumsElems(t *testing.T) {
	x := bound("x", sInt)
	y := bound("y", sInt)
	runCases(t, testInst(), []evalCase{
		{"let", let(x, n(3), op(expr.OpMul, ref(x), ref(x))), "9"},
		{"let-nested", let(x, n(3), let(y, op(expr.OpAdd, ref(x), n(1)), op(expr.OpSub, ref(y), ref(x)))), "1"},
		{"let-shadow", let(x, n(3), let(y, n(10), ref(x))), "3"},
		{"enum", enumc(sPhase, "Busy"), "Busy"},
		{"enum-eq", eq(enumc(sPhase, "Busy"), enumc(sPhase, "Busy")), "true"},
		{"enum-neq", eq(enumc(sPhase, "Busy"), enumc(sPhase, "Done")), "false"},
		{"elem", elem(sT, 1), "T#1"},
		{"elem-eq", eq(elem(sT, 1), elem(sT, 0)), "false"},
	})
}

func TestDefinitions(t *testing.T) {
	k := bound("k", sInt)
	sq := defn("sq", sInt, op(expr.OpMul, ref(k), ref(k)), k)
	j := bound("j", sInt)
	sumsq := defn("sumsq", sInt, op(expr.OpAdd, callDef(sq, ref(j)), callDef(sq, op(expr.OpAdd, ref(j), n(1)))), j)
	seven := defn("seven", sInt, n(7))
	runCases(t, testInst(), []evalCase{
		{"call", callDef(sq, n(3)), "9"},
		{"nested-call", callDef(sq, callDef(sq, n(2))), "16"},
		{"def-calls-def", callDef(sumsq, n(2)), "13"},
		{"nullary", op(expr.OpAdd, useDef(seven), n(1)), "8"},
		{"in-quantifier", forall(op(expr.OpGe, callDef(sq, ref(j)), n(0)), rng(j, n(-3), n(4))), "true"},
	})
}

// TestStates covers state variables, parameters, named states (c.x) and
// qualified definitions (c.f()) evaluated on another state.
func TestStates(t *testing.T) {
	a := &expr.Object{Kind: expr.ObjVar, Name: "a", Sort: sInt, Index: 0}
	b := &expr.Object{Kind: expr.ObjVar, Name: "b", Sort: sT, Index: 1}
	stateSort := &expr.Sort{Kind: expr.KRecord, Name: "Auto", Fields: []expr.Field{{Name: "a", Sort: sInt}, {Name: "b", Sort: sT}}}
	cObj := &expr.Object{Kind: expr.ObjState, Name: "c", Sort: stateSort}
	p := &expr.Object{Kind: expr.ObjParam, Name: "p", Sort: sInt, Index: 0}
	twiceA := defn("twiceA", sInt, op(expr.OpMul, ref(a), n(2)))
	recv := func() *expr.Ident { id := expr.NewIdent("c"); id.Obj = cObj; id.SetSort(stateSort); return id }

	env := &Env{
		Inst:   testInst(),
		State:  State{Int(5), Elem(1)},
		Params: []Value{Int(10)},
		States: map[*expr.Object]State{cObj: {Int(100), Elem(0)}},
	}
	for _, c := range []evalCase{
		{"var", ref(a), "5"},
		{"var2", ref(b), "T#1"},
		{"param", op(expr.OpAdd, ref(a), ref(p)), "15"},
		{"c.a", field(ref(cObj), "a"), "100"},
		{"c.b", field(ref(cObj), "b"), "T#0"},
		{"def-current", useDef(twiceA), "10"},
		{"def-recv", st(&expr.Call{Recv: recv(), Fun: func() *expr.Ident { id := expr.NewIdent("twiceA"); id.Obj = twiceA; return id }()}, sInt), "200"},
		{"state-as-record", ref(cObj), "Auto{a: 100, b: T#0}"},
	} {
		v, err := Eval(c.e, env)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := Format(v, c.e.Sort()); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
	// free bound variables through Env.Vars and Func
	x := bound("x", sInt)
	v, err := Eval(op(expr.OpAdd, ref(x), ref(a)), &Env{State: State{Int(1)}, Vars: map[*expr.Object]Value{x: Int(41)}})
	if err != nil || v.Int() != 42 {
		t.Errorf("Vars: got %v, %v", v, err)
	}
	f, err := Compile(op(expr.OpAdd, ref(x), field(ref(cObj), "a")), testInst(), x, cObj)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int64{0, 7, -3} {
		v, err := f.Eval(nil, nil, Int(k), State{Int(100), Elem(0)}.AsValue())
		if err != nil || v.Int() != 100+k {
			t.Errorf("Func.Eval(%d) = %v, %v", k, v, err)
		}
	}
	if _, err := f.Eval(nil, nil, Int(1)); err == nil {
		t.Errorf("Func.Eval with a missing free value: no error")
	}

	// c.m[t] for a state object c and a bound t or a parameter p takes a
	// fused path; it agrees with the general one, and a value without the
	// field is an error, not a crash.
	sTInt := expr.MapOf(sT, sInt)
	mSort := &expr.Sort{Kind: expr.KRecord, Name: "M", Fields: []expr.Field{{Name: "a", Sort: sInt}, {Name: "m", Sort: sTInt}}}
	mObj := &expr.Object{Kind: expr.ObjState, Name: "c", Sort: mSort}
	tv := bound("t", sT)
	pt := &expr.Object{Kind: expr.ObjParam, Name: "p", Sort: sT, Index: 0}
	cm := func(i expr.Expr) expr.Expr { return idx(field(ref(mObj), "m"), i) }
	mState := State{Int(0), Value{vs: []Value{Int(3), Int(4)}}}.AsValue()
	for _, c := range []struct {
		name   string
		e      expr.Expr
		params []Value
		want   bool
	}{
		{"slot-eq", exists(eq(cm(ref(tv)), n(4)), over(tv)), nil, true},
		{"slot-eq-all", forall(eq(cm(ref(tv)), n(4)), over(tv)), nil, false},
		{"slot-neq", exists(op(expr.OpNeq, cm(ref(tv)), n(3)), over(tv)), nil, true},
		{"slot-lt", forall(op(expr.OpLt, cm(ref(tv)), n(5)), over(tv)), nil, true},
		{"slot-value", forall(eq(op(expr.OpAdd, cm(ref(tv)), n(0)), cm(ref(tv))), over(tv)), nil, true},
		{"param", eq(cm(ref(pt)), n(4)), []Value{Elem(1)}, true},
		{"param-0", eq(cm(ref(pt)), n(4)), []Value{Elem(0)}, false},
		{"param-value", eq(op(expr.OpAdd, cm(ref(pt)), n(1)), n(4)), []Value{Elem(0)}, true},
	} {
		for _, noFold := range []bool{false, true} {
			c2 := newCompiler(testInst())
			c2.noFold = noFold
			c2.nparams = len(c.params)
			f, err := compileFunc(c2, c.e, []*expr.Object{mObj})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			v, err := f.Eval(nil, c.params, mState)
			if err != nil || v.Bool() != c.want {
				t.Errorf("%s (nofold=%v): got %v, %v; want %v", c.name, noFold, v, err, c.want)
			}
			if _, err := f.Eval(nil, c.params, Value{vs: []Value{Int(0)}}); err == nil {
				t.Errorf("%s (nofold=%v): a record without the field m: no error", c.name, noFold)
			}
		}
	}
}

func TestConstants(t *testing.T) {
	cT := &expr.Object{Kind: expr.ObjConst, Name: "t0", Sort: sT}
	cInt := &expr.Object{Kind: expr.ObjConst, Name: "max", Sort: sInt}
	cDef := &expr.Object{Kind: expr.ObjConst, Name: "three", Sort: sInt, Body: op(expr.OpAdd, n(1), n(2))}
	cDep := &expr.Object{Kind: expr.ObjConst, Name: "six", Sort: sInt, Body: op(expr.OpMul, ref(cDef), n(2))}
	cPhase := &expr.Object{Kind: expr.ObjConst, Name: "ph", Sort: sPhase}
	inst := testInst()
	runCases(t, inst, []evalCase{
		{"param-default", ref(cT), "T#0"},
		{"enum-default", ref(cPhase), "Idle"},
		{"defined", ref(cDef), "3"},
		{"dependent", ref(cDep), "6"},
	})
	if _, err := Eval(ref(cInt), &Env{Inst: inst}); err == nil || !strings.Contains(err.Error(), "no value") {
		t.Errorf("Int constant without value: got %v", err)
	}
	inst.Consts = map[string]Value{"max": Int(4), "t0": Elem(1), "three": Int(30)}
	runCases(t, inst, []evalCase{
		{"given-int", ref(cInt), "4"},
		{"given-param", ref(cT), "T#1"},
		{"given-overrides-body", ref(cDep), "60"},
	})
	inst.Consts = map[string]Value{"t0": Elem(7)}
	if _, err := Eval(ref(cT), &Env{Inst: inst}); err == nil {
		t.Errorf("constant given out of range: no error")
	}
}

// TestErrors checks what cannot be evaluated in a finite instance.
func TestErrors(t *testing.T) {
	i := bound("i", sInt)
	k := bound("k", sInt)
	free := bound("free", sInt)
	loop := defn("loop", sInt, nil)
	loop.Body = callDef(loop)
	for _, c := range []struct {
		name, want string
		e          expr.Expr
		inst       *Instance
	}{
		{"forall-int", "cannot range", forall(tt(), over(i)), testInst()},
		{"lambda-int", "cannot tabulate", lambda(k, tt()), testInst()},
		{"elem-out-of-range", "does not exist", elem(sT, 2), testInst()},
		{"no-size", "no size", elem(sT, 0), &Instance{}},
		{"map-int-key", "not finite", konstMap(sInt, n(0)), testInst()},
		{"free-var", "no value", ref(free), testInst()},
		{"state-var", "no state", ref(&expr.Object{Kind: expr.ObjVar, Name: "x", Sort: sInt}), testInst()},
		{"recursive-def", "calls itself", callDef(loop), testInst()},
		{"unsorted", "no sort", expr.NewIndex(expr.NewSeqLit(), n(0)), testInst()},
		{"bad", "malformed", expr.NewBadExpr(), testInst()},
		{"huge-range", "limit", exists(ff(), rng(i, n(0), n(math.MaxInt64))), testInst()},
		{"huge-domain", "exceed", exists(tt(), over(bound("m", expr.MapOf(sS, sV)))), &Instance{Sizes: map[string]int{"S": 3, "V": 3}, MaxEnum: 10}},
	} {
		_, err := Eval(c.e, &Env{Inst: c.inst})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestMalformedValues checks that values that do not fit their sorts give
// errors or "?", never panics.
func TestMalformedValues(t *testing.T) {
	a := &expr.Object{Kind: expr.ObjVar, Name: "a", Sort: expr.MapOf(sT, sV), Index: 0}
	_, err := Eval(idx(ref(a), elem(sT, 1)), &Env{Inst: testInst(), State: State{Value{}}})
	if err == nil {
		t.Errorf("indexing a malformed map: no error")
	}
	for _, c := range []struct {
		v Value
		s *expr.Sort
	}{
		{Value{}, expr.MapOf(sT, sV)},
		{Int(7), sPhase},
		{Seq(Int(1)), sBool},
		{Record(Int(1)), sCell},
		{Value{n: 3}, expr.OptionOf(sT)},
		{Value{vs: []Value{Int(1)}}, expr.MapOf(sBool, sInt)},
		{Value{vs: []Value{Int(1), Int(2)}}, expr.MapOf(expr.OptionOf(sT), sInt)},
	} {
		if got := Format(c.v, c.s); !strings.Contains(got, "?") {
			t.Errorf("Format of a malformed %s = %s, want a ?", c.s, got)
		}
	}
}

// TestFormatVar checks that a small map that is not constant is printed
// entry by entry, every key in order, and that constant and larger maps
// and other values keep Format's notation.
func TestFormatVar(t *testing.T) {
	inst := testInst()
	m0 := konstMap(sT, elem(sV, 0))
	cases := []struct {
		e    expr.Expr
		want string
	}{
		{upd(m0, elem(sT, 1), elem(sV, 2)), "x[T#0] = V#0, x[T#1] = V#2"},
		{m0, "x = const(V#0)"},
		{upd(upd(konstMap(sS, elem(sV, 0)), elem(sS, 0), elem(sV, 1)), elem(sS, 1), elem(sV, 1)), "x[S#0] = V#1, x[S#1] = V#1, x[S#2] = V#0"},
		{n(3), "x = 3"},
	}
	for _, c := range cases {
		v, err := Eval(c.e, &Env{Inst: inst})
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatVar("x", v, c.e.Sort()); got != c.want {
			t.Errorf("FormatVar = %q, want %q", got, c.want)
		}
	}
}
