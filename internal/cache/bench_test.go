package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

const benchEntries = 10_000

// filled returns a cache in dir holding benchEntries results with realistic
// names and small details, plus the keys used.
func filled(b *testing.B, dir string) (*Cache, []string) {
	b.Helper()
	c := open(b, dir)
	keys := make([]string, benchEntries)
	for i := range keys {
		keys[i] = key(i)
		name := fmt.Sprintf("TMS2 › invariant inv%d › Action%d", i/50, i%50)
		mustPut(b, c, keys[i], Result{Verdict: Proved, Seconds: 0.01, RLimitUsed: uint64(i), Name: name,
			Detail: []byte(`{"reason":"unsat"}`)})
		if err := c.RecordDeps(name, keys[i], []string{
			fmt.Sprintf("automaton:TMS2/action:Action%d", i%50), fmt.Sprintf("automaton:TMS2/invariant:inv%d", i/50)}); err != nil {
			b.Fatal(err)
		}
	}
	return c, keys
}

func BenchmarkLookup(b *testing.B) {
	c, keys := filled(b, b.TempDir())
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, ok := c.Lookup(keys[i%len(keys)]); !ok {
			b.Fatal("miss")
		}
		i++
	}
}

func BenchmarkLookupParallel(b *testing.B) {
	c, keys := filled(b, b.TempDir())
	var next atomic.Uint64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(next.Add(1)) * 7919
		for pb.Next() {
			if _, ok := c.Lookup(keys[i%len(keys)]); !ok {
				b.Fatal("miss")
			}
			i++
		}
	})
}

func BenchmarkSave10k(b *testing.B) {
	dir := b.TempDir()
	c, _ := filled(b, dir)
	b.ResetTimer()
	for b.Loop() {
		if err := c.Save(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if fi, err := os.Stat(filepath.Join(dir, SnapshotFile)); err == nil {
		b.ReportMetric(float64(fi.Size()), "snapshot-bytes")
	}
}

func BenchmarkOpen10k(b *testing.B) {
	dir := b.TempDir()
	c, _ := filled(b, dir)
	if err := c.Save(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		d := open(b, dir)
		if d.Stats().Results != benchEntries {
			b.Fatal("short")
		}
	}
}
