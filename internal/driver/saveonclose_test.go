package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSaveOnClose checks Config.SaveOnClose: Prove does not write the
// cache's snapshot, Close does, and a new prover then reuses every verdict.
func TestSaveOnClose(t *testing.T) {
	dir := copyTestdata(t, "counter")
	cacheDir := filepath.Join(t.TempDir(), "cache")
	snapshot := filepath.Join(cacheDir, "cache.db")
	ctx := context.Background()
	p, err := NewProver(Config{CacheDir: cacheDir, Jobs: 1, SaveOnClose: true})
	if err != nil {
		t.Fatal(err)
	}
	in := loadRecorded(t, dir)
	if _, err := p.Prove(ctx, in); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(snapshot); err == nil {
		t.Fatalf("Prove wrote %s with SaveOnClose", snapshot)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(snapshot); err != nil {
		t.Fatalf("Close did not save the cache: %v", err)
	}
	q, err := NewProver(Config{CacheDir: cacheDir, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	rep, err := q.Prove(ctx, loadRecorded(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Rechecked != 0 || rep.Summary.Reused == 0 {
		t.Errorf("after Close: reused %d, re-checked %d; want every verdict reused", rep.Summary.Reused, rep.Summary.Rechecked)
	}
}
