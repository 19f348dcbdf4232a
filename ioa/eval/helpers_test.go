package eval

// Builders for sort-checked expression trees, standing in for the parser and
// checker in unit tests: each sets the node's sort as the checker would.

import (
	"sync"
	"testing"

	"ladder/ioa/expr"
)

var (
	sT     = &expr.Sort{Kind: expr.KParam, Name: "T"}
	sL     = &expr.Sort{Kind: expr.KParam, Name: "L"}
	sV     = &expr.Sort{Kind: expr.KParam, Name: "V"}
	sS     = &expr.Sort{Kind: expr.KParam, Name: "S"}
	sPhase = &expr.Sort{Kind: expr.KEnum, Name: "Phase", Elems: []string{"Idle", "Busy", "Done"}}
	sCell  = &expr.Sort{Kind: expr.KRecord, Name: "Cell", Fields: []expr.Field{{Name: "owner", Sort: sT}, {Name: "value", Sort: expr.IntSort}}}
	sTL    = &expr.Sort{Kind: expr.KRecord, Name: "TL", Fields: []expr.Field{{Name: "t", Sort: sT}, {Name: "l", Sort: sL}}}
	sInt   = expr.IntSort
	sBool  = expr.BoolSort
)

// testInst is T=2, L=2, V=3, S=3.
func testInst() *Instance {
	return &Instance{Sizes: map[string]int{"T": 2, "L": 2, "V": 3, "S": 3}}
}

type sortable interface {
	expr.Expr
	SetSort(*expr.Sort)
}

func st[E sortable](e E, s *expr.Sort) E {
	e.SetSort(s)
	return e
}

func n(v int64) expr.Expr       { return st(expr.NewIntLit(v), sInt) }
func bl(v bool) expr.Expr       { return st(expr.NewBoolLit(v), sBool) }
func tt() expr.Expr             { return bl(true) }
func ff() expr.Expr             { return bl(false) }
func not(x expr.Expr) expr.Expr { return st(expr.NewUnary(expr.OpNot, x), sBool) }
func neg(x expr.Expr) expr.Expr { return st(expr.NewUnary(expr.OpNeg, x), sInt) }

func elem(s *expr.Sort, i int) expr.Expr { return st(expr.NewElemLit(s.Name, i), s) }

func op(o expr.Op, x, y expr.Expr) expr.Expr {
	var s *expr.Sort
	switch o {
	case expr.OpAdd, expr.OpSub, expr.OpMul, expr.OpDiv, expr.OpMod:
		s = sInt
	case expr.OpUnion, expr.OpInter, expr.OpDiff:
		s = x.Sort()
	default:
		s = sBool
	}
	return st(expr.NewBinary(o, x, y), s)
}

func eq(x, y expr.Expr) expr.Expr { return op(expr.OpEq, x, y) }

func builtin(name string) *expr.Ident {
	id := expr.NewIdent(name)
	id.Obj = &expr.Object{Kind: expr.ObjBuiltin, Name: name}
	return id
}

func call(name string, s *expr.Sort, args ...expr.Expr) expr.Expr {
	c := &expr.Call{Fun: builtin(name), Args: args}
	return st(c, s)
}

func none(s *expr.Sort) expr.Expr { return st(builtin("None"), expr.OptionOf(s)) }
func some(x expr.Expr) expr.Expr  { return call("Some", expr.OptionOf(x.Sort()), x) }

func seq(s *expr.Sort, xs ...expr.Expr) expr.Expr {
	return st(expr.NewSeqLit(xs...), expr.SeqOf(s))
}

func set(s *expr.Sort, xs ...expr.Expr) expr.Expr {
	return st(expr.NewSetLit(xs...), expr.SetOf(s))
}

func konstMap(k *expr.Sort, v expr.Expr) expr.Expr {
	return call("const", expr.MapOf(k, v.Sort()), v)
}

func idx(x, i expr.Expr) expr.Expr { return st(expr.NewIndex(x, i), x.Sort().Elem) }

func upd(x, i, v expr.Expr) expr.Expr { return st(expr.NewUpdate(x, i, v), x.Sort()) }

func ite(c, a, b expr.Expr) expr.Expr { return st(expr.NewIte(c, a, b), a.Sort()) }

func enumc(s *expr.Sort, name string) expr.Expr {
	id := expr.NewIdent(name)
	id.Obj = &expr.Object{Kind: expr.ObjEnum, Name: name, Sort: s, Index: s.EnumIndex(name)}
	return st(id, s)
}

func bound(name string, s *expr.Sort) *expr.Object {
	return &expr.Object{Kind: expr.ObjBound, Name: name, Sort: s}
}

func ref(o *expr.Object) expr.Expr {
	id := expr.NewIdent(o.Name)
	id.Obj = o
	return st(id, o.Sort)
}

func over(o *expr.Object) *expr.Binder {
	return &expr.Binder{Var: o, SortExpr: *expr.SortExprOf(o.Sort)}
}

func rng(o *expr.Object, lo, hi expr.Expr) *expr.Binder {
	return &expr.Binder{Var: o, Lo: lo, Hi: hi}
}

func forall(body expr.Expr, bs ...*expr.Binder) expr.Expr {
	return st(expr.NewQuant(true, bs, body), sBool)
}

func exists(body expr.Expr, bs ...*expr.Binder) expr.Expr {
	return st(expr.NewQuant(false, bs, body), sBool)
}

func lambda(o *expr.Object, body expr.Expr) expr.Expr {
	return st(expr.NewLambda(over(o), body), expr.MapOf(o.Sort, body.Sort()))
}

func setComp(o *expr.Object, body expr.Expr) expr.Expr {
	return st(expr.NewSetComp(over(o), body), expr.SetOf(o.Sort))
}

func let(o *expr.Object, v, body expr.Expr) expr.Expr {
	l := &expr.Let{Var: o, Value: v, Body: body}
	return st(l, body.Sort())
}

func rec(s *expr.Sort, vals ...expr.Expr) expr.Expr {
	var fs []*expr.FieldInit
	for i, v := range vals {
		fs = append(fs, expr.NewFieldInit(s.Fields[i].Name, v))
	}
	return st(expr.NewRecordLit(s.Name, fs...), s)
}

func field(x expr.Expr, name string) expr.Expr {
	s := x.Sort()
	return st(expr.NewFieldSel(x, name), s.Fields[s.FieldIndex(name)].Sort)
}

func with(x expr.Expr, name string, v expr.Expr) expr.Expr {
	return st(expr.NewRecordUpdate(x, expr.NewFieldInit(name, v)), x.Sort())
}

func defn(name string, s *expr.Sort, body expr.Expr, params ...*expr.Object) *expr.Object {
	return &expr.Object{Kind: expr.ObjDef, Name: name, Sort: s, Params: params, Body: body}
}

func callDef(d *expr.Object, args ...expr.Expr) expr.Expr {
	id := expr.NewIdent(d.Name)
	id.Obj = d
	return st(&expr.Call{Fun: id, Args: args}, d.Sort)
}

func useDef(d *expr.Object) expr.Expr {
	id := expr.NewIdent(d.Name)
	id.Obj = d
	return st(id, d.Sort)
}

// successors returns the transitions of m that Step allows from s: for
// each action in order, each parameter tuple EachParams enumerates that
// enables it, labelled "act(params) -> post", with the post-states, and
// the first error.
func successors(m *Machine, s State) (labels []string, posts []State, err error) {
	for _, act := range m.A.Actions {
		var serr error
		err := m.EachParams(act, s, func(params []Value) bool {
			post, ok, err := m.StepEvaluated(act, s, append([]Value(nil), params...))
			if err != nil {
				serr = err
				return false
			}
			if ok {
				labels = append(labels, m.FormatAction(act, params)+" -> "+post.Format(m.A))
				posts = append(posts, post)
			}
			return true
		})
		if err == nil {
			err = serr
		}
		if err != nil {
			return labels, posts, err
		}
	}
	return labels, posts, nil
}

// violated returns the first condition s violates, as fast.Runner.Violated
// names it: a Nat condition (Machine.NatViolated), then the first false
// invariant (compiled by Machine.Compile, once per machine), or "".
func violated(t *testing.T, m *Machine, s State) string {
	t.Helper()
	name, err := m.NatViolated(s)
	if err != nil {
		t.Fatal(err)
	}
	if name != "" {
		return name
	}
	invs, ok := compiledInvariants.Load(m)
	if !ok {
		var fs []*Func
		for _, inv := range m.A.Invariants {
			f, err := m.Compile(inv.Body)
			if err != nil {
				t.Fatal(err)
			}
			fs = append(fs, f)
		}
		invs, _ = compiledInvariants.LoadOrStore(m, fs)
	}
	for k, f := range invs.([]*Func) {
		v, err := f.Eval(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Bool() {
			return m.A.Invariants[k].Name
		}
	}
	return ""
}

// compiledInvariants holds the invariants violated compiled, by machine.
var compiledInvariants sync.Map
