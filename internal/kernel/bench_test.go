package kernel_test

import (
	"ladder/internal/kernel"
	"path/filepath"
	"testing"
	"time"

	"ladder/ioa/load"
	"ladder/simulation"
)

// BenchmarkCheck prepares and checks TMS2's invariant obligations one by
// one and reports per obligation: the time of Z3's check alone
// (solver-ms/obl), of every Z3 call (z3-ms/obl: also creating and deleting
// the context, parsing and asserting the text), and of the kernel in all
// (kernel-ms/obl: also printing, hashing, replay); then the overhead over
// the pure solver time, in all (overhead-%) and of ladder's own code alone
// (ladder-%).
func BenchmarkCheck(b *testing.B) {
	set, errs := load.Files(filepath.Join("..", "..", "specs", "TMS2.yaml"))
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	obs, _, errs := simulation.Generate(&set.Hierarchy, simulation.Config{})
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	k, s := newSession(b, kernel.Config{})
	var solver, z3, total float64
	n := 0
	for b.Loop() {
		for _, ob := range obs {
			start := time.Now()
			q, err := k.Prepare(fromSim(ob))
			if err != nil {
				b.Fatal(err)
			}
			r := s.Check(q)
			total += time.Since(start).Seconds()
			if r.Verdict() != kernel.Proved {
				b.Fatalf("%s: %v %s", ob.ID, r.Verdict(), r.Reason)
			}
			solver += r.SolverSeconds
			z3 += r.Z3Seconds
			n++
		}
	}
	b.ReportMetric(1000*solver/float64(n), "solver-ms/obl")
	b.ReportMetric(1000*z3/float64(n), "z3-ms/obl")
	b.ReportMetric(1000*total/float64(n), "kernel-ms/obl")
	b.ReportMetric(100*(total-solver)/solver, "overhead-%")
	b.ReportMetric(100*(total-z3)/solver, "ladder-%")
}
