package encode

import (
	"fmt"
	"strconv"

	"ladder/internal/logic"
	"ladder/ioa/expr"
)

// Value is the encoding of a value of a language sort: a single term for
// leaf sorts, or parts for flattened sorts (records: one part per field;
// sequences: the length and the elements as a Map[Int, X]; maps into a
// flattened sort: the value sort's parts, each lifted to a map). Values are
// immutable.
type Value struct {
	sort  *expr.Sort
	leaf  *logic.Term
	parts []Value
}

// Sort returns the value's language sort.
func (v Value) Sort() *expr.Sort { return v.sort }

// IsLeaf reports whether the value is a single term.
func (v Value) IsLeaf() bool { return v.leaf != nil }

// Term returns the single term of a leaf value (nil for flattened values;
// use Encoder.Pack for a single term of any value).
func (v Value) Term() *logic.Term { return v.leaf }

// Parts returns the parts of a flattened value (a copy).
func (v Value) Parts() []Value { return append([]Value(nil), v.parts...) }

func leafValue(s *expr.Sort, t *logic.Term) Value { return Value{sort: s, leaf: t} }

// Leaves returns the terms of v in depth-first order.
func (v Value) Leaves() []*logic.Term {
	if v.leaf != nil {
		return []*logic.Term{v.leaf}
	}
	var out []*logic.Term
	for _, p := range v.parts {
		out = append(out, p.Leaves()...)
	}
	return out
}

// err returns the first error of v's terms.
func (v Value) err() error {
	if v.leaf == nil && v.parts == nil {
		return fmt.Errorf("internal: empty value of sort %s", v.sort)
	}
	for _, t := range v.Leaves() {
		if t.Err() != nil {
			return t.Err()
		}
	}
	return nil
}

// ite returns the value ite(c, a, b), part by part.
func ite(c *logic.Term, a, b Value) Value {
	if a.leaf != nil {
		return leafValue(a.sort, logic.Ite(c, a.leaf, b.leaf))
	}
	parts := make([]Value, len(a.parts))
	for i := range a.parts {
		parts[i] = ite(c, a.parts[i], b.parts[i])
	}
	return Value{sort: a.sort, parts: parts}
}

// Eq returns the formula a = b: the conjunction of the equalities of the
// parts. Because every value's representation is canonical (see doc.go),
// this is the language's structural, extensional equality.
func Eq(a, b Value) *logic.Term {
	if a.leaf != nil && b.leaf != nil {
		return logic.Eq(a.leaf, b.leaf)
	}
	if len(a.parts) != len(b.parts) || a.leaf != nil || b.leaf != nil {
		return logic.Eq(logic.True(), logic.IntVal(0)) // an ill-sorted term: carries an error
	}
	cs := make([]*logic.Term, len(a.parts))
	for i := range a.parts {
		cs[i] = Eq(a.parts[i], b.parts[i])
	}
	return logic.And(cs...)
}

// fresh returns a value of sort s made of fresh symbols: mk is called with
// a name and a logic sort for each leaf.
func (e *Encoder) fresh(s *expr.Sort, name string, mk func(string, *logic.Sort) *logic.Term) (Value, error) {
	if s == nil || s.IsInvalid() {
		return Value{}, fmt.Errorf("no sort for %s", name)
	}
	if isLeaf(s) {
		ls, err := e.leafSort(s)
		if err != nil {
			return Value{}, err
		}
		return leafValue(s, mk(name, ls)), nil
	}
	ps, names := partSorts(s), partNames(s)
	parts := make([]Value, len(ps))
	for i, p := range ps {
		var err error
		if parts[i], err = e.fresh(p, name+"."+names[i], mk); err != nil {
			return Value{}, err
		}
	}
	return Value{sort: s, parts: parts}, nil
}

// freshVar returns a value of bound variables (for a quantifier).
func (e *Encoder) freshVar(s *expr.Sort, base string) (Value, error) {
	e.n++
	return e.fresh(s, base+"!"+strconv.Itoa(e.n), logic.Var)
}

// mapSelect returns m[k] for m of sort Map[K, V] (no range check: maps are total).
func (e *Encoder) mapSelect(m, k Value) (Value, error) {
	V := m.sort.Elem
	if m.leaf != nil {
		pk, err := e.Pack(k)
		if err != nil {
			return Value{}, err
		}
		return leafValue(V, logic.Select(m.leaf, pk)), nil
	}
	parts := make([]Value, len(m.parts))
	for i, p := range m.parts {
		var err error
		if parts[i], err = e.mapSelect(p, k); err != nil {
			return Value{}, err
		}
	}
	return Value{sort: V, parts: parts}, nil
}

// mapStore returns m[k := v].
func (e *Encoder) mapStore(m, k, v Value) (Value, error) {
	if m.leaf != nil {
		pk, err := e.Pack(k)
		if err != nil {
			return Value{}, err
		}
		return leafValue(m.sort, logic.Store(m.leaf, pk, v.leaf)), nil
	}
	parts := make([]Value, len(m.parts))
	for i, p := range m.parts {
		var err error
		if parts[i], err = e.mapStore(p, k, v.parts[i]); err != nil {
			return Value{}, err
		}
	}
	return Value{sort: m.sort, parts: parts}, nil
}

// mapConst returns the constant map of sort s = Map[K, V] with value v.
func (e *Encoder) mapConst(s *expr.Sort, v Value) (Value, error) {
	if isLeaf(s) {
		k, err := e.packedSort(s.Key)
		if err != nil {
			return Value{}, err
		}
		return leafValue(s, logic.ConstArray(k, v.leaf)), nil
	}
	ps := partSorts(s)
	parts := make([]Value, len(ps))
	for i, p := range ps {
		var err error
		if parts[i], err = e.mapConst(p, v.parts[i]); err != nil {
			return Value{}, err
		}
	}
	return Value{sort: s, parts: parts}, nil
}

// mapLambda returns the map of sort s = Map[K, V] sending the packed key
// variable kv to body (a value of sort V mentioning kv).
func (e *Encoder) mapLambda(s *expr.Sort, kv *logic.Term, body Value) Value {
	if body.leaf != nil {
		b := body.leaf
		// eta: (lambda k. (select a k)) = a when a does not mention k
		if b.Kind() == logic.KindApp && b.Op() == logic.OpSelect && logic.Equal(b.Arg(1), kv) && !mentionsVar(b.Arg(0), kv) {
			return leafValue(s, b.Arg(0))
		}
		return leafValue(s, logic.Lambda(kv, b))
	}
	ps := partSorts(s)
	parts := make([]Value, len(body.parts))
	for i, p := range body.parts {
		parts[i] = e.mapLambda(ps[i], kv, p)
	}
	return Value{sort: s, parts: parts}
}

func mentionsVar(t, v *logic.Term) bool {
	for _, x := range logic.FreeVars(t) {
		if x.Name() == v.Name() {
			return true
		}
	}
	return false
}

// Pack returns v as a single term of its packed sort (see doc.go).
func (e *Encoder) Pack(v Value) (*logic.Term, error) {
	if v.leaf != nil {
		return v.leaf, nil
	}
	s := v.sort
	switch s.Kind {
	case expr.KRecord:
		dt, err := e.recordDatatype(s)
		if err != nil {
			return nil, err
		}
		args := make([]*logic.Term, len(v.parts))
		for i, p := range v.parts {
			if args[i], err = e.Pack(p); err != nil {
				return nil, err
			}
		}
		return logic.Ctor(dt, 0, args...), nil
	case expr.KSeq:
		dt, err := e.seqDatatype(s)
		if err != nil {
			return nil, err
		}
		n, err := e.Pack(v.parts[0])
		if err != nil {
			return nil, err
		}
		elems, err := e.Pack(v.parts[1])
		if err != nil {
			return nil, err
		}
		return logic.Ctor(dt, 0, n, elems), nil
	case expr.KMap:
		ks, err := e.packedSort(s.Key)
		if err != nil {
			return nil, err
		}
		e.n++
		kv := logic.Var("k!"+strconv.Itoa(e.n), ks)
		k, err := e.unpack(kv, s.Key)
		if err != nil {
			return nil, err
		}
		x, err := e.mapSelect(v, k)
		if err != nil {
			return nil, err
		}
		body, err := e.Pack(x)
		if err != nil {
			return nil, err
		}
		if body.Kind() == logic.KindApp && body.Op() == logic.OpSelect && logic.Equal(body.Arg(1), kv) && !mentionsVar(body.Arg(0), kv) {
			return body.Arg(0), nil
		}
		return logic.Lambda(kv, body), nil
	}
	return nil, fmt.Errorf("internal: cannot pack a value of sort %s", s)
}

// unpack returns the value of sort s whose packed form is t.
func (e *Encoder) unpack(t *logic.Term, s *expr.Sort) (Value, error) {
	if isLeaf(s) {
		return leafValue(s, t), nil
	}
	switch s.Kind {
	case expr.KRecord:
		dt, err := e.recordDatatype(s)
		if err != nil {
			return Value{}, err
		}
		parts := make([]Value, len(s.Fields))
		for i, f := range s.Fields {
			if parts[i], err = e.unpack(logic.Access(dt, 0, i, t), f.Sort); err != nil {
				return Value{}, err
			}
		}
		return Value{sort: s, parts: parts}, nil
	case expr.KSeq:
		dt, err := e.seqDatatype(s)
		if err != nil {
			return Value{}, err
		}
		ps := partSorts(s)
		elems, err := e.unpack(logic.Access(dt, 0, 1, t), ps[1])
		if err != nil {
			return Value{}, err
		}
		return Value{sort: s, parts: []Value{leafValue(expr.IntSort, logic.Access(dt, 0, 0, t)), elems}}, nil
	case expr.KMap:
		ks, err := e.packedSort(s.Key)
		if err != nil {
			return Value{}, err
		}
		e.n++
		kv := logic.Var("k!"+strconv.Itoa(e.n), ks)
		inner, err := e.unpack(logic.Select(t, kv), s.Elem)
		if err != nil {
			return Value{}, err
		}
		return e.mapLambda(s, kv, inner), nil
	}
	return Value{}, fmt.Errorf("internal: cannot unpack a value of sort %s", s)
}

// Default returns the default value of sort s (docs/language.md, "Total
// semantics"): false, 0, the first enum constant, T#0, None, the empty set,
// the constant map of the default, the empty sequence, the record of
// defaults.
func (e *Encoder) Default(s *expr.Sort) (Value, error) {
	if s == nil || s.IsInvalid() {
		return Value{}, fmt.Errorf("default of an ill-sorted expression")
	}
	switch s.Kind {
	case expr.KBool:
		return leafValue(s, logic.False()), nil
	case expr.KInt, expr.KNat:
		return leafValue(s, logic.IntVal(0)), nil
	case expr.KEnum:
		dt, err := e.enumDatatype(s)
		if err != nil {
			return Value{}, err
		}
		return leafValue(s, logic.Ctor(dt, 0)), nil
	case expr.KParam:
		return leafValue(s, e.elem(s.Name, 0)), nil
	case expr.KOption:
		dt, err := e.optionDatatype(s)
		if err != nil {
			return Value{}, err
		}
		return leafValue(s, logic.Ctor(dt, 0)), nil
	case expr.KSet:
		ls, err := e.leafSort(s)
		if err != nil {
			return Value{}, err
		}
		return leafValue(s, logic.ConstArray(ls.Domain(), logic.False())), nil
	case expr.KMap:
		d, err := e.Default(s.Elem)
		if err != nil {
			return Value{}, err
		}
		return e.mapConst(s, d)
	case expr.KRecord:
		parts := make([]Value, len(s.Fields))
		for i, f := range s.Fields {
			var err error
			if parts[i], err = e.Default(f.Sort); err != nil {
				return Value{}, err
			}
		}
		return Value{sort: s, parts: parts}, nil
	case expr.KSeq:
		ps := partSorts(s)
		d, err := e.Default(s.Elem)
		if err != nil {
			return Value{}, err
		}
		elems, err := e.mapConst(ps[1], d)
		if err != nil {
			return Value{}, err
		}
		return Value{sort: s, parts: []Value{leafValue(expr.IntSort, logic.IntVal(0)), elems}}, nil
	}
	return Value{}, fmt.Errorf("no default value for sort %s", s)
}

// elem returns the constant standing for T#i and records its use (the
// constants of one sort are pairwise distinct, see Problem).
func (e *Encoder) elem(sortName string, i int) *logic.Term {
	m := e.elems[sortName]
	if m == nil {
		m = map[int]bool{}
		e.elems[sortName] = m
	}
	m[i] = true
	return logic.Const(sortName+"#"+strconv.Itoa(i), e.usort(sortName))
}

// seqIndex returns s[i] for a sequence s: the element when 0 <= i < len(s),
// the default value otherwise.
func (e *Encoder) seqIndex(s, i Value) (Value, error) {
	d, err := e.Default(s.sort.Elem)
	if err != nil {
		return Value{}, err
	}
	x, err := e.mapSelect(s.parts[1], i)
	if err != nil {
		return Value{}, err
	}
	return ite(inRange(i.leaf, s.parts[0].leaf), x, d), nil
}

// inRange returns 0 <= i < n.
func inRange(i, n *logic.Term) *logic.Term {
	return logic.And(logic.Le(logic.IntVal(0), i), logic.Lt(i, n))
}

// seqUpdate returns s[i := v]: s when i is out of range.
func (e *Encoder) seqUpdate(s, i, v Value) (Value, error) {
	st, err := e.mapStore(s.parts[1], i, v)
	if err != nil {
		return Value{}, err
	}
	elems := ite(inRange(i.leaf, s.parts[0].leaf), st, s.parts[1])
	return Value{sort: s.sort, parts: []Value{s.parts[0], elems}}, nil
}

// seqAppend returns append(s, x): x stored at index len(s), length + 1.
func (e *Encoder) seqAppend(s, x Value) (Value, error) {
	elems, err := e.mapStore(s.parts[1], s.parts[0], x)
	if err != nil {
		return Value{}, err
	}
	n := leafValue(expr.IntSort, logic.Add(s.parts[0].leaf, logic.IntVal(1)))
	return Value{sort: s.sort, parts: []Value{n, elems}}, nil
}

// wellFormed returns the structural well-formedness of v, a value of
// fresh symbols or variables: every sequence inside it has a length >= 0
// and the default value at every index outside [0, len). Every value the
// encoder builds from well-formed values is well formed; this is what
// makes equality of representations the language's equality.
func (e *Encoder) wellFormed(v Value) (*logic.Term, error) {
	s := v.sort
	if !hasKind(s, expr.KSeq) {
		return logic.True(), nil
	}
	switch s.Kind {
	case expr.KOption:
		dt, err := e.optionDatatype(s)
		if err != nil {
			return nil, err
		}
		x, err := e.unpack(logic.Access(dt, 1, 0, v.leaf), s.Elem)
		if err != nil {
			return nil, err
		}
		w, err := e.wellFormed(x)
		if err != nil {
			return nil, err
		}
		return logic.Implies(logic.Is(dt, 1, v.leaf), w), nil
	case expr.KRecord:
		var cs []*logic.Term
		for _, p := range v.parts {
			w, err := e.wellFormed(p)
			if err != nil {
				return nil, err
			}
			cs = append(cs, w)
		}
		return logic.And(cs...), nil
	case expr.KMap:
		return e.forallKey(s.Key, func(k Value) (*logic.Term, error) {
			x, err := e.mapSelect(v, k)
			if err != nil {
				return nil, err
			}
			return e.wellFormed(x)
		})
	case expr.KSeq:
		n := v.parts[0].leaf
		d, err := e.Default(s.Elem)
		if err != nil {
			return nil, err
		}
		body, err := e.forallKey(expr.IntSort, func(i Value) (*logic.Term, error) {
			x, err := e.mapSelect(v.parts[1], i)
			if err != nil {
				return nil, err
			}
			w, err := e.wellFormed(x)
			if err != nil {
				return nil, err
			}
			return logic.Ite(inRange(i.leaf, n), w, Eq(x, d)), nil
		})
		if err != nil {
			return nil, err
		}
		return logic.And(logic.Ge(n, logic.IntVal(0)), body), nil
	}
	return logic.True(), nil
}

// natFacts returns the condition that every Nat inside v is >= 0 (for a
// sequence: within its length).
func (e *Encoder) natFacts(v Value) (*logic.Term, error) {
	s := v.sort
	if !hasKind(s, expr.KNat) {
		return logic.True(), nil
	}
	switch s.Kind {
	case expr.KNat:
		return logic.Ge(v.leaf, logic.IntVal(0)), nil
	case expr.KOption:
		dt, err := e.optionDatatype(s)
		if err != nil {
			return nil, err
		}
		x, err := e.unpack(logic.Access(dt, 1, 0, v.leaf), s.Elem)
		if err != nil {
			return nil, err
		}
		w, err := e.natFacts(x)
		if err != nil {
			return nil, err
		}
		return logic.Implies(logic.Is(dt, 1, v.leaf), w), nil
	case expr.KRecord:
		var cs []*logic.Term
		for _, p := range v.parts {
			w, err := e.natFacts(p)
			if err != nil {
				return nil, err
			}
			cs = append(cs, w)
		}
		return logic.And(cs...), nil
	case expr.KMap:
		return e.forallKey(s.Key, func(k Value) (*logic.Term, error) {
			x, err := e.mapSelect(v, k)
			if err != nil {
				return nil, err
			}
			return e.natFacts(x)
		})
	case expr.KSet:
		return e.forallKey(s.Elem, func(k Value) (*logic.Term, error) {
			pk, err := e.Pack(k)
			if err != nil {
				return nil, err
			}
			w, err := e.natFacts(k)
			if err != nil {
				return nil, err
			}
			return logic.Implies(logic.Select(v.leaf, pk), w), nil
		})
	case expr.KSeq:
		n := v.parts[0].leaf
		return e.forallKey(expr.IntSort, func(i Value) (*logic.Term, error) {
			x, err := e.mapSelect(v.parts[1], i)
			if err != nil {
				return nil, err
			}
			w, err := e.natFacts(x)
			if err != nil {
				return nil, err
			}
			return logic.Implies(inRange(i.leaf, n), w), nil
		})
	}
	return logic.True(), nil
}

// forallKey returns forall k: K'. body(k) over one packed variable of K's
// packed sort (K must be a valid key sort, or Int).
func (e *Encoder) forallKey(K *expr.Sort, body func(Value) (*logic.Term, error)) (*logic.Term, error) {
	ks, err := e.packedSort(K)
	if err != nil {
		return nil, err
	}
	e.n++
	kv := logic.Var("k!"+strconv.Itoa(e.n), ks)
	k, err := e.unpack(kv, K)
	if err != nil {
		return nil, err
	}
	b, err := body(k)
	if err != nil {
		return nil, err
	}
	return logic.Forall([]*logic.Term{kv}, b), nil
}
