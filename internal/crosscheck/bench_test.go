package crosscheck

import (
	"runtime"
	"testing"
	"time"

	"ladder/internal/explore"
	"ladder/internal/nodestore"
)

// BenchmarkForwardRelated measures a forward cross-check (TL2→
// ReservationTMS2 at T=2,L=1,V=2, --symmetry T, two workers) when the
// rules take the relation as holding at the pairs the search knows
// related ("known") and when they evaluate it at every step
// ("evaluated"): the ratio of the two times is the saving. It reports the
// pairs per second.
func BenchmarkForwardRelated(b *testing.B) {
	p := loadProof(b, "../../proofs/TL2-ReservationTMS2.yaml", "../../specs", "../../algorithms")
	for _, bc := range []struct {
		name         string
		evalRelation bool
	}{{"known", false}, {"evaluated", true}} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := bounds(b, "T=2,L=1,V=2")
			cfg.Workers, cfg.Symmetry, cfg.evalRelation = 2, []string{"T"}, bc.evalRelation
			pairs := 0
			for i := 0; i < b.N; i++ {
				res, err := Check(p, cfg)
				if err != nil {
					b.Fatal(err)
				}
				if !res.Complete || res.Failure != nil {
					b.Fatalf("want a complete pass, got %+v", res.Failure)
				}
				pairs += res.States
			}
			b.ReportMetric(float64(pairs)/b.Elapsed().Seconds(), "pairs/s")
		})
	}
}

// BenchmarkForwardReduceDead measures the forward cross-check of
// DSTM→ReservationTMS2 at T=2,L=1,V=2 (--symmetry T, two workers) with
// and without the dead-register reduction of its pairs, in one run: it
// reports the pairs of each and the ratio of the plain time to the
// reduced one ("speedup").
func BenchmarkForwardReduceDead(b *testing.B) {
	p := loadProof(b, "../../proofs/DSTM-ReservationTMS2.yaml", "../../specs", "../../algorithms")
	run := func(dead bool) (int, time.Duration) {
		cfg := bounds(b, "T=2,L=1,V=2")
		cfg.Workers, cfg.Symmetry, cfg.ReduceDead = 2, []string{"T"}, dead
		start := time.Now()
		res, err := Check(p, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if !res.Complete || res.Failure != nil {
			b.Fatalf("want a complete pass, got %+v", res.Failure)
		}
		return res.States, time.Since(start)
	}
	var plainT, deadT time.Duration
	var plainN, deadN int
	for i := 0; i < b.N; i++ {
		n, t := run(false)
		plainN, plainT = n, plainT+t
		n, t = run(true)
		deadN, deadT = n, deadT+t
	}
	b.ReportMetric(float64(plainN), "pairs")
	b.ReportMetric(float64(deadN), "pairs-reduced")
	b.ReportMetric(plainT.Seconds()/deadT.Seconds(), "speedup")
}

// BenchmarkReachableFlat measures the backward check's exploration of the
// abstract automaton (reachable: TxnOrdTMS2WithFailures at T=3,L=1,V=2,
// --symmetry T) on encodings (fast.Flat) and with the Runner alone, in one
// run: it reports the orbits and the ratio of the Runner's time to the
// encodings' ("speedup"). An untimed run first maps the memory the others
// reuse (a first touch of a page costs microseconds here), each run starts
// after a collection, and they alternate flat, plain, plain, flat.
func BenchmarkReachableFlat(b *testing.B) {
	p := loadProof(b, "../../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml", "../../specs")
	cfg := bounds(b, "T=3,L=1,V=2")
	cfg.Symmetry = []string{"T"}
	x, err := newChecker(p, cfg)
	if err != nil {
		b.Fatal(err)
	}
	run := func(flat bool) (int, time.Duration) {
		runtime.GC()
		meter := explore.NewMeter(explore.Budget{})
		start := time.Now()
		st, complete, err := reachableWith(x.mA, x.sym.gA, nodestore.MaxNodes, meter, explore.NewReporter(nil, meter), flat)
		if err != nil || !complete {
			b.Fatalf("reachable: complete %v, %v", complete, err)
		}
		return st.Len(), time.Since(start)
	}
	b.StopTimer()
	n, _ := run(false)
	b.StartTimer()
	var flatT, plainT time.Duration
	for i := 0; i < b.N; i++ {
		for _, flat := range []bool{true, false, false, true} {
			k, t := run(flat)
			if k != n {
				b.Fatalf("%d orbits (flat %v), %d before", k, flat, n)
			}
			if flat {
				flatT += t
			} else {
				plainT += t
			}
		}
	}
	b.ReportMetric(float64(n), "orbits")
	b.ReportMetric(plainT.Seconds()/flatT.Seconds(), "speedup")
}
