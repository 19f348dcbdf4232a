package eval

import "testing"

// TestCloneInto checks that CloneInto copies like Clone while reusing the
// destination's memory, whatever shapes the two states have.
func TestCloneInto(t *testing.T) {
	seq := func(ns ...int64) Value {
		vs := make([]Value, len(ns))
		for i, n := range ns {
			vs[i] = Int(n)
		}
		return Value{vs: vs}
	}
	states := []State{
		{Int(1), seq(1, 2, 3), Value{vs: []Value{seq(4), seq()}}},
		{Int(2), seq(), Value{vs: []Value{seq(5, 6, 7, 8), seq(9)}}},
		{Int(3), seq(1), Value{}, Int(4)},
		{},
		{Int(5), seq(2, 3), Value{vs: []Value{seq(), seq(1, 1)}}},
	}
	var dst State
	for i, s := range states {
		want := s.Clone()
		dst = s.CloneInto(dst)
		if !dst.Equal(want) || len(dst) != len(want) {
			t.Fatalf("state %d: CloneInto gave %v, want %v", i, dst, want)
		}
		// the copy shares nothing with s
		if len(s) > 1 && len(s[1].vs) > 0 {
			s[1].vs[0] = Int(99)
			if dst[1].vs[0].Equal(Int(99)) {
				t.Fatalf("state %d: the copy shares memory with the original", i)
			}
		}
	}
}
