package explore

import (
	"testing"
	"time"

	"ladder/internal/cputime"
	"ladder/ioa/load"
)

func benchExplore(b *testing.B, file, name, bounds string, workers, maxStates int) {
	set, errs := load.Files(file)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	a := set.Automaton(name)
	inst, err := ParseBounds(bounds)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var states int
	start, cpu0 := time.Now(), cputime.Process()
	for i := 0; i < b.N; i++ {
		res, err := Explore(a, Config{Instance: inst, Workers: workers, MaxStates: maxStates})
		if err != nil {
			b.Fatal(err)
		}
		if res.Violation != nil {
			b.Fatalf("violation of %s", res.Violation.Invariant)
		}
		states += res.States
	}
	wall, cpu := time.Since(start), cputime.Process()-cpu0
	b.ReportMetric(float64(states)/wall.Seconds(), "states/s")
	b.ReportMetric(float64(states)/cpu.Seconds(), "states/cpu-s")
	b.ReportMetric(float64(states)/float64(b.N), "states")
}

// BenchmarkExploreTMS2 explores TMS2 with T=2, L=2, V=2 completely.
func BenchmarkExploreTMS2(b *testing.B) {
	benchExplore(b, "../../specs/TMS2.yaml", "TMS2", "T=2,L=2,V=2", 1, 0)
}

// BenchmarkExploreTMS2Prefix explores the first 300000 states of TMS2 with
// T=2, L=2, V=2: a quicker measure of the same inner loop.
func BenchmarkExploreTMS2Prefix(b *testing.B) {
	benchExplore(b, "../../specs/TMS2.yaml", "TMS2", "T=2,L=2,V=2", 1, 300000)
}

// BenchmarkExploreTMS2Parallel is BenchmarkExploreTMS2 with GOMAXPROCS workers.
func BenchmarkExploreTMS2Parallel(b *testing.B) {
	benchExplore(b, "../../specs/TMS2.yaml", "TMS2", "T=2,L=2,V=2", -1, 0)
}

// BenchmarkExploreTMS2FlatRatio explores TMS2 with T=2, L=2, V=2 on one
// worker with the Runner alone and with Flat, in the same run, and
// reports the states per second of each and their ratio.
func BenchmarkExploreTMS2FlatRatio(b *testing.B) {
	a := loadTMS2(b)
	if a == nil {
		b.Skip("no specs/TMS2.yaml")
	}
	inst, err := ParseBounds("T=2,L=2,V=2")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var rates [2]float64
	for i := 0; i < b.N; i++ {
		for k, noFlat := range []bool{true, false} {
			res, err := Explore(a, Config{Instance: inst, Workers: 1, NoFlat: noFlat})
			if err != nil {
				b.Fatal(err)
			}
			if res.Flat == noFlat || !res.Complete {
				b.Fatalf("flat %v, complete %v", res.Flat, res.Complete)
			}
			rates[k] += res.StatesPerSecond / float64(b.N)
		}
	}
	b.ReportMetric(rates[0], "runner-states/s")
	b.ReportMetric(rates[1], "flat-states/s")
	b.ReportMetric(rates[1]/rates[0], "flat/runner")
}
