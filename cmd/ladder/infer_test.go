package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestInferCompareFlags runs `ladder infer --compare` on the ticket lock:
// its four invariants are proved from the inferred set; --max-time stops a
// run and says so (exit 1), and a negative one is a usage error (exit 2).
func TestInferCompareFlags(t *testing.T) {
	cache := t.TempDir()
	file := "../../docs/examples/mutex/TicketLock.yaml"
	code, out, errOut := runLadder("infer", file, "--compare", "--json", "--cache-dir", cache)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Compared []struct{ Name, Status string } `json:"compared"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Compared) != 4 {
		t.Fatalf("compared %+v, want the ticket lock's 4 invariants", res.Compared)
	}
	for _, c := range res.Compared {
		if c.Status != "proved" {
			t.Errorf("%s: %s", c.Name, c.Status)
		}
	}
	code, _, errOut = runLadder("infer", file, "--max-time", "1ns", "--cache-dir", cache)
	if code != exitFailure || !strings.Contains(errOut, "time limit 1ns") {
		t.Fatalf("--max-time 1ns: exit %d: %s", code, errOut)
	}
	code, _, errOut = runLadder("infer", file, "--max-time", "-1s", "--cache-dir", cache)
	if code != exitUsage {
		t.Fatalf("--max-time -1s: exit %d: %s", code, errOut)
	}
}
