package fast

import (
	"os"
	"testing"

	"ladder/internal/cputime"
	"ladder/ioa/eval"
	"ladder/ioa/load"
)

// cpuTimer reports CPU nanoseconds per operation when stopped.
func cpuTimer(b *testing.B) func() {
	b.ResetTimer()
	start := cputime.Process()
	return func() {
		b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	}
}

// tms2States returns TMS2 (T=2, L=2, V=2) compiled, and the encodings of
// the states of a random walk.
func tms2States(b *testing.B) (*eval.Machine, [][]byte) {
	return walkStates(b, "../../../specs/TMS2.yaml", "TMS2", map[string]int{"T": 2, "L": 2, "V": 2})
}

// walkStates returns automaton name of file compiled for the sizes, and
// the encodings of the first 20000 states of a breadth-first search.
func walkStates(b *testing.B, file, name string, sizes map[string]int) (*eval.Machine, [][]byte) {
	if _, err := os.Stat(file); err != nil {
		b.Skip("no " + file)
	}
	set, errs := load.Files(file)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	m, err := eval.NewMachine(set.Automaton(name), &eval.Instance{Sizes: sizes})
	if err != nil {
		b.Fatal(err)
	}
	inits, _ := m.Init()
	r := NewRunner(m)
	var keys [][]byte
	seen := map[string]bool{}
	queue := []eval.State{inits[0]}
	for len(queue) > 0 && len(keys) < 20000 {
		s := queue[0]
		queue = queue[1:]
		r.Successors(s, func(act int, params []eval.Value, post eval.State) bool {
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
	r := NewRunner(m)
	r.SetScratch(true)
	var buf []byte
	defer cpuTimer(b)()
	n := 0
	for i := 0; i < b.N; i++ {
		r.Release()
		s, _ := r.Decode(keys[i%len(keys)])
		r.Successors(s, func(act int, params []eval.Value, post eval.State) bool {
			buf = r.Encode(buf[:0], post)
			n++
			return true
		})
	}
	b.ReportMetric(float64(n)/float64(b.N), "succ/state")
}

// BenchmarkFlatSuccessorsTMS2 is BenchmarkSuccessorsTMS2 with Flat: the
// successors' encodings computed from the state's, per state.
func BenchmarkFlatSuccessorsTMS2(b *testing.B) {
	m, keys := tms2States(b)
	fl, err := NewFlat(m)
	if err != nil {
		b.Fatal(err)
	}
	r := fl.NewRunner()
	var buf []byte
	defer cpuTimer(b)()
	n := 0
	for i := 0; i < b.N; i++ {
		if !r.Successors(keys[i%len(keys)], func(act int, post []byte) bool {
			buf = append(buf[:0], post...)
			n++
			return true
		}) {
			b.Fatal("Flat gave up on a state of TMS2")
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "succ/state")
}

// BenchmarkDecodeTMS2 measures decoding a state.
func BenchmarkDecodeTMS2(b *testing.B) {
	m, keys := tms2States(b)
	r := NewRunner(m)
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
	r := NewRunner(m)
	r.SetScratch(true)
	var states []eval.State
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

// BenchmarkCanonical measures the canonical encoding of a state under a
// symmetry group (AppendLeast, as the cross-checker calls it), per state.
func BenchmarkCanonical(b *testing.B) {
	for _, c := range []struct {
		name, file, automaton string
		sizes                 map[string]int
		sorts                 []eval.SymSort
	}{
		{"TMS2/T=2,L=2,V=2/T,L", "../../../specs/TMS2.yaml", "TMS2", map[string]int{"T": 2, "L": 2, "V": 2}, []eval.SymSort{{Name: "T"}, {Name: "L"}}},
		{"TMS2/T=3,L=1,V=2/T", "../../../specs/TMS2.yaml", "TMS2", map[string]int{"T": 3, "L": 1, "V": 2}, []eval.SymSort{{Name: "T"}}},
		{"DSTM/T=3,L=1,V=2/T", "../../../algorithms/DSTM.yaml", "DSTM", map[string]int{"T": 3, "L": 1, "V": 2}, []eval.SymSort{{Name: "T"}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			m, keys := walkStates(b, c.file, c.automaton, c.sizes)
			sy, err := m.NewSymmetry(c.sorts)
			if err != nil {
				b.Fatal(err)
			}
			states := make([]eval.State, len(keys))
			for i, k := range keys {
				if states[i], err = m.DecodeState(k); err != nil {
					b.Fatal(err)
				}
			}
			var buf []byte
			var ties []int
			defer cpuTimer(b)()
			for i := 0; i < b.N; i++ {
				buf, ties = sy.AppendLeast(buf[:0], states[i%len(states)], ties)
			}
		})
	}
}
