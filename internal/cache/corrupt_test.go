package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// goodSnapshot returns the bytes of a valid snapshot holding n results plus
// one row in each of the other tables.
func goodSnapshot(t testing.TB, n int) []byte {
	t.Helper()
	dir := t.TempDir()
	c := open(t, dir)
	for i := range n {
		mustPut(t, c, key(i), Result{Verdict: Proved, Seconds: 0.5, Name: "ob", Detail: []byte(`{"x":1}`)})
	}
	if err := c.RecordDeps("ob", key(0), []string{"automaton:A/action:a"}); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordEdge("e", []string{"ob"}); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordTheorem("thm", []string{"e"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, SnapshotFile))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// craft encodes p with a correct header and checksum, so only the payload
// validation can reject it.
func craft(t testing.TB, p *payload) []byte {
	t.Helper()
	data, err := encodeSnapshot(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func validPayload() *payload {
	now := time.Now().UTC()
	return &payload{
		Format: FormatVersion, Solver: testSolver.String(),
		Results:  []*resultRow{{Key: key(1), Verdict: Proved, Date: now, Solver: testSolver.String()}},
		Deps:     []*depRow{{Name: "ob", Key: key(1), Items: []string{"i"}, Date: now}},
		Edges:    []*edgeRow{{Name: "e", Obligations: []string{"ob"}, Date: now}},
		Theorems: []*theoremRow{{Name: "t", Edges: []string{"e"}, Date: now}},
		Items:    []*itemsRow{{Owner: "automaton:A", Items: []string{"automaton:A/action:X"}, Fingerprints: []string{key(2)}, Date: now}},
	}
}

// expectRejected writes data as the snapshot, opens it and requires exactly
// one warning of the given kind, an empty cache, and a clean recovery.
func expectRejected(t *testing.T, data []byte, kind WarningKind, reason string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, SnapshotFile)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c, warns, err := Open(dir, testSolver)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if len(warns) != 1 {
		t.Fatalf("got %d warnings %v, want 1", len(warns), warns)
	}
	w := warns[0]
	if w.Kind != kind || w.Path != path || !strings.Contains(w.Reason, reason) {
		t.Errorf("warning %+v, want kind %d reason containing %q", w, kind, reason)
	}
	msg := w.String()
	if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "cache: snapshot "+path) || !strings.HasSuffix(msg, "; rebuilding") {
		t.Errorf("warning text %q", msg)
	}
	if s := c.Stats(); s.Results+s.Deps+s.Edges+s.Theorems != 0 {
		t.Errorf("content of a rejected snapshot was loaded: %+v", s)
	}
	// The next Save replaces the bad file and the cache reopens cleanly.
	mustPut(t, c, key(77), Result{Verdict: Refuted})
	if err := c.Save(); err != nil {
		t.Fatalf("Save over rejected snapshot: %v", err)
	}
	d := open(t, dir)
	if s := d.Stats(); s.Results != 1 || s.Deps != 0 {
		t.Errorf("after rebuild: %+v", s)
	}
	if _, ok := d.Lookup(key(77)); !ok {
		t.Error("rebuilt snapshot lost the new result")
	}
}

func TestCorruptSnapshots(t *testing.T) {
	good := goodSnapshot(t, 3)
	nl := bytes.IndexByte(good, '\n')
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }

	other := func(id SolverID) []byte {
		dir := t.TempDir()
		c, _, err := Open(dir, id)
		if err != nil {
			t.Fatal(err)
		}
		mustPut(t, c, KeyOf("x", id), Result{Verdict: Proved})
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, SnapshotFile))
		return data
	}

	cases := []struct {
		name   string
		data   []byte
		kind   WarningKind
		reason string
	}{
		{"flipped payload byte", mod(func(b []byte) []byte { b[nl+10] ^= 0x20; return b }), Corrupt, "checksum mismatch"},
		{"flipped checksum digit", mod(func(b []byte) []byte {
			i := len(b) - 2
			if b[i] == '0' {
				b[i] = '1'
			} else {
				b[i] = '0'
			}
			return b
		}), Corrupt, "checksum mismatch"},
		{"truncated to half", good[:len(good)/2], Corrupt, "truncated"},
		{"truncated by one byte", good[:len(good)-1], Corrupt, "truncated"},
		{"truncated inside header", good[:nl-3], Corrupt, "unterminated header"},
		{"trailing data", append(bytes.Clone(good), "more\n"...), Corrupt, "trailing data"},
		{"garbage header", append([]byte("PK\x03\x04 garbage\n"), good[nl+1:]...), Corrupt, "bad magic"},
		{"garbage file", bytes.Repeat([]byte{0xff}, 4096), Corrupt, "bad magic"},
		{"empty file", nil, Corrupt, "empty file"},
		{"magic only", []byte("ladder-cache \n"), Corrupt, "malformed header"},
		{"bad version field", []byte("ladder-cache x 1 s\n"), Corrupt, "malformed format version"},
		{"bad length field", []byte("ladder-cache 4 -1 s\n"), Corrupt, "malformed payload length"},
		{"future format version", bytes.Replace(good, []byte("ladder-cache 4 "), []byte("ladder-cache 5 "), 1), Mismatch, "format version 5"},
		// Version 1 had no item fingerprints, version 3 one row per
		// item: their snapshots are rebuilt.
		{"old format version", bytes.Replace(good, []byte("ladder-cache 4 "), []byte("ladder-cache 1 "), 1), Mismatch, "format version 1, expected 4"},
		{"format version 3", bytes.Replace(good, []byte("ladder-cache 4 "), []byte("ladder-cache 3 "), 1), Mismatch, "format version 3, expected 4"},
		{"unit without query", craft(t, withDep(func(d *depRow) { d.Unit = strings.Repeat("a", 64) })), Corrupt, "dependency record"},
		{"malformed unit", craft(t, withDep(func(d *depRow) { d.Unit, d.Query = "abc", strings.Repeat("a", 64) })), Corrupt, "dependency record"},
		{"other solver version", other(SolverID{testSolver.Name, "4.12.6", testSolver.Params}), Mismatch, "version 4.12.6, this run 4.13.0"},
		{"other solver params", other(SolverID{testSolver.Name, testSolver.Version, CanonicalParams(map[string]string{"seed": "7"})}), Mismatch, "seed"},
		{"other solver", other(SolverID{"cvc5", "1.1", ""}), Mismatch, "solver cvc5, this run z3; version 1.1, this run 4.13.0"},
		{"payload not JSON", craftRaw([]byte("not json")), Corrupt, "undecodable payload"},
		{"payload two JSON values", craftRaw(append(mustJSON(t, validPayload()), " {}"...)), Corrupt, "undecodable payload"},
		{"payload unknown field", craftRaw([]byte(`{"format":2,"solver":` + quote(testSolver.String()) + `,"bogus":1}`)), Corrupt, "undecodable payload"},
		{"payload disagrees with header", craftRaw([]byte(`{"format":2,"solver":"other"}`)), Corrupt, "disagrees"},
		{"bad verdict", craft(t, withResult(func(r *resultRow) { r.Verdict = "sat" })), Corrupt, "invalid verdict"},
		{"bad key", craft(t, withResult(func(r *resultRow) { r.Key = "abc" })), Corrupt, "malformed key"},
		{"negative seconds", craft(t, withResult(func(r *resultRow) { r.Seconds = -2 })), Corrupt, "invalid seconds"},
		{"item index out of range", craftRaw([]byte(`{"format":4,"solver":` + quote(testSolver.String()) + `,"results":[],"item_names":["a"],"deps":[{"name":"ob","key":"` + key(1) + `","items":[1],"date":"2026-01-01T00:00:00Z"}],"edges":[],"theorems":[],"items":[]}`)), Corrupt, "dependency record 0"},
		{"duplicate key", craft(t, func() *payload {
			p := validPayload()
			r := *p.Results[0]
			p.Results = append(p.Results, &r)
			return p
		}()), Corrupt, "duplicate key"},
		{"null row", craft(t, func() *payload { p := validPayload(); p.Results = append(p.Results, nil); return p }()), Corrupt, "null"},
		{"dep with NUL item", craft(t, func() *payload { p := validPayload(); p.Deps[0].Items = []string{"a\x00"}; return p }()), Corrupt, "dependency"},
		{"dep with bad key", craft(t, func() *payload { p := validPayload(); p.Deps[0].Key = ""; return p }()), Corrupt, "dependency"},
		{"duplicate edge", craft(t, func() *payload { p := validPayload(); p.Edges = append(p.Edges, p.Edges[0]); return p }()), Corrupt, "edge"},
		{"nameless theorem", craft(t, func() *payload { p := validPayload(); p.Theorems[0].Name = ""; return p }()), Corrupt, "theorem"},
		{"item of another owner", craft(t, func() *payload { p := validPayload(); p.Items[0].Owner = "automaton:B"; return p }()), Corrupt, "item record"},
		{"item with bad fingerprint", craft(t, func() *payload { p := validPayload(); p.Items[0].Fingerprints[0] = "xyz"; return p }()), Corrupt, "item record"},
		{"item without fingerprint", craft(t, func() *payload { p := validPayload(); p.Items[0].Fingerprints = nil; return p }()), Corrupt, "item record"},
		{"repeated item", craft(t, func() *payload {
			p := validPayload()
			r := p.Items[0]
			r.Items, r.Fingerprints = append(r.Items, r.Items[0]), append(r.Fingerprints, key(3))
			return p
		}()), Corrupt, "item record"},
		{"duplicate owner", craft(t, func() *payload { p := validPayload(); p.Items = append(p.Items, p.Items[0]); return p }()), Corrupt, "item record"},
		{"null item", craft(t, func() *payload { p := validPayload(); p.Items = append(p.Items, nil); return p }()), Corrupt, "item record"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { expectRejected(t, tc.data, tc.kind, tc.reason) })
	}

	// Sanity: the crafted valid payload itself is accepted, so the cases
	// above fail for the reason they name.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, SnapshotFile), craft(t, validPayload()), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := open(t, dir).Stats(); s.Results != 1 || s.Deps != 1 || s.Edges != 1 || s.Theorems != 1 || s.Items != 1 {
		t.Errorf("valid crafted snapshot loaded as %+v", s)
	}
}

func TestUnreadableSnapshot(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, SnapshotFile), 0o755); err != nil {
		t.Fatal(err)
	}
	c, warns, err := Open(dir, testSolver)
	if err != nil || len(warns) != 1 || warns[0].Kind != Unreadable {
		t.Fatalf("Open = %v, %v", warns, err)
	}
	if !strings.Contains(warns[0].String(), "unreadable") {
		t.Errorf("warning %q", warns[0])
	}
	if c.Stats().Results != 0 {
		t.Error("not empty")
	}
}

// Every single-bit flip anywhere in the file, and every truncation, must be
// detected: one warning, empty cache, no panic.
func TestEveryFlipAndTruncationDetected(t *testing.T) {
	good := goodSnapshot(t, 2)
	solver := testSolver.String()
	for i := range good {
		for _, bit := range []byte{0x01, 0x80} {
			b := bytes.Clone(good)
			b[i] ^= bit
			if p, prob := decodeSnapshot(b, solver); prob == nil || p != nil {
				t.Fatalf("flip of bit %#x at byte %d/%d undetected", bit, i, len(good))
			}
		}
	}
	for n := range len(good) {
		if p, prob := decodeSnapshot(good[:n], solver); prob == nil || p != nil {
			t.Fatalf("truncation to %d/%d bytes undetected", n, len(good))
		}
	}
	if p, prob := decodeSnapshot(good, solver); prob != nil || p == nil {
		t.Fatalf("intact snapshot rejected: %+v", prob)
	}
}

func FuzzDecodeSnapshot(f *testing.F) {
	f.Add(goodSnapshot(f, 2))
	f.Add([]byte("ladder-cache 2 2 x\n{}\nsha256:00\n"))
	f.Add([]byte{})
	solver := testSolver.String()
	f.Fuzz(func(t *testing.T, data []byte) {
		p, prob := decodeSnapshot(data, solver)
		if (p == nil) == (prob == nil) {
			t.Fatalf("decodeSnapshot returned payload %v and problem %v", p != nil, prob)
		}
		if p != nil {
			// Anything accepted must insert cleanly into a fresh database.
			c := open(t, t.TempDir())
			txn := c.db.Txn(true)
			if err := insertPayload(txn, p, false); err != nil {
				t.Fatalf("accepted payload does not insert: %v", err)
			}
			txn.Abort()
		}
	})
}

func withDep(f func(*depRow)) *payload {
	p := validPayload()
	f(p.Deps[0])
	return p
}

func withResult(f func(*resultRow)) *payload {
	p := validPayload()
	f(p.Results[0])
	return p
}

// craftRaw wraps an arbitrary payload in a correct header and checksum.
func craftRaw(body []byte) []byte {
	p := &payload{Format: FormatVersion, Solver: testSolver.String()}
	var b bytes.Buffer
	b.WriteString(Magic + " " + itoa(FormatVersion) + " ")
	b.WriteString(itoa(len(body)))
	b.WriteString(" " + p.Solver + "\n")
	b.Write(body)
	b.WriteString("\n" + checksumPrefix + sha256hex(body) + "\n")
	return b.Bytes()
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func itoa(n int) string { return strconv.Itoa(n) }

func sha256hex(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
