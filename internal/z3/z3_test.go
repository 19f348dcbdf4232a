package z3

import (
	"strings"
	"testing"
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
