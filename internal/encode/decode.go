package encode

import (
	"fmt"

	"ladder/internal/logic"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// Decoder reads values back from a model (a counterexample) as evaluator
// values, so that the evaluator can replay them. Elements of a parameter
// sort T become T#i: the model's value of each T#i constant the encoder
// used keeps its index i, and the other elements of the model's universe
// of T take the remaining indices in universe order. The Instance has
// Sizes = these universe sizes (at least one more than the largest T#i
// index used).
type Decoder struct {
	e     *Encoder
	m     logic.Model
	inst  *eval.Instance
	univ  map[string][]*logic.Term // by sort name: the model element of each index (nil: no element)
	ready map[string]bool
}

// NewDecoder returns a decoder of the model m of a problem built by e.
func (e *Encoder) NewDecoder(m logic.Model) *Decoder {
	return &Decoder{e: e, m: m, inst: &eval.Instance{Sizes: map[string]int{}}, univ: map[string][]*logic.Term{}, ready: map[string]bool{}}
}

// Instance returns the instance the decoded values live in (its Sizes grow
// as sorts are met; decode everything first).
func (d *Decoder) Instance() *eval.Instance { return d.inst }

// prepare fills in the universe of the parameter sorts of s.
func (d *Decoder) prepare(s *expr.Sort) error {
	switch s.Kind {
	case expr.KParam:
		return d.universe(s.Name)
	case expr.KRecord:
		for _, f := range s.Fields {
			if err := d.prepare(f.Sort); err != nil {
				return err
			}
		}
	case expr.KMap:
		if err := d.prepare(s.Key); err != nil {
			return err
		}
		return d.prepare(s.Elem)
	case expr.KSet, expr.KSeq, expr.KOption:
		return d.prepare(s.Elem)
	}
	return nil
}

func (d *Decoder) universe(name string) error {
	if d.ready[name] {
		return nil
	}
	d.ready[name] = true
	ls := logic.UninterpretedSort(name)
	elems, err := d.m.Universe(ls)
	if err != nil {
		return err
	}
	var idx []*logic.Term
	taken := make([]bool, len(elems))
	place := func(i int, t *logic.Term) {
		for len(idx) <= i {
			idx = append(idx, nil)
		}
		idx[i] = t
	}
	for i := range d.e.elems[name] {
		v, err := d.m.Eval(d.e.elem(name, i))
		if err != nil {
			return err
		}
		for j, u := range elems {
			if logic.Equal(u, v) {
				taken[j] = true
				place(i, u)
			}
		}
		if i >= len(idx) || idx[i] == nil {
			place(i, v) // an element outside the reported universe: keep the model's value
		}
	}
	next := 0
	for j, u := range elems {
		if taken[j] {
			continue
		}
		for next < len(idx) && idx[next] != nil {
			next++
		}
		place(next, u)
	}
	if len(idx) == 0 {
		// the sort has no element in the model: one arbitrary element
		v, err := d.m.Eval(d.e.elem(name, 0))
		if err != nil {
			return err
		}
		place(0, v)
	}
	d.univ[name] = idx
	d.inst.Sizes[name] = len(idx)
	return nil
}

// elemTerm returns the model element standing for index i of sort name.
func (d *Decoder) elemTerm(name string, i int) (*logic.Term, error) {
	if err := d.universe(name); err != nil {
		return nil, err
	}
	u := d.univ[name]
	if i < 0 || i >= len(u) || u[i] == nil {
		return nil, fmt.Errorf("%s#%d has no element in the model", name, i)
	}
	return u[i], nil
}

// State decodes st.
func (d *Decoder) State(st *State) (eval.State, error) {
	for _, v := range st.Automaton.Vars {
		if err := d.prepare(v.Sort); err != nil {
			return nil, err
		}
	}
	out := make(eval.State, len(st.Vars))
	for i, v := range st.Vars {
		x, err := d.Value(withSort(v, st.Automaton.Vars[i].Sort))
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", st.Automaton.Vars[i].Name, err)
		}
		out[i] = x
	}
	return out, nil
}

// Values decodes a list of values (action parameters, for instance).
func (d *Decoder) Values(vs []Value) ([]eval.Value, error) {
	out := make([]eval.Value, len(vs))
	for i, v := range vs {
		var err error
		if out[i], err = d.Value(v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Value decodes v.
func (d *Decoder) Value(v Value) (eval.Value, error) {
	s := v.sort
	if err := d.prepare(s); err != nil {
		return eval.Value{}, err
	}
	if v.leaf != nil && s.Kind != expr.KMap {
		return d.packed(v.leaf, s)
	}
	switch s.Kind {
	case expr.KRecord:
		fs := make([]eval.Value, len(v.parts))
		for i, p := range v.parts {
			var err error
			if fs[i], err = d.Value(p); err != nil {
				return eval.Value{}, err
			}
		}
		return eval.Record(fs...), nil
	case expr.KSeq:
		n, err := d.intOf(v.parts[0].leaf)
		if err != nil {
			return eval.Value{}, err
		}
		if n < 0 || n > 1<<16 {
			return eval.Value{}, fmt.Errorf("sequence length %d out of range", n)
		}
		elems := make([]eval.Value, n)
		for i := range elems {
			x, err := d.e.mapSelect(v.parts[1], leafValue(expr.IntSort, logic.IntVal(int64(i))))
			if err != nil {
				return eval.Value{}, err
			}
			if elems[i], err = d.Value(x); err != nil {
				return eval.Value{}, err
			}
		}
		return eval.Seq(elems...), nil
	case expr.KMap:
		keys, err := d.inst.Values(s.Key)
		if err != nil {
			return eval.Value{}, err
		}
		var entries []eval.Entry
		for _, k := range keys {
			kv, err := d.literal(k, s.Key)
			if err != nil {
				return eval.Value{}, err
			}
			x, err := d.e.mapSelect(v, kv)
			if err != nil {
				return eval.Value{}, err
			}
			y, err := d.Value(x)
			if err != nil {
				return eval.Value{}, err
			}
			entries = append(entries, eval.Entry{Key: k, Val: y})
		}
		def, err := d.inst.Default(s.Elem)
		if err != nil {
			return eval.Value{}, err
		}
		return d.inst.Map(s, def, entries...)
	}
	return eval.Value{}, fmt.Errorf("cannot decode a value of sort %s", s)
}

func (d *Decoder) intOf(t *logic.Term) (int64, error) {
	v, err := d.m.Eval(t)
	if err != nil {
		return 0, err
	}
	if v.Kind() != logic.KindInt {
		return 0, fmt.Errorf("model value %s is not an integer", v)
	}
	return v.Int64(), nil
}

func (d *Decoder) boolOf(t *logic.Term) (bool, error) {
	v, err := d.m.Eval(t)
	if err != nil {
		return false, err
	}
	if v.Kind() != logic.KindBool {
		return false, fmt.Errorf("model value %s is not a truth value", v)
	}
	return v.BoolValue(), nil
}

// packed decodes the term t of s's packed sort.
func (d *Decoder) packed(t *logic.Term, s *expr.Sort) (eval.Value, error) {
	switch s.Kind {
	case expr.KBool:
		b, err := d.boolOf(t)
		return eval.Bool(b), err
	case expr.KInt, expr.KNat:
		n, err := d.intOf(t)
		return eval.Int(n), err
	case expr.KEnum:
		v, err := d.m.Eval(t)
		if err != nil {
			return eval.Value{}, err
		}
		if v.Kind() != logic.KindApp || v.Op() != logic.OpCtor {
			return eval.Value{}, fmt.Errorf("model value %s is not an enum constant", v)
		}
		return eval.Enum(v.CtorIndex()), nil
	case expr.KParam:
		v, err := d.m.Eval(t)
		if err != nil {
			return eval.Value{}, err
		}
		for i, u := range d.univ[s.Name] {
			if u != nil && logic.Equal(u, v) {
				return eval.Elem(i), nil
			}
		}
		return eval.Value{}, fmt.Errorf("model value %s is not in the universe of %s", v, s.Name)
	case expr.KOption:
		dt, err := d.e.optionDatatype(s)
		if err != nil {
			return eval.Value{}, err
		}
		some, err := d.boolOf(logic.Is(dt, 1, t))
		if err != nil || !some {
			return eval.None(), err
		}
		x, err := d.e.unpack(logic.Access(dt, 1, 0, t), s.Elem)
		if err != nil {
			return eval.Value{}, err
		}
		y, err := d.Value(x)
		if err != nil {
			return eval.Value{}, err
		}
		return eval.Some(y), nil
	case expr.KSet:
		xs, err := d.inst.Values(s.Elem)
		if err != nil {
			return eval.Value{}, err
		}
		var in []eval.Value
		for _, x := range xs {
			xv, err := d.literal(x, s.Elem)
			if err != nil {
				return eval.Value{}, err
			}
			px, err := d.e.Pack(xv)
			if err != nil {
				return eval.Value{}, err
			}
			b, err := d.boolOf(logic.Select(t, px))
			if err != nil {
				return eval.Value{}, err
			}
			if b {
				in = append(in, x)
			}
		}
		return d.inst.Set(s, in...)
	}
	v, err := d.e.unpack(t, s)
	if err != nil {
		return eval.Value{}, err
	}
	if v.leaf != nil && s.Kind != expr.KMap {
		return eval.Value{}, fmt.Errorf("cannot decode a value of sort %s", s)
	}
	return d.Value(v)
}

// literal returns the encoding of the evaluator value x of sort s with
// parameter elements as the decoder's model elements.
func (d *Decoder) literal(x eval.Value, s *expr.Sort) (Value, error) {
	return d.e.literal(x, s, d.inst, d.elemTerm)
}

// Literal returns the encoding of the evaluator value x of sort s in
// instance inst, with T#i as the constant T#i.
func (e *Encoder) Literal(x eval.Value, s *expr.Sort, inst *eval.Instance) (Value, error) {
	return e.literal(x, s, inst, func(name string, i int) (*logic.Term, error) { return e.elem(name, i), nil })
}

func (e *Encoder) literal(x eval.Value, s *expr.Sort, inst *eval.Instance, elem func(string, int) (*logic.Term, error)) (Value, error) {
	switch s.Kind {
	case expr.KBool:
		return leafValue(s, logic.BoolVal(x.Bool())), nil
	case expr.KInt, expr.KNat:
		return leafValue(s, logic.IntVal(x.Int())), nil
	case expr.KEnum:
		dt, err := e.enumDatatype(s)
		if err != nil {
			return Value{}, err
		}
		if x.Ord() < 0 || x.Ord() >= dt.NumConstructors() {
			return Value{}, fmt.Errorf("enum value %d out of range for %s", x.Ord(), s)
		}
		return leafValue(s, logic.Ctor(dt, x.Ord())), nil
	case expr.KParam:
		t, err := elem(s.Name, x.Ord())
		if err != nil {
			return Value{}, err
		}
		return leafValue(s, t), nil
	case expr.KOption:
		if !x.IsSome() {
			return e.Default(s)
		}
		dt, err := e.optionDatatype(s)
		if err != nil {
			return Value{}, err
		}
		y, err := e.literal(x.Get(), s.Elem, inst, elem)
		if err != nil {
			return Value{}, err
		}
		py, err := e.Pack(y)
		if err != nil {
			return Value{}, err
		}
		return leafValue(s, logic.Ctor(dt, 1, py)), nil
	case expr.KRecord:
		parts := make([]Value, len(s.Fields))
		for i, f := range s.Fields {
			fv, ok := x.At(i)
			if !ok {
				return Value{}, fmt.Errorf("record value lacks field %s", f.Name)
			}
			var err error
			if parts[i], err = e.literal(fv, f.Sort, inst, elem); err != nil {
				return Value{}, err
			}
		}
		return Value{sort: s, parts: parts}, nil
	case expr.KSeq:
		q, err := e.Default(s)
		if err != nil {
			return Value{}, err
		}
		elems := q.parts[1]
		for i, y := range x.Elems() {
			yv, err := e.literal(y, s.Elem, inst, elem)
			if err != nil {
				return Value{}, err
			}
			if elems, err = e.mapStore(elems, leafValue(expr.IntSort, logic.IntVal(int64(i))), yv); err != nil {
				return Value{}, err
			}
		}
		return Value{sort: s, parts: []Value{leafValue(expr.IntSort, logic.IntVal(int64(x.Len()))), elems}}, nil
	case expr.KMap:
		keys, err := inst.Values(s.Key)
		if err != nil {
			return Value{}, err
		}
		d, err := e.Default(s.Elem)
		if err != nil {
			return Value{}, err
		}
		m, err := e.mapConst(s, d)
		if err != nil {
			return Value{}, err
		}
		for _, k := range keys {
			y, ok := inst.MapGet(s, x, k)
			if !ok {
				return Value{}, fmt.Errorf("map value does not conform to %s", s)
			}
			kv, err := e.literal(k, s.Key, inst, elem)
			if err != nil {
				return Value{}, err
			}
			yv, err := e.literal(y, s.Elem, inst, elem)
			if err != nil {
				return Value{}, err
			}
			if m, err = e.mapStore(m, kv, yv); err != nil {
				return Value{}, err
			}
		}
		return m, nil
	case expr.KSet:
		xs, err := inst.Values(s.Elem)
		if err != nil {
			return Value{}, err
		}
		set, err := e.Default(s)
		if err != nil {
			return Value{}, err
		}
		t := set.leaf
		for _, y := range xs {
			if !inst.Contains(s, x, y) {
				continue
			}
			yv, err := e.literal(y, s.Elem, inst, elem)
			if err != nil {
				return Value{}, err
			}
			py, err := e.Pack(yv)
			if err != nil {
				return Value{}, err
			}
			t = logic.Store(t, py, logic.True())
		}
		return leafValue(s, t), nil
	}
	return Value{}, fmt.Errorf("cannot encode a value of sort %s", s)
}
