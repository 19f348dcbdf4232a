package cache

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// contents returns the encoded snapshot c would write now: equal contents
// give equal bytes.
func contents(t *testing.T, c *Cache) string {
	t.Helper()
	p, err := collect(c.db.Txn(false), c.solverStr)
	if err != nil {
		t.Fatal(err)
	}
	data, err := encodeSnapshot(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// change puts result i, records a dependency row and forgets result j:
// an insertion, a replacement and a deletion for the log.
func change(t *testing.T, c *Cache, i, j int) {
	t.Helper()
	mustPut(t, c, key(i), Result{Verdict: Proved, Seconds: float64(i)})
	if err := c.RecordDeps("ob", key(i), []string{"automaton:A/action:X"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Forget([]string{key(j)}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestLogAppends: after the first Save, which writes the snapshot, a Save
// of a few changed rows (inserted, replaced, deleted) leaves the snapshot
// as it is and appends one frame to the log per Save; a cache opened
// afterwards holds exactly the rows of the one that saved.
func TestLogAppends(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	for i := range 20 {
		mustPut(t, c, key(i), Result{Verdict: Proved})
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	snap, err := os.ReadFile(filepath.Join(dir, SnapshotFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, LogFile)); !os.IsNotExist(err) {
		t.Fatalf("a log after the first Save: %v", err)
	}
	for round := range 3 {
		change(t, c, 100+round, round)
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		again, _ := os.ReadFile(filepath.Join(dir, SnapshotFile))
		if !bytes.Equal(again, snap) {
			t.Fatalf("round %d: the snapshot was written again", round)
		}
		log, err := os.ReadFile(filepath.Join(dir, LogFile))
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(log, []byte(LogMagic+" ")); n != round+1 {
			t.Fatalf("round %d: %d frames in the log", round, n)
		}
		if got, want := contents(t, open(t, dir)), contents(t, c); got != want {
			t.Fatalf("round %d: reopened cache differs from the one that saved", round)
		}
	}
	if open(t, dir).Has(key(0)) {
		t.Error("a deletion in the log was not applied")
	}
}

// TestLogTornFrame: a log whose last frame was cut short (a crash while
// appending) or damaged gives one warning on Open, which keeps the rows of
// the frames before it; the next Save writes the snapshot whole and
// removes the log.
func TestLogTornFrame(t *testing.T) {
	for _, damage := range []struct {
		name string
		f    func([]byte, int) []byte
	}{
		{"cut short", func(log []byte, second int) []byte { return log[:second+(len(log)-second)/2] }},
		{"flipped byte", func(log []byte, second int) []byte {
			log = bytes.Clone(log)
			log[second+(len(log)-second)*2/3] ^= 1
			return log
		}},
	} {
		t.Run(damage.name, func(t *testing.T) {
			dir := t.TempDir()
			c := open(t, dir)
			mustPut(t, c, key(0), Result{Verdict: Proved})
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
			mustPut(t, c, key(1), Result{Verdict: Proved})
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, LogFile)
			first, _ := os.ReadFile(path)
			mustPut(t, c, key(2), Result{Verdict: Refuted})
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
			log, _ := os.ReadFile(path)
			if err := os.WriteFile(path, damage.f(log, len(first)), 0o644); err != nil {
				t.Fatal(err)
			}
			d, warns, err := Open(dir, testSolver)
			if err != nil || len(warns) != 1 {
				t.Fatalf("Open: %v, warnings %v; want one", err, warns)
			}
			if w := warns[0].String(); !strings.Contains(w, "cache: log ") || !strings.Contains(w, "the next save writes the snapshot whole") {
				t.Errorf("warning %q", w)
			}
			if !d.Has(key(0)) || !d.Has(key(1)) || d.Has(key(2)) {
				t.Fatalf("rows after a damaged last frame: %v %v %v; want the first two", d.Has(key(0)), d.Has(key(1)), d.Has(key(2)))
			}
			if err := d.Save(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatalf("the damaged log outlived a Save: %v", err)
			}
			if e := open(t, dir); !e.Has(key(1)) {
				t.Error("the rows of the whole frames were not kept")
			}
		})
	}
}

// TestLogOfAnotherSnapshot: frames that extend another snapshot than the
// one on disk (a log left by a writer that died between writing the
// snapshot and removing the log) are never applied, and Save writes the
// snapshot whole instead of appending after them.
func TestLogOfAnotherSnapshot(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	mustPut(t, c, key(0), Result{Verdict: Proved})
	mustPut(t, c, key(1), Result{Verdict: Proved})
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Forget([]string{key(0)}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, LogFile)
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// a new snapshot, holding key(0) again, then the old log put back
	mustPut(t, c, key(0), Result{Verdict: Proved})
	c.appendable = false
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	d := open(t, dir)
	if !d.Has(key(0)) {
		t.Fatal("a frame of another snapshot was applied")
	}
	mustPut(t, d, key(2), Result{Verdict: Proved})
	if err := d.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("Save appended after frames of another snapshot: %v", err)
	}
	if e := open(t, dir); !e.Has(key(0)) || !e.Has(key(2)) {
		t.Error("rows lost")
	}
}

// TestLogLimit: the log never grows past logLimit; Save then writes the
// snapshot whole and starts a new log.
func TestLogLimit(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	mustPut(t, c, key(0), Result{Verdict: Proved})
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	detail := bytes.Repeat([]byte("x"), 4<<10)
	rewrites := 0
	for i := range 200 {
		before, _ := os.Stat(filepath.Join(dir, SnapshotFile))
		mustPut(t, c, key(i+1), Result{Verdict: Refuted, Detail: detail})
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		after, _ := os.Stat(filepath.Join(dir, SnapshotFile))
		if !sameStat(before, after) {
			rewrites++
		}
		if fi, err := os.Stat(filepath.Join(dir, LogFile)); err == nil && fi.Size() > logLimit(after.Size()) {
			t.Fatalf("Save %d: log of %d bytes for a snapshot of %d", i, fi.Size(), after.Size())
		}
	}
	if rewrites == 0 || rewrites > 20 {
		t.Errorf("%d snapshots written in 200 Saves", rewrites)
	}
	if got, want := contents(t, open(t, dir)), contents(t, c); got != want {
		t.Error("reopened cache differs")
	}
}

// TestLogOtherWriter: a writer whose log another writer appended to since
// it read it merges the other's rows before it saves, so neither loses the
// other's.
func TestLogOtherWriter(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir)
	mustPut(t, a, key(0), Result{Verdict: Proved})
	if err := a.Save(); err != nil {
		t.Fatal(err)
	}
	b := open(t, dir)
	mustPut(t, a, key(1), Result{Verdict: Proved})
	if err := a.Save(); err != nil { // appended
		t.Fatal(err)
	}
	mustPut(t, b, key(2), Result{Verdict: Proved})
	if err := b.Save(); err != nil {
		t.Fatal(err)
	}
	if b.Merges() != 1 {
		t.Errorf("b merged %d times; want once", b.Merges())
	}
	c := open(t, dir)
	for i := range 3 {
		if !c.Has(key(i)) {
			t.Errorf("row %d lost", i)
		}
	}
}

// FuzzDecodeFrame: decodeFrame never panics; it either returns a problem,
// or skips a frame of another base, or returns a frame whose rows and
// deletions apply cleanly to a fresh database, and a length within data.
func FuzzDecodeFrame(f *testing.F) {
	p := pending{tableResults: {key(1): &resultRow{Key: key(1), Verdict: Proved, Solver: testSolver.String()}, key(2): nil}}
	good, err := encodeFrame(p, sha256hex([]byte("base")), testSolver.String())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(append(bytes.Clone(good), good...))
	f.Add([]byte(LogMagic + " 3 2 x y\n{}\nsha256:00\n"))
	solver := testSolver.String()
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, n, other, prob := decodeFrame(data, sha256hex([]byte("base")), solver)
		switch {
		case prob != nil:
			if fr != nil || n != 0 {
				t.Fatalf("a problem with a frame or a length")
			}
		case other:
			if fr != nil || n <= 0 || n > len(data) {
				t.Fatalf("another base: frame %v, length %d of %d", fr != nil, n, len(data))
			}
		default:
			if fr == nil || n <= 0 || n > len(data) {
				t.Fatalf("accepted: frame %v, length %d of %d", fr != nil, n, len(data))
			}
			c := open(t, t.TempDir())
			txn := c.db.Txn(true)
			if err := apply(txn, []*frame{fr}); err != nil {
				t.Fatalf("accepted frame does not apply: %v", err)
			}
			txn.Abort()
		}
	})
}
