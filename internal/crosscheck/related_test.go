package crosscheck

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"ladder/ioa"
)

// TestRelatedSameResult checks that taking the relation as holding at the
// pairs a forward search knows related (stored, or checked earlier in a
// worker's batch) changes nothing in the result: the same report, counts,
// case counts and failure, on the repository's refuted forward fixtures
// and on edges that hold, on one worker without symmetry and on two with
// it.
func TestRelatedSameResult(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	type edge struct{ file, bound string }
	edges := []edge{{"../../proofs/TML-TMS2.yaml", "T=2,L=1,V=2"}, {"../../proofs/TL2-ReservationTMS2.yaml", "T=2,L=1,V=2"}}
	fixtures, err := filepath.Glob("../../algorithms/testdata/*-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fixtures {
		edges = append(edges, edge{f, "T=2,L=1,V=2"})
	}
	forward := 0
	for _, e := range edges {
		p := loadProof(t, e.file, "../../specs", "../../algorithms", "../../algorithms/testdata")
		if p.Kind.String() != "forward" {
			continue
		}
		forward++
		for _, run := range []struct {
			sym bool
			w   int
		}{{false, 1}, {true, 2}} {
			sym, w := run.sym, run.w
			{
				var outs []string
				for _, evalRelation := range []bool{true, false} {
					cfg := bounds(t, e.bound)
					cfg.Workers, cfg.evalRelation = w, evalRelation
					if sym {
						cfg.Symmetry = []string{"T"}
					}
					outs = append(outs, reportOf(t, p, cfg))
				}
				if outs[0] != outs[1] {
					t.Errorf("%s (symmetry %v, %d workers): the report differs when known pairs are not evaluated again:\n%s\n---\n%s",
						filepath.Base(e.file), sym, w, outs[0], outs[1])
				}
				// (DSTMCommitAtCas fails on two locations only)
				if !strings.Contains(outs[0], "FAILED") && strings.Contains(e.file, "testdata") && !strings.Contains(e.file, "DSTMCommitAtCas") {
					t.Errorf("%s: the refuted fixture passes", filepath.Base(e.file))
				}
			}
		}
	}
	if forward < 5 {
		t.Errorf("only %d forward edges", forward)
	}
}

// TestBackwardWorkers checks that a backward check's result does not
// depend on the number of workers, each of which keeps its own decoded
// candidates (candidates.state), nor on taking R(cpost, a) and R(c, apre)
// as holding at the candidates found related (candidates.each,
// relatedToPre) or on the memo of lookups, on edges that hold (the first
// 4,500 states of ReservationTMS2→TxnOrdTMS2WithFailures, with and
// without symmetry, whose batches the workers share) and on refuted ones.
func TestBackwardWorkers(t *testing.T) {
	for _, file := range []string{"../../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml", "../../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml#T",
		"testdata/choice/ok_backward.yaml", "testdata/choice/bad_bwd_pre.yaml", "testdata/choice/bad_bwd_rel.yaml", "testdata/choice/bad_bwd_choice.yaml"} {
		file, sym, _ := strings.Cut(file, "#")
		p := loadProof(t, file, "../../specs")
		var outs []string
		for _, run := range []struct {
			w            int
			evalRelation bool
		}{{1, true}, {1, false}, {3, false}} {
			cfg := bounds(t, "V=3")
			if strings.HasPrefix(file, "../") {
				cfg = bounds(t, "T=2,L=1,V=2")
				cfg.MaxStates = 4500
			}
			cfg.Workers, cfg.evalRelation = run.w, run.evalRelation
			if sym != "" {
				cfg.Symmetry = []string{sym}
			}
			outs = append(outs, reportOf(t, p, cfg))
		}
		for i := 1; i < len(outs); i++ {
			if outs[0] != outs[i] {
				t.Errorf("%s: the report depends on the workers or on the known pairs:\n%s\n---\n%s", file, outs[0], outs[i])
			}
		}
		if strings.Contains(file, "bad_") != strings.Contains(outs[0], "FAILED") {
			t.Errorf("%s: %s", file, outs[0])
		}
	}
}

// reportOf checks p with cfg and returns the text report, without the
// figures that vary from run to run (time, memory).
func reportOf(t *testing.T, p *ioa.Proof, cfg Config) string {
	t.Helper()
	res, err := Check(p, cfg)
	if err != nil {
		t.Fatalf("%s: %v", p.File, err)
	}
	res.Elapsed, res.PeakMemoryBytes = 0, 0
	var out bytes.Buffer
	if err := res.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
