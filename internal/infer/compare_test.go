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
	withInvariant(t, dir, "docs/examples/mutex/TicketLock.yaml", "mutex/TicketLock.yaml", "servedNext: serving = next")
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

// TestInferCompareRefutedOthers compares TML's invariants, and one more
// that is false (locZero: every snapshot is 0), with the set inferred for
// TML. The implicit Nat conditions assume every invariant of the file, so
// a refuted one must not leave the others unproved through them: each of
// TML's six is proved from the inferred set (TestInferTMLDefinitions), and
// locZero alone is refuted.
func TestInferCompareRefutedOthers(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, dir, "specs/tm.yaml", "specs/tm.yaml")
	withInvariant(t, dir, "algorithms/TML.yaml", "algorithms/TML.yaml", "locZero: 'forall t: T. loc[t] = 0'")
	lib := []string{filepath.Join(dir, "specs"), filepath.Join(dir, "algorithms")}
	o := options(t, filepath.Join(dir, "algorithms/TML.yaml"), filepath.Join(dir, "cache"), lib)
	o.Compare = true
	res := runInfer(t, o)
	if len(res.Compared) != 7 {
		t.Fatalf("compared %+v, want TML's 6 invariants and locZero", res.Compared)
	}
	for _, c := range res.Compared {
		want := report.Proved
		if c.Name == "locZero" {
			want = report.Refuted
		}
		if c.Status != want {
			t.Errorf("%s is %s from the inferred set, want %s", c.Name, c.Status, want)
		}
	}
}

// withInvariant copies the file rel of the repository to dst under dir
// with one more invariant, line (`name: body`), first in its invariants:
// section.
func withInvariant(t *testing.T, dir, rel, dst, line string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "\ninvariants:\n", "\ninvariants:\n  "+line+"\n", 1)
	if text == string(b) {
		t.Fatalf("%s has no invariants: section", rel)
	}
	write(t, filepath.Join(dir, dst), []byte(text))
}
