// This file implements the canonical byte encoding of states, which the
// explorer hashes and stores.

package eval

import (
	"encoding/binary"

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
	switch s.Kind {
	case expr.KBool, expr.KEnum, expr.KParam:
		if m.Inst.size(s) <= 256 {
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
		return tableEncoder(s.Key, m.encoder(s.Elem))
	case expr.KSet:
		return tableEncoder(s.Elem, m.encoder(expr.BoolSort))
	}
	return func(buf []byte, v Value) []byte { return buf }
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
