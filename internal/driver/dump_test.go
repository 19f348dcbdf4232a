package driver

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/kernel"
	"ladder/internal/report"
)

// TestDumpSMTAgreesWithZ3CLI proves the counter fixture (with one invariant
// broken, so that the dumps hold both unsat and sat queries) with --dump-smt
// and checks that the z3 command line answers every dumped file as the
// kernel did.
func TestDumpSMTAgreesWithZ3CLI(t *testing.T) {
	z3bin, err := exec.LookPath("z3")
	if err != nil {
		t.Skip("no z3 command line")
	}
	dir := copyTestdata(t, "counter")
	edit(t, filepath.Join(dir, "impl.yaml"), "      buf := k\n", "      buf := k + 5\n")
	dump := t.TempDir()
	rep, _ := prove(t, Config{NoCache: true, DumpSMT: dump, UnknownDir: t.TempDir()}, loadDir(t, dir))
	want := map[string]string{report.Proved: "unsat", report.Trivial: "unsat", report.Refuted: "sat", report.Unknown: "unknown"}
	refuted := 0
	for _, o := range rep.Obligations {
		path := filepath.Join(dump, kernel.DumpName(o.ID))
		out, err := exec.Command(z3bin, path).CombinedOutput()
		if err != nil && len(out) == 0 {
			t.Fatalf("z3 %s: %v", path, err)
		}
		if got := strings.TrimSpace(string(out)); got != want[o.Verdict] {
			t.Errorf("%s: kernel %s, z3 %s says %q", o.ID, o.Verdict, path, got)
		}
		if o.Verdict == report.Refuted {
			refuted++
		}
	}
	if refuted != 1 || len(rep.Obligations) != 16 {
		t.Errorf("%d obligations, %d refuted; want 16 and 1", len(rep.Obligations), refuted)
	}
}
