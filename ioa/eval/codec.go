// This file implements the canonical byte encoding of states
// (Machine.AppendState, Machine.DecodeState), which the explorer and the
// cross-checkers hash and store: two states are equal exactly when their
// encodings are. It is how the explorer represents a state, not part of the
// semantics: Step, Init, Eval and the replay of counterexamples never
// encode; TestEncoding checks the round trip, and package fast's
// TestRunnerAgrees compares the Runner's decoding and encoding with it.

package eval

import (
	"encoding/binary"
	"fmt"

	"ladder/ioa/expr"
)

// encoder appends the encoding of a value of a fixed sort to buf.
type encoder func(buf []byte, v Value) []byte

// encoder returns the encoder of sort s, whose sizes were checked. The
// encoding is injective for values of s in the instance: scalars of finite
// sorts take one byte when they fit, integers a zig-zag varint, sequences
// their length and elements, options a tag, and records and tables (whose
// shapes the sort and instance fix) just their parts.
func (m *Machine) encoder(s *expr.Sort) encoder {
	if m.ByteScalar(s) {
		return func(buf []byte, v Value) []byte { return append(buf, byte(v.n)) }
	}
	if m.ByteOption(s) {
		return func(buf []byte, v Value) []byte {
			if v.n == 0 {
				return append(buf, 0)
			}
			return append(buf, byte(v.vs[0].n+1))
		}
	}
	switch s.Kind {
	case expr.KBool, expr.KEnum, expr.KParam:
		if m.Inst.Count(s) <= 256 {
			return func(buf []byte, v Value) []byte { return append(buf, byte(v.n)) }
		}
		return func(buf []byte, v Value) []byte { return binary.AppendUvarint(buf, uint64(v.n)) }
	case expr.KInt, expr.KNat:
		return func(buf []byte, v Value) []byte { return binary.AppendVarint(buf, v.n) }
	case expr.KRecord:
		subs := make([]encoder, len(s.Fields))
		for i, f := range s.Fields {
			subs[i] = m.encoder(f.Sort)
		}
		return func(buf []byte, v Value) []byte {
			for i, e := range subs {
				buf = e(buf, v.vs[i])
			}
			return buf
		}
	case expr.KOption:
		sub := m.encoder(s.Elem)
		return func(buf []byte, v Value) []byte {
			if v.n == 0 {
				return append(buf, 0)
			}
			return sub(append(buf, 1), v.vs[0])
		}
	case expr.KSeq:
		sub := m.encoder(s.Elem)
		return func(buf []byte, v Value) []byte {
			buf = binary.AppendUvarint(buf, uint64(len(v.vs)))
			for _, x := range v.vs {
				buf = sub(buf, x)
			}
			return buf
		}
	case expr.KMap:
		if AtomicKey(s.Key) && m.ByteScalar(s.Elem) {
			return appendBytes
		}
		return tableEncoder(s.Key, m.encoder(s.Elem))
	case expr.KSet:
		if AtomicKey(s.Elem) {
			return appendBytes
		}
		return tableEncoder(s.Elem, m.encoder(expr.BoolSort))
	}
	return func(buf []byte, v Value) []byte { return buf }
}

// appendBytes encodes a flat table of byte scalars.
func appendBytes(buf []byte, v Value) []byte {
	for _, x := range v.vs {
		buf = append(buf, byte(x.n))
	}
	return buf
}

// FixedWidth returns the length of the encoding of every value of s when
// each integer in it takes one byte (-64..63, a one-byte zig-zag varint),
// or false when encodings of values of s differ in length otherwise (a
// sequence, an Option of a non-scalar): the fixed layouts that byte
// programs (permute_bytes.go) and package fast's Flat work on.
func (m *Machine) FixedWidth(s *expr.Sort) (int, bool) {
	switch {
	case m.ByteScalar(s):
		return 1, true
	case m.ByteOption(s):
		return 1, true
	}
	switch s.Kind {
	case expr.KInt, expr.KNat:
		return 1, true
	case expr.KRecord:
		w := 0
		for _, f := range s.Fields {
			fw, ok := m.FixedWidth(f.Sort)
			if !ok {
				return 0, false
			}
			w += fw
		}
		return w, true
	case expr.KMap, expr.KSet:
		K, X := TableSorts(s)
		if !m.ByteScalar(K) {
			return 0, false
		}
		xw, ok := m.FixedWidth(X)
		if !ok {
			return 0, false
		}
		return m.Inst.Count(K) * xw, true
	}
	return 0, false
}

// ByteOption reports whether values of Option sort s are encoded as one
// byte: 0 for None, x+1 for Some(x), for a byte scalar sort of fewer than
// 255 values.
func (m *Machine) ByteOption(s *expr.Sort) bool {
	return s.Kind == expr.KOption && m.ByteScalar(s.Elem) && m.Inst.Count(s.Elem) < 255
}

// ByteScalar reports whether values of s are encoded as one byte: Bool,
// enums and parameter sorts of at most 256 values.
func (m *Machine) ByteScalar(s *expr.Sort) bool {
	switch s.Kind {
	case expr.KBool, expr.KEnum, expr.KParam:
		return m.Inst.Count(s) <= 256
	}
	return false
}

// tableEncoder returns the encoder of tables over K with leaves encoded by leaf.
func tableEncoder(K *expr.Sort, leaf encoder) encoder {
	switch K.Kind {
	case expr.KOption:
		sub := tableEncoder(K.Elem, leaf)
		return func(buf []byte, v Value) []byte { return sub(leaf(buf, v.vs[0]), v.vs[1]) }
	case expr.KRecord:
		for i := len(K.Fields) - 1; i >= 0; i-- {
			leaf = tableEncoder(K.Fields[i].Sort, leaf)
		}
		return leaf
	}
	return func(buf []byte, v Value) []byte {
		for _, x := range v.vs {
			buf = leaf(buf, x)
		}
		return buf
	}
}

// AppendState appends the canonical encoding of state s to buf: two states
// of the machine's automaton in its instance are equal exactly when their
// encodings are.
func (m *Machine) AppendState(buf []byte, s State) []byte {
	for i := range m.vars {
		buf = m.vars[i].enc(buf, s[i])
	}
	return buf
}

// AppendVar appends the encoding of v as a value of the state variable
// number i: the bytes AppendState gives that variable.
func (m *Machine) AppendVar(buf []byte, i int, v Value) []byte {
	return m.vars[i].enc(buf, v)
}

// Encoder returns the function that appends the encoding of a value of
// sort s, as AppendState encodes a variable of that sort. A table over a
// parameter or enumerated sort is encoded as its entries' encodings in
// the order of the keys.
func (m *Machine) Encoder(s *expr.Sort) func(buf []byte, v Value) []byte {
	return m.encoder(s)
}

// dec is the state of decoding one encoded state.
type dec struct {
	b    []byte
	i    int
	bad  bool // the input ended early or held an out-of-range value
	f    *frame
	offs []int // if not nil, receives the offset of each variable's encoding
}

func (d *dec) byte() int64 {
	if d.i >= len(d.b) {
		d.bad = true
		return 0
	}
	d.i++
	return int64(d.b[d.i-1])
}

// uvarint reads a varint in its shortest form: the encoding is canonical,
// so an over-long one (ending in a zero byte) is malformed.
func (d *dec) uvarint() uint64 {
	v, k := binary.Uvarint(d.b[min(d.i, len(d.b)):])
	if k <= 0 || (k > 1 && d.b[d.i+k-1] == 0) {
		d.bad = true
		return 0
	}
	d.i += k
	return v
}

func (d *dec) varint() int64 {
	v, k := binary.Varint(d.b[min(d.i, len(d.b)):])
	if k <= 0 || (k > 1 && d.b[d.i+k-1] == 0) {
		d.bad = true
		return 0
	}
	d.i += k
	return v
}

// decoder reads a value of a fixed sort.
type decoder func(d *dec) Value

// decoder returns the decoder of sort s, the inverse of encoder(s).
func (m *Machine) decoder(s *expr.Sort) decoder {
	if m.ByteOption(s) {
		size := int64(m.Inst.Count(s.Elem))
		return func(d *dec) Value {
			v := d.byte()
			if v == 0 {
				return Value{}
			}
			if v > size {
				d.bad = true
				return Value{}
			}
			return d.f.some(Value{n: v - 1})
		}
	}
	switch s.Kind {
	case expr.KBool, expr.KEnum, expr.KParam:
		size := int64(m.Inst.Count(s))
		if size <= 256 {
			return func(d *dec) Value {
				v := d.byte()
				if v >= size {
					d.bad = true
				}
				return Value{n: v}
			}
		}
		return func(d *dec) Value {
			v := d.uvarint()
			if v >= uint64(size) {
				d.bad = true
			}
			return Value{n: int64(v)}
		}
	case expr.KInt, expr.KNat:
		return func(d *dec) Value { return Value{n: d.varint()} }
	case expr.KRecord:
		subs := make([]decoder, len(s.Fields))
		for i, f := range s.Fields {
			subs[i] = m.decoder(f.Sort)
		}
		return func(d *dec) Value {
			vs := d.f.mk(len(subs))
			for i, sub := range subs {
				vs[i] = sub(d)
			}
			return Value{vs: vs}
		}
	case expr.KOption:
		sub := m.decoder(s.Elem)
		return func(d *dec) Value {
			switch d.byte() {
			case 0:
				return Value{}
			case 1:
				return d.f.some(sub(d))
			}
			d.bad = true
			return Value{}
		}
	case expr.KSeq:
		sub := m.decoder(s.Elem)
		return func(d *dec) Value {
			n := d.uvarint()
			if n > uint64(len(d.b)-d.i) { // every element takes at least one byte
				d.bad = true
				return Value{}
			}
			if n == 0 {
				return Value{}
			}
			vs := d.f.mk(int(n))
			for i := range vs {
				vs[i] = sub(d)
			}
			return Value{vs: vs}
		}
	case expr.KMap:
		if AtomicKey(s.Key) {
			n := m.Inst.Count(s.Key)
			if m.ByteScalar(s.Elem) {
				return byteTableDecoder(n, m.Inst.Count(s.Elem))
			}
			if s.Elem.Kind == expr.KOption && m.ByteScalar(s.Elem.Elem) && m.Inst.Count(s.Elem.Elem) < 255 {
				return optionTableDecoder(n, m.Inst.Count(s.Elem.Elem))
			}
		}
		return m.tableDecoder(s.Key, m.decoder(s.Elem))
	case expr.KSet:
		if AtomicKey(s.Elem) {
			return byteTableDecoder(m.Inst.Count(s.Elem), 2)
		}
		return m.tableDecoder(s.Elem, m.decoder(expr.BoolSort))
	}
	return func(d *dec) Value { return Value{} }
}

// tableDecoder returns the decoder of tables over K with leaves decoded by leaf.
func (m *Machine) tableDecoder(K *expr.Sort, leaf decoder) decoder {
	switch K.Kind {
	case expr.KOption:
		sub := m.tableDecoder(K.Elem, leaf)
		return func(d *dec) Value {
			vs := d.f.mk(2)
			vs[0] = leaf(d)
			vs[1] = sub(d)
			return Value{vs: vs}
		}
	case expr.KRecord:
		for i := len(K.Fields) - 1; i >= 0; i-- {
			leaf = m.tableDecoder(K.Fields[i].Sort, leaf)
		}
		return leaf
	}
	n := m.Inst.Count(K)
	return func(d *dec) Value {
		vs := d.f.mk(n)
		for i := range vs {
			vs[i] = leaf(d)
		}
		return Value{vs: vs}
	}
}

// byteTableDecoder decodes a table over an atomic key of size n whose
// leaves are byte scalars of size size.
func byteTableDecoder(n, size int) decoder {
	return func(d *dec) Value {
		if d.i+n > len(d.b) {
			d.bad = true
			return Value{}
		}
		vs := d.f.mk(n)
		for i, b := range d.b[d.i : d.i+n] {
			if int(b) >= size {
				d.bad = true
			}
			vs[i] = Value{n: int64(b)}
		}
		d.i += n
		return Value{vs: vs}
	}
}

// optionTableDecoder decodes a table over an atomic key of size n whose
// leaves are Options of byte scalars of size size, encoded in one byte.
func optionTableDecoder(n, size int) decoder {
	return func(d *dec) Value {
		if d.i+n > len(d.b) {
			d.bad = true
			return Value{}
		}
		vs := d.f.mk(n)
		for i, b := range d.b[d.i : d.i+n] {
			switch {
			case b == 0:
				vs[i] = Value{}
			case int(b) <= size:
				vs[i] = Value{n: 1, vs: smallOne[b-1][:]}
			default:
				d.bad = true
				vs[i] = Value{}
			}
		}
		d.i += n
		return Value{vs: vs}
	}
}

// DecodeState returns the state whose encoding (AppendState) is key.
func (m *Machine) DecodeState(key []byte) (State, error) {
	return m.decodeState(&frame{}, key)
}

func (m *Machine) decodeState(f *frame, key []byte) (State, error) {
	return m.decodeWith(&dec{b: key, f: f})
}

func (m *Machine) decodeWith(d *dec) (State, error) {
	key, f := d.b, d.f
	s := State(f.mk(len(m.vars)))
	for i := range m.vars {
		if d.offs != nil {
			d.offs[i] = d.i
		}
		s[i] = m.vars[i].dec(d)
	}
	if d.offs != nil {
		d.offs[len(m.vars)] = d.i
	}
	if d.bad || d.i != len(key) {
		return nil, fmt.Errorf("malformed encoding of a state of %s", m.A.Name)
	}
	return s, nil
}
