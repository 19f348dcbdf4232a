package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestInferRepairCLI checks `ladder infer --proof P` without FILE on an
// edge that proves (exit 0, nothing to repair, and the same as JSON) and
// on a proof that is not a forward simulation (a usage error). The
// repair of broken edges is tested in internal/infer (TestRepairRelation).
func TestInferRepairCLI(t *testing.T) {
	cache := t.TempDir()
	code, out, errOut := runLadder("infer", "--proof", "../../proofs/TML-TMS2.yaml", "--bound", "T=2,L=1,V=2", "--cache-dir", cache)
	if code != exitOK || out != "" || !strings.Contains(errOut, "the edge proves as written: nothing to repair") {
		t.Fatalf("an edge that proves: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, errOut = runLadder("infer", "--proof", "../../proofs/TML-TMS2.yaml", "--bound", "T=2,L=1,V=2", "--cache-dir", cache, "--json")
	var res struct {
		Edge, Status string
		Failed       []string
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.Status != "proved" || res.Edge != "TML→TMS2" || len(res.Failed) != 0 {
		t.Fatalf("--json: exit %d, %+v\nstdout:\n%s\nstderr:\n%s", code, res, out, errOut)
	}
	code, _, errOut = runLadder("infer", "--proof", "../../proofs/TMS2-CommitSer.yaml", "--cache-dir", cache)
	if code != exitUsage || !strings.Contains(errOut, "repair adds relation clauses to forward simulations") {
		t.Fatalf("a refinement mapping: exit %d\nstderr:\n%s", code, errOut)
	}
	code, _, errOut = runLadder("infer", "--cache-dir", cache)
	if code != exitUsage || !strings.Contains(errOut, "expected one FILE (or --proof P alone") {
		t.Fatalf("no FILE and no --proof: exit %d\nstderr:\n%s", code, errOut)
	}
}
