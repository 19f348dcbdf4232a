// This file gives an engine that runs a Machine in bulk (package fast's
// Runner) the Machine's compiled code: a Frame to run it in; per action
// its precondition by parameter level, its parameters' domains, ranges
// and compiled tests (ParamCode), and its effect; per state variable its
// Nat condition; the invariants, the final predicates and the decoding
// of states into a Frame's memory. These are the closures Init, Step,
// EachParams and Compile run, so an engine built on them computes with
// the reference semantics; what it adds is the order in which it runs
// them.

package eval

// Frame is the context a Machine's compiled code runs in: a state, the
// action parameters, slots for bound variables, the first run-time error,
// and optionally an Arena that the values the code builds live in. A
// Frame is for one goroutine.
type Frame struct {
	f frame
	d dec
}

// NewFrame returns a Frame for m's compiled code, without an Arena.
func (m *Machine) NewFrame() *Frame {
	return &Frame{f: frame{locals: make([]Value, m.nlocals)}}
}

// SetArena makes the values the code builds in fr live in a (nil: in
// garbage-collected memory).
func (fr *Frame) SetArena(a *Arena) {
	if a == nil {
		fr.f.ar = nil
	} else {
		fr.f.ar = &a.ar
	}
}

// Enter makes s the state the code reads, with no parameters, and clears
// the error.
func (fr *Frame) Enter(s State) { fr.f.state, fr.f.params, fr.f.err = s, nil, nil }

// SetParams makes params the action parameters the code reads: the code
// reads them from that slice, so that the caller binds parameter i by
// setting params[i].
func (fr *Frame) SetParams(params []Value) { fr.f.params = params }

// Err returns the first run-time error of the code run in fr since Enter.
func (fr *Frame) Err() error { return fr.f.err }

// Alloc returns n values for the caller to set, in the Frame's Arena if it
// has one (they may then hold garbage).
func (fr *Frame) Alloc(n int) []Value { return fr.f.mk(n) }

// Action returns the compiled code of action i of Automaton.Actions.
func (m *Machine) Action(i int) *ActionCode { return m.acts[i] }

// Enabled0 reports whether the conjuncts of the precondition that mention
// no parameter hold in fr, evaluated in order up to the first false one.
func (ac *ActionCode) Enabled0(fr *Frame) bool { return holdAll(&fr.f, ac.pre0) }

// Params returns the number of the action's parameters.
func (ac *ActionCode) Params() int { return len(ac.params) }

// Param returns the compiled code of parameter i.
func (ac *ActionCode) Param(i int) *ParamCode { return &ac.params[i] }

// Ranged reports whether the parameter ranges over integers (Range)
// rather than over the values of its finite sort (Domain).
func (pc *ParamCode) Ranged() bool { return pc.lo != nil }

// Domain returns the values of the parameter's finite sort, in canonical
// order; the caller must not change them.
func (pc *ParamCode) Domain() []Value { return pc.values }

// Range returns the parameter's integer range lo <= p < hi, evaluated in
// fr with the parameters before it bound (from 0 for a Nat), as
// EachParams enumerates it; ok is false after a run-time error, or when
// the range has more values than the instance allows (an error in fr).
func (pc *ParamCode) Range(fr *Frame) (lo, hi int64, ok bool) { return pc.rangeIn(&fr.f) }

// Binding returns the only value the parameter can take where its level's
// first conjunct is p = e, e's value in fr, and false when the level has
// no such conjunct (compile_guards.go).
func (pc *ParamCode) Binding(fr *Frame) (int64, bool) {
	if pc.bind == nil {
		return 0, false
	}
	return pc.bind(&fr.f).n, true
}

// Passes reports whether value k of the parameter passes the bit tests
// its level's leading conjuncts were compiled to (compile_guards.go) in
// fr.
func (pc *ParamCode) Passes(fr *Frame, k int64) bool { return pc.passes(&fr.f, k) }

// Holds reports whether the other conjuncts of the precondition whose last
// parameter is this one hold in fr, evaluated in order up to the first
// false one.
func (pc *ParamCode) Holds(fr *Frame) bool { return holdAll(&fr.f, pc.pre) }

// Apply writes into post, a copy of fr's state, the values the effect
// assigns, evaluated in fr.
func (ac *ActionCode) Apply(fr *Frame, post State) { ac.eff(&fr.f, post) }

// holdAll reports whether every predicate of ps holds in f, evaluated in
// order up to the first false one.
func holdAll(f *frame, ps []fn) bool {
	for _, p := range ps {
		if p(f).n == 0 {
			return false
		}
	}
	return true
}

// rangeIn returns the parameter's range in f (see ParamCode.Range).
func (pc *ParamCode) rangeIn(f *frame) (lo, hi int64, ok bool) {
	lo, hi = pc.lo(f).n, pc.hi(f).n
	if f.err != nil {
		return 0, 0, false
	}
	if pc.nat && lo < 0 {
		lo = 0
	}
	if limit := pc.inst.EnumLimit(); hi > lo && (hi-lo > int64(limit) || hi-lo < 0) {
		f.fail(pc.pos, "range of parameter %s is %d..%d, larger than the limit of %d values", pc.name, lo, hi, limit)
		return 0, 0, false
	}
	return lo, hi, true
}

// HasNat reports whether state variable i has Nats in its value, which
// NatHolds checks.
func (m *Machine) HasNat(i int) bool { return m.vars[i].nat != nil }

// NatHolds reports whether every Nat in v, a value of state variable i, is
// >= 0: the implicit condition named NatInvariant(v).
func (m *Machine) NatHolds(i int, v Value) bool {
	c := m.vars[i].nat
	return c == nil || c(v)
}

// InvariantHolds reports whether invariant i (by index in
// Automaton.Invariants) holds in fr's state.
func (m *Machine) InvariantHolds(fr *Frame, i int) bool { return m.invs[i].body(&fr.f).n != 0 }

// FinalHolds reports whether fr's state satisfies every final predicate,
// evaluated in order up to the first false one (true when the automaton
// declares none).
func (m *Machine) FinalHolds(fr *Frame) bool { return holdAll(&fr.f, m.final) }

// DecodeIn is DecodeState with the state's values in fr's Arena, if it
// has one; it sets offs[i], for each state variable i, to the offset of
// the variable's encoding in key, and offs[n] to len(key) (offs has one
// entry more than the machine has variables).
func (m *Machine) DecodeIn(fr *Frame, key []byte, offs []int) (s State, err error) {
	defer RecoverInternal(&err)
	fr.d = dec{b: key, f: &fr.f, offs: offs}
	return m.decodeWith(&fr.d)
}
