package smt

import (
	"fmt"
	"strconv"

	"ladder/internal/logic"
	"ladder/internal/z3"
)

// Model is a Z3 model of a problem checked with Check. It implements
// logic.Model. Close it when done.
type Model struct {
	b     *builder
	m     *z3.Model
	elems map[string]z3.AST // universe elements met so far, by name
}

var _ logic.Model = (*Model)(nil)

// Close releases the Z3 model.
func (m *Model) Close() { m.m.Close() }

// String returns Z3's text of the model.
func (m *Model) String() string { return m.m.String() }

// Universe returns the elements of the uninterpreted sort s, as constants
// named like Z3's universe elements (T!val!0, ...), in Z3's order.
func (m *Model) Universe(s *logic.Sort) ([]*logic.Term, error) {
	if s.Kind() != logic.SortUninterpreted {
		return nil, fmt.Errorf("universe of the interpreted sort %s", s)
	}
	zs, ok := m.b.ss.sorts[s.String()]
	if !ok {
		return nil, nil // the problem does not mention s
	}
	// The solver leaves out of the model the sorts that no term of the
	// model needs an element of (a sort that appears only as the index of
	// constant arrays): Z3 then has no universe for s, and asking for one is
	// an error. No term of the model depends on the elements of s, so the
	// model is one for any non-empty universe of s; the empty answer lets
	// the caller choose (the decoder takes one element).
	present, err := m.m.Sorts()
	if err != nil {
		return nil, err
	}
	found := false
	for _, p := range present {
		if p.Equal(zs) {
			found = true
			break
		}
	}
	if !found {
		return nil, nil
	}
	us, err := m.m.SortUniverse(zs)
	if err != nil {
		return nil, err
	}
	out := make([]*logic.Term, len(us))
	for i, u := range us {
		if out[i], err = m.value(u, s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Eval evaluates the closed term t with model completion and returns its
// value as a logic term (see logic.Model). Lambda terms are beta-reduced
// first; t may not contain a lambda in any other position.
func (m *Model) Eval(t *logic.Term) (*logic.Term, error) {
	if !t.IsClosed() {
		return nil, fmt.Errorf("eval of a term with free variables")
	}
	// Z3 4.8.12's model evaluator corrupts memory on lambda terms (the
	// context then crashes when deleted): reduce select-over-lambda
	// redexes here and refuse any lambda that remains.
	t, err := m.expandArrayEqs(t)
	if err != nil {
		return nil, err
	}
	t = logic.Beta(t)
	if logic.HasLambda(t) {
		return nil, fmt.Errorf("cannot evaluate a lambda term in a model: %s", t)
	}
	m.b.model = m
	x, err := m.b.term(t)
	if err != nil {
		return nil, err
	}
	v, err := m.m.Eval(x, true)
	if err != nil {
		return nil, err
	}
	return m.value(v, t.Sort())
}

// value converts a Z3 model value of logic sort s into a logic term.
func (m *Model) value(v z3.AST, s *logic.Sort) (*logic.Term, error) {
	switch s.Kind() {
	case logic.SortBool:
		switch v.BoolValue() {
		case z3.True:
			return logic.True(), nil
		case z3.False:
			return logic.False(), nil
		}
		return nil, fmt.Errorf("model value %s is not a truth value", v)
	case logic.SortInt:
		if n, ok := v.Int64(); ok {
			return logic.IntVal(n), nil
		}
		if v.IsApp() && v.DeclKind() == z3.OpUMinus && v.NumArgs() == 1 {
			a, err := v.Arg(0)
			if err != nil {
				return nil, err
			}
			if n, ok := a.Int64(); ok && n >= 0 {
				return logic.IntVal(-n), nil
			}
		}
		if num, err := v.NumeralString(); err == nil {
			if n, err := strconv.ParseInt(num, 10, 64); err == nil {
				return logic.IntVal(n), nil
			}
			return nil, fmt.Errorf("model integer %s does not fit 64 bits", num)
		}
		return nil, fmt.Errorf("model value %s is not an integer", v)
	case logic.SortUninterpreted:
		if !v.IsApp() || v.NumArgs() != 0 {
			return nil, fmt.Errorf("model value %s is not an element of %s", v, s)
		}
		name := v.DeclName()
		m.elems[name] = v
		return logic.Const(name, s), nil
	case logic.SortDatatype:
		if !v.IsApp() || v.DeclKind() != z3.OpDTConstructor {
			return nil, fmt.Errorf("model value %s is not a constructor application", v)
		}
		dt := s.Datatype()
		zd, err := m.b.declare(dt)
		if err != nil {
			return nil, err
		}
		d, err := v.Decl()
		if err != nil {
			return nil, err
		}
		ci := -1
		for i, c := range zd.Constructors {
			if c.Constructor.Equal(d) {
				ci = i
			}
		}
		if ci < 0 || ci >= dt.NumConstructors() {
			return nil, fmt.Errorf("model value %s: unknown constructor of %s", v, dt.Name())
		}
		c := dt.Constructor(ci)
		args, err := v.Args()
		if err != nil {
			return nil, err
		}
		if len(args) != len(c.Fields) {
			return nil, fmt.Errorf("model value %s: wrong arity", v)
		}
		out := make([]*logic.Term, len(args))
		for i, a := range args {
			if out[i], err = m.value(a, c.Fields[i].Sort); err != nil {
				return nil, err
			}
		}
		return logic.Ctor(dt, ci, out...), nil
	case logic.SortArray:
		return m.array(v, s)
	}
	return nil, fmt.Errorf("model value of unknown sort %s", s)
}

// array converts an array value: a constant array, stores, or (_ as-array f).
func (m *Model) array(v z3.AST, s *logic.Sort) (*logic.Term, error) {
	if !v.IsApp() {
		return nil, fmt.Errorf("array value %s is not a constant array or a store chain", v)
	}
	switch v.DeclKind() {
	case z3.OpConstArray:
		a, err := v.Arg(0)
		if err != nil {
			return nil, err
		}
		x, err := m.value(a, s.Range())
		if err != nil {
			return nil, err
		}
		return logic.ConstArray(s.Domain(), x), nil
	case z3.OpStore:
		args, err := v.Args()
		if err != nil {
			return nil, err
		}
		base, err := m.array(args[0], s)
		if err != nil {
			return nil, err
		}
		i, err := m.value(args[1], s.Domain())
		if err != nil {
			return nil, err
		}
		x, err := m.value(args[2], s.Range())
		if err != nil {
			return nil, err
		}
		return logic.Store(base, i, x), nil
	case z3.OpAsArray:
		d, err := v.AsArrayDecl()
		if err != nil {
			return nil, err
		}
		fi, ok, err := m.m.FuncInterp(d)
		if err != nil {
			return nil, err
		}
		if !ok || fi.Else.IsNil() {
			return nil, fmt.Errorf("array value %s has no interpretation", v)
		}
		def, err := m.value(fi.Else, s.Range())
		if err != nil {
			return nil, err
		}
		out := logic.ConstArray(s.Domain(), def)
		for _, e := range fi.Entries {
			if len(e.Args) != 1 {
				return nil, fmt.Errorf("array value %s: entry of arity %d", v, len(e.Args))
			}
			i, err := m.value(e.Args[0], s.Domain())
			if err != nil {
				return nil, err
			}
			x, err := m.value(e.Value, s.Range())
			if err != nil {
				return nil, err
			}
			out = logic.Store(out, i, x)
		}
		return out, nil
	}
	return nil, fmt.Errorf("array value %s is not a constant array or a store chain", v)
}

// expandArrayEqs rewrites each equality between arrays that contain
// lambdas into the conjunction of the equalities of their elements at
// every element of the (finite, in the model) index sort, so that Beta can
// reduce the lambdas away. This is valid in the model only, whose
// universes are the whole sorts.
func (m *Model) expandArrayEqs(t *logic.Term) (*logic.Term, error) {
	memo := map[*logic.Term]*logic.Term{}
	var walk func(x *logic.Term) (*logic.Term, error)
	walk = func(x *logic.Term) (*logic.Term, error) {
		if r, ok := memo[x]; ok {
			return r, nil
		}
		if x.Kind() != logic.KindApp || !logic.HasLambda(x) {
			return x, nil
		}
		args := x.Args()
		for i, a := range args {
			var err error
			if args[i], err = walk(a); err != nil {
				return nil, err
			}
		}
		r := logic.Rebuild(x, args)
		if x.Op() == logic.OpEq && args[0].Sort().Kind() == logic.SortArray {
			dom, err := m.elements(args[0].Sort().Domain())
			if err != nil {
				return nil, err
			}
			var cs []*logic.Term
			for _, u := range dom {
				c, err := walk(logic.Eq(logic.Select(args[0], u), logic.Select(args[1], u)))
				if err != nil {
					return nil, err
				}
				cs = append(cs, c)
			}
			r = logic.And(cs...)
		}
		memo[x] = r
		return r, nil
	}
	return walk(t)
}

// elements returns every value of a finite sort in the model: Bool, the
// universe of an uninterpreted sort, or the values of a datatype over
// finite sorts (at most 4096).
func (m *Model) elements(s *logic.Sort) ([]*logic.Term, error) {
	switch s.Kind() {
	case logic.SortBool:
		return []*logic.Term{logic.False(), logic.True()}, nil
	case logic.SortUninterpreted:
		u, err := m.Universe(s)
		if err == nil && len(u) == 0 {
			// the model gives no universe of s: there is no finite set
			// of elements to expand over
			return nil, fmt.Errorf("the model has no universe of %s", s)
		}
		return u, err
	case logic.SortDatatype:
		dt := s.Datatype()
		var out []*logic.Term
		for i := 0; i < dt.NumConstructors(); i++ {
			c := dt.Constructor(i)
			combos := [][]*logic.Term{nil}
			for _, f := range c.Fields {
				vals, err := m.elements(f.Sort)
				if err != nil {
					return nil, err
				}
				var next [][]*logic.Term
				for _, p := range combos {
					for _, v := range vals {
						next = append(next, append(append([]*logic.Term(nil), p...), v))
					}
				}
				if len(next) > 4096 {
					return nil, fmt.Errorf("sort %s has too many values to compare arrays over it", s)
				}
				combos = next
			}
			for _, args := range combos {
				out = append(out, logic.Ctor(dt, i, args...))
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot compare arrays over the infinite sort %s in a model", s)
}
