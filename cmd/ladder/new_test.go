package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNewAlgorithm checks `ladder new algorithm`: it writes the two files
// into a fresh directory, they load, the automaton's invariants hold on a
// small instance, the cross-check and the proof of the skeleton's edge to
// TMS2 succeed, and a second run refuses to overwrite them.
func TestNewAlgorithm(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "work")
	alg := filepath.Join(dir, "algorithms", "MyTM.yaml")
	proof := filepath.Join(dir, "proofs", "MyTM-TMS2.yaml")

	code, out, stderr := runLadder("new", "algorithm", "MyTM", "--dir", dir)
	if code != exitOK {
		t.Fatalf("ladder new = %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, out, stderr)
	}
	for _, want := range []string{"wrote " + alg, "wrote " + proof, "ladder check " + alg + " " + proof,
		"ladder explore " + alg + " --bound T=2,L=1,V=2", "ladder crosscheck " + proof, "ladder prove -j 1 " + proof} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	algText, proofText := readFile(t, alg), readFile(t, proof)
	for _, want := range []string{"automaton: MyTM\n", "# TODO(you):", "view:\n"} {
		if !strings.Contains(algText, want) {
			t.Errorf("%s lacks %q", alg, want)
		}
	}
	for _, want := range []string{"proof: MyTM-TMS2\n", "kind: forward\n", "concrete: ../algorithms/MyTM.yaml\n", "# TODO(you):", "  - MyTM implements TMS2\n"} {
		if !strings.Contains(proofText, want) {
			t.Errorf("%s lacks %q", proof, want)
		}
	}

	if code, out, stderr := runLadder("check", alg, proof); code != exitOK {
		t.Fatalf("ladder check = %d:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runLadder("explore", alg, "--bound", "T=2,L=1,V=2")
	if code != exitOK || !strings.Contains(out, "OK: all 2 invariant(s)") {
		t.Errorf("ladder explore = %d, want 0 and every invariant holding:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runLadder("crosscheck", proof, alg, "--bound", "T=2,L=1,V=2")
	if code != exitOK || !strings.Contains(out, "OK: every obligation holds") {
		t.Errorf("ladder crosscheck = %d, want 0:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runLadder("prove", "--no-cache", "-j", "1", proof)
	if code != exitOK || !regexp.MustCompile(`MyTM implements TMS2 \(trace-inclusion`).MatchString(out) ||
		!regexp.MustCompile(`\d+ obligations: \d+ proved, \d+ trivial, 0 refuted, 0 unknown`).MatchString(out) {
		t.Errorf("ladder prove = %d, want 0, the theorem and nothing refuted or unknown:\n%s%s", code, out, stderr)
	}

	// A second run refuses, and leaves both files as they were.
	code, out, stderr = runLadder("new", "algorithm", "MyTM", "--dir", dir)
	if code != exitFailure || !strings.Contains(stderr, "exists already") {
		t.Errorf("second ladder new = %d, want %d and a refusal:\n%s%s", code, exitFailure, out, stderr)
	}
	if readFile(t, alg) != algText || readFile(t, proof) != proofText {
		t.Error("the second run changed the files")
	}
	// Also when only the proof exists: nothing is written.
	os.Remove(alg)
	if code, _, _ := runLadder("new", "algorithm", "MyTM", "--dir", dir); code != exitFailure {
		t.Errorf("ladder new with an existing proof = %d, want %d", code, exitFailure)
	}
	if _, err := os.Stat(alg); err == nil {
		t.Error("ladder new wrote the automaton although the proof exists")
	}
}

// TestNewAlgorithmSpecsInDir checks the layout of the repository itself:
// when DIR has specs/, the automaton names ../specs/tm.yaml and the proof
// names TMS2, found from DIR.
func TestNewAlgorithmSpecsInDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "specs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tm.yaml", "TMS2.yaml"} {
		copyFile(t, filepath.Join("../../specs", f), filepath.Join(dir, "specs", f))
	}
	if code, out, stderr := runLadder("new", "algorithm", "Lock1", "--dir", dir); code != exitOK {
		t.Fatalf("ladder new = %d:\n%s%s", code, out, stderr)
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, "algorithms", "Lock1.yaml")), "\ninterface: ../specs/tm.yaml\n") ||
		!strings.Contains(readFile(t, filepath.Join(dir, "proofs", "Lock1-TMS2.yaml")), "\nabstract: TMS2\n") {
		t.Error("with DIR/specs, want interface ../specs/tm.yaml and abstract TMS2")
	}
	t.Chdir(dir)
	if code, out, stderr := runLadder("check"); code != exitOK || !strings.Contains(out, "1 proof") {
		t.Errorf("ladder check in DIR = %d:\n%s%s", code, out, stderr)
	}
}

// TestNewAlgorithmUsage checks the usage errors: a missing or invalid name,
// a keyword, a specification's name, and a kind other than algorithm.
func TestNewAlgorithmUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"new"},
		{"new", "algorithm"},
		{"new", "spec", "X"},
		{"new", "algorithm", "9lives"},
		{"new", "algorithm", "my-tm"},
		{"new", "algorithm", "../X"},
		{"new", "algorithm", "forall"},
		{"new", "algorithm", "TMS2"},
		{"new", "algorithm", "A", "B"},
	} {
		code, _, stderr := runLadder(append(args, "--dir", dir)...)
		if code != exitUsage || !strings.Contains(stderr, "ladder new:") {
			t.Errorf("ladder %s = %d, want %d and an error:\n%s", strings.Join(args, " "), code, exitUsage, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("usage errors wrote %d entries into DIR", len(entries))
	}
}
