// This file implements scratch allocation: package fast's Runner in
// scratch mode builds the values of a search step in an Arena that it
// reuses after Release, so that exploring does not allocate per
// transition, and an Arena does the same for a caller of Func.EvalIn and
// StepEvaluatedWith (the cross-checker's rules, point by point). It is a
// fast path: a frame without an arena (those of Machine.Step and Eval,
// and of EvalIn and StepEvaluatedWith without an Arena) allocates with
// make, so the reference semantics does not depend on the arena;
// TestArenaSteps, and package fast's TestRunnerAgrees, compare values
// built in an arena with heap ones.

package eval

// arenaChunk is the number of values in an arena chunk.
const arenaChunk = 1 << 12

// arena hands out slices of values from reusable chunks.
type arena struct {
	chunks [][]Value
	ci     int // the chunk in use
	used   int // values used in it
}

func newArena() *arena {
	return &arena{chunks: [][]Value{make([]Value, arenaChunk)}}
}

// alloc returns n values, which hold garbage: the caller sets them all.
func (a *arena) alloc(n int) []Value {
	if a.used+n > len(a.chunks[a.ci]) {
		a.grow(n)
	}
	s := a.chunks[a.ci][a.used : a.used+n : a.used+n]
	a.used += n
	return s
}

// grow moves to the next chunk with room for n values.
func (a *arena) grow(n int) {
	a.used = 0
	for a.ci++; a.ci < len(a.chunks); a.ci++ {
		if len(a.chunks[a.ci]) >= n {
			return
		}
	}
	a.chunks = append(a.chunks, make([]Value, max(arenaChunk, n)))
	a.ci = len(a.chunks) - 1
}

// reset makes every chunk available again.
func (a *arena) reset() {
	a.ci, a.used = 0, 0
}

// Arena is scratch memory for the values an evaluation builds, for a
// caller that knows when it no longer uses them: Func.EvalIn and
// StepEvaluatedWith (with a StepScratch that has the Arena) build their
// values in it, and Release makes all of it available again. Values built
// there may share memory with the states and arguments given to the
// evaluation, never the reverse. An Arena is for one goroutine.
type Arena struct{ ar arena }

// NewArena returns an empty Arena.
func NewArena() *Arena { return &Arena{ar: *newArena()} }

// Release makes every value built in a since the last Release invalid, and
// its memory available again.
func (a *Arena) Release() { a.ar.reset() }

// Values returns n zero values in a.
func (a *Arena) Values(n int) []Value {
	s := a.ar.alloc(n)
	clear(s)
	return s
}

// mk returns n values for the caller to set, from the frame's arena if it
// has one (they may then hold garbage).
func (f *frame) mk(n int) []Value {
	if f.ar != nil {
		return f.ar.alloc(n)
	}
	return make([]Value, n)
}

// mkZero returns n zero values, from the frame's arena if it has one.
func (f *frame) mkZero(n int) []Value {
	if f.ar != nil {
		s := f.ar.alloc(n)
		clear(s)
		return s
	}
	return make([]Value, n)
}

// some returns Some(x), allocated like mk.
func (f *frame) some(x Value) Value {
	if x.vs == nil && x.n >= 0 && x.n < int64(len(smallOne)) {
		return Value{n: 1, vs: smallOne[x.n][:]}
	}
	vs := f.mk(1)
	vs[0] = x
	return Value{n: 1, vs: vs}
}

// Clone returns a deep copy of v that shares nothing with scratch memory.
func Clone(v Value) Value {
	if v.vs == nil {
		return v
	}
	vs := make([]Value, len(v.vs))
	for i, x := range v.vs {
		vs[i] = Clone(x)
	}
	return Value{n: v.n, vs: vs}
}

// Clone returns a deep copy of s that shares nothing with scratch memory:
// keep states that a scratch-mode fast.Runner or an explorer visitor hands out
// beyond the call with Clone.
func (s State) Clone() State {
	out := make(State, len(s))
	for i, v := range s {
		out[i] = Clone(v)
	}
	return out
}

// CloneInto is Clone, reusing the memory of dst: dst must be a copy that
// Clone or CloneInto returned earlier and that nothing else refers to.
func (s State) CloneInto(dst State) State {
	if cap(dst) < len(s) {
		dst = make(State, len(s))
	}
	dst = dst[:len(s)]
	for i, v := range s {
		dst[i] = cloneInto(dst[i], v)
	}
	return dst
}

// cloneInto is Clone(v), reusing the memory of d (see State.CloneInto).
func cloneInto(d, v Value) Value {
	if v.vs == nil {
		return v
	}
	vs := d.vs
	if vs == nil || cap(vs) < len(v.vs) {
		vs = make([]Value, len(v.vs))
	}
	vs = vs[:len(v.vs)]
	for i, x := range v.vs {
		vs[i] = cloneInto(vs[i], x)
	}
	return Value{n: v.n, vs: vs}
}
