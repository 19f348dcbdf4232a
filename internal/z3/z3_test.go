package z3

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// ok returns a checker that fails the test on error and returns the value.
func ok[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func newCtx(t testing.TB) *Context {
	t.Helper()
	ctx, err := NewContext(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ctx.Close)
	return ctx
}

func newSolver(t testing.TB, ctx *Context, cfg SolverConfig) *Solver {
	t.Helper()
	s, err := ctx.NewSolver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// testRLimit bounds every check in the tests so none can run away.
const testRLimit = 20_000_000

// checkWith asserts fs in a fresh solver and returns the verdict.
func checkWith(t testing.TB, ctx *Context, fs ...AST) (Result, *Solver) {
	t.Helper()
	s := newSolver(t, ctx, SolverConfig{RandomSeed: 1, RLimit: testRLimit})
	for _, f := range fs {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	r, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	return r, s
}

func wantResult(t testing.TB, got, want Result, s *Solver) {
	t.Helper()
	if got != want {
		t.Fatalf("got %v, want %v (reason %q)\n%s", got, want, s.ReasonUnknown(), s)
	}
}

func modelOf(t testing.TB, s *Solver) *Model {
	t.Helper()
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func evalInt(t testing.TB, m *Model, a AST) int64 {
	t.Helper()
	v, err := m.Eval(a, true)
	if err != nil {
		t.Fatal(err)
	}
	n, isInt := v.Int64()
	if !isInt {
		t.Fatalf("eval %v = %v, not an int64 numeral", a, v)
	}
	return n
}

func TestVersion(t *testing.T) {
	v := Version()
	if !strings.HasPrefix(v, "4.") || strings.Count(v, ".") != 2 {
		t.Fatalf("Version() = %q", v)
	}
	t.Logf("libz3 %s", v)
}

func TestBool(t *testing.T) {
	ctx := newCtx(t)
	a, s := ok[AST](t), ok[Sort](t)
	b := s(ctx.BoolSort())
	p, q := a(ctx.Const("p", b)), a(ctx.Const("q", b))
	notP := a(ctx.Not(p))

	r, sv := checkWith(t, ctx, p, notP)
	wantResult(t, r, Unsat, sv)

	// p xor q, p => q, not (p and q): forces p=false, q=true.
	r, sv = checkWith(t, ctx, a(ctx.Xor(p, q)), a(ctx.Implies(p, q)), a(ctx.Not(a(ctx.And(p, q)))))
	wantResult(t, r, Sat, sv)
	m := modelOf(t, sv)
	if v := a(m.Eval(p, true)).BoolValue(); v != False {
		t.Errorf("p = %v, want false", v)
	}
	if v := a(m.Eval(q, true)).BoolValue(); v != True {
		t.Errorf("q = %v, want true", v)
	}
	// iff, or, ite and the literals.
	tr, fa := a(ctx.True()), a(ctx.False())
	f := a(ctx.Iff(a(ctx.Ite(p, tr, fa)), p))
	r, sv = checkWith(t, ctx, a(ctx.Not(f)))
	wantResult(t, r, Unsat, sv)
	r, sv = checkWith(t, ctx, a(ctx.Or()))
	wantResult(t, r, Unsat, sv)
	r, sv = checkWith(t, ctx, a(ctx.And()))
	wantResult(t, r, Sat, sv)
	// A non-literal has an undefined Boolean value.
	if v := p.BoolValue(); v != Undef {
		t.Errorf("BoolValue(p) = %v, want undef", v)
	}
}

func TestIntArithmetic(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	x, y, z := a(ctx.Const("x", ok[Sort](t)(ctx.IntSort()))), AST{}, AST{}
	is := ok[Sort](t)(ctx.IntSort())
	y = a(ctx.Const("y", is))
	z = a(ctx.Const("z", is))
	ten, four := a(ctx.Int(10)), a(ctx.Int(4))
	r, s := checkWith(t, ctx,
		a(ctx.Eq(a(ctx.Add(x, y)), ten)),
		a(ctx.Eq(a(ctx.Sub(x, y)), four)),
		a(ctx.Eq(z, a(ctx.Mul(a(ctx.Neg(x)), a(ctx.Int(2)))))))
	wantResult(t, r, Sat, s)
	m := modelOf(t, s)
	if got := evalInt(t, m, x); got != 7 {
		t.Errorf("x = %d, want 7", got)
	}
	if got := evalInt(t, m, y); got != 3 {
		t.Errorf("y = %d, want 3", got)
	}
	zv := a(m.Eval(z, true))
	if got := evalInt(t, m, z); got != -14 {
		t.Errorf("z = %d, want -14", got)
	}
	if str := ok[string](t)(zv.NumeralString()); str != "-14" {
		t.Errorf("NumeralString(z) = %q, want -14", str)
	}

	// div and mod follow SMT-LIB (Euclidean) semantics.
	m17 := a(ctx.Int(-17))
	five := a(ctx.Int(5))
	r, s = checkWith(t, ctx, a(ctx.Eq(x, a(ctx.Div(m17, five)))), a(ctx.Eq(y, a(ctx.Mod(m17, five)))))
	wantResult(t, r, Sat, s)
	m = modelOf(t, s)
	if gx, gy := evalInt(t, m, x), evalInt(t, m, y); gx != -4 || gy != 3 {
		t.Errorf("-17 div 5 = %d, -17 mod 5 = %d; want -4, 3", gx, gy)
	}

	// Comparisons: x > 3 and x < 2 is unsat; x >= 3 and x <= 3 pins x.
	r, s = checkWith(t, ctx, a(ctx.Gt(x, a(ctx.Int(3)))), a(ctx.Lt(x, a(ctx.Int(2)))))
	wantResult(t, r, Unsat, s)
	r, s = checkWith(t, ctx, a(ctx.Ge(x, a(ctx.Int(3)))), a(ctx.Le(x, a(ctx.Int(3)))))
	wantResult(t, r, Sat, s)
	if got := evalInt(t, modelOf(t, s), x); got != 3 {
		t.Errorf("x = %d, want 3", got)
	}
	r, s = checkWith(t, ctx, a(ctx.Distinct(x, y, z)), a(ctx.Eq(x, y)))
	wantResult(t, r, Unsat, s)
}

func TestBigNumerals(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	x := a(ctx.Const("x", is))
	const big = "-123456789012345678901234567890"
	n := a(ctx.BigInt(big))
	r, s := checkWith(t, ctx, a(ctx.Eq(a(ctx.Add(x, a(ctx.Int(1)))), n)))
	wantResult(t, r, Sat, s)
	v := a(modelOf(t, s).Eval(x, true))
	if !v.IsNumeral() {
		t.Fatalf("x = %v is not a numeral", v)
	}
	if got := ok[string](t)(v.NumeralString()); got != "-123456789012345678901234567891" {
		t.Errorf("x = %s", got)
	}
	if _, fits := v.Int64(); fits {
		t.Errorf("Int64 of a 30-digit numeral reported ok")
	}
	if _, err := ctx.BigInt("12x"); err == nil {
		t.Error("BigInt(12x) succeeded")
	}
}

func TestEnumSort(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	color, vals, testers, err := ctx.EnumSort("Color", []string{"red", "green", "blue"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != 3 || len(testers) != 3 {
		t.Fatalf("got %d values, %d testers", len(vals), len(testers))
	}
	if color.Kind() != DatatypeSortKind || color.Name() != "Color" {
		t.Errorf("sort %v kind %v name %q", color, color.Kind(), color.Name())
	}
	c := a(ctx.Const("c", color))
	r, s := checkWith(t, ctx, a(ctx.Not(a(ctx.Eq(c, vals[0])))), a(ctx.Not(a(ctx.Eq(c, vals[1])))))
	wantResult(t, r, Sat, s)
	m := modelOf(t, s)
	v := a(m.Eval(c, true))
	if !v.Equal(vals[2]) || v.DeclName() != "blue" {
		t.Errorf("c = %v (decl %q), want blue", v, v.DeclName())
	}
	if got := a(m.Eval(a(ctx.Apply(testers[2], c)), true)).BoolValue(); got != True {
		t.Errorf("is-blue(c) = %v", got)
	}
	// Four distinct colors do not exist.
	d := make([]AST, 4)
	for i := range d {
		d[i] = a(ctx.FreshConst("d", color))
	}
	r, s = checkWith(t, ctx, a(ctx.Distinct(d...)))
	wantResult(t, r, Unsat, s)
}

func TestUninterpretedSortUniverse(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	T := ok[Sort](t)(ctx.UninterpretedSort("T"))
	if T.Kind() != UninterpretedSortKind {
		t.Fatalf("kind %v", T.Kind())
	}
	x, y, z := a(ctx.Const("x", T)), a(ctx.Const("y", T)), a(ctx.Const("z", T))
	r, s := checkWith(t, ctx, a(ctx.Distinct(x, y, z)))
	wantResult(t, r, Sat, s)
	m := modelOf(t, s)
	univ := ok[[]AST](t)(m.SortUniverse(T))
	if len(univ) < 3 {
		t.Fatalf("universe %v has fewer than 3 elements", univ)
	}
	seen := map[string]bool{}
	for _, c := range []AST{x, y, z} {
		v := a(m.Eval(c, true))
		found := false
		for _, e := range univ {
			if e.Equal(v) {
				found = true
			}
		}
		if !found {
			t.Errorf("%v = %v is not in the universe %v", c, v, univ)
		}
		seen[v.String()] = true
	}
	if len(seen) != 3 {
		t.Errorf("values not distinct: %v", seen)
	}
	sorts := ok[[]Sort](t)(m.Sorts())
	if len(sorts) != 1 || !sorts[0].Equal(T) {
		t.Errorf("model sorts %v", sorts)
	}
	// Every T is x or y, yet x, y, z are distinct: unsat.
	q := a(ctx.Const("q", T))
	all := a(ctx.Forall([]AST{q}, a(ctx.Or(a(ctx.Eq(q, x)), a(ctx.Eq(q, y))))))
	r, s = checkWith(t, ctx, all, a(ctx.Distinct(x, y, z)))
	wantResult(t, r, Unsat, s)
	// The universe of Int is not available.
	if _, err := m.SortUniverse(ok[Sort](t)(ctx.IntSort())); err == nil {
		t.Error("SortUniverse(Int) succeeded")
	}
}

// arrayValue decodes a model array value into explicit entries and a
// default, following the shapes Z3 returns: store chains over a constant
// array, as-array with a function interpretation, or a lambda.
func arrayValue(t *testing.T, m *Model, v AST) (map[int64]int64, int64, bool) {
	t.Helper()
	entries := map[int64]int64{}
	for {
		switch {
		case v.DeclKind() == OpStore:
			args := ok[[]AST](t)(v.Args())
			k, _ := args[1].Int64()
			val, _ := args[2].Int64()
			if _, dup := entries[k]; !dup {
				entries[k] = val
			}
			v = args[0]
			continue
		case v.DeclKind() == OpConstArray:
			d, _ := ok[AST](t)(v.Arg(0)).Int64()
			return entries, d, true
		case v.IsAsArray():
			fi, found, err := m.FuncInterp(ok[FuncDecl](t)(v.AsArrayDecl()))
			if err != nil || !found {
				t.Fatalf("as-array interpretation: %v %v", found, err)
			}
			for _, e := range fi.Entries {
				k, _ := e.Args[0].Int64()
				val, _ := e.Value.Int64()
				if _, dup := entries[k]; !dup {
					entries[k] = val
				}
			}
			d, _ := fi.Else.Int64()
			return entries, d, true
		case v.IsLambda():
			return entries, 0, false
		}
		t.Fatalf("unexpected array value %v", v)
	}
}

func TestArrays(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	arrS := ok[Sort](t)(ctx.ArraySort(is, is))
	if arrS.Kind() != ArraySortKind || !ok[Sort](t)(arrS.ArrayDomain()).Equal(is) ||
		!ok[Sort](t)(arrS.ArrayRange()).Equal(is) {
		t.Fatalf("array sort %v", arrS)
	}
	arr := a(ctx.Const("arr", arrS))
	i, j := a(ctx.Const("i", is)), a(ctx.Const("j", is))
	one, five := a(ctx.Int(1)), a(ctx.Int(5))

	// select(store(arr, i, 5), i) = 5 is valid.
	valid := a(ctx.Eq(a(ctx.Select(a(ctx.Store(arr, i, five)), i)), five))
	r, s := checkWith(t, ctx, a(ctx.Not(valid)))
	wantResult(t, r, Unsat, s)

	// Constant array: select(K(1), j) = 5 is unsat; default is 1.
	k1 := a(ctx.ConstArray(is, one))
	r, s = checkWith(t, ctx, a(ctx.Eq(a(ctx.Select(k1, j)), five)))
	wantResult(t, r, Unsat, s)
	r, s = checkWith(t, ctx, a(ctx.Not(a(ctx.Eq(a(ctx.ArrayDefault(k1)), one)))))
	wantResult(t, r, Unsat, s)

	// Model values read back through Eval of select, and through the
	// array value itself.
	r, s = checkWith(t, ctx,
		a(ctx.Eq(a(ctx.Select(arr, a(ctx.Int(3)))), a(ctx.Int(7)))),
		a(ctx.Eq(a(ctx.Select(arr, a(ctx.Int(4)))), a(ctx.Int(8)))))
	wantResult(t, r, Sat, s)
	m := modelOf(t, s)
	if got := evalInt(t, m, a(ctx.Select(arr, a(ctx.Int(3))))); got != 7 {
		t.Errorf("arr[3] = %d", got)
	}
	val := a(m.Eval(arr, true))
	t.Logf("array model value: %v", val)
	entries, def, decoded := arrayValue(t, m, val)
	at := func(k int64) int64 {
		if v, found := entries[k]; found {
			return v
		}
		return def
	}
	if decoded && (at(3) != 7 || at(4) != 8) {
		t.Errorf("decoded array %v default %d", entries, def)
	}
}

func TestLambda(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	x := a(ctx.Const("x", is))
	inc := a(ctx.Lambda([]AST{x}, a(ctx.Add(x, a(ctx.Int(1))))))
	if !inc.IsLambda() || inc.NumBound() != 1 {
		t.Fatalf("lambda %v: IsLambda %v NumBound %d", inc, inc.IsLambda(), inc.NumBound())
	}
	if name := ok[string](t)(inc.BoundName(0)); name != "x" {
		t.Errorf("bound name %q", name)
	}
	body := a(inc.Body())
	if body.DeclKind() != OpAdd {
		t.Errorf("body %v", body)
	}
	v := a(body.Arg(0))
	if idx, isVar := v.VarIndex(); !isVar || idx != 0 {
		t.Errorf("body arg %v: var %v idx %d", v, isVar, idx)
	}
	s := ok[Sort](t)(inc.Sort())
	if s.Kind() != ArraySortKind {
		t.Errorf("lambda sort %v", s)
	}
	// (select inc 4) = 5 is valid.
	r, sv := checkWith(t, ctx, a(ctx.Not(a(ctx.Eq(a(ctx.Select(inc, a(ctx.Int(4)))), a(ctx.Int(5)))))))
	wantResult(t, r, Unsat, sv)
}

func TestDatatypes(t *testing.T) {
	ctx := newCtx(t)
	a, d := ok[AST](t), ok[FuncDecl](t)
	is := ok[Sort](t)(ctx.IntSort())
	bs := ok[Sort](t)(ctx.BoolSort())
	opt, err := ctx.DatatypeSort("OptionInt", []ConstructorSpec{
		{Name: "none"},
		{Name: "some", Fields: []Field{{Name: "val", Sort: is}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	none, some := opt.Constructors[0], opt.Constructors[1]
	if len(some.Accessors) != 1 || some.Accessors[0].Name() != "val" || some.Tester.Kind() != OpDTIs {
		t.Fatalf("constructors %+v", opt.Constructors)
	}
	o := a(ctx.Const("o", opt.Sort))
	r, s := checkWith(t, ctx, a(ctx.Apply(some.Tester, o)), a(ctx.Eq(a(ctx.Apply(some.Accessors[0], o)), a(ctx.Int(42)))))
	wantResult(t, r, Sat, s)
	v := a(modelOf(t, s).Eval(o, true))
	if v.DeclName() != "some" || v.DeclKind() != OpDTConstructor {
		t.Fatalf("o = %v", v)
	}
	if n, _ := a(v.Arg(0)).Int64(); n != 42 {
		t.Errorf("o = %v, want (some 42)", v)
	}
	r, s = checkWith(t, ctx, a(ctx.Apply(none.Tester, o)), a(ctx.Apply(some.Tester, o)))
	wantResult(t, r, Unsat, s)
	// Constructors are injective: some(x) = some(y) and x != y is unsat.
	x, y := a(ctx.Const("x", is)), a(ctx.Const("y", is))
	r, s = checkWith(t, ctx, a(ctx.Eq(a(ctx.Apply(some.Constructor, x)), a(ctx.Apply(some.Constructor, y)))),
		a(ctx.Not(a(ctx.Eq(x, y)))))
	wantResult(t, r, Unsat, s)

	// A record with several fields.
	pair, err := ctx.DatatypeSort("Pair", []ConstructorSpec{
		{Name: "mk-pair", Fields: []Field{{Name: "fst", Sort: is}, {Name: "snd", Sort: bs}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := a(ctx.Apply(pair.Constructors[0].Constructor, a(ctx.Int(3)), a(ctx.True())))
	r, s = checkWith(t, ctx, a(ctx.Not(a(ctx.Eq(a(ctx.Apply(pair.Constructors[0].Accessors[0], p)), a(ctx.Int(3)))))))
	wantResult(t, r, Unsat, s)

	// A recursive list.
	list, err := ctx.DatatypeSort("IntList", []ConstructorSpec{
		{Name: "nil"},
		{Name: "cons", Fields: []Field{{Name: "head", Sort: is}, {Name: "tail", Self: true}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cons := list.Constructors[1]
	nilV := a(ctx.Apply(list.Constructors[0].Constructor))
	l := a(ctx.Apply(cons.Constructor, a(ctx.Int(1)), nilV))
	r, s = checkWith(t, ctx, a(ctx.Eq(a(ctx.Apply(cons.Accessors[0], l)), a(ctx.Int(2)))))
	wantResult(t, r, Unsat, s)
	tailS := ok[Sort](t)(cons.Accessors[1].Range())
	if !tailS.Equal(list.Sort) {
		t.Errorf("tail sort %v", tailS)
	}
	// Reading the declarations back from the sort.
	cs := ok[[]Constructor](t)(list.Sort.DatatypeConstructors())
	if len(cs) != 2 || cs[1].Name != "cons" || len(cs[1].Accessors) != 2 || !cs[1].Constructor.Equal(cons.Constructor) {
		t.Errorf("DatatypeConstructors = %+v", cs)
	}
	_ = d
}

func TestSeq(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	ss := ok[Sort](t)(ctx.SeqSort(is))
	if ss.Kind() != SeqSortKind || !ok[Sort](t)(ss.SeqElem()).Equal(is) {
		t.Fatalf("seq sort %v", ss)
	}
	q := a(ctx.Const("q", ss))
	u := a(ctx.SeqConcat(a(ctx.SeqUnit(a(ctx.Int(1)))), a(ctx.SeqUnit(a(ctx.Int(2))))))
	r, s := checkWith(t, ctx, a(ctx.Eq(q, u)), a(ctx.Not(a(ctx.Eq(a(ctx.SeqLength(q)), a(ctx.Int(2)))))))
	wantResult(t, r, Unsat, s)
	r, s = checkWith(t, ctx, a(ctx.Eq(q, a(ctx.SeqEmpty(ss)))), a(ctx.Gt(a(ctx.SeqLength(q)), a(ctx.Int(0)))))
	wantResult(t, r, Unsat, s)
}

func TestQuantifiers(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	f := ok[FuncDecl](t)(ctx.FuncDecl("f", []Sort{is}, is))
	x := a(ctx.Const("x", is))
	fx := a(ctx.Apply(f, x))
	pat := ok[Pattern](t)(ctx.Pattern(fx))
	ax := a(ctx.Forall([]AST{x}, a(ctx.Gt(fx, x)), pat))
	if !ax.IsForall() || ax.IsExists() || ax.NumBound() != 1 {
		t.Fatalf("forall %v", ax)
	}
	three := a(ctx.Int(3))
	r, s := checkWith(t, ctx, ax, a(ctx.Lt(a(ctx.Apply(f, three)), three)))
	wantResult(t, r, Unsat, s)
	// A satisfiable axiom: f has an interpretation in the model.
	nonneg := a(ctx.Forall([]AST{x}, a(ctx.Ge(fx, a(ctx.Int(0)))), pat))
	r, s = checkWith(t, ctx, nonneg, a(ctx.Eq(a(ctx.Apply(f, three)), a(ctx.Int(10)))))
	wantResult(t, r, Sat, s)
	m := modelOf(t, s)
	if got := evalInt(t, m, a(ctx.Apply(f, three))); got != 10 {
		t.Errorf("f(3) = %d", got)
	}
	fds := ok[[]FuncDecl](t)(m.FuncDecls())
	found := false
	for _, fd := range fds {
		if fd.Equal(f) {
			found = true
			fi, has, err := m.FuncInterp(fd)
			if err != nil || !has || fi.Arity != 1 {
				t.Errorf("FuncInterp(f) = %+v %v %v", fi, has, err)
			}
		}
	}
	if !found {
		t.Errorf("f not among model functions %v", fds)
	}
	// exists y. 5 < y < 7, and (the only such y is 6) y != 6 under forall: unsat.
	y := a(ctx.Const("y", is))
	ex := a(ctx.Exists([]AST{y}, a(ctx.And(a(ctx.Lt(a(ctx.Int(5)), y)), a(ctx.Lt(y, a(ctx.Int(7))))))))
	if !ex.IsExists() {
		t.Fatalf("exists %v", ex)
	}
	r, s = checkWith(t, ctx, ex)
	wantResult(t, r, Sat, s)
	no := a(ctx.Not(ex))
	r, s = checkWith(t, ctx, no)
	wantResult(t, r, Unsat, s)
}

func TestPushPopReset(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	x := a(ctx.Const("x", is))
	zero := a(ctx.Int(0))
	s := newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
	check := func(want Result) {
		t.Helper()
		r, err := s.Check()
		if err != nil {
			t.Fatal(err)
		}
		wantResult(t, r, want, s)
	}
	if err := s.Assert(a(ctx.Gt(x, zero))); err != nil {
		t.Fatal(err)
	}
	check(Sat)
	if err := s.Push(); err != nil {
		t.Fatal(err)
	}
	if s.NumScopes() != 1 {
		t.Errorf("NumScopes = %d", s.NumScopes())
	}
	if err := s.Assert(a(ctx.Lt(x, zero))); err != nil {
		t.Fatal(err)
	}
	check(Unsat)
	if err := s.Pop(1); err != nil {
		t.Fatal(err)
	}
	check(Sat)
	if err := s.Pop(1); err == nil {
		t.Error("Pop with no open scope succeeded")
	}
	if err := s.Assert(a(ctx.Lt(x, zero))); err != nil {
		t.Fatal(err)
	}
	check(Unsat)
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if n := len(ok[[]AST](t)(s.Assertions())); n != 0 {
		t.Errorf("%d assertions after Reset", n)
	}
	check(Sat)
}

// hardNonlinear is a problem Z3 cannot settle within a tiny resource limit.
const hardNonlinear = `
(declare-fun x () Int)
(declare-fun y () Int)
(declare-fun z () Int)
(assert (> x 0))
(assert (> y 0))
(assert (> z 0))
(assert (= (+ (* x x x) (* y y y)) (* z z z)))
`

func TestRLimitUnknown(t *testing.T) {
	ctx := newCtx(t)
	s := newSolver(t, ctx, SolverConfig{RLimit: 1, RandomSeed: 3})
	if err := s.AssertSMTLIB2(hardNonlinear); err != nil {
		t.Fatal(err)
	}
	r, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	if r != Unknown {
		t.Fatalf("got %v with rlimit 1", r)
	}
	reason := s.ReasonUnknown()
	if reason == "" || !strings.Contains(reason, "resource") {
		t.Errorf("reason %q", reason)
	}
	t.Logf("reason: %q, rlimit used %d", reason, s.RLimitUsed())

	// A quantified problem under rlimit 1 is also unknown.
	s2 := newSolver(t, ctx, SolverConfig{RLimit: 1})
	if err := s2.AssertSMTLIB2(`(declare-fun f (Int) Int)
		(assert (forall ((x Int)) (> (f x) (f (+ x 1)))))
		(assert (> (f 0) 100))`); err != nil {
		t.Fatal(err)
	}
	r, err = s2.Check()
	if err != nil || r != Unknown || s2.ReasonUnknown() == "" {
		t.Errorf("quantified with rlimit 1: %v %v %q", r, err, s2.ReasonUnknown())
	}
}

func TestRLimitDeterministic(t *testing.T) {
	const problem = `
(declare-fun a () Int)
(declare-fun b () Int)
(declare-fun c () Int)
(assert (and (> a 1) (> b 1) (> c 1)))
(assert (= (* a b) 391))
(assert (< a b))
(assert (= c (+ a b)))`
	run := func() uint64 {
		ctx, err := NewContext(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ctx.Close()
		s, err := ctx.NewSolver(SolverConfig{RLimit: 5_000_000, RandomSeed: 7})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.AssertSMTLIB2(problem); err != nil {
			t.Fatal(err)
		}
		r, err := s.Check()
		if err != nil || r != Sat {
			t.Fatalf("%v %v %s", r, err, s.ReasonUnknown())
		}
		m, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		if got := evalInt(t, m, ok[AST](t)(m.EvalSMTLIB2("a", true))); got != 17 {
			t.Errorf("a = %d, want 17", got)
		}
		st := ok[Stats](t)(s.Statistics())
		if st.RLimitCount() == 0 {
			t.Errorf("no rlimit count in %v", st)
		}
		return s.RLimitUsed()
	}
	// One context at a time: the count is identical run after run.
	var used []uint64
	for i := 0; i < 3; i++ {
		used = append(used, run())
	}
	if used[0] == 0 || used[0] != used[1] || used[1] != used[2] {
		t.Errorf("rlimit used per run %v; want equal and non-zero", used)
	}
	// With another context alive, Z3 4.8.12 counts slightly differently
	// (process-global state); the difference must stay tiny.
	other := newCtx(t)
	_ = ok[AST](t)(other.Int(1))
	alive := run()
	diff := float64(alive) - float64(used[0])
	if diff < 0 {
		diff = -diff
	}
	if diff > 0.01*float64(used[0]) {
		t.Errorf("rlimit used %d with another live context, %d alone", alive, used[0])
	}
	t.Logf("rlimit used: %d alone, %d with another live context", used[0], alive)

	// The verdict under a limit just below the cost is Unknown, and at a
	// generous limit Sat: the limit is what decides, not the clock.
	ctx := newCtx(t)
	s := newSolver(t, ctx, SolverConfig{RLimit: used[0] / 2, RandomSeed: 7})
	if err := s.AssertSMTLIB2(problem); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Unknown {
		t.Errorf("with half the needed rlimit: %v %v", r, err)
	}
}

func TestTimeout(t *testing.T) {
	ctx := newCtx(t)
	// The rlimit only guards against a broken timeout hanging the test.
	s := newSolver(t, ctx, SolverConfig{TimeoutMS: 100, RLimit: 3_000_000})
	if err := s.AssertSMTLIB2(hardNonlinear); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r, err := s.Check()
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if r != Unknown {
		t.Fatalf("hard problem decided: %v", r)
	}
	if reason := s.ReasonUnknown(); reason != "timeout" {
		t.Errorf("reason %q after %v", reason, elapsed)
	}
	if elapsed > 2*time.Second {
		t.Errorf("timeout of 100ms took %v", elapsed)
	}
	// The solver and context remain usable, and a later check is not
	// affected by the earlier interrupt.
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := s.AssertSMTLIB2(`(declare-fun x () Int)(assert (> x 0))`); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Sat {
		t.Errorf("after timeout: %v %v", r, err)
	}
}

func TestInterruptAndCancel(t *testing.T) {
	ctx := newCtx(t)
	s := newSolver(t, ctx, SolverConfig{RLimit: 3_000_000})
	if err := s.AssertSMTLIB2(hardNonlinear); err != nil {
		t.Fatal(err)
	}
	goctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := s.CheckContext(goctx)
	if err != nil || r != Unknown {
		t.Fatalf("CheckContext: %v %v", r, err)
	}
	if reason := s.ReasonUnknown(); reason != "canceled" || time.Since(start) > 2*time.Second {
		t.Errorf("reason %q after %v", reason, time.Since(start))
	}
	// Interrupt from another goroutine.
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		ctx.Interrupt()
	}()
	start = time.Now()
	r, err = s.Check()
	<-done
	if err != nil || r != Unknown || time.Since(start) > 2*time.Second {
		t.Errorf("interrupted Check: %v %v after %v (reason %q)", r, err, time.Since(start), s.ReasonUnknown())
	}
	t.Logf("Z3 reason after Interrupt: %q", s.ReasonUnknown())
	// An idle interrupt does not poison the next check.
	ctx.Interrupt()
	s2 := newSolver(t, ctx, SolverConfig{})
	if err := s2.AssertSMTLIB2(`(declare-fun x () Int)(assert (> x 0))`); err != nil {
		t.Fatal(err)
	}
	if r, err := s2.Check(); err != nil || r != Sat {
		t.Errorf("after idle interrupt: %v %v", r, err)
	}
}

func TestErrors(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	bs := ok[Sort](t)(ctx.BoolSort())
	x := a(ctx.Const("x", is))
	p := a(ctx.Const("p", bs))

	var zerr *Error
	// Sort mismatch through the API.
	if _, err := ctx.Eq(x, p); !errors.As(err, &zerr) || !strings.Contains(zerr.Msg, "incompatible") {
		t.Errorf("Eq(Int, Bool): %v", err)
	} else {
		t.Logf("Eq(Int, Bool): %v", err)
	}
	if _, err := ctx.Add(x, p); err == nil {
		t.Error("Add(Int, Bool) succeeded")
	}
	if _, err := ctx.And(x); err == nil {
		t.Error("And(Int) succeeded")
	}
	f := ok[FuncDecl](t)(ctx.FuncDecl("f", []Sort{is}, is))
	if _, err := ctx.Apply(f); err == nil {
		t.Error("Apply with wrong arity succeeded")
	}
	if _, err := ctx.Apply(f, p); err == nil {
		t.Error("Apply with wrong sort succeeded")
	}
	if _, err := ctx.Numeral("abc", is); err == nil {
		t.Error("Numeral(abc) succeeded")
	}
	if _, err := ctx.Forall([]AST{a(ctx.Add(x, x))}, p); err == nil {
		t.Error("Forall over a non-constant succeeded")
	}
	if _, err := ctx.Select(x, x); err == nil {
		t.Error("Select on a non-array succeeded")
	}
	arrS := ok[Sort](t)(ctx.ArraySort(is, bs))
	arr := a(ctx.Const("arr", arrS))
	if _, err := ctx.Store(arr, x, x); err == nil {
		t.Error("Store of an Int into an Int->Bool array succeeded")
	}
	if _, err := ctx.Select(arr, p); err == nil {
		t.Error("Select with a Bool index succeeded")
	}
	if _, err := ctx.Int64(3, bs); err == nil {
		t.Error("Int64 of sort Bool succeeded")
	}
	if _, err := ctx.Numeral("1/3", is); err == nil {
		t.Error("Numeral(1/3) of sort Int succeeded")
	}
	if _, err := ctx.Distinct(x, p); err == nil {
		t.Error("Distinct of mixed sorts succeeded")
	}
	if _, err := ctx.Ite(x, x, x); err == nil {
		t.Error("Ite with an Int condition succeeded")
	}
	if _, err := ctx.Lambda([]AST{a(ctx.Int(1))}, x); err == nil {
		t.Error("Lambda over a numeral succeeded")
	}
	if _, err := ctx.SeqUnit(AST{}); err == nil {
		t.Error("SeqUnit(zero) succeeded")
	}
	if _, err := ctx.SeqLength(x); err == nil {
		t.Error("SeqLength of an Int succeeded")
	}
	if _, _, _, err := ctx.EnumSort("Empty", nil); err == nil {
		t.Error("empty enumeration accepted")
	}
	if _, err := ctx.DatatypeSort("D", []ConstructorSpec{{Name: "d", Fields: []Field{{Name: "f"}}}}); err == nil {
		t.Error("datatype field with a zero sort accepted")
	}
	if _, err := ctx.DatatypeSort("DD", []ConstructorSpec{{Name: "k1"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ctx.DatatypeSort("DD", []ConstructorSpec{{Name: "k2"}}); err == nil {
		t.Error("datatype name declared twice")
	}
	if _, _, _, err := ctx.EnumSort("DD", []string{"e"}); err == nil {
		t.Error("enumeration reused a datatype name")
	}
	if _, err := ctx.ParseTerm("x)) (assert (= 1 1", nil, []FuncDecl{ok[FuncDecl](t)(x.Decl())}); err == nil {
		t.Error("ParseTerm accepted text that is not a single term")
	}
	if _, err := x.Arg(0); err == nil {
		t.Error("Arg(0) of a constant succeeded")
	}
	if _, err := x.AsArrayDecl(); err == nil {
		t.Error("AsArrayDecl of a constant succeeded")
	}
	if _, err := x.Body(); err == nil {
		t.Error("Body of a constant succeeded")
	}
	if _, err := x.NumeralString(); err == nil {
		t.Error("NumeralString of a constant succeeded")
	}
	// The context stays usable after errors.
	if _, err := ctx.Eq(x, x); err != nil {
		t.Errorf("Eq(x, x) after errors: %v", err)
	}

	// Asserting a non-Boolean term.
	s := newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
	if err := s.Assert(x); err == nil {
		t.Error("Assert(Int) succeeded")
	}

	// Malformed SMT-LIB2.
	for _, text := range []string{
		"(declare-fun x () Int)(assert (= x",
		"(declare-fun x () Int)(assert (= x true))",
		"(assert (> y 0))",
		"(assert (foo",
	} {
		err := s.AssertSMTLIB2(text)
		if !errors.As(err, &zerr) || zerr.Code != ErrParser {
			t.Errorf("AssertSMTLIB2(%q) = %v, want parser error", text, err)
		}
	}
	if n := len(ok[[]AST](t)(s.Assertions())); n != 0 {
		t.Errorf("failed parses left %d assertions", n)
	}
	if _, err := ctx.ParseTerm("(+ 1", nil, nil); err == nil {
		t.Error("ParseTerm of malformed text succeeded")
	}

	// Zero values and foreign contexts.
	if _, err := ctx.Not(AST{}); !errors.As(err, &zerr) || zerr.Code != ErrUsage {
		t.Errorf("Not(zero) = %v", err)
	}
	other := newCtx(t)
	y := ok[AST](t)(other.Const("y", ok[Sort](t)(other.IntSort())))
	if _, err := ctx.Eq(x, y); !errors.As(err, &zerr) || zerr.Code != ErrUsage {
		t.Errorf("Eq across contexts = %v", err)
	}

	// Bad solver parameters.
	if _, err := ctx.NewSolver(SolverConfig{Params: map[string]any{"no_such_param": true}}); !errors.As(err, &zerr) || zerr.Code != ErrParam {
		t.Errorf("unknown solver param: %v", err)
	}
	if _, err := ctx.NewSolver(SolverConfig{Params: map[string]any{"mbqi": uint(3)}}); err == nil {
		t.Error("ill-typed solver param accepted")
	}
	if _, err := ctx.NewSolver(SolverConfig{RLimit: 1 << 40}); err == nil {
		t.Error("64-bit rlimit accepted")
	}
	if _, err := NewContext(&Config{Params: map[string]string{"bogus": "1"}}); err == nil {
		t.Error("unknown context param accepted")
	}
	if _, err := NewContext(&Config{Params: map[string]string{"model": "maybe"}}); err == nil {
		t.Error("bad context param value accepted")
	}
	if _, err := NewContext(&Config{Params: map[string]string{"rlimit": "-1"}}); err == nil {
		t.Error("negative rlimit accepted")
	}

	// Model before any check.
	if _, err := s.Model(); err == nil {
		t.Error("Model before Check succeeded")
	}
}

func TestClosed(t *testing.T) {
	ctx, err := NewContext(&Config{Params: map[string]string{"model": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	x := a(ctx.Const("x", is))
	s := ok[*Solver](t)(ctx.NewSolver(SolverConfig{}))
	if err := s.Assert(a(ctx.Gt(x, a(ctx.Int(0))))); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Sat {
		t.Fatal(r, err)
	}
	m := ok[*Model](t)(s.Model())
	m.Close()
	if _, err := m.Eval(x, true); !errors.Is(err, ErrClosed) {
		t.Errorf("Eval on closed model: %v", err)
	}
	m2 := ok[*Model](t)(s.Model())
	ctx.Close()
	ctx.Close()
	if _, err := s.Check(); !errors.Is(err, ErrClosed) {
		t.Errorf("Check after context Close: %v", err)
	}
	if _, err := m2.Eval(x, true); !errors.Is(err, ErrClosed) {
		t.Errorf("Eval after context Close: %v", err)
	}
	if _, err := ctx.Int(1); !errors.Is(err, ErrClosed) {
		t.Errorf("Int after Close: %v", err)
	}
	if x.String() != "<closed>" || x.Kind() != UnknownKind {
		t.Errorf("closed AST: %q %v", x.String(), x.Kind())
	}
	s.Close()
	m2.Close()
	ctx.Interrupt()
}

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
