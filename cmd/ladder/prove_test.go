package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// proveFixture copies the driver's counter fixture (an automaton, its
// specification and a refinement proof) into a temporary directory and
// returns it with a fresh cache directory.
func proveFixture(t *testing.T) (dir, cacheDir string) {
	t.Helper()
	return driverFixture(t, "counter"), filepath.Join(t.TempDir(), "cache")
}

func replaceIn(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s lacks %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestProveCommand(t *testing.T) {
	dir, cache := proveFixture(t)
	code, out, errOut := runLadder("prove", dir, "--cache-dir", cache, "-j", "2")
	if code != exitOK {
		t.Fatalf("cold prove: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, re := range []string{
		`(?m)^Buffered › invariant bufRange: proved$`,
		`(?m)^  Buffered › invariant bufRange › Stage +proved +\d+\.\d{3}s$`,
		`(?m)^Buffered→Total › refinement: proved, assuming Buffered\.bufRange, Buffered\.emptyBuf, Buffered\.sumNonNeg$`,
		`(?m)^  Buffered implements Total \(trace-inclusion: Buffered→Total, `,
		`(?m)^  Buffered satisfies Total\.totalNonNeg \(invariant-transfer: Buffered refines Total, Total satisfies Total\.totalNonNeg\)$`,
		`(?m)^16 obligations: 12 proved, 4 trivial, 0 refuted, 0 unknown; reused 0, re-checked 12; \d+\.\d\d s$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("cold output does not match %s:\n%s", re, out)
		}
	}
	if errOut != "" {
		t.Errorf("stderr: %s", errOut)
	}

	code, out, _ = runLadder("prove", dir, "--cache-dir", cache)
	if code != exitOK || !strings.Contains(out, "reused 12, re-checked 0") ||
		!regexp.MustCompile(`(?m)^  Buffered › invariant bufRange › Stage +proved +\d+\.\d{3}s \(cached\)$`).MatchString(out) {
		t.Errorf("warm prove: exit %d\n%s", code, out)
	}

	// JSON: the documented fields.
	code, out, _ = runLadder("prove", dir, "--cache-dir", cache, "--json")
	if code != exitOK {
		t.Fatalf("--json: exit %d", code)
	}
	var rep struct {
		Obligations []map[string]any `json:"obligations"`
		Summary     map[string]any   `json:"summary"`
		Edges       []map[string]any `json:"edges"`
		Theorems    []map[string]any `json:"theorems"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if len(rep.Obligations) != 16 || rep.Summary["reused"] != 12.0 || rep.Summary["trivial"] != 4.0 || len(rep.Edges) != 1 || len(rep.Theorems) != 7 {
		t.Errorf("--json: %d obligations, summary %v, %d edges, %d theorems", len(rep.Obligations), rep.Summary, len(rep.Edges), len(rep.Theorems))
	}
	if e := rep.Edges[0]; e["name"] != "Buffered→Total" || e["concrete"] != "Buffered" || e["abstract"] != "Total" || e["kind"] != "refinement" || e["status"] != "proved" {
		t.Errorf("edge %v", e)
	}

	// Graph reads the statuses from the cache.
	code, out, _ = runLadder("graph", dir, "--cache-dir", cache, "--format", "text")
	if code != exitOK || !regexp.MustCompile(`Buffered -> Total +refinement +proved +\(Buffered→Total\)`).MatchString(out) {
		t.Errorf("graph after prove: exit %d\n%s", code, out)
	}
	code, out, _ = runLadder("graph", dir, "--cache-dir", filepath.Join(t.TempDir(), "empty"), "--format", "text")
	if code != exitOK || !strings.Contains(out, "not checked") {
		t.Errorf("graph without a cache: exit %d\n%s", code, out)
	}
	code, out, _ = runLadder("graph", dir, "--cache-dir", cache)
	if code != exitOK || !strings.Contains(out, `"Buffered" -> "Total" [label="refinement\nproved"`) {
		t.Errorf("graph dot: exit %d\n%s", code, out)
	}
}

func TestProveRefuted(t *testing.T) {
	dir, cache := proveFixture(t)
	replaceIn(t, filepath.Join(dir, "impl.yaml"), "      buf := k\n", "      buf := k + 5\n")
	code, out, _ := runLadder("prove", dir, "--cache-dir", cache)
	if code != exitFailure {
		t.Errorf("exit %d; want %d", code, exitFailure)
	}
	for _, want := range []string{
		"  Buffered › invariant bufRange › Stage ",
		"\nCounterexamples\n\nBuffered › invariant bufRange › Stage (",
		"counterexample to Buffered › invariant bufRange › Stage",
		"16 obligations: 11 proved, 4 trivial, 1 refuted, 0 unknown",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "  Buffered implements Total (") {
		t.Errorf("theorem derived from an edge resting on a refuted invariant:\n%s", out)
	}
	if !strings.Contains(out, `proof.yaml:12:5: expected theorem "Buffered implements Total" is not derived`) {
		t.Errorf("the proof file's expected theorem is not reported:\n%s", out)
	}
	// The cached refutation keeps its counterexample.
	_, again, _ := runLadder("prove", dir, "--cache-dir", cache)
	if !strings.Contains(again, "reused 12") || !strings.Contains(again, "counterexample to Buffered › invariant bufRange › Stage") {
		t.Errorf("cached refutation:\n%s", again)
	}
}

func TestProveErrors(t *testing.T) {
	dir, cache := proveFixture(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"only matches nothing", []string{"--only", "NoSuchThing"}, exitFailure, `--only "NoSuchThing" matches none of the 16 obligations`},
		{"bad only", []string{"--only", "("}, exitUsage, `invalid --only pattern`},
		{"zero rlimit", []string{"--rlimit", "0"}, exitUsage, `--rlimit must be positive`},
		{"huge rlimit", []string{"--rlimit", "99999999999"}, exitUsage, `exceeds Z3's maximum`},
		{"negative jobs", []string{"-j", "-1"}, exitUsage, `-j must not be negative`},
		{"bad timeout", []string{"--timeout", "0s"}, exitUsage, `--timeout must be positive`},
	}
	for _, tt := range tests {
		args := append([]string{"prove", dir, "--cache-dir", cache}, tt.args...)
		code, _, errOut := runLadder(args...)
		if code != tt.code || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", tt.name, code, errOut, tt.code, tt.stderr)
		}
	}
	replaceIn(t, filepath.Join(dir, "impl.yaml"), "pre: not full", "pre: not fulll")
	code, _, errOut := runLadder("prove", dir, "--cache-dir", cache)
	if code != exitUsage || !strings.Contains(errOut, `impl.yaml:12:14: undefined name "fulll"`) {
		t.Errorf("input error: exit %d, stderr %q; want %d and a position", code, errOut, exitUsage)
	}
	if code, _, errOut := runLadder("graph", dir, "--format", "png"); code != exitUsage || !strings.Contains(errOut, `unknown --format "png"`) {
		t.Errorf("graph --format png: exit %d, %q", code, errOut)
	}
}

// driverFixture copies the files of internal/driver/testdata/NAME into a
// new directory NAME, as a fresh clone of a repository would have them,
// and returns its path.
func driverFixture(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "internal", "driver", "testdata", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}
