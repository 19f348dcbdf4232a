package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	memdb "github.com/hashicorp/go-memdb"
)

// Snapshot layout constants. See the package documentation.
const (
	// Magic is the first word of every snapshot file.
	Magic = "ladder-cache"
	// FormatVersion is the snapshot format this package reads and writes.
	// Version 2 added the items table. Version 3 added the generation
	// records of the deps table (unit and query), names the deps' items
	// by their index in one list of item names, and leaves out a result's
	// solver when it is the snapshot's. Version 4 holds the items of an
	// owner in one row. A snapshot of another version is discarded like
	// one of another solver configuration.
	FormatVersion = 4

	checksumPrefix = "sha256:"
	// trailerLen is len("\n" + "sha256:" + 64 hex digits + "\n").
	trailerLen = 1 + len(checksumPrefix) + 2*sha256.Size + 1
	// maxHeaderLen bounds the header line so a garbage file is rejected
	// without scanning it whole.
	maxHeaderLen = 64 << 10
)

// WarningKind classifies why a snapshot was discarded.
type WarningKind int

// The kinds of Warning.
const (
	// Corrupt: the snapshot is damaged (bad magic, truncated, checksum
	// mismatch, undecodable or invalid payload).
	Corrupt WarningKind = iota
	// Mismatch: the snapshot is intact but was written under another format
	// version or solver configuration, so none of its keys can match.
	Mismatch
	// Unreadable: the snapshot exists but could not be read.
	Unreadable
)

// Warning reports a snapshot that Open discarded. The cache starts empty and
// the next Save replaces the snapshot.
type Warning struct {
	// Path is the snapshot file, e.g. ".ladder/cache.db".
	Path string
	// Kind says whether the file was corrupt, foreign or unreadable.
	Kind WarningKind
	// Reason is a short one-line explanation, e.g. "checksum mismatch".
	Reason string
}

// String renders the warning as one line, e.g.
// "cache: snapshot .ladder/cache.db is corrupt (checksum mismatch); rebuilding".
func (w Warning) String() string {
	if filepath.Base(w.Path) == LogFile {
		if w.Kind == Unreadable {
			return fmt.Sprintf("cache: log %s is unreadable (%s); the next save writes the snapshot whole", w.Path, w.Reason)
		}
		// the log's frames before the first bad one were kept
		return fmt.Sprintf("cache: log %s stops at a damaged frame (%s); the next save writes the snapshot whole", w.Path, w.Reason)
	}
	switch w.Kind {
	case Mismatch:
		return fmt.Sprintf("cache: snapshot %s was written under another configuration (%s); rebuilding", w.Path, w.Reason)
	case Unreadable:
		return fmt.Sprintf("cache: snapshot %s is unreadable (%s); rebuilding", w.Path, w.Reason)
	default:
		return fmt.Sprintf("cache: snapshot %s is corrupt (%s); rebuilding", w.Path, w.Reason)
	}
}

// payload is the JSON body of a snapshot. Format and Solver repeat the
// header so that a header damaged into another valid header cannot pass
// (the checksum covers the payload only).
type payload struct {
	Format   int           `json:"format"`
	Solver   string        `json:"solver"`
	Results  []*resultRow  `json:"results"`
	Deps     []*depRow     `json:"deps"`
	Edges    []*edgeRow    `json:"edges"`
	Theorems []*theoremRow `json:"theorems"`
	Items    []*itemsRow   `json:"items"`
}

// wirePayload is payload as a snapshot spells it: the items of the deps
// rows are indices into ItemNames (some twenty items per obligation, from a
// few hundred names: spelled once each, the snapshot is a third of the
// size), and a result's solver is left out when it is the snapshot's.
type wirePayload struct {
	Format    int           `json:"format"`
	Solver    string        `json:"solver"`
	Results   []*resultRow  `json:"results"`
	ItemNames []string      `json:"item_names"`
	Deps      []*wireDep    `json:"deps"`
	Edges     []*edgeRow    `json:"edges"`
	Theorems  []*theoremRow `json:"theorems"`
	Items     []*itemsRow   `json:"items"`
}

type wireDep struct {
	Name  string    `json:"name"`
	Key   string    `json:"key"`
	Items []int     `json:"items"`
	Unit  string    `json:"unit,omitempty"`
	Query string    `json:"query,omitempty"`
	Date  time.Time `json:"date"`
}

// wire returns p as a snapshot spells it. The rows of p are not changed.
func (p *payload) wire() *wirePayload {
	w := &wirePayload{Format: p.Format, Solver: p.Solver, Results: make([]*resultRow, len(p.Results)),
		ItemNames: []string{}, Deps: make([]*wireDep, len(p.Deps)), Edges: p.Edges, Theorems: p.Theorems, Items: p.Items}
	for i, r := range p.Results {
		if r != nil && r.Solver == p.Solver {
			c := *r
			c.Solver = ""
			r = &c
		}
		w.Results[i] = r
	}
	index := map[string]int{}
	for i, d := range p.Deps {
		if d == nil {
			continue // written as null, and rejected when read
		}
		wd := &wireDep{Name: d.Name, Key: d.Key, Items: make([]int, len(d.Items)), Unit: d.Unit, Query: d.Query, Date: d.Date}
		for j, it := range d.Items {
			k, ok := index[it]
			if !ok {
				k = len(w.ItemNames)
				index[it] = k
				w.ItemNames = append(w.ItemNames, it)
			}
			wd.Items[j] = k
		}
		w.Deps[i] = wd
	}
	return w
}

// unwire returns the payload a snapshot spells, or a problem for an item
// index out of range.
func (w *wirePayload) unwire() (*payload, *problem) {
	p := &payload{Format: w.Format, Solver: w.Solver, Results: w.Results, Deps: make([]*depRow, len(w.Deps)),
		Edges: w.Edges, Theorems: w.Theorems, Items: w.Items}
	for _, r := range p.Results {
		if r != nil && r.Solver == "" {
			r.Solver = w.Solver
		}
	}
	for i, wd := range w.Deps {
		if wd == nil {
			return nil, corrupt("dependency record %d invalid", i)
		}
		d := &depRow{Name: wd.Name, Key: wd.Key, Items: make([]string, len(wd.Items)), Unit: wd.Unit, Query: wd.Query, Date: wd.Date}
		for j, k := range wd.Items {
			if k < 0 || k >= len(w.ItemNames) {
				return nil, corrupt("dependency record %d invalid", i)
			}
			d.Items[j] = w.ItemNames[k]
		}
		p.Deps[i] = d
	}
	return p, nil
}

type problem struct {
	kind   WarningKind
	reason string
}

func corrupt(format string, args ...any) *problem {
	return &problem{kind: Corrupt, reason: fmt.Sprintf(format, args...)}
}

// add appends row to the rows of its table.
func (p *payload) add(row any) {
	switch r := row.(type) {
	case *resultRow:
		p.Results = append(p.Results, r)
	case *depRow:
		p.Deps = append(p.Deps, r)
	case *edgeRow:
		p.Edges = append(p.Edges, r)
	case *theoremRow:
		p.Theorems = append(p.Theorems, r)
	case *itemsRow:
		p.Items = append(p.Items, r)
	}
}

// collect copies every row of one consistent go-memdb read transaction into
// a payload, each table in id order, so equal contents encode identically.
func collect(txn *memdb.Txn, solver string) (*payload, error) {
	p := &payload{Format: FormatVersion, Solver: solver,
		Results: []*resultRow{}, Deps: []*depRow{}, Edges: []*edgeRow{}, Theorems: []*theoremRow{}, Items: []*itemsRow{}}
	for _, table := range tables {
		it, err := txn.Get(table, indexID)
		if err != nil {
			return nil, err
		}
		for o := it.Next(); o != nil; o = it.Next() {
			p.add(o)
		}
	}
	return p, nil
}

// encodeSnapshot renders p as a complete snapshot file:
//
//	ladder-cache 1 <payload length> <solver string>\n
//	<payload: compact JSON>\n
//	sha256:<hex SHA-256 of payload>\n
func encodeSnapshot(p *payload) ([]byte, error) {
	body, err := json.Marshal(p.wire())
	if err != nil {
		return nil, fmt.Errorf("cache: encode snapshot: %w", err)
	}
	return seal(fmt.Sprintf("%s %d %d %s", Magic, FormatVersion, len(body), p.Solver), body), nil
}

// seal returns the header line, the body and the body's checksum line:
// a snapshot, or a frame of the log.
func seal(header string, body []byte) []byte {
	sum := sha256.Sum256(body)
	b := make([]byte, 0, len(header)+1+len(body)+trailerLen)
	b = append(append(append(b, header...), '\n'), body...)
	b = append(b, "\n"+checksumPrefix...)
	return append(hex.AppendEncode(b, sum[:]), '\n')
}

// decodeStrict decodes the one JSON value of body into v, refusing
// unknown fields and anything after the value.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after JSON value")
	}
	return nil
}

// decodeSnapshot parses and fully validates a snapshot file. Nothing in data
// is trusted: every structural property is checked before any row is
// returned, and any failure discards the whole file.
func decodeSnapshot(data []byte, solver string) (*payload, *problem) {
	if len(data) == 0 {
		return nil, corrupt("empty file")
	}
	if !bytes.HasPrefix(data, []byte(Magic+" ")) {
		return nil, corrupt("bad magic")
	}
	nl := bytes.IndexByte(data[:min(len(data), maxHeaderLen)], '\n')
	if nl < 0 {
		return nil, corrupt("unterminated header")
	}
	header := string(data[:nl])
	rest := data[nl+1:]

	// header: Magic SP version SP length SP solver
	fields := splitN(header, ' ', 4)
	if len(fields) != 4 {
		return nil, corrupt("malformed header")
	}
	version, err := strconv.Atoi(fields[1])
	if err != nil || fields[1] != strconv.Itoa(version) {
		return nil, corrupt("malformed format version")
	}
	if version != FormatVersion {
		return nil, &problem{kind: Mismatch, reason: fmt.Sprintf("format version %d, expected %d", version, FormatVersion)}
	}
	length, err := strconv.Atoi(fields[2])
	if err != nil || length < 0 || fields[2] != strconv.Itoa(length) {
		return nil, corrupt("malformed payload length")
	}
	switch {
	case len(rest) < length+trailerLen:
		return nil, corrupt("truncated")
	case len(rest) > length+trailerLen:
		return nil, corrupt("trailing data")
	}
	body := rest[:length]
	trailer := rest[length:]
	if trailer[0] != '\n' || !bytes.HasPrefix(trailer[1:], []byte(checksumPrefix)) || trailer[len(trailer)-1] != '\n' {
		return nil, corrupt("malformed checksum line")
	}
	want, err := hex.DecodeString(string(trailer[1+len(checksumPrefix) : len(trailer)-1]))
	if err != nil {
		return nil, corrupt("malformed checksum")
	}
	got := sha256.Sum256(body)
	if !bytes.Equal(got[:], want) {
		return nil, corrupt("checksum mismatch")
	}
	if fields[3] != solver {
		return nil, &problem{kind: Mismatch, reason: solverDiff(fields[3], solver)}
	}

	var w wirePayload
	if err := decodeStrict(body, &w); err != nil {
		return nil, corrupt("undecodable payload: %v", err)
	}
	if w.Format != version || w.Solver != fields[3] {
		return nil, corrupt("payload disagrees with header")
	}
	p, prob := w.unwire()
	if prob != nil {
		return nil, prob
	}
	if prob := validatePayload(p); prob != nil {
		return nil, prob
	}
	return p, nil
}

// splitN splits s at the first n-1 occurrences of sep.
func splitN(s string, sep byte, n int) []string {
	var out []string
	for len(out) < n-1 {
		i := bytes.IndexByte([]byte(s), sep)
		if i < 0 {
			break
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
	return append(out, s)
}

// validatePayload checks every row against the invariants Put and the
// Record methods enforce, normalising name lists in place.
func validatePayload(p *payload) *problem {
	seen := map[string]bool{}
	for i, r := range p.Results {
		switch {
		case r == nil:
			return corrupt("result %d: null", i)
		case !validKey(r.Key):
			return corrupt("result %d: malformed key", i)
		case seen[r.Key]:
			return corrupt("result %d: duplicate key", i)
		case !r.Verdict.Valid():
			return corrupt("result %d: invalid verdict", i)
		case !validSeconds(r.Seconds):
			return corrupt("result %d: invalid seconds", i)
		case r.Solver == "":
			return corrupt("result %d: no solver", i)
		}
		seen[r.Key] = true
	}
	clear(seen)
	for i, d := range p.Deps {
		if d == nil || validName("obligation", d.Name) != nil || seen[d.Name] || !validKey(d.Key) || !validGeneration(d.Unit, d.Query) {
			return corrupt("dependency record %d invalid", i)
		}
		seen[d.Name] = true
		items, err := normalise("item", d.Items)
		if err != nil {
			return corrupt("dependency record %d invalid", i)
		}
		d.Items = items
	}
	clear(seen)
	for i, e := range p.Edges {
		if e == nil || validName("edge", e.Name) != nil || seen[e.Name] {
			return corrupt("edge record %d invalid", i)
		}
		seen[e.Name] = true
		obs, err := normalise("obligation", e.Obligations)
		if err != nil {
			return corrupt("edge record %d invalid", i)
		}
		e.Obligations = obs
	}
	clear(seen)
	for i, t := range p.Theorems {
		if t == nil || validName("theorem", t.Name) != nil || seen[t.Name] {
			return corrupt("theorem record %d invalid", i)
		}
		seen[t.Name] = true
		edges, err := normalise("edge", t.Edges)
		if err != nil {
			return corrupt("theorem record %d invalid", i)
		}
		t.Edges = edges
	}
	clear(seen)
	for i, it := range p.Items {
		if it == nil || validItems(it) != nil || seen[it.Owner] {
			return corrupt("item record %d invalid", i)
		}
		seen[it.Owner] = true
	}
	return nil
}

// insertPayload inserts the rows of a validated payload. With merge set, a
// row replaces an existing one with the same id only if it is strictly newer
// (ties keep the row already in memory).
func insertPayload(txn *memdb.Txn, p *payload, merge bool) error {
	put := func(table, id string, date func(any) time.Time, row any, rowDate time.Time) error {
		if merge {
			cur, err := txn.First(table, indexID, id)
			if err != nil {
				return err
			}
			if cur != nil && !rowDate.After(date(cur)) {
				return nil
			}
		}
		return txn.Insert(table, row)
	}
	for _, r := range p.Results {
		if err := put(tableResults, r.Key, func(o any) time.Time { return o.(*resultRow).Date }, r, r.Date); err != nil {
			return err
		}
	}
	for _, d := range p.Deps {
		if err := put(tableDeps, d.Name, func(o any) time.Time { return o.(*depRow).Date }, d, d.Date); err != nil {
			return err
		}
	}
	for _, e := range p.Edges {
		if err := put(tableEdges, e.Name, func(o any) time.Time { return o.(*edgeRow).Date }, e, e.Date); err != nil {
			return err
		}
	}
	for _, t := range p.Theorems {
		if err := put(tableTheorems, t.Name, func(o any) time.Time { return o.(*theoremRow).Date }, t, t.Date); err != nil {
			return err
		}
	}
	for _, it := range p.Items {
		if err := put(tableItems, it.Owner, func(o any) time.Time { return o.(*itemsRow).Date }, it, it.Date); err != nil {
			return err
		}
	}
	return nil
}

// solverDiff explains how the solver string in a snapshot header differs
// from this run's, naming the fields that differ when both parse.
func solverDiff(theirs, ours string) string {
	t, ok1 := parseSolverID(theirs)
	o, ok2 := parseSolverID(ours)
	if !ok1 || !ok2 {
		return "solver " + theirs + ", this run " + ours
	}
	var diffs []string
	for _, f := range []struct{ name, t, o string }{
		{"solver", t.Name, o.Name}, {"version", t.Version, o.Version}, {"params", t.Params, o.Params},
	} {
		if f.t != f.o {
			diffs = append(diffs, fmt.Sprintf("%s %s, this run %s", f.name, show(f.t), show(f.o)))
		}
	}
	return strings.Join(diffs, "; ")
}

// parseSolverID inverts SolverID.String.
func parseSolverID(s string) (SolverID, bool) {
	var id SolverID
	rest := s
	for _, f := range []struct {
		prefix string
		dst    *string
	}{{"name=", &id.Name}, {" version=", &id.Version}, {" params=", &id.Params}} {
		if !strings.HasPrefix(rest, f.prefix) {
			return SolverID{}, false
		}
		rest = rest[len(f.prefix):]
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return SolverID{}, false
		}
		if *f.dst, err = strconv.Unquote(q); err != nil {
			return SolverID{}, false
		}
		rest = rest[len(q):]
	}
	if rest != "" || id.String() != s {
		return SolverID{}, false
	}
	return id, true
}

// show returns v as is when it is a non-empty single line of printable
// characters, and quoted otherwise, so warnings stay on one line.
func show(v string) string {
	if v == "" || strings.IndexFunc(v, func(r rune) bool { return !strconv.IsPrint(r) }) >= 0 {
		return strconv.Quote(v)
	}
	return v
}
