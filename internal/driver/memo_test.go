package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// memoRun loads dir and proves it as `ladder prove` does: answered from a
// run memo when there is one, otherwise generated, proved and remembered.
// proved counts the discharged obligations (proved or trivial), reused
// those that needed no solver call (reused or trivial).
func memoRun(t *testing.T, p *Prover, dir string) (replayed bool, proved, reused int) {
	t.Helper()
	var inputs Inputs
	set, errs := inputs.LoadConfig().Files(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	fp := p.Fingerprint(&inputs)
	if fp == "" {
		t.Fatal("no fingerprint")
	}
	if rep, ok := p.Replay(fp); ok {
		return true, rep.Summary.Proved + rep.Summary.Trivial, rep.Summary.Reused + rep.Summary.Trivial
	}
	in, errs := Generate(set)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rep, err := p.Prove(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Remember(fp, rep); err != nil {
		t.Fatal(err)
	}
	return false, rep.Summary.Proved + rep.Summary.Trivial, rep.Summary.Reused + rep.Summary.Trivial
}

// TestRunMemo checks that a run identical to the last fully proved one is
// answered from its memo with every obligation reused, and that an edit, a
// corrupt memo, a wiped cache and a failing run each fall back to a full run.
func TestRunMemo(t *testing.T) {
	dir := copyTestdata(t, "counter")
	cacheDir := filepath.Join(t.TempDir(), "cache")
	p, err := NewProver(Config{CacheDir: cacheDir, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	replayed, n, _ := memoRun(t, p, dir)
	if replayed || n == 0 {
		t.Fatalf("cold run: replayed=%v proved=%d; want a full run", replayed, n)
	}
	replayed, proved, reused := memoRun(t, p, dir)
	if !replayed || proved != n || reused != n {
		t.Fatalf("unchanged run: replayed=%v proved=%d reused=%d; want replayed, %d proved and reused", replayed, proved, reused, n)
	}

	// Any change of an input file is a new fingerprint: a full run (whose
	// verdicts come from the per-obligation cache).
	// (Here a change of a doc string only.)
	edit(t, filepath.Join(dir, "impl.yaml"), "Stage an amount", "Stage one amount")
	if replayed, _, reused := memoRun(t, p, dir); replayed || reused != n {
		t.Errorf("run after an edit: replayed=%v reused=%d; want a full run reusing all %d", replayed, reused, n)
	}
	edit(t, filepath.Join(dir, "impl.yaml"), "Stage one amount", "Stage an amount")

	// A corrupt memo is ignored.
	runs, _ := filepath.Glob(filepath.Join(cacheDir, "runs", "*.json"))
	if len(runs) == 0 {
		t.Fatal("no memo written")
	}
	for _, f := range runs {
		data, _ := os.ReadFile(f)
		data[len(data)-2] ^= 1
		os.WriteFile(f, data, 0o644)
	}
	if replayed, _, _ := memoRun(t, p, dir); replayed {
		t.Error("a corrupt memo was replayed")
	}

	// A memo whose verdicts the cache no longer holds is ignored.
	if replayed, _, _ := memoRun(t, p, dir); !replayed {
		t.Fatal("the rewritten memo was not replayed")
	}
	if err := os.Remove(filepath.Join(cacheDir, "cache.db")); err != nil {
		t.Fatal(err)
	}
	r, err := NewProver(Config{CacheDir: cacheDir, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var inputs Inputs
	inputs.LoadConfig().Files(dir)
	if _, ok := r.Replay(r.Fingerprint(&inputs)); ok {
		t.Error("a memo was replayed although the cache holds none of its verdicts")
	}
}

// TestRunMemoSelective checks that a run of selected obligations
// (--only) leaves no memo.
func TestRunMemoSelective(t *testing.T) {
	dir := copyTestdata(t, "counter")
	cacheDir := filepath.Join(t.TempDir(), "cache")
	p, err := NewProver(Config{CacheDir: cacheDir, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var inputs Inputs
	set, errs := inputs.LoadConfig().Files(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in, _ := Generate(set)
	in.Obligations = in.Obligations[:1] // an incomplete run is not remembered
	p.cfg.Only = "."
	rep, err := p.Prove(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Remember(p.Fingerprint(&inputs), rep); err != nil {
		t.Fatal(err)
	}
	if runs, _ := filepath.Glob(filepath.Join(cacheDir, "runs", "*.json")); len(runs) != 0 {
		t.Errorf("a selective run wrote a memo: %v", runs)
	}
}

// TestRunMemoNotForFailures checks that a complete run that did not prove
// everything leaves no memo.
func TestRunMemoNotForFailures(t *testing.T) {
	dir := copyTestdata(t, "counter")
	cacheDir := filepath.Join(t.TempDir(), "cache")
	p, err := NewProver(Config{CacheDir: cacheDir, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var inputs Inputs
	set, _ := inputs.LoadConfig().Files(dir)
	in, _ := Generate(set)
	rep, err := p.Prove(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	rep.Obligations[0].Verdict = "refuted"
	rep.Summarize()
	if err := p.Remember(p.Fingerprint(&inputs), rep); err != nil {
		t.Fatal(err)
	}
	if runs, _ := filepath.Glob(filepath.Join(cacheDir, "runs", "*.json")); len(runs) != 0 {
		t.Errorf("a run with a refuted obligation wrote a memo: %v", runs)
	}
}

// TestRunMemoEditDuringRun checks that the fingerprint covers the bytes the
// run loaded: a file edited after loading does not make the next run, over
// the edited file, replay the memo of the old content.
func TestRunMemoEditDuringRun(t *testing.T) {
	dir := copyTestdata(t, "counter")
	cacheDir := filepath.Join(t.TempDir(), "cache")
	p, err := NewProver(Config{CacheDir: cacheDir, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var inputs Inputs
	set, errs := inputs.LoadConfig().Files(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	edit(t, filepath.Join(dir, "impl.yaml"), "Stage an amount", "Stage one amount")
	in, _ := Generate(set)
	rep, err := p.Prove(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Remember(p.Fingerprint(&inputs), rep); err != nil {
		t.Fatal(err)
	}
	if replayed, _, _ := memoRun(t, p, dir); replayed {
		t.Error("the memo of the content loaded before an edit was replayed for the edited file")
	}
}
