package z3

import (
	"strings"
	"testing"
)

func TestAssertSMTLIB2(t *testing.T) {
	ctx := newCtx(t)
	cases := []struct {
		name, text string
		want       Result
	}{
		{"lia-unsat", `(declare-fun x () Int)(assert (> x 0))(assert (< x 1))(check-sat)`, Unsat},
		{"lia-sat", `(declare-const x Int)(assert (> x 0))`, Sat},
		{"datatypes", `
(declare-datatypes ((Opt 0)) (((none) (some (val Int)))))
(declare-fun o () Opt)
(assert ((_ is some) o))
(assert (= (val o) 3))
(assert (not (= o (some 3))))`, Unsat},
		{"sorts-arrays", `
(declare-sort Proc 0)
(declare-datatypes ((Status 0)) (((idle) (busy))))
(declare-fun status () (Array Proc Status))
(declare-fun p () Proc)
(declare-fun q () Proc)
(assert (= (select status p) busy))
(assert (= (select (store status q idle) p) idle))
(assert (not (= p q)))`, Unsat},
		{"define-fun", `
(define-fun double ((n Int)) Int (* 2 n))
(declare-fun k () Int)
(assert (= (double k) 7))`, Unsat},
		{"quantified", `
(declare-sort U 0)
(declare-fun r (U U) Bool)
(assert (forall ((a U)) (not (r a a))))
(assert (forall ((a U) (b U) (c U)) (=> (and (r a b) (r b c)) (r a c))))
(declare-fun u () U)
(declare-fun v () U)
(assert (r u v))
(assert (r v u))`, Unsat},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
			if err := s.AssertSMTLIB2(tc.text); err != nil {
				t.Fatal(err)
			}
			r, err := s.Check()
			if err != nil {
				t.Fatal(err)
			}
			wantResult(t, r, tc.want, s)
		})
	}
	// Two scripts into the same solver share symbols by name and sort.
	s := newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
	if err := s.AssertSMTLIB2(`(declare-fun z () Int)(assert (> z 5))`); err != nil {
		t.Fatal(err)
	}
	if err := s.AssertSMTLIB2(`(declare-fun z () Int)(assert (< z 3))`); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Unsat {
		t.Errorf("split script: %v %v", r, err)
	}
	// Repeating an identical datatype declaration yields the same sort,
	// so constants of the two scripts are the same.
	const opt = `(declare-datatypes ((Opt 0)) (((none) (some (val Int)))))(declare-fun o () Opt)`
	s = newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
	if err := s.AssertSMTLIB2(opt + `(assert ((_ is some) o))`); err != nil {
		t.Fatal(err)
	}
	if err := s.AssertSMTLIB2(opt + `(assert ((_ is none) o))`); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Unsat {
		t.Errorf("repeated datatype declaration: %v %v", r, err)
	}
}

func TestToSMT2RoundTrip(t *testing.T) {
	build := func(ctx *Context, contradict bool) *Solver {
		a := ok[AST](t)
		is := ok[Sort](t)(ctx.IntSort())
		T := ok[Sort](t)(ctx.UninterpretedSort("T"))
		color, vals, _, err := ctx.EnumSort("Color", []string{"red", "green"})
		if err != nil {
			t.Fatal(err)
		}
		opt, err := ctx.DatatypeSort("OptT", []ConstructorSpec{
			{Name: "noneT"},
			{Name: "someT", Fields: []Field{{Name: "valT", Sort: T}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		st := ok[Sort](t)(ctx.ArraySort(T, color))
		status := a(ctx.Const("s.status", st))
		p := a(ctx.Const("p", T))
		o := a(ctx.Const("o", opt.Sort))
		n := a(ctx.FreshConst("n", is))
		q := a(ctx.Const("q", T))
		s := newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
		for _, f := range []AST{
			a(ctx.Eq(a(ctx.Select(status, p)), vals[0])),
			a(ctx.Apply(opt.Constructors[1].Tester, o)),
			a(ctx.Eq(a(ctx.Apply(opt.Constructors[1].Accessors[0], o)), p)),
			a(ctx.Gt(n, a(ctx.Int(2)))),
			a(ctx.Forall([]AST{q}, a(ctx.Eq(a(ctx.Select(status, q)), a(ctx.Select(status, p)))))),
		} {
			if err := s.Assert(f); err != nil {
				t.Fatal(err)
			}
		}
		if contradict {
			x := a(ctx.Const("x", T))
			if err := s.Assert(a(ctx.Eq(a(ctx.Select(status, x)), vals[1]))); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	for _, contradict := range []bool{false, true} {
		want := Sat
		if contradict {
			want = Unsat
		}
		ctx1 := newCtx(t)
		s1 := build(ctx1, contradict)
		r1, err := s1.Check()
		if err != nil {
			t.Fatal(err)
		}
		wantResult(t, r1, want, s1)
		text, err := s1.ToSMT2()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(text, "(check-sat)\n") || strings.Contains(text, "model-") {
			t.Errorf("ToSMT2 output:\n%s", text)
		}
		ctx2 := newCtx(t)
		s2 := newSolver(t, ctx2, SolverConfig{RLimit: testRLimit})
		if err := s2.AssertSMTLIB2(text); err != nil {
			t.Fatalf("re-parse: %v\n%s", err, text)
		}
		r2, err := s2.Check()
		if err != nil {
			t.Fatal(err)
		}
		if r2 != r1 {
			t.Errorf("verdict %v after round trip, %v before\n%s", r2, r1, text)
		}
		// The text is stable under a second round trip.
		text2 := ok[string](t)(s2.ToSMT2())
		if text2 != text {
			t.Errorf("second round trip differs:\n%s\n---\n%s", text, text2)
		}
		if !contradict {
			t.Logf("ToSMT2:\n%s", text)
		}
	}
}

func TestParseAndEvalSMTLIB2(t *testing.T) {
	ctx := newCtx(t)
	const text = `
(declare-sort T 0)
(declare-datatypes ((St 0)) (((idle) (busy) (done))))
(declare-datatypes ((OptInt 0)) (((none) (some (val Int)))))
(declare-fun s.status () (Array T St))
(declare-fun s.count () (Array T Int))
(declare-fun t1 () T)
(declare-fun t2 () T)
(declare-fun o () OptInt)
(declare-fun unused () Int)
(assert (not (= t1 t2)))
(assert (= (select s.status t1) busy))
(assert (= (select s.status t2) done))
(assert (= (select s.count t1) 4))
(assert (= o (some (select s.count t1))))
(check-sat)`
	p, err := ctx.ParseSMTLIB2(text, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Assertions) != 5 {
		t.Errorf("%d assertions", len(p.Assertions))
	}
	for _, name := range []string{"s.status", "s.count", "t1", "t2", "o"} {
		if _, found := p.Consts[name]; !found {
			t.Errorf("constant %q not found in %v", name, p.Consts)
		}
	}
	if _, found := p.Consts["unused"]; found {
		t.Errorf("unused constant reported")
	}
	s := newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
	for _, f := range p.Assertions {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	r, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	wantResult(t, r, Sat, s)
	m := modelOf(t, s)

	consts := ok[map[string]AST](t)(m.Consts())
	t1, found := consts["t1"]
	if !found {
		t.Fatalf("model constants %v", consts)
	}
	t1v := ok[AST](t)(m.Eval(t1, true))
	// Evaluate textual terms mentioning universe elements of the model.
	v := ok[AST](t)(m.EvalSMTLIB2("(select s.status "+t1v.String()+")", true))
	if v.DeclName() != "busy" {
		t.Errorf("(select s.status %v) = %v", t1v, v)
	}
	if n := evalInt(t, m, ok[AST](t)(m.EvalSMTLIB2("(+ 1 (select s.count t1))", true))); n != 5 {
		t.Errorf("count+1 = %d", n)
	}
	v = ok[AST](t)(m.EvalSMTLIB2("(val o)", true))
	if n, _ := v.Int64(); n != 4 {
		t.Errorf("(val o) = %v", v)
	}
	v = ok[AST](t)(m.EvalSMTLIB2("((_ is some) o)", true))
	if v.BoolValue() != True {
		t.Errorf("(is some o) = %v", v)
	}
	if _, err := m.EvalSMTLIB2("(select s.status nosuch)", true); err == nil {
		t.Error("EvalSMTLIB2 with unknown symbol succeeded")
	}
	// ParseTerm with explicit declarations.
	is := ok[Sort](t)(ctx.IntSort())
	k := ok[AST](t)(ctx.Const("k", is))
	kd := ok[FuncDecl](t)(k.Decl())
	term := ok[AST](t)(ctx.ParseTerm("(* k (+ k 1))", nil, []FuncDecl{kd}))
	if term.DeclKind() != OpMul {
		t.Errorf("ParseTerm = %v", term)
	}
}

func TestModelInspection(t *testing.T) {
	ctx := newCtx(t)
	s := newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
	if err := s.AssertSMTLIB2(`
(declare-fun a () (Array Int Int))
(declare-fun g (Int) Int)
(declare-fun b () Bool)
(assert (= (select a 1) 10))
(assert (= (select a 2) 20))
(assert (= (g 5) 50))
(assert (= (g 6) 60))
(assert b)`); err != nil {
		t.Fatal(err)
	}
	r, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	wantResult(t, r, Sat, s)
	m := modelOf(t, s)
	if !strings.Contains(m.String(), "b") {
		t.Errorf("model string %q", m.String())
	}
	decls := ok[[]FuncDecl](t)(m.ConstDecls())
	names := map[string]FuncDecl{}
	for _, d := range decls {
		names[d.Name()] = d
	}
	bd, found := names["b"]
	if !found {
		t.Fatalf("const decls %v", decls)
	}
	bv, has, err := m.ConstInterp(bd)
	if err != nil || !has || bv.BoolValue() != True {
		t.Errorf("ConstInterp(b) = %v %v %v", bv, has, err)
	}
	av := ok[AST](t)(m.EvalSMTLIB2("a", true))
	t.Logf("array value: %v (as-array %v, kind %v)", av, av.IsAsArray(), av.DeclKind())
	entries, def, decoded := arrayValue(t, m, av)
	at := func(k int64) int64 {
		if v, found := entries[k]; found {
			return v
		}
		return def
	}
	if decoded && (at(1) != 10 || at(2) != 20) {
		t.Errorf("decoded %v default %d", entries, def)
	}
	for _, d := range ok[[]FuncDecl](t)(m.FuncDecls()) {
		if d.Name() != "g" {
			continue
		}
		fi, has, err := m.FuncInterp(d)
		if err != nil || !has {
			t.Fatalf("FuncInterp(g): %v %v", has, err)
		}
		got := map[int64]int64{}
		for _, e := range fi.Entries {
			k, _ := e.Args[0].Int64()
			v, _ := e.Value.Int64()
			got[k] = v
		}
		at := func(k int64) int64 {
			if v, found := got[k]; found {
				return v
			}
			v, _ := fi.Else.Int64()
			return v
		}
		if at(5) != 50 || at(6) != 60 {
			t.Errorf("g entries %v (else %v)", got, fi.Else)
		}
		if d.Arity() != 1 || ok[Sort](t)(d.Domain(0)).Kind() != IntSortKind {
			t.Errorf("g signature %v", d)
		}
		return
	}
	t.Error("g has no interpretation")
}
