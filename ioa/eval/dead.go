// This file implements the dead-register reduction of state encodings:
// the entries of registers that are dead at their process's control value
// (ioa.DeadRegisters) are encoded as the default value, so that states
// differing only in dead entries have one encoding.

package eval

import (
	"fmt"

	"ladder/ioa"
	"ladder/ioa/expr"
)

// Dead is the dead-register reduction of a machine, compiled from the
// registers ioa.DeadRegisters found. Its encodings equal
// Machine.AppendState's for a state whose dead entries hold the default
// value of their sort, and decode to that state. It is immutable and safe
// for concurrent use.
type Dead struct {
	m     *Machine
	regs  []deadReg
	byVar []int // per state variable: its register in regs, or -1
	ctrl  []int // per state variable: the number of registers it controls
}

// deadReg is one register compiled: variable v of sort Map[P, X] is dead
// at entry p when the ordinal of control c at p has dead set.
type deadReg struct {
	v, c int
	dead []bool
	leaf encoder // X's encoder
	zero []byte  // the encoding of X's default value
	def  Value   // X's default value
}

// NewDead compiles the reduction of the given registers of the machine's
// automaton.
func (m *Machine) NewDead(regs []ioa.Register) (*Dead, error) {
	d := &Dead{m: m, byVar: make([]int, len(m.vars)), ctrl: make([]int, len(m.vars))}
	for i := range d.byVar {
		d.byVar[i] = -1
	}
	for _, r := range regs {
		v, c := m.A.VarIndex(r.Var.Name), m.A.VarIndex(r.Control.Name)
		if v < 0 || c < 0 || d.byVar[v] >= 0 {
			return nil, fmt.Errorf("dead registers: %s is not a register of %s", r.Var.Name, m.A.Name)
		}
		s := r.Var.Sort
		if s.Kind != expr.KMap || s.Key.Kind != expr.KParam {
			return nil, fmt.Errorf("dead registers: %s is not a map over a parameter sort", r.Var.Name)
		}
		def, err := m.Inst.Default(s.Elem)
		if err != nil {
			return nil, err
		}
		leaf := m.encoder(s.Elem)
		dead := make([]bool, len(r.Live))
		for k, l := range r.Live {
			dead[k] = !l
		}
		d.byVar[v] = len(d.regs)
		d.ctrl[c]++
		d.regs = append(d.regs, deadReg{v: v, c: c, dead: dead, leaf: leaf, zero: leaf(nil, def), def: def})
	}
	return d, nil
}

// Len returns the number of registers.
func (d *Dead) Len() int { return len(d.regs) }

// isDead reports whether entry t of register g is dead in s.
func (g *deadReg) isDead(s State, t int) bool {
	k := s[g.c].vs[t].n
	return k >= 0 && int(k) < len(g.dead) && g.dead[k]
}

// AppendVar appends the encoding of variable i of s, its dead entries
// encoded as the default.
func (d *Dead) AppendVar(buf []byte, s State, i int) []byte {
	j := d.byVar[i]
	if j < 0 {
		return d.m.vars[i].enc(buf, s[i])
	}
	g := &d.regs[j]
	for t, x := range s[i].vs {
		if g.isDead(s, t) {
			buf = append(buf, g.zero...)
		} else {
			buf = g.leaf(buf, x)
		}
	}
	return buf
}

// SameControl reports whether variable i is not a register, or its
// control is the same value object in s and t: then a variable that is
// the same in both has the same reduced encoding.
func (d *Dead) SameControl(s, t State, i int) bool {
	j := d.byVar[i]
	return j < 0 || Same(s[d.regs[j].c], t[d.regs[j].c])
}

// AppendState appends the reduced encoding of s.
func (d *Dead) AppendState(buf []byte, s State) []byte {
	for i := range d.m.vars {
		buf = d.AppendVar(buf, s, i)
	}
	return buf
}

// Reduce returns s with each dead entry replaced by the default value (s
// itself when every dead entry holds it): the state the reduced encoding
// of s decodes to.
func (d *Dead) Reduce(s State) State {
	out := s
	for j := range d.regs {
		g := &d.regs[j]
		var vs []Value
		for t, x := range s[g.v].vs {
			if g.isDead(s, t) && !Equal(x, g.def) {
				if vs == nil {
					vs = append([]Value(nil), s[g.v].vs...)
				}
				vs[t] = g.def
			}
		}
		if vs != nil {
			if &out[0] == &s[0] {
				out = append(State(nil), s...)
			}
			out[g.v] = Value{vs: vs}
		}
	}
	return out
}
