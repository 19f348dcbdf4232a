package eval

import (
	"testing"

	"ladder/ioa/expr"
)

// FuzzDecodeState checks that decoding arbitrary bytes never panics, and
// that whatever decodes is a well-formed state that encodes back to the
// same bytes (the encoding is canonical).
func FuzzDecodeState(f *testing.F) {
	inst := &Instance{Sizes: map[string]int{"T": 2, "L": 2, "V": 3, "S": 300}}
	sorts := []*expr.Sort{
		sInt, expr.SeqOf(expr.MapOf(sL, sV)), expr.MapOf(sT, expr.OptionOf(sV)), sS, expr.OptionOf(sCell),
		expr.SetOf(sTL), expr.MapOf(expr.OptionOf(sT), sPhase), expr.SeqOf(expr.OptionOf(sS)),
	}
	a := encodingAutomaton(sorts...)
	m := &Machine{A: a, Inst: inst}
	for _, v := range a.Vars {
		m.vars = append(m.vars, varCode{v: v, enc: m.encoder(v.Sort), dec: m.decoder(v.Sort)})
	}
	f.Add([]byte{})
	for _, st := range []State{
		{Int(0), Seq(), mustDefault(inst, sorts[2]), Elem(299), None(), mustDefault(inst, sorts[5]), mustDefault(inst, sorts[6]), Seq(Some(Elem(7)), None())},
		{Int(-77), Seq(mustDefault(inst, expr.MapOf(sL, sV))), mustDefault(inst, sorts[2]), Elem(3), Some(Record(Elem(1), Int(9))), mustDefault(inst, sorts[5]), mustDefault(inst, sorts[6]), Seq()},
	} {
		f.Add(m.AppendState(nil, st))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := m.DecodeState(b)
		if err != nil {
			return
		}
		for i, v := range a.Vars {
			if !inst.Conforms(s[i], v.Sort) {
				t.Fatalf("decoded %s does not conform to %s", Format(s[i], v.Sort), v.Sort)
			}
		}
		if back := m.AppendState(nil, s); string(back) != string(b) {
			t.Fatalf("%x decodes and re-encodes as %x", b, back)
		}
	})
}

func mustDefault(inst *Instance, s *expr.Sort) Value {
	v, err := inst.Default(s)
	if err != nil {
		panic(err)
	}
	return v
}
