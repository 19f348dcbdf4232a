package driver

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"ladder/internal/kernel"
	"ladder/internal/refute"
	"ladder/internal/report"
)

// benchInput loads the benchmark input: TMS2's invariants, 70-odd
// obligations of realistic size.
func benchInput(b *testing.B) *Input {
	b.Helper()
	in, errs := Load(filepath.Join("..", "..", "specs", "TMS2.yaml"))
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	return in
}

// BenchmarkProveCold proves TMS2's invariants with one worker and no cache
// and reports, per obligation, the time inside Z3's check (solver-ms/obl)
// and the whole time (total-ms/obl: the run's wall clock over the
// obligations, from printing to the report), and the framework's overhead
// over the pure solver time in percent (overhead-%), split into the
// kernel's share outside the check (kernel-%: a fresh Z3 context, building
// the problem in it, replay) and the rest of the pipeline (pipeline-%:
// printing, hashing, the pool, statuses, theorems, the report).
func BenchmarkProveCold(b *testing.B) {
	in := benchInput(b)
	var solver, perObligation, total float64
	n := 0
	for b.Loop() {
		p, err := NewProver(Config{NoCache: true, Jobs: 1, UnknownDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		rep, err := p.Prove(context.Background(), in)
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
		for _, o := range rep.Obligations {
			solver += o.SolverSeconds
			perObligation += o.Seconds
		}
		total += rep.Summary.Seconds
		n += len(rep.Obligations)
		if rep.Summary.Proved != rep.Summary.Obligations {
			b.Fatalf("not all proved: %+v", rep.Summary)
		}
	}
	b.ReportMetric(1000*solver/float64(n), "solver-ms/obl")
	b.ReportMetric(1000*total/float64(n), "total-ms/obl")
	b.ReportMetric(100*(total-solver)/solver, "overhead-%")
	b.ReportMetric(100*(perObligation-solver)/solver, "kernel-%")
	b.ReportMetric(100*(total-perObligation)/solver, "pipeline-%")
}

// BenchmarkProveWarm re-proves TMS2's invariants from a warm cache and
// reports the time per obligation (printing, hashing, lookup, admission).
func BenchmarkProveWarm(b *testing.B) {
	in := benchInput(b)
	cfg := Config{CacheDir: b.TempDir(), Jobs: 1}
	p, err := NewProver(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := p.Prove(context.Background(), in); err != nil {
		b.Fatal(err)
	}
	var total float64
	n := 0
	var rep *report.Prove
	b.ResetTimer()
	for b.Loop() {
		if rep, err = p.Prove(context.Background(), in); err != nil {
			b.Fatal(err)
		}
		total += rep.Summary.Seconds
		n += len(rep.Obligations)
	}
	b.StopTimer()
	p.Close()
	if rep.Summary.Reused != rep.Summary.Obligations {
		b.Fatalf("warm run re-checked: %+v", rep.Summary)
	}
	b.ReportMetric(1000*total/float64(n), "ms/obl")
}

// BenchmarkRefute checks one false obligation that Z3 leaves unknown and
// the bounded search refutes, TL2Mod's DrawVersion › pre(CommitReserved)
// (algorithms/testdata), with one worker and no cache: "staged" with the
// kernel's defaults (the whole problem with the pre-search limit before
// the search, kernel.DefaultPreSearchRLimit), "full-first" with the full
// limit before the search (PreSearchRLimit = RLimit). It reports Z3's
// resource units (Mrlimit/op) and the run's seconds (s/op) of each: their
// ratio is what a refuted obligation saves.
func BenchmarkRefute(b *testing.B) {
	td := filepath.Join("..", "..", "algorithms", "testdata")
	in, errs := Load(filepath.Join(td, "TL2Mod.yaml"), filepath.Join(td, "TL2Mod-ReservationTMS2.yaml"), filepath.Join("..", "..", "specs"))
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	for _, c := range []struct {
		name      string
		preSearch uint64
	}{{"staged", 0}, {"full-first", kernel.DefaultRLimit}} {
		b.Run(c.name, func(b *testing.B) {
			var rlimit uint64
			var seconds float64
			n := 0
			for b.Loop() {
				p, err := NewProver(Config{NoCache: true, Jobs: 1, UnknownDir: b.TempDir(),
					Only: `DrawVersion › pre\(CommitReserved\)$`, Kernel: kernel.Config{PreSearchRLimit: c.preSearch}})
				if err != nil {
					b.Fatal(err)
				}
				rep, err := p.Prove(context.Background(), in)
				p.Close()
				if err != nil {
					b.Fatal(err)
				}
				if rep.Summary.Obligations != 1 || rep.Summary.Refuted != 1 {
					b.Fatalf("want one refuted obligation: %+v", rep.Summary)
				}
				rlimit += rep.Obligations[0].RLimitUsed
				seconds += rep.Summary.Seconds
				n++
			}
			b.ReportMetric(float64(rlimit)/1e6/float64(n), "Mrlimit/op")
			b.ReportMetric(seconds/float64(n), "s/op")
		})
	}
}

// BenchmarkBuild builds and prints every obligation of the repository
// (specs/, algorithms/, proofs/) in one goroutine, as a run does for an
// obligation it cannot decide from a record: simulation's encoding, then
// the kernel's canonical text and its hash. It reports the time per
// obligation split between the two (encode-µs/obl, print-µs/obl), the cost
// that an edit pays for every obligation whose group it touches.
func BenchmarkBuild(b *testing.B) {
	root := filepath.Join("..", "..")
	var paths []string
	for _, d := range []string{"specs", "algorithms", "proofs"} {
		paths = append(paths, filepath.Join(root, d))
	}
	k, err := kernel.New(kernel.Config{}, b.TempDir(), refute.New())
	if err != nil {
		b.Fatal(err)
	}
	var encode, print time.Duration
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		in, errs := Load(paths...)
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		b.StartTimer()
		for _, o := range in.Obligations {
			t0 := time.Now()
			if err := o.Encode(); err != nil {
				b.Fatalf("%s: %v", o.ID, err)
			}
			t1 := time.Now()
			q, err := k.Prepare(KernelObligation(o))
			if err != nil {
				b.Fatalf("%s: %v", o.ID, err)
			}
			_ = q.Text()
			encode += t1.Sub(t0)
			print += time.Since(t1)
			o.Release()
			n++
		}
	}
	b.ReportMetric(float64(encode.Microseconds())/float64(n), "encode-µs/obl")
	b.ReportMetric(float64(print.Microseconds())/float64(n), "print-µs/obl")
	b.ReportMetric(0, "ns/op")
}
