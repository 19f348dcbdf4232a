// This file implements the guard analysis of the symmetry check: the facts
// that hold where an expression is evaluated, and the test that a get(o),
// last(s) or s[i] is in range under them (symmetry.go, file comment, says
// why each rule is sound).

package explore

import (
	"ladder/ioa"
	"ladder/ioa/expr"
)

// factKind is the shape of a fact.
type factKind int

const (
	factSome     factKind = iota // isSome(a)
	factLt                       // a < b (integers)
	factLe                       // a <= b (integers)
	factNonEmpty                 // a != [] (a sequence)
)

// fact is one atomic fact that holds where an expression is evaluated; a
// context is a list of facts, sharing its tail with the enclosing context.
// The expressions of a fact are simple (see simple): their values are
// those of the variables they name, so two structurally identical ones
// (same) have the same value in one environment.
type fact struct {
	kind factKind
	a, b expr.Expr
	next *fact
}

func (f *fact) add(kind factKind, a, b expr.Expr) *fact {
	return &fact{kind: kind, a: a, b: b, next: f}
}

// assume returns fs with the atomic facts that hold when e evaluates to
// val: the conjuncts of e (val true) or of its negation (val false) that
// the analysis recognizes. Anything else adds nothing.
func (c *symChecker) assume(fs *fact, e expr.Expr, val bool) *fact {
	switch e := e.(type) {
	case *expr.Unary:
		if e.Op == expr.OpNot {
			return c.assume(fs, e.X, !val)
		}
	case *expr.Binary:
		switch e.Op {
		case expr.OpAnd:
			if val {
				return c.assume(c.assume(fs, e.X, true), e.Y, true)
			}
		case expr.OpOr:
			if !val {
				return c.assume(c.assume(fs, e.X, false), e.Y, false)
			}
		case expr.OpImplies:
			if !val {
				return c.assume(c.assume(fs, e.X, true), e.Y, false)
			}
		case expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe:
			if !isInt(e.X) || !isInt(e.Y) || !c.simple(e.X) || !c.simple(e.Y) {
				return fs
			}
			x, y, strict := e.X, e.Y, e.Op == expr.OpLt || e.Op == expr.OpGt
			if e.Op == expr.OpGt || e.Op == expr.OpGe {
				x, y = y, x
			}
			if !val { // not (x < y) is y <= x; not (x <= y) is y < x
				x, y, strict = y, x, !strict
			}
			if strict {
				return fs.add(factLt, x, y)
			}
			return fs.add(factLe, x, y)
		case expr.OpEq, expr.OpNeq:
			eq := (e.Op == expr.OpEq) == val
			if !c.simple(e.X) || !c.simple(e.Y) {
				return fs
			}
			if isInt(e.X) && isInt(e.Y) {
				if eq {
					return fs.add(factLe, e.X, e.Y).add(factLe, e.Y, e.X)
				}
				// len(s) != 0
				if s := lenOf(e.X); s != nil && isLit(e.Y, 0) {
					return fs.add(factNonEmpty, s, nil)
				}
				if s := lenOf(e.Y); s != nil && isLit(e.X, 0) {
					return fs.add(factNonEmpty, s, nil)
				}
				return fs
			}
			if !eq && isSeq(e.X) {
				// s != []
				if isEmptySeq(e.Y) {
					return fs.add(factNonEmpty, e.X, nil)
				}
				if isEmptySeq(e.X) {
					return fs.add(factNonEmpty, e.Y, nil)
				}
			}
		}
	case *expr.Call:
		if name := builtin(e); len(e.Args) == 1 && (name == "isSome" && val || name == "isNone" && !val) && c.simple(e.Args[0]) {
			return fs.add(factSome, e.Args[0], nil)
		}
		if e.Fun != nil && e.Fun.Obj != nil && e.Fun.Obj.Kind == expr.ObjDef && len(e.Fun.Obj.Params) == len(e.Args) &&
			(e.Recv == nil || c.simple(e.Recv)) {
			var recv expr.Expr // nil, not a nil *Ident, without a receiver
			if e.Recv != nil {
				recv = e.Recv
			}
			return c.assumeDef(fs, e.Fun.Obj, e.Args, recv, val)
		}
	case *expr.Ident:
		if e.Obj != nil && e.Obj.Kind == expr.ObjDef && len(e.Obj.Params) == 0 {
			return c.assumeDef(fs, e.Obj, nil, nil, val)
		}
	}
	return fs
}

// assumeDef returns fs with the facts that hold when the definition def,
// called with args, evaluates to val: those of its body, with each
// parameter replaced by its argument. A call evaluates the body with the
// parameters bound to the arguments' values, and the facts of the body
// mention no bound variable but the parameters (assume does not enter
// binders), so a fact whose parameters all have simple arguments holds of
// the arguments; the others are dropped. A call through a state object
// (c.def(…), recv) evaluates the body in that state: each state variable
// x of the body is then recv.x. Definitions do not recurse.
func (c *symChecker) assumeDef(fs *fact, def *expr.Object, args []expr.Expr, recv expr.Expr, val bool) *fact {
	sub := map[*expr.Object]expr.Expr{}
	for i, p := range def.Params {
		if c.simple(args[i]) {
			sub[p] = args[i]
		} else {
			sub[p] = nil // a fact that mentions it is dropped
		}
	}
	return substFacts(fs, c.assume(nil, def.Body, val), sub, recv)
}

// substFacts returns fs with the facts of from added in their order, each
// through subst; a fact that mentions a parameter without an argument is
// dropped.
func substFacts(fs, from *fact, sub map[*expr.Object]expr.Expr, recv expr.Expr) *fact {
	var rev []*fact
	for f := from; f != nil; f = f.next {
		rev = append(rev, f)
	}
	for i := len(rev) - 1; i >= 0; i-- {
		f := rev[i]
		a, okA := subst(f.a, sub, recv)
		b, okB := subst(f.b, sub, recv)
		if okA && okB {
			fs = fs.add(f.kind, a, b)
		}
	}
	return fs
}

// enabledFacts returns the facts of act's parameter ranges and
// precondition where act(p) is enabled in the state bound to st, with
// each state variable x of act written st.x.
func (c *symChecker) enabledFacts(act *ioa.Action, st *expr.Object) *fact {
	var fs *fact
	for _, b := range act.Params {
		fs = c.rangeFacts(fs, b)
	}
	if act.Pre != nil {
		fs = c.assume(fs, act.Pre, true)
	}
	recv := &expr.Ident{Name: st.Name, Obj: st}
	recv.SetSort(st.Sort)
	return substFacts(nil, fs, nil, recv)
}

// subst returns the simple expression e with the parameters of sub
// replaced by their arguments, and each state variable x by recv.x when
// recv is set, and false if e mentions a parameter without one.
func subst(e expr.Expr, sub map[*expr.Object]expr.Expr, recv expr.Expr) (expr.Expr, bool) {
	switch e := e.(type) {
	case nil:
		return nil, true
	case *expr.Ident:
		if a, ok := sub[e.Obj]; ok {
			return a, a != nil
		}
		if recv != nil && e.Obj != nil && e.Obj.Kind == expr.ObjVar {
			f := &expr.FieldSel{X: recv, Name: e.Obj.Name, Field: e.Obj.Index}
			f.SetSort(e.Obj.Sort)
			f.SetPos(e.Pos())
			return f, true
		}
		return e, true
	case *expr.Unary:
		x, ok := subst(e.X, sub, recv)
		n := *e
		n.X = x
		return &n, ok
	case *expr.Binary:
		x, okX := subst(e.X, sub, recv)
		y, okY := subst(e.Y, sub, recv)
		n := *e
		n.X, n.Y = x, y
		return &n, okX && okY
	case *expr.Index:
		x, okX := subst(e.X, sub, recv)
		i, okI := subst(e.Index, sub, recv)
		n := *e
		n.X, n.Index = x, i
		return &n, okX && okI
	case *expr.FieldSel:
		x, ok := subst(e.X, sub, recv)
		n := *e
		n.X = x
		return &n, ok
	case *expr.Call:
		n := *e
		n.Args = make([]expr.Expr, len(e.Args))
		for i, a := range e.Args {
			x, ok := subst(a, sub, recv)
			if !ok {
				return nil, false
			}
			n.Args[i] = x
		}
		return &n, true
	}
	return e, true // a literal
}

// builtin returns the name of the built-in function e calls, or "".
func builtin(e *expr.Call) string {
	if e.Recv == nil && e.Fun != nil && e.Fun.Obj != nil && e.Fun.Obj.Kind == expr.ObjBuiltin {
		return e.Fun.Obj.Name
	}
	return ""
}

func isInt(e expr.Expr) bool {
	s := e.Sort()
	return s != nil && (s.Kind == expr.KInt || s.Kind == expr.KNat)
}

func isSeq(e expr.Expr) bool {
	s := e.Sort()
	return s != nil && s.Kind == expr.KSeq
}

func isEmptySeq(e expr.Expr) bool {
	l, ok := e.(*expr.SeqLit)
	return ok && len(l.Elems) == 0
}

// isLit reports whether e is the integer literal n.
func isLit(e expr.Expr, n int64) bool {
	l, ok := e.(*expr.IntLit)
	return ok && l.Value == n
}

// intLit returns the value of an integer literal.
func intLit(e expr.Expr) (int64, bool) {
	if l, ok := e.(*expr.IntLit); ok {
		return l.Value, true
	}
	return 0, false
}

// lenOf returns s when e is len(s), else nil.
func lenOf(e expr.Expr) expr.Expr {
	if call, ok := e.(*expr.Call); ok && builtin(call) == "len" && len(call.Args) == 1 {
		return call.Args[0]
	}
	return nil
}

// simple reports whether the value of e is determined by the values of
// the names it mentions without any default value: names of state
// variables, parameters, bound variables, enum constants and constants of
// sorts without symmetric elements that have no defining expression (or
// whose value the instance gives), literals, operators, map lookups,
// record fields and the built-in functions other than get and last. A
// sequence index, get, last, a definition, a let, a quantifier, … make e
// not simple, and a fact about it is not recorded.
func (c *symChecker) simple(e expr.Expr) bool {
	switch e := e.(type) {
	case *expr.Ident:
		o := e.Obj
		if o == nil {
			return false
		}
		switch o.Kind {
		case expr.ObjVar, expr.ObjParam, expr.ObjBound, expr.ObjEnum, expr.ObjState:
			return true
		case expr.ObjConst:
			_, bound := c.inst.Consts[o.Name]
			return !c.holds(o.Sort) && (o.Body == nil || bound)
		}
		return false
	case *expr.IntLit, *expr.BoolLit:
		return true
	case *expr.Unary:
		return c.simple(e.X)
	case *expr.Binary:
		return c.simple(e.X) && c.simple(e.Y)
	case *expr.Index:
		s := e.X.Sort()
		return s != nil && s.Kind == expr.KMap && c.simple(e.X) && c.simple(e.Index)
	case *expr.FieldSel:
		return c.simple(e.X)
	case *expr.SeqLit:
		return len(e.Elems) == 0
	case *expr.Call:
		switch builtin(e) {
		case "", "get", "last":
			return false
		}
		for _, a := range e.Args {
			if !c.simple(a) {
				return false
			}
		}
		return true
	}
	return false
}

// same reports whether two simple expressions are structurally identical:
// the same operators, literals and fields, and names that resolve to the
// same objects (a binder that shadows a name is another object).
func same(a, b expr.Expr) bool {
	switch a := a.(type) {
	case *expr.Ident:
		b, ok := b.(*expr.Ident)
		return ok && a.Obj != nil && a.Obj == b.Obj
	case *expr.IntLit:
		b, ok := b.(*expr.IntLit)
		return ok && a.Value == b.Value
	case *expr.BoolLit:
		b, ok := b.(*expr.BoolLit)
		return ok && a.Value == b.Value
	case *expr.Unary:
		b, ok := b.(*expr.Unary)
		return ok && a.Op == b.Op && same(a.X, b.X)
	case *expr.Binary:
		b, ok := b.(*expr.Binary)
		return ok && a.Op == b.Op && same(a.X, b.X) && same(a.Y, b.Y)
	case *expr.Index:
		b, ok := b.(*expr.Index)
		return ok && same(a.X, b.X) && same(a.Index, b.Index)
	case *expr.FieldSel:
		b, ok := b.(*expr.FieldSel)
		return ok && a.Name == b.Name && same(a.X, b.X)
	case *expr.SeqLit:
		b, ok := b.(*expr.SeqLit)
		return ok && len(a.Elems) == 0 && len(b.Elems) == 0
	case *expr.Call:
		b, ok := b.(*expr.Call)
		if !ok || a.Recv != nil || b.Recv != nil || a.Fun == nil || b.Fun == nil ||
			a.Fun.Obj == nil || a.Fun.Obj != b.Fun.Obj || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Args {
			if !same(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// isSomeIn reports whether fs says isSome(o).
func isSomeIn(fs *fact, o expr.Expr) bool {
	for f := fs; f != nil; f = f.next {
		if f.kind == factSome && same(f.a, o) {
			return true
		}
	}
	return false
}

// calledDef returns the definition with parameters that call e calls
// with an argument for each, or nil.
func calledDef(e *expr.Call) *expr.Object {
	if e.Fun == nil || e.Fun.Obj == nil || e.Fun.Obj.Kind != expr.ObjDef {
		return nil
	}
	if d := e.Fun.Obj; len(d.Params) > 0 && len(d.Params) == len(e.Args) && d.Body != nil {
		return d
	}
	return nil
}

// defCall reads the body of def for a call with args in context fs: with
// the fact 0 <= p for each Int parameter p whose argument is non-negative
// there (nonNeg), once per set of such parameters. The body is evaluated
// only by calls, with the parameters bound to the arguments' values, so
// the facts hold wherever it is evaluated through a call read with them.
func (c *symChecker) defCall(def *expr.Object, args []expr.Expr, fs *fact) {
	var mask uint64
	for i, p := range def.Params {
		if i < 64 && p.Sort != nil && (p.Sort.Kind == expr.KInt || p.Sort.Kind == expr.KNat) && c.nonNeg(fs, args[i]) {
			mask |= 1 << i
		}
	}
	k := defFacts{def, mask}
	if c.seenDef[k] {
		return
	}
	if c.seenDef == nil {
		c.seenDef = map[defFacts]bool{}
	}
	c.seenDef[k] = true
	var body *fact
	for i, p := range def.Params {
		if mask&(1<<i) != 0 {
			body = body.add(factLe, &expr.IntLit{Value: 0}, &expr.Ident{Name: p.Name, Obj: p})
		}
	}
	c.check(def.Body, body)
}

// defFacts is a definition read with the facts 0 <= p for the parameters
// in mask.
type defFacts struct {
	def  *expr.Object
	mask uint64
}

// nonNeg reports whether fs (or the form of i) says 0 <= i.
func (c *symChecker) nonNeg(fs *fact, i expr.Expr) bool {
	if n, ok := intLit(i); ok {
		return n >= 0
	}
	if lenOf(i) != nil || c.natRead(i) {
		return true
	}
	if b, ok := i.(*expr.Binary); ok && (b.Op == expr.OpAdd || b.Op == expr.OpMul) {
		return c.nonNeg(fs, b.X) && c.nonNeg(fs, b.Y)
	}
	for f := fs; f != nil; f = f.next {
		if !same(f.b, i) {
			continue
		}
		if n, ok := intLit(f.a); ok && (f.kind == factLe && n >= 0 || f.kind == factLt && n >= -1) {
			return true
		}
	}
	return false
}

// natRead reports whether e reads a Nat of a state whose Nat conditions
// are checked before any expression is evaluated in it: e is a state
// variable in natVars, or a field of a state object in natObjs, followed
// by map lookups, sequence indices and record fields, and its sort is
// Nat. Every Nat inside such a state is >= 0 (a sequence index out of
// range yields the default 0).
func (c *symChecker) natRead(e expr.Expr) bool {
	if s := e.Sort(); s == nil || s.Kind != expr.KNat {
		return false
	}
	for {
		switch x := e.(type) {
		case *expr.Ident:
			return x.Obj != nil && c.natVars[x.Obj]
		case *expr.FieldSel:
			if id, ok := x.X.(*expr.Ident); ok && id.Obj != nil && c.natObjs[id.Obj] {
				return true
			}
			e = x.X
		case *expr.Index:
			e = x.X
		default:
			return false
		}
	}
}

// lenAtLeast reports whether fs says len(s) >= n.
func (c *symChecker) lenAtLeast(fs *fact, s expr.Expr, n int64) bool {
	if n <= 0 {
		return true
	}
	for f := fs; f != nil; f = f.next {
		switch f.kind {
		case factNonEmpty:
			if n == 1 && same(f.a, s) {
				return true
			}
		case factLt, factLe:
			l := lenOf(f.b)
			if l == nil || !same(l, s) {
				continue
			}
			k, lit := intLit(f.a)
			if f.kind == factLt && (lit && k+1 >= n || n == 1 && c.nonNeg(fs, f.a)) ||
				f.kind == factLe && lit && k >= n {
				return true
			}
		}
	}
	return false
}

// inRange reports whether fs says 0 <= i < len(s).
func (c *symChecker) inRange(fs *fact, s, i expr.Expr) bool {
	// s[len(s) - k], k >= 1: in range when len(s) >= k
	if b, ok := i.(*expr.Binary); ok && b.Op == expr.OpSub {
		if l := lenOf(b.X); l != nil && same(l, s) {
			if k, ok := intLit(b.Y); ok && k >= 1 {
				return c.lenAtLeast(fs, s, k)
			}
		}
	}
	if k, ok := intLit(i); ok {
		return k >= 0 && c.lenAtLeast(fs, s, k+1)
	}
	if !c.nonNeg(fs, i) {
		return false
	}
	for f := fs; f != nil; f = f.next {
		if f.kind != factLt && f.kind != factLe {
			continue
		}
		l := lenOf(f.b)
		if l == nil || !same(l, s) {
			continue
		}
		if f.kind == factLt && same(f.a, i) {
			return true // i < len(s)
		}
		// i + k <= len(s), k >= 1
		if b, ok := f.a.(*expr.Binary); f.kind == factLe && ok && b.Op == expr.OpAdd && same(b.X, i) {
			if k, ok := intLit(b.Y); ok && k >= 1 {
				return true
			}
		}
	}
	return false
}

// rangeFacts returns fs with the facts of a range binder x in lo..hi:
// lo <= x and x < hi.
func (c *symChecker) rangeFacts(fs *fact, b *expr.Binder) *fact {
	if b == nil || b.Var == nil || b.Lo == nil || b.Hi == nil {
		return fs
	}
	x := &expr.Ident{Name: b.Var.Name, Obj: b.Var}
	if c.simple(b.Lo) {
		fs = fs.add(factLe, b.Lo, x)
	}
	if c.simple(b.Hi) {
		fs = fs.add(factLt, x, b.Hi)
	}
	return fs
}

// action checks an action: its parameter ranges without facts; each
// top-level conjunct of the precondition with the facts of the ranges of
// the parameters up to the last one it mentions and of the conjuncts
// written before it that mention no later parameter (so that the machine has checked them first,
// whatever order of the two it uses); the effect with the facts of every
// range and of the whole precondition (it is evaluated only when they
// hold, in the pre-state).
func (c *symChecker) action(params []*expr.Binder, pre expr.Expr, eff []expr.Stmt) {
	// ranges[k+1]: the facts of the ranges of the parameters 0..k
	ranges := make([]*fact, len(params)+1)
	for k, b := range params {
		ranges[k+1] = ranges[k]
		if b != nil {
			c.check(b.Lo, nil)
			c.check(b.Hi, nil)
			ranges[k+1] = c.rangeFacts(ranges[k], b)
		}
	}
	all := ranges[len(params)]
	if pre != nil {
		cjs := expr.Conjuncts(pre, nil)
		last := make([]int, len(cjs))
		for i, cj := range cjs {
			last[i] = min(expr.MaxParam(cj), len(params)-1)
		}
		for i, cj := range cjs {
			fs := ranges[last[i]+1]
			for j := 0; j < i; j++ {
				if last[j] <= last[i] {
					fs = c.assume(fs, cjs[j], true)
				}
			}
			c.check(cj, fs)
		}
		all = c.assume(all, pre, true)
	}
	c.stmts(eff, all)
}

// check reads e where the facts fs hold: element literals, constants and
// definitions as CheckSymmetry says, and each get(o), last(s) and s[i]
// that fs does not show in range fixes T#0 for the symmetric sorts its
// default holds. The operands of and, or, => and if see the facts of the
// operands evaluated before them; every other operand sees fs.
func (c *symChecker) check(e expr.Expr, fs *fact) {
	if e == nil {
		return
	}
	switch e := e.(type) {
	case *expr.ElemLit:
		if c.sorts[e.SortName] {
			c.fail(e.Pos(), e.SortName, "--symmetry %s: %s#%d singles out an element of %s; %s",
				e.SortName, e.SortName, e.Index, e.SortName, c.rule())
		}
	case *expr.Ident:
		c.object(e.Pos(), e.Obj)
	case *expr.IntLit, *expr.BoolLit, *expr.BadExpr:
	case *expr.Unary:
		c.check(e.X, fs)
	case *expr.Binary:
		c.check(e.X, fs)
		switch e.Op {
		case expr.OpAnd, expr.OpImplies:
			c.check(e.Y, c.assume(fs, e.X, true))
		case expr.OpOr:
			c.check(e.Y, c.assume(fs, e.X, false))
		default:
			c.check(e.Y, fs)
		}
	case *expr.Ite:
		c.check(e.Cond, fs)
		c.check(e.Then, c.assume(fs, e.Cond, true))
		c.check(e.Else, c.assume(fs, e.Cond, false))
	case *expr.Let:
		c.check(e.Value, fs)
		c.check(e.Body, fs)
	case *expr.Quant:
		for _, b := range e.Binders {
			if b != nil {
				c.check(b.Lo, fs)
				c.check(b.Hi, fs)
				fs = c.rangeFacts(fs, b)
			}
		}
		c.check(e.Body, fs)
	case *expr.Lambda:
		if b := e.Binder; b != nil {
			c.check(b.Lo, fs)
			c.check(b.Hi, fs)
			fs = c.rangeFacts(fs, b)
		}
		c.check(e.Body, fs)
	case *expr.Call:
		if e.Recv != nil {
			c.check(e.Recv, fs)
		}
		if def := calledDef(e); def != nil {
			c.defCall(def, e.Args, fs)
		} else if e.Fun != nil {
			c.check(e.Fun, fs)
		}
		for _, a := range e.Args {
			c.check(a, fs)
		}
		switch name := builtin(e); {
		case name == "get" && len(e.Args) == 1 && !isSomeIn(fs, e.Args[0]),
			name == "last" && len(e.Args) == 1 && !c.lenAtLeast(fs, e.Args[0], 1):
			c.defaults(e.Sort(), e.Pos(), expr.Print(e))
		}
	case *expr.Index:
		c.check(e.X, fs)
		c.check(e.Index, fs)
		if isSeq(e.X) && !c.inRange(fs, e.X, e.Index) {
			c.defaults(e.Sort(), e.Pos(), expr.Print(e))
		}
	case *expr.Update:
		c.check(e.X, fs)
		c.check(e.Index, fs)
		c.check(e.Value, fs)
	case *expr.FieldSel:
		c.check(e.X, fs)
	case *expr.RecordUpdate:
		c.check(e.X, fs)
		for _, f := range e.Fields {
			if f != nil {
				c.check(f.Value, fs)
			}
		}
	case *expr.RecordLit:
		for _, f := range e.Fields {
			if f != nil {
				c.check(f.Value, fs)
			}
		}
	case *expr.SetLit:
		for _, x := range e.Elems {
			c.check(x, fs)
		}
	case *expr.SeqLit:
		for _, x := range e.Elems {
			c.check(x, fs)
		}
	default:
		// a node the analysis does not know: read it without facts
		c.unguarded(e)
	}
}

// unguarded reads e as if no fact held anywhere in it.
func (c *symChecker) unguarded(e expr.Expr) {
	expr.Inspect(e, func(x expr.Expr) bool {
		switch x := x.(type) {
		case *expr.ElemLit:
			if c.sorts[x.SortName] {
				c.fail(x.Pos(), x.SortName, "--symmetry %s: %s#%d singles out an element of %s; %s",
					x.SortName, x.SortName, x.Index, x.SortName, c.rule())
			}
		case *expr.Ident:
			c.object(x.Pos(), x.Obj)
		case *expr.Call:
			switch builtin(x) {
			case "get", "last":
				c.defaults(x.Sort(), x.Pos(), expr.Print(x))
			}
		case *expr.Index:
			if isSeq(x.X) {
				c.defaults(x.Sort(), x.Pos(), expr.Print(x))
			}
		}
		return true
	})
}

// stmts reads an effect where the facts fs hold. Every right-hand side,
// index and condition of an effect is evaluated in the pre-state (the
// assignments are simultaneous), so no assignment invalidates a fact: the
// branches of an if see the facts of its condition (or of its negation),
// and the statements after an assignment the same facts as before it.
func (c *symChecker) stmts(ss []expr.Stmt, fs *fact) {
	for _, s := range ss {
		switch s := s.(type) {
		case *expr.Assign:
			c.lvalue(s.Target, fs)
			c.check(s.Value, fs)
		case *expr.IfStmt:
			c.check(s.Cond, fs)
			c.stmts(s.Then, c.assume(fs, s.Cond, true))
			c.stmts(s.Else, c.assume(fs, s.Cond, false))
		}
	}
}

// lvalue reads the indices of an assignment's target: x[i].f := v replaces
// an entry, and an index outside a sequence leaves it unchanged, so the
// target's own selections yield no default value.
func (c *symChecker) lvalue(e expr.Expr, fs *fact) {
	switch e := e.(type) {
	case *expr.Index:
		c.lvalue(e.X, fs)
		c.check(e.Index, fs)
	case *expr.FieldSel:
		c.lvalue(e.X, fs)
	case *expr.Ident:
	default:
		c.check(e, fs)
	}
}
