package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestRecordItems(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	if got, recorded := c.ItemFingerprints("automaton:A"); recorded || len(got) != 0 {
		t.Fatalf("empty cache: ItemFingerprints = %v, %v", got, recorded)
	}
	first := map[string]string{
		"automaton:A/state":    key(1),
		"automaton:A/action:X": key(2),
		"automaton:A/action:Y": key(3),
	}
	if err := c.RecordItems("automaton:A", first); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordItems("proof:P", map[string]string{"proof:P/mapping": key(4)}); err != nil {
		t.Fatal(err)
	}
	if got, recorded := c.ItemFingerprints("automaton:A"); !recorded || !maps.Equal(got, first) {
		t.Fatalf("ItemFingerprints = %v, %v; want %v", got, recorded, first)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}

	// Recording the same items again changes nothing on disk.
	c2 := open(t, dir)
	if err := c2.RecordItems("automaton:A", first); err != nil {
		t.Fatal(err)
	}
	if c2.dirty.Load() {
		t.Error("recording unchanged items marked the cache dirty")
	}

	// An edit of X and the removal of Y: the removal survives a Save
	// that merges the older snapshot.
	second := map[string]string{"automaton:A/state": key(1), "automaton:A/action:X": key(5)}
	time.Sleep(2 * time.Millisecond) // a strictly newer date than the rows on disk
	if err := c2.RecordItems("automaton:A", second); err != nil {
		t.Fatal(err)
	}
	if err := c2.Save(); err != nil {
		t.Fatal(err)
	}
	c3 := open(t, dir)
	got, recorded := c3.ItemFingerprints("automaton:A")
	if !recorded || !maps.Equal(got, second) {
		t.Fatalf("after the edit: ItemFingerprints = %v, %v; want %v", got, recorded, second)
	}
	if got, _ := c3.ItemFingerprints("proof:P"); len(got) != 1 {
		t.Errorf("the items of another owner changed: %v", got)
	}
	if s := c3.Stats(); s.Items != 3 {
		t.Errorf("Stats().Items = %d, want 3 (two of A, one of P)", s.Items)
	}
	// An owner whose every item was removed is still recorded.
	if err := c3.RecordItems("proof:P", nil); err != nil {
		t.Fatal(err)
	}
	if got, recorded := c3.ItemFingerprints("proof:P"); !recorded || len(got) != 0 {
		t.Errorf("after removing every item: %v, %v", got, recorded)
	}
}

func TestRecordItemsRejects(t *testing.T) {
	c := open(t, t.TempDir())
	for name, items := range map[string]map[string]string{
		"other owner":     {"automaton:B/state": key(1)},
		"owner only":      {"automaton:A/": key(1)},
		"bad fingerprint": {"automaton:A/state": "abc"},
		"NUL":             {"automaton:A/st\x00ate": key(1)},
	} {
		if err := c.RecordItems("automaton:A", items); err == nil {
			t.Errorf("%s: RecordItems accepted %v", name, items)
		}
	}
	if err := c.RecordItems("", nil); err == nil {
		t.Error("RecordItems accepted an empty owner")
	}
	if s := c.Stats(); s.Items != 0 {
		t.Errorf("rejected records stored %d rows", s.Items)
	}
}

// A snapshot of format version 1 (before item fingerprints) is discarded
// with one warning, never read.
func TestOldSnapshotDiscarded(t *testing.T) {
	dir := t.TempDir()
	p := validPayload()
	p.Format = 1
	p.Items = nil
	data := craft(t, p)
	data = append([]byte("ladder-cache 1"), data[len("ladder-cache 2"):]...)
	if err := os.WriteFile(filepath.Join(dir, SnapshotFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	c, warns, err := Open(dir, testSolver)
	if err != nil || len(warns) != 1 || warns[0].Kind != Mismatch {
		t.Fatalf("Open = %v, %v; want one Mismatch warning", warns, err)
	}
	if s := c.Stats(); s.Results != 0 || s.Items != 0 {
		t.Errorf("an old snapshot was read: %+v", s)
	}
}

// TestGenerationRecords checks that a generation record survives a save and
// reopen, that re-recording an equal record leaves the cache clean, and that
// a snapshot of format 2 is rebuilt.
func TestGenerationRecords(t *testing.T) {
	dir := t.TempDir()
	c, _, err := Open(dir, testSolver)
	if err != nil {
		t.Fatal(err)
	}
	g := Generation{Key: key(1), Items: []string{"automaton:A/state"}, Unit: key(2), Query: key(3)}
	if err := c.RecordGeneration("ob", g); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordGeneration("bad", Generation{Key: key(1), Unit: key(2)}); err == nil {
		t.Fatal("a unit without a query was recorded")
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, warns, err := Open(dir, testSolver)
	if err != nil || len(warns) > 0 {
		t.Fatalf("reopen: %v %v", err, warns)
	}
	got, ok := c.Generated("ob")
	if !ok || got.Key != g.Key || got.Unit != g.Unit || got.Query != g.Query || len(got.Items) != 1 {
		t.Fatalf("Generated = %+v, %v; want %+v", got, ok, g)
	}
	if err := c.RecordGeneration("ob", g); err != nil || c.dirty.Load() {
		t.Fatalf("re-recording an equal record: err %v, dirty %v", err, c.dirty.Load())
	}
	c.Close()

	// A version-2 snapshot (items spelled out in every row) is rebuilt.
	p := validPayload()
	p.Format = 2
	body, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(Magic + " 2 " + strconv.Itoa(len(body)) + " " + testSolver.String() + "\n")
	data = append(data, body...)
	sum := sha256.Sum256(body)
	data = append(data, "\n"+checksumPrefix+hex.EncodeToString(sum[:])+"\n"...)
	dir2 := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir2, SnapshotFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	c2, warns, err := Open(dir2, testSolver)
	if err != nil || len(warns) != 1 || warns[0].Kind != Mismatch {
		t.Fatalf("version 2: %v %v; want one mismatch warning", err, warns)
	}
	defer c2.Close()
	if _, ok := c2.Generated("ob"); ok {
		t.Fatal("a record of a version-2 snapshot was read")
	}
}
