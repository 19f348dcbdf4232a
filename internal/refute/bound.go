// This file implements bounded problems: an obligation's problem restricted
// to small finite universes, for the bounded counterexample search
// (search.go), and the translation of their models back to the original
// problem's sorts.

package refute

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"ladder/internal/logic"
)

// instance is one bounded universe: exactly Sizes[S] elements for each
// uninterpreted sort S of the problem that it names, and, when Ints > 0,
// every integer constant of the problem between -Ints and Ints. Split is
// not a bound: when it is > 0, each quantifier over Int is given its
// instances at 0 … Split explicitly (see translator.splitInts).
type instance struct {
	Sizes map[string]int
	Ints  int
	Split int
}

// String renders the instance for people, sorts by name: "L=1, T=2, V=2".
func (in instance) String() string {
	names := make([]string, 0, len(in.Sizes))
	for s := range in.Sizes {
		names = append(names, s)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, s := range names {
		parts[i] = s + "=" + strconv.Itoa(in.Sizes[s])
	}
	if in.Ints > 0 {
		parts = append(parts, "Int constants within ±"+strconv.Itoa(in.Ints))
	}
	return strings.Join(parts, ", ")
}

// boundPrefix begins every name the bounding introduces. Package encode
// never makes a name with it, and bound refuses a problem that has one.
const boundPrefix = "bound!"

// elemName is the name of the i-th element of sort s in a bounded problem:
// the constructor of the enumeration that replaces s, and the constant
// that stands for that element in terms of the original sorts.
func elemName(s string, i int) string { return boundPrefix + s + "!" + strconv.Itoa(i) }

// boundedProblem is an obligation's problem restricted to an instance,
// with what is needed to read its models in the original sorts.
type boundedProblem struct {
	problem *logic.Problem // over the enumerations
	tr      *translator
}

// bound returns p restricted to the instance in. Each uninterpreted sort S
// with in.Sizes[S] = k > 0 is replaced everywhere by an enumeration (a
// datatype with k nullary constructors bound!S!0 … bound!S!k-1, so S has
// exactly these k distinct elements), every sort built from S (arrays,
// datatypes) by the same sort built from the enumeration, and every
// quantifier over S by the conjunction (∀) or disjunction (∃) of its k
// instances. With in.Split > 0, each quantifier over Int is split
// (translator.splitInts); with in.Ints > 0, the assertions
// "bound: |c| <= n" for the integer constants c follow. Otherwise the
// assertions are p's, in p's order, with p's names.
//
// Soundness (for refutation only): an interpretation of the bounded
// problem is an interpretation of p in which S has k elements (read each
// enumeration as the uninterpreted sort it replaces), over a k-element
// sort a quantifier and its expansion have the same value, a split
// quantifier is equivalent to the original, and the bounds on constants
// only remove models. So every model of the bounded problem is, read back
// this way (translator, boundedModel), a model of p with universes of
// those sizes. The converse does not hold: p may have models only in
// larger universes or with larger integers, so an unsat bounded problem
// says nothing about p.
func bound(p *logic.Problem, in instance) (*boundedProblem, error) {
	sig, err := p.Signature()
	if err != nil {
		return nil, err
	}
	for _, c := range sig.Consts {
		if strings.HasPrefix(c.Name(), boundPrefix) {
			return nil, fmt.Errorf("the problem declares %s, a name reserved for bounding", c.Name())
		}
	}
	for _, dt := range sig.Datatypes {
		if strings.HasPrefix(dt.Name(), boundPrefix) {
			return nil, fmt.Errorf("the problem declares the datatype %s, a name reserved for bounding", dt.Name())
		}
	}
	tr := &translator{
		enums:  map[string]*logic.Datatype{},
		orig:   map[string]*logic.Sort{},
		dts:    map[string]*logic.Datatype{},
		back:   map[string]*logic.Datatype{},
		memo:   map[*logic.Term]*logic.Term{},
		ints:   in.Split,
		elems:  map[string][]*logic.Term{},
		bsorts: map[string]*logic.Sort{},
	}
	for _, s := range sig.Sorts {
		k := in.Sizes[s.Name()]
		if k <= 0 {
			continue
		}
		ctors := make([]logic.Constructor, k)
		for i := range ctors {
			ctors[i] = logic.Constructor{Name: elemName(s.Name(), i)}
		}
		dt, err := logic.NewDatatype(boundPrefix+s.Name(), ctors...)
		if err != nil {
			return nil, err
		}
		tr.enums[s.Name()] = dt
		tr.orig[dt.Name()] = s
		es := make([]*logic.Term, k)
		for i := range es {
			es[i] = logic.Ctor(dt, i)
		}
		tr.elems[s.Name()] = es
	}
	out := &logic.Problem{}
	for _, d := range p.Decls {
		out.Decls = append(out.Decls, tr.term(d))
	}
	for _, a := range p.Assertions {
		t := tr.term(a.Term)
		if t.Err() != nil {
			return nil, fmt.Errorf("bounding assertion %s: %w", a.Name, t.Err())
		}
		out.Assertions = append(out.Assertions, logic.Named{Name: a.Name, Term: t})
	}
	if tr.err != nil {
		return nil, fmt.Errorf("bounded problem: %w", tr.err)
	}
	if in.Ints > 0 {
		n := logic.IntVal(int64(in.Ints))
		for _, c := range sig.Consts {
			if c.Sort().Kind() == logic.SortInt {
				out.Assertions = append(out.Assertions, logic.Named{
					Name: fmt.Sprintf("bound: |%s| <= %d", c.Name(), in.Ints),
					Term: logic.And(logic.Le(logic.Neg(n), c), logic.Le(c, n)),
				})
			}
		}
	}
	if err := out.Check(); err != nil {
		return nil, fmt.Errorf("bounded problem: %w", err)
	}
	return &boundedProblem{problem: out, tr: tr}, nil
}

// translator maps terms of the original problem to the bounded problem
// (term) and model values back (value).
type translator struct {
	enums  map[string]*logic.Datatype // bounded uninterpreted sort name → its enumeration
	orig   map[string]*logic.Sort     // enumeration name → the uninterpreted sort it replaces
	dts    map[string]*logic.Datatype // original datatype name → bounded datatype (same name)
	back   map[string]*logic.Datatype // bounded datatype name → original datatype
	elems  map[string][]*logic.Term   // bounded sort name → its constructor terms
	bsorts map[string]*logic.Sort     // memo of sort, by the original sort's text
	memo   map[*logic.Term]*logic.Term
	ints   int   // > 0: Int quantifiers get their instances at 0 … ints
	err    error // the first error met building sorts
}

// sort returns the bounded sort of the original sort s.
func (tr *translator) sort(s *logic.Sort) *logic.Sort {
	if r, ok := tr.bsorts[s.String()]; ok {
		return r
	}
	r := s
	switch s.Kind() {
	case logic.SortUninterpreted:
		if dt, ok := tr.enums[s.Name()]; ok {
			r = logic.DatatypeSort(dt)
		}
	case logic.SortArray:
		d, g := tr.sort(s.Domain()), tr.sort(s.Range())
		if d != s.Domain() || g != s.Range() {
			r = logic.ArraySort(d, g)
		}
	case logic.SortDatatype:
		if dt := tr.datatype(s.Datatype()); dt != s.Datatype() {
			r = logic.DatatypeSort(dt)
		}
	}
	tr.bsorts[s.String()] = r
	return r
}

// datatype returns the bounded version of the original datatype dt: dt
// itself when no field sort changes, else a datatype of the same name,
// constructors and fields over the bounded sorts.
func (tr *translator) datatype(dt *logic.Datatype) *logic.Datatype {
	if r, ok := tr.dts[dt.Name()]; ok {
		return r
	}
	changed := false
	ctors := make([]logic.Constructor, dt.NumConstructors())
	for i := range ctors {
		c := dt.Constructor(i)
		for j, f := range c.Fields {
			if s := tr.sort(f.Sort); s != f.Sort {
				c.Fields[j].Sort, changed = s, true
			}
		}
		ctors[i] = c
	}
	r := dt
	if changed {
		nd, err := logic.NewDatatype(dt.Name(), ctors...)
		if err != nil {
			if tr.err == nil {
				tr.err = err
			}
		} else {
			r = nd
		}
	}
	tr.dts[dt.Name()] = r
	tr.back[dt.Name()] = dt
	return r
}

// term returns the bounded version of the original term t: symbols over
// the bounded sorts, the element constants bound!S!i as the enumeration's
// constructors, and quantifiers over bounded sorts expanded.
func (tr *translator) term(t *logic.Term) *logic.Term {
	if r, ok := tr.memo[t]; ok {
		return r
	}
	r := tr.term1(t)
	tr.memo[t] = r
	return r
}

func (tr *translator) term1(t *logic.Term) *logic.Term {
	switch t.Kind() {
	case logic.KindConst:
		if t.Sort().Kind() == logic.SortUninterpreted {
			if es, ok := tr.elems[t.Sort().Name()]; ok && strings.HasPrefix(t.Name(), boundPrefix) {
				for i := range es {
					if t.Name() == elemName(t.Sort().Name(), i) {
						return es[i]
					}
				}
			}
		}
		return logic.Const(t.Name(), tr.sort(t.Sort()))
	case logic.KindVar:
		return logic.Var(t.Name(), tr.sort(t.Sort()))
	case logic.KindInt, logic.KindBool, logic.KindBad:
		return t
	case logic.KindForall, logic.KindExists:
		return tr.quantifier(t)
	case logic.KindLambda:
		vs := t.Vars()
		return logic.Lambda(tr.term(vs[0]), tr.term(t.Body()))
	}
	args := t.Args()
	for i, a := range args {
		args[i] = tr.term(a)
	}
	switch t.Op() {
	case logic.OpConstArray:
		return logic.ConstArray(tr.sort(t.Sort().Domain()), args[0])
	case logic.OpCtor:
		return logic.Ctor(tr.datatype(t.Datatype()), t.CtorIndex(), args...)
	case logic.OpIs:
		return logic.Is(tr.datatype(t.Datatype()), t.CtorIndex(), args[0])
	case logic.OpField:
		return logic.Access(tr.datatype(t.Datatype()), t.CtorIndex(), t.FieldIndex(), args[0])
	}
	return logic.Rebuild(t, args)
}

// quantifier expands the variables of t over bounded sorts: ∀x:S. b
// becomes b[x := e0] ∧ … ∧ b[x := ek-1], ∃ a disjunction. Variables of
// other sorts stay bound in each instance, with the patterns that still
// mention all of them.
func (tr *translator) quantifier(t *logic.Term) *logic.Term {
	body := tr.term(t.Body())
	var fin, rest []*logic.Term
	for _, v := range t.Vars() {
		bv := tr.term(v)
		if v.Sort().Kind() == logic.SortUninterpreted && tr.enums[v.Sort().Name()] != nil {
			fin = append(fin, bv)
		} else {
			rest = append(rest, bv)
		}
	}
	pats := t.Patterns()
	for i, p := range pats {
		for j, x := range p {
			pats[i][j] = tr.term(x)
		}
	}
	forall := t.Kind() == logic.KindForall
	var ints []*logic.Term
	if tr.ints > 0 {
		var others []*logic.Term
		for _, v := range rest {
			if v.Sort().Kind() == logic.SortInt {
				ints = append(ints, v)
			} else {
				others = append(others, v)
			}
		}
		if len(ints) > 0 {
			return tr.splitInts(forall, fin, ints, others, body, pats)
		}
	}
	return tr.expand(forall, fin, rest, body, pats)
}

// expand returns Q fin, rest. body (Q is ∀ or ∃) with the variables fin,
// which range over bounded sorts, replaced by each combination of their
// elements: the conjunction (∀) or disjunction (∃) of the instances, each
// still quantified over rest with the patterns that mention all of rest.
func (tr *translator) expand(forall bool, fin, rest []*logic.Term, body *logic.Term, pats [][]*logic.Term) *logic.Term {
	if len(fin) == 0 {
		return rebind(forall, rest, body, pats)
	}
	var insts []*logic.Term
	assign := make([]logic.Pair, len(fin))
	var walk func(i int)
	walk = func(i int) {
		if i == len(fin) {
			var ps [][]*logic.Term
			if len(rest) > 0 {
				for _, p := range pats {
					q := make([]*logic.Term, len(p))
					for j, x := range p {
						q[j] = logic.Subst(x, assign...)
					}
					if covers(q, rest) {
						ps = append(ps, q)
					}
				}
			}
			insts = append(insts, rebind(forall, rest, logic.Subst(body, assign...), ps))
			return
		}
		dt := fin[i].Sort().Datatype()
		for _, e := range tr.elems[tr.orig[dt.Name()].Name()] {
			assign[i] = logic.Pair{From: fin[i], To: e}
			walk(i + 1)
		}
	}
	walk(0)
	if forall {
		return logic.And(insts...)
	}
	return logic.Or(insts...)
}

// rebind quantifies body over vars (none: body itself).
func rebind(forall bool, vars []*logic.Term, body *logic.Term, pats [][]*logic.Term) *logic.Term {
	if len(vars) == 0 {
		return body
	}
	if forall {
		return logic.Forall(vars, body, pats...)
	}
	return logic.Exists(vars, body, pats...)
}

// covers reports whether the pattern is made of applications and mentions
// every variable of vars.
func covers(pat []*logic.Term, vars []*logic.Term) bool {
	in := map[string]bool{}
	for _, x := range pat {
		if x.Kind() != logic.KindApp {
			return false
		}
		for _, v := range logic.FreeVars(x) {
			in[v.Name()] = true
		}
	}
	for _, v := range vars {
		if !in[v.Name()] {
			return false
		}
	}
	return true
}

// value maps a model value of the bounded problem back to the original
// sort s: the enumeration's constructor i becomes the constant bound!S!i
// of sort S, bounded datatypes their originals.
func (tr *translator) value(v *logic.Term, s *logic.Sort) (*logic.Term, error) {
	switch s.Kind() {
	case logic.SortBool, logic.SortInt:
		return v, nil
	case logic.SortUninterpreted:
		if _, ok := tr.enums[s.Name()]; !ok {
			return v, nil
		}
		if v.Kind() != logic.KindApp || v.Op() != logic.OpCtor || v.NumArgs() != 0 {
			return nil, fmt.Errorf("model value %s is not an element of the bounded sort %s", v, s)
		}
		return logic.Const(elemName(s.Name(), v.CtorIndex()), s), nil
	case logic.SortDatatype:
		if v.Kind() != logic.KindApp || v.Op() != logic.OpCtor {
			return nil, fmt.Errorf("model value %s is not a constructor application", v)
		}
		dt := s.Datatype()
		if v.CtorIndex() >= dt.NumConstructors() || v.NumArgs() != len(dt.Constructor(v.CtorIndex()).Fields) {
			return nil, fmt.Errorf("model value %s does not fit %s", v, dt.Name())
		}
		c := dt.Constructor(v.CtorIndex())
		args := make([]*logic.Term, v.NumArgs())
		for i := range args {
			var err error
			if args[i], err = tr.value(v.Arg(i), c.Fields[i].Sort); err != nil {
				return nil, err
			}
		}
		return logic.Ctor(dt, v.CtorIndex(), args...), nil
	case logic.SortArray:
		if v.Kind() != logic.KindApp {
			return nil, fmt.Errorf("array value %s is not a constant array or a store", v)
		}
		switch v.Op() {
		case logic.OpConstArray:
			x, err := tr.value(v.Arg(0), s.Range())
			if err != nil {
				return nil, err
			}
			return logic.ConstArray(s.Domain(), x), nil
		case logic.OpStore:
			a, err := tr.value(v.Arg(0), s)
			if err != nil {
				return nil, err
			}
			i, err := tr.value(v.Arg(1), s.Domain())
			if err != nil {
				return nil, err
			}
			x, err := tr.value(v.Arg(2), s.Range())
			if err != nil {
				return nil, err
			}
			return logic.Store(a, i, x), nil
		}
		return nil, fmt.Errorf("array value %s is not a constant array or a store", v)
	}
	return nil, fmt.Errorf("model value of unknown sort %s", s)
}

// boundedModel reads a model of a bounded problem as a model of the
// original problem (logic.Model): the universe of a bounded sort S is the
// constants bound!S!0 … bound!S!k-1, terms are translated to the bounded
// sorts before evaluation and values translated back.
type boundedModel struct {
	tr *translator
	m  logic.Model
}

var _ logic.Model = boundedModel{}

// Universe returns the k elements of a bounded sort, in order; other sorts
// are the inner model's.
func (bm boundedModel) Universe(s *logic.Sort) ([]*logic.Term, error) {
	es, ok := bm.tr.elems[s.Name()]
	if s.Kind() != logic.SortUninterpreted || !ok {
		return bm.m.Universe(s)
	}
	out := make([]*logic.Term, len(es))
	for i := range es {
		out[i] = logic.Const(elemName(s.Name(), i), s)
	}
	return out, nil
}

// Eval evaluates the original term t in the bounded model.
func (bm boundedModel) Eval(t *logic.Term) (*logic.Term, error) {
	x := bm.tr.term(t)
	if err := x.Err(); err != nil {
		return nil, err
	}
	if bm.tr.err != nil {
		return nil, bm.tr.err
	}
	v, err := bm.m.Eval(x)
	if err != nil {
		return nil, err
	}
	return bm.tr.value(v, t.Sort())
}

// splitInts expands a quantifier with integer variables ints: ∀i. b
// becomes the instances at i = 0 … tr.ints (each still expanded over the
// bounded sorts by quantifier) and ∀i. (i < 0 ∨ i > tr.ints) → b, the
// quantifier over the rest of Int; ∃ dually. This is an equivalence for
// every interpretation, so it needs no domain assumption; it only gives
// the solver the instances a model over small integers needs.
func (tr *translator) splitInts(forall bool, fin, ints, others []*logic.Term, body *logic.Term, pats [][]*logic.Term) *logic.Term {
	var parts []*logic.Term
	assign := make([]logic.Pair, len(ints))
	var walk func(i int)
	walk = func(i int) {
		if i == len(ints) {
			b := logic.Subst(body, assign...)
			vars := append(append([]*logic.Term(nil), fin...), others...)
			var ps [][]*logic.Term
			for _, p := range pats {
				q := make([]*logic.Term, len(p))
				for j, x := range p {
					q[j] = logic.Subst(x, assign...)
				}
				if covers(q, vars) {
					ps = append(ps, q)
				}
			}
			parts = append(parts, tr.expand(forall, fin, others, b, ps))
			return
		}
		for j := 0; j <= tr.ints; j++ {
			assign[i] = logic.Pair{From: ints[i], To: logic.IntVal(int64(j))}
			walk(i + 1)
		}
	}
	walk(0)
	var outside []*logic.Term
	for _, v := range ints {
		outside = append(outside, logic.Lt(v, logic.IntVal(0)), logic.Gt(v, logic.IntVal(int64(tr.ints))))
	}
	var tail *logic.Term
	if forall {
		tail = logic.Implies(logic.Or(outside...), body)
	} else {
		tail = logic.And(logic.Or(outside...), body)
	}
	parts = append(parts, tr.expand(forall, fin, append(append([]*logic.Term(nil), others...), ints...), tail, pats))
	if forall {
		return logic.And(parts...)
	}
	return logic.Or(parts...)
}
