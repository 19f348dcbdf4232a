package infer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ladder/internal/report"
)

// TestInferCompare infers the ticket lock's invariants from its file with
// its own invariants in place, plus one that is false (serving = next
// breaks at the first ticket taken), and compares: the four written ones
// are proved from the inferred set alone, the false one is not, and none
// of them is among the inferred invariants or their assumptions.
func TestInferCompare(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(root, "docs/examples/mutex/TicketLock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "\ninvariants:\n", "\ninvariants:\n  servedNext: serving = next\n", 1)
	if text == string(b) {
		t.Fatal("the ticket lock has no invariants: section")
	}
	write(t, filepath.Join(dir, "mutex/TicketLock.yaml"), []byte(text))
	copyFile(t, dir, "docs/examples/mutex/lock.yaml", "mutex/lock.yaml")
	o := options(t, filepath.Join(dir, "mutex/TicketLock.yaml"), filepath.Join(dir, "cache"), nil)
	o.Compare = true
	res := runInfer(t, o)
	want := map[string]string{"ticketsIssued": report.Proved, "distinctTickets": report.Proved,
		"criticalServed": report.Proved, "mutex": report.Proved}
	if len(res.Compared) != 5 {
		t.Fatalf("compared %+v, want the file's 5 invariants", res.Compared)
	}
	for _, c := range res.Compared {
		w, ok := want[c.Name]
		switch {
		case c.Name == "servedNext":
			if c.Status == report.Proved {
				t.Errorf("the false invariant servedNext is %s", c.Status)
			}
		case !ok:
			t.Errorf("unexpected %+v", c)
		case c.Status != w:
			t.Errorf("%s is %s, want %s", c.Name, c.Status, w)
		}
	}
	for _, inv := range res.Invariants {
		for _, n := range append([]string{inv.Name}, inv.Assumes...) {
			if _, ok := want[n]; ok || n == "servedNext" {
				t.Errorf("inferred invariant %s names the file's invariant %s", inv.Name, n)
			}
		}
	}
	var sum strings.Builder
	res.WriteSummary(&sum)
	if !strings.Contains(sum.String(), "not proved from the inferred set: servedNext (") {
		t.Errorf("the summary does not name servedNext:\n%s", sum.String())
	}
}

// TestInferTimeLimit checks that a run over Options.MaxTime stops with
// ErrLimit, says so, and returns no invariants.
func TestInferTimeLimit(t *testing.T) {
	dir := t.TempDir()
	stripCopy(t, dir, "docs/examples/mutex/TicketLock.yaml", "mutex/TicketLock.yaml")
	copyFile(t, dir, "docs/examples/mutex/lock.yaml", "mutex/lock.yaml")
	o := options(t, filepath.Join(dir, "mutex/TicketLock.yaml"), filepath.Join(dir, "cache"), nil)
	o.MaxTime = time.Nanosecond
	res, err := Run(context.Background(), o)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v, want ErrLimit", err)
	}
	if res == nil || res.Stopped != "time limit 1ns" || len(res.Invariants) != 0 {
		t.Fatalf("result %+v", res)
	}
}

// TestInferCompareRefutedOthers compares TML's invariants with the set
// inferred for it. writeOdd (pc[t] in {W3, W4} => odd(loc[t])) is one of
// the inferred invariants, so it is proved from them, while others of the
// file are refuted: the implicit Nat conditions assume every invariant of
// the file, and a refuted one must not leave the rest unproved through
// them.
func TestInferCompareRefutedOthers(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, dir, "specs/tm.yaml", "specs/tm.yaml")
	copyFile(t, dir, "algorithms/TML.yaml", "algorithms/TML.yaml")
	lib := []string{filepath.Join(dir, "specs"), filepath.Join(dir, "algorithms")}
	o := options(t, filepath.Join(dir, "algorithms/TML.yaml"), filepath.Join(dir, "cache"), lib)
	o.Compare = true
	res := runInfer(t, o)
	inferred := false
	for _, inv := range res.Invariants {
		inferred = inferred || strings.TrimSpace(inv.Body) == "forall t: T. pc[t] in {W3, W4} => odd(loc[t])"
	}
	if !inferred {
		t.Fatalf("writeOdd is no longer inferred as it is written; the test needs it")
	}
	status := map[string]string{}
	for _, c := range res.Compared {
		status[c.Name] = c.Status
	}
	if status["writeOdd"] != report.Proved {
		t.Errorf("writeOdd is %q from the inferred set, which contains it", status["writeOdd"])
	}
	refuted := 0
	for _, st := range status {
		if st == report.Refuted {
			refuted++
		}
	}
	if refuted == 0 {
		t.Errorf("no invariant of TML refuted from the inferred set (%v): the test no longer compares with refuted ones", status)
	}
}
