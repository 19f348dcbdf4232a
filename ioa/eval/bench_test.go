package eval

import (
	"os"
	"testing"

	"ladder/ioa/load"
)

// cpuTimer reports CPU nanoseconds per operation when stopped.
func cpuTimer(b *testing.B) func() {
	b.ResetTimer()
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// tms2States returns TMS2 (T=2, L=2, V=2) compiled, and the encodings of
// the states of a random walk.
func tms2States(b *testing.B) (*Machine, [][]byte) {
	if _, err := os.Stat("../../specs/TMS2.yaml"); err != nil {
		b.Skip("no specs/TMS2.yaml")
	}
	set, errs := load.Files("../../specs/TMS2.yaml")
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	m, err := NewMachine(set.Automaton("TMS2"), &Instance{Sizes: map[string]int{"T": 2, "L": 2, "V": 2}})
	if err != nil {
		b.Fatal(err)
	}
	inits, _ := m.Init()
	r := m.NewRunner()
	var keys [][]byte
	seen := map[string]bool{}
	queue := []State{inits[0]}
	for len(queue) > 0 && len(keys) < 20000 {
		s := queue[0]
		queue = queue[1:]
		r.Successors(s, func(act int, params []Value, post State) bool {
			k := m.AppendState(nil, post)
			if !seen[string(k)] {
				seen[string(k)] = true
				keys = append(keys, k)
				queue = append(queue, post)
			}
			return true
		})
	}
	return m, keys
}

// BenchmarkSuccessorsTMS2 measures decoding a state, computing its
// successors and encoding them, per state.
func BenchmarkSuccessorsTMS2(b *testing.B) {
	m, keys := tms2States(b)
	r := m.NewRunner()
	r.SetScratch(true)
	var buf []byte
	defer cpuTimer(b)()
	n := 0
	for i := 0; i < b.N; i++ {
		r.Release()
		s, _ := r.Decode(keys[i%len(keys)])
		r.Successors(s, func(act int, params []Value, post State) bool {
			buf = r.Encode(buf[:0], post)
			n++
			return true
		})
	}
	b.ReportMetric(float64(n)/float64(b.N), "succ/state")
}

// BenchmarkDecodeTMS2 measures decoding a state.
func BenchmarkDecodeTMS2(b *testing.B) {
	m, keys := tms2States(b)
	r := m.NewRunner()
	r.SetScratch(true)
	defer cpuTimer(b)()
	for i := 0; i < b.N; i++ {
		r.Release()
		r.Decode(keys[i%len(keys)])
	}
}

// BenchmarkInvariantsTMS2 measures checking every invariant in a state.
func BenchmarkInvariantsTMS2(b *testing.B) {
	m, keys := tms2States(b)
	r := m.NewRunner()
	r.SetScratch(true)
	var states []State
	for _, k := range keys {
		s, _ := m.DecodeState(k)
		states = append(states, s)
	}
	defer cpuTimer(b)()
	for i := 0; i < b.N; i++ {
		r.Release()
		r.Violated(states[i%len(states)], nil)
	}
}
