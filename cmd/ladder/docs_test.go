package main

import (
	"os"
	"strings"
	"testing"
)

// TestDocsExamples keeps the worked examples of README.md and docs/ honest:
// they load, their invariants hold on a small instance, and every
// obligation of their proofs is proved by Z3 (no cache involved).
func TestDocsExamples(t *testing.T) {
	dir := "../../docs/examples/mutex"
	if code, _, stderr := runLadder("check", dir); code != exitOK {
		t.Fatalf("ladder check %s = %d:\n%s", dir, code, stderr)
	}
	code, out, stderr := runLadder("explore", dir+"/TicketLock.yaml", "--bound", "P=3")
	if code != exitOK || !strings.Contains(out, "82 states") {
		t.Fatalf("ladder explore TicketLock = %d, want 0 and 82 states:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runLadder("prove", "--no-cache", dir)
	if code != exitOK {
		t.Fatalf("ladder prove %s = %d:\n%s%s", dir, code, out, stderr)
	}
	for _, want := range []string{"TicketLock implements Mutex", "TicketLock satisfies Mutex.atMostOne", "0 refuted, 0 unknown"} {
		if !strings.Contains(out, want) {
			t.Errorf("prove output lacks %q:\n%s", want, out)
		}
	}
}

// TestDocsExampleBuggy checks that a lock without its waiting condition is
// refuted: the refinement's precondition of Acquire fails, with a
// counterexample.
func TestDocsExampleBuggy(t *testing.T) {
	dir := t.TempDir()
	src := "../../docs/examples/mutex/"
	for _, f := range []string{"lock.yaml", "Mutex.yaml", "TicketLock-Mutex.yaml"} {
		copyFile(t, src+f, dir+"/"+f)
	}
	data := readFile(t, src+"TicketLock.yaml")
	buggy := strings.Replace(data, "pre: pc[p] = Waiting and ticket[p] = serving", "pre: pc[p] = Waiting", 1)
	if buggy == data {
		t.Fatal("the example's Enter precondition changed; update this test")
	}
	writeFile(t, dir+"/TicketLock.yaml", buggy)
	code, out, _ := runLadder("explore", dir+"/TicketLock.yaml", "--bound", "P=2")
	if code != exitFailure || !strings.Contains(out, "VIOLATION of criticalServed") {
		t.Errorf("explore of the buggy lock = %d, want 1 and a violation of criticalServed:\n%s", code, out)
	}
	code, out, _ = runLadder("prove", "--no-cache", dir)
	if code != exitFailure || !strings.Contains(out, "refuted") {
		t.Errorf("prove of the buggy lock = %d, want 1 with refuted obligations:\n%s", code, out)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	writeFile(t, to, readFile(t, from))
}

// TestExploreProofAlias checks that explore --proof and --implements run
// the cross-checks.
func TestExploreProofAlias(t *testing.T) {
	code, out, stderr := runLadder("explore", "--proof", "../../docs/examples/mutex/TicketLock-Mutex.yaml", "../../docs/examples/mutex", "--bound", "P=2")
	if code != exitOK || !strings.Contains(out, "OK: every obligation holds") {
		t.Errorf("explore --proof = %d:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runLadder("explore", "--implements", "Mutex", "../../docs/examples/mutex/TicketLock.yaml", "../../docs/examples/mutex", "--bound", "P=2")
	if code != exitOK || !strings.Contains(out, "traces of TicketLock ⊆ traces of Mutex") {
		t.Errorf("explore --implements = %d:\n%s%s", code, out, stderr)
	}
}
