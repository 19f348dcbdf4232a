package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestUnshowableModel proves a false invariant of an automaton with a map
// over Int, which the evaluator cannot represent: Z3 finds a model, no
// counterexample can be replayed from it, and the obligation is unknown
// with that reason, not an internal error and never refuted or proved.
func TestUnshowableModel(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "M.yaml")
	src := `automaton: M
sorts:
  V: param
constants:
  v0: V
state:
  m: {sort: "Map[Int, V]", init: const(v0)}
  k: {sort: Int, init: 0}
actions:
  Put:
    kind: internal
    params: {v: V}
    eff: |
      m[k] := v
      k := k + 1
invariants:
  same: "m[0] = v0"
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runLadder("prove", "--no-cache", "-j", "1", file)
	if code != exitFailure {
		t.Errorf("exit code %d, want %d\nstderr:\n%s", code, exitFailure, stderr)
	}
	want := regexp.MustCompile(`(?s)M › invariant same › Put \(.*M.yaml:17:3\): unknown\n  z3 found a model that ladder cannot replay: variable m of M: the map sort Map\[Int, V\] has the infinite key sort Int, which counterexamples cannot show.*1 proved, 0 trivial, 0 refuted, 1 unknown`)
	if !want.MatchString(stdout) {
		t.Errorf("stdout does not match %s:\n%s", want, stdout)
	}
	if strings.Contains(stdout, "[internal]") {
		t.Errorf("an unrepresentable model is reported as an internal error:\n%s", stdout)
	}
}
