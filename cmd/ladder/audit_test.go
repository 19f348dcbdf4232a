package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ladder/internal/audit"
)

// TestAudit checks `ladder audit` on the dumps of TMS2's invariant
// memsNonEmpty: the z3 command line and cvc5 both answer unsat on every
// dump of a proved obligation, and when one dump is altered to be
// satisfiable (its negated goal removed) z3 disagrees on exactly that
// obligation (cvc5 may answer unknown on a satisfiable quantified problem)
// and the audit fails.
func TestAudit(t *testing.T) {
	for _, s := range []string{"z3", "cvc5"} {
		if err := (audit.Solver{Name: s}).Available(); err != nil {
			if os.Getenv("LADDER_REQUIRE_AUDIT") != "" {
				t.Fatal(err)
			}
			t.Skip(err)
		}
	}
	dir := t.TempDir()
	dumps := filepath.Join(dir, "dumps")
	code, stdout, stderr := runLadder("prove", "--no-cache", "-j", "1", "--dump-smt", dumps,
		"--only", "invariant memsNonEmpty", "../../specs/TMS2.yaml")
	if code != exitOK {
		t.Fatalf("prove: exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dumps, "*.smt2"))
	if len(files) < 10 {
		t.Fatalf("%d dumps; want one per obligation of memsNonEmpty", len(files))
	}
	code, stdout, stderr = runLadder("audit", "--dumps", dumps, "-j", "1")
	n := strconv.Itoa(len(files))
	want := regexp.MustCompile(`(?m)^` + n + ` obligations audited\n  z3    ` + n + ` unsat \(agree\), 0 sat \(disagree\).*\n  cvc5  ` + n + ` unsat \(agree\), 0 sat \(disagree\)`)
	if code != exitOK || !want.MatchString(stdout) {
		t.Fatalf("audit: exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// Remove the negated goal of one dump: its hypotheses alone are
	// satisfiable.
	victim := files[0]
	id, text, err := audit.ReadDump(victim)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(text), "; goal (negated)\n")
	if i < 0 {
		t.Fatalf("%s has no negated goal", victim)
	}
	rest := string(text[i:])
	j := strings.Index(rest, "\n(check-sat)")
	altered := string(text[:i]) + rest[j+1:]
	if err := os.WriteFile(victim, []byte(altered), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runLadder("audit", "--dumps", dumps, "-j", "1")
	if code != exitFailure {
		t.Fatalf("audit of an altered dump: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFailure, stdout, stderr)
	}
	line := regexp.MustCompile(`(?m)^  disagree +` + regexp.QuoteMeta(id) + `: z3 sat [0-9.]+s; cvc5 (sat|unknown) [0-9.]+s$`)
	if !line.MatchString(stdout) || strings.Count(stdout, "disagree ") != 1 {
		t.Errorf("audit of an altered dump: want one disagreement, on %s:\n%s", id, stdout)
	}
	if !strings.Contains(stdout, "1 sat (disagree)") {
		t.Errorf("summary does not count the disagreement:\n%s", stdout)
	}
}

// TestAuditFresh checks that --fresh audits the obligations a run
// re-checked and none that it reused from the cache.
func TestAuditFresh(t *testing.T) {
	if err := (audit.Solver{Name: "z3"}).Available(); err != nil {
		if os.Getenv("LADDER_REQUIRE_AUDIT") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	cache := filepath.Join(t.TempDir(), "cache")
	args := []string{"audit", "--fresh", "--solvers", "z3", "-j", "1", "--cache-dir", cache,
		"--only", "invariant memsNonEmpty", "../../specs/TMS2.yaml"}
	code, stdout, stderr := runLadder(args...)
	m := regexp.MustCompile(`(?m)^([0-9]+) obligations audited\n  z3 +([0-9]+) unsat \(agree\)`).FindStringSubmatch(stdout)
	if code != exitOK || m == nil || m[1] != m[2] || m[1] == "0" {
		t.Fatalf("first audit: exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runLadder(args...)
	if code != exitOK || !strings.Contains(stdout, "0 obligations audited\n") {
		t.Fatalf("audit with everything cached: exit code %d, want nothing audited\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
