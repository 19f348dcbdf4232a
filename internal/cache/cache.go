package cache

import (
	"errors"
	"fmt"
	"ladder/internal/safeio"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	memdb "github.com/hashicorp/go-memdb"
)

// Snapshot and lock file names inside the cache directory.
const (
	// SnapshotFile is the name of the snapshot file inside the cache
	// directory (ladder uses .ladder/cache.db).
	SnapshotFile = "cache.db"
	// LockFile is the name of the advisory lock file that serialises Save
	// across processes (ladder uses .ladder/cache.lock).
	LockFile = "cache.lock"
)

// Table and index names of the go-memdb schema.
const (
	tableResults  = "results"
	tableDeps     = "deps"
	tableEdges    = "edges"
	tableTheorems = "theorems"
	tableItems    = "items"

	indexID          = "id"
	indexObligations = "obligations"
	indexEdges       = "edges"
)

// ErrClosed is returned by operations on a Cache after Close.
var ErrClosed = errors.New("cache: closed")

// Verdict is the solver's answer for one obligation.
type Verdict string

// The verdicts a Result may carry.
const (
	// Proved means the solver showed the obligation valid (its negation
	// unsatisfiable).
	Proved Verdict = "proved"
	// Refuted means the solver found a counterexample.
	Refuted Verdict = "refuted"
	// Unknown means the solver gave up within its limits. Because the limits
	// are part of the key, an Unknown is re-attempted only under a different
	// solver configuration.
	Unknown Verdict = "unknown"
	// Trivial means the kernel found an assertion of the problem to be the
	// constant false, without the solver (kernel.Trivial).
	Trivial Verdict = "trivial"
)

// Valid reports whether v is one of Proved, Refuted, Unknown, Trivial.
func (v Verdict) Valid() bool {
	return v == Proved || v == Refuted || v == Unknown || v == Trivial
}

// Result is what the cache remembers about one checked obligation.
type Result struct {
	// Verdict is the solver's answer.
	Verdict Verdict
	// Seconds is the wall-clock solving time; finite and non-negative.
	Seconds float64
	// RLimitUsed is the solver resource count consumed (Z3 "rlimit-count").
	RLimitUsed uint64
	// Date is when the result was produced. Put fills in the current time
	// when it is zero. Save's merge keeps the newer of two results for a key.
	Date time.Time
	// Name is the obligation's display name, e.g.
	// "TMS2 › invariant beginIdxBound › DoRead". Informational only.
	Name string
	// Detail is opaque caller data (JSON by convention): a counterexample
	// or the solver's reason for Unknown. The cache copies it on the way in
	// and out.
	Detail []byte
	// Solver is the canonical SolverID string the result was produced
	// with. Put fills in the cache's solver when it is empty.
	Solver string
}

// Stats summarises the cache contents and the lookups served since Open.
type Stats struct {
	// Results is the number of stored results, and Proved, Refuted,
	// Unknown and Trivial break it down by verdict.
	Results, Proved, Refuted, Unknown, Trivial int
	// Deps, Edges and Theorems count the rows of those tables; Items
	// counts the recorded item fingerprints.
	Deps, Edges, Theorems, Items int
	// Hits and Misses count Lookup outcomes; Puts counts successful Puts.
	Hits, Misses, Puts uint64
}

// Row types stored in go-memdb. A row is never mutated after insertion:
// go-memdb hands the same pointer to every reader, so updates insert a
// fresh row. The JSON tags define the snapshot payload.
type resultRow struct {
	Key        string    `json:"key"`
	Verdict    Verdict   `json:"verdict"`
	Seconds    float64   `json:"seconds"`
	RLimitUsed uint64    `json:"rlimit_used"`
	Date       time.Time `json:"date"`
	Name       string    `json:"name"`
	Detail     []byte    `json:"detail,omitempty"`
	Solver     string    `json:"solver"`
}

type depRow struct {
	Name  string   `json:"name"`
	Key   string   `json:"key"`
	Items []string `json:"items"`
	// Unit and Query, when set, are the generation record of the
	// obligation (Generation): the fingerprint of the inputs it was
	// generated from, and the kernel fingerprint of its text then.
	Unit  string    `json:"unit,omitempty"`
	Query string    `json:"query,omitempty"`
	Date  time.Time `json:"date"`
}

type edgeRow struct {
	Name        string    `json:"name"`
	Obligations []string  `json:"obligations"`
	Date        time.Time `json:"date"`
}

type theoremRow struct {
	Name  string    `json:"name"`
	Edges []string  `json:"edges"`
	Date  time.Time `json:"date"`
}

// itemsRow is the fingerprints of the source items (dependency items such
// as "automaton:A/action:X") of one owner, the automaton or proof they
// belong to ("automaton:A"), as the last complete run saw them: Items
// sorted, Fingerprints[i] that of Items[i]. One row per owner keeps the
// table as small as the number of automata and proofs (a snapshot is
// read whole by every run that opens the cache), and Save's merge keeps
// the newer of two records of an owner whole, so an item a run no longer
// has is simply absent.
type itemsRow struct {
	Owner        string    `json:"owner"`
	Items        []string  `json:"items"`
	Fingerprints []string  `json:"fingerprints"`
	Date         time.Time `json:"date"`
}

// schema returns the go-memdb schema. It is built afresh on each call so no
// schema value is shared between Cache instances.
func schema() *memdb.DBSchema {
	id := func(field string) *memdb.IndexSchema {
		return &memdb.IndexSchema{Name: indexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: field}}
	}
	multi := func(name, field string) *memdb.IndexSchema {
		return &memdb.IndexSchema{Name: name, AllowMissing: true, Indexer: &memdb.StringSliceFieldIndex{Field: field}}
	}
	return &memdb.DBSchema{Tables: map[string]*memdb.TableSchema{
		tableResults: {Name: tableResults, Indexes: map[string]*memdb.IndexSchema{
			indexID: id("Key"),
		}},
		// The deps table has no index on its items: it holds some twenty
		// items per obligation, and indexing them cost more when a
		// snapshot is opened than every lookup by item saves (dependingOn
		// scans the table instead).
		tableDeps: {Name: tableDeps, Indexes: map[string]*memdb.IndexSchema{
			indexID: id("Name"),
		}},
		tableEdges: {Name: tableEdges, Indexes: map[string]*memdb.IndexSchema{
			indexID:          id("Name"),
			indexObligations: multi(indexObligations, "Obligations"),
		}},
		tableTheorems: {Name: tableTheorems, Indexes: map[string]*memdb.IndexSchema{
			indexID:    id("Name"),
			indexEdges: multi(indexEdges, "Edges"),
		}},
		tableItems: {Name: tableItems, Indexes: map[string]*memdb.IndexSchema{
			indexID: id("Owner"),
		}},
	}}
}

// Cache is the proof-result cache. All methods are safe for concurrent use by
// many goroutines: the tables live in go-memdb (lock-free MVCC reads,
// serialised writes) and the Cache's own fields are atomics or guarded by
// saveMu.
type Cache struct {
	dir       string
	solver    SolverID
	solverStr string
	db        *memdb.MemDB

	// saveMu serialises Save within the process; the flock serialises it
	// across processes.
	saveMu sync.Mutex
	closed atomic.Bool
	dirty  atomic.Bool // rows changed since the last Open or Save
	// known is the snapshot file as stat'ed before Open read it or after
	// Save wrote it (guarded by saveMu): while the file on disk is still
	// that one, its rows are all in memory and Save need not merge it.
	known os.FileInfo

	// base is the payload checksum of the snapshot this cache read or
	// wrote last, which the frames it appends to the log extend; "" when
	// there is none. knownLog is the log as stat'ed when this cache read
	// or wrote it last (nil: there was none), and appendable says whether
	// frames may be appended to it (it held only valid frames of base).
	// All three are guarded by saveMu.
	base       string
	knownLog   os.FileInfo
	appendable bool
	// pending are the rows changed since Save last wrote them (log.go),
	// guarded by pendMu.
	pendMu  sync.Mutex
	pending pending

	hits, misses, puts atomic.Uint64
	// merges counts the snapshots of other writers Save merged in
	// (Merges).
	merges atomic.Uint64
}

// Merges returns how many times Save has merged into memory the rows of a
// snapshot another writer left on disk. What a caller remembers of the
// rows it wrote holds only while this count stays the same.
func (c *Cache) Merges() uint64 { return c.merges.Load() }

// Open returns a cache for solver backed by the snapshot dir/cache.db.
//
// A missing directory or snapshot yields an empty cache and no warning. A
// snapshot that cannot be read, is corrupt in any way (bad magic, bad length,
// checksum mismatch, undecodable or invalid payload) or was written under a
// different format version or solver configuration yields exactly one
// Warning and an empty cache; its content is never used. The error is
// reserved for unusable arguments.
func Open(dir string, solver SolverID) (*Cache, []Warning, error) {
	if dir == "" {
		return nil, nil, errors.New("cache: empty directory")
	}
	if solver.Name == "" {
		return nil, nil, errors.New("cache: solver has no name")
	}
	db, err := memdb.NewMemDB(schema())
	if err != nil {
		return nil, nil, fmt.Errorf("cache: schema: %w", err)
	}
	c := &Cache{dir: dir, solver: solver, solverStr: solver.String(), db: db}

	// Stat'ed before they are read: a file replaced or appended to in
	// between is merged again by Save, never taken as read.
	known, _ := os.Stat(c.snapshotPath())
	knownLog, _ := os.Stat(c.logPath())
	p, base, w := c.readSnapshot()
	if w != nil {
		c.dirty.Store(true) // the next Save replaces the bad snapshot
		return c, []Warning{*w}, nil
	}
	if p == nil {
		return c, nil, nil // a log without its snapshot is never read
	}
	frames, appendable, lw := c.readLog(base)
	txn := c.db.Txn(true)
	if err := insertPayload(txn, p, false); err != nil || apply(txn, frames) != nil {
		txn.Abort()
		// Unreachable for validated rows; still never trust them.
		c.dirty.Store(true)
		return c, []Warning{{Path: c.snapshotPath(), Kind: Corrupt, Reason: "rows do not insert"}}, nil
	}
	txn.Commit()
	c.known, c.knownLog, c.base, c.appendable = known, knownLog, base, appendable
	if lw != nil {
		c.dirty.Store(true) // the next Save writes the snapshot and removes the log
		return c, []Warning{*lw}, nil
	}
	return c, nil, nil
}

// Dir returns the directory the cache persists to.
func (c *Cache) Dir() string { return c.dir }

// Solver returns the solver configuration the cache was opened for.
func (c *Cache) Solver() SolverID { return c.solver }

// MaxSnapshotSize is the largest snapshot read: a larger file, or one that
// is not a regular file (a named pipe, a device), is unreadable, and the
// next Save replaces it.
const MaxSnapshotSize = 1 << 30

func (c *Cache) snapshotPath() string { return filepath.Join(c.dir, SnapshotFile) }

// readSnapshot reads and validates the snapshot on disk, and returns it
// with its payload checksum. It returns (nil, "", nil) when there is none.
func (c *Cache) readSnapshot() (*payload, string, *Warning) {
	path := c.snapshotPath()
	data, err := safeio.ReadFile(path, MaxSnapshotSize)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, "", nil
		}
		return nil, "", &Warning{Path: path, Kind: Unreadable, Reason: err.Error()}
	}
	p, prob := decodeSnapshot(data, c.solverStr)
	if prob != nil {
		return nil, "", &Warning{Path: path, Kind: prob.kind, Reason: prob.reason}
	}
	return p, snapshotSum(data), nil
}

// Lookup returns the stored result for key. A hit requires the stored row's
// key to equal key byte for byte; callers must pass the key freshly computed
// with KeyOf from the obligation text they are about to check.
func (c *Cache) Lookup(key string) (Result, bool) {
	if c.closed.Load() {
		c.misses.Add(1)
		return Result{}, false
	}
	raw, err := c.db.Txn(false).First(tableResults, indexID, key)
	if err != nil || raw == nil {
		c.misses.Add(1)
		return Result{}, false
	}
	row := raw.(*resultRow)
	if row.Key != key {
		c.misses.Add(1)
		return Result{}, false
	}
	c.hits.Add(1)
	return Result{
		Verdict:    row.Verdict,
		Seconds:    row.Seconds,
		RLimitUsed: row.RLimitUsed,
		Date:       row.Date,
		Name:       row.Name,
		Detail:     cloneBytes(row.Detail),
		Solver:     row.Solver,
	}, true
}

// Put stores r under key, replacing any previous result for key. key must
// have the form KeyOf returns, r.Verdict must be valid and r.Seconds finite
// and non-negative. A zero r.Date becomes the current time and an empty
// r.Solver becomes the cache's solver string.
func (c *Cache) Put(key string, r Result) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if !validKey(key) {
		return fmt.Errorf("cache: malformed key %q", key)
	}
	if !r.Verdict.Valid() {
		return fmt.Errorf("cache: invalid verdict %q", r.Verdict)
	}
	if !validSeconds(r.Seconds) {
		return fmt.Errorf("cache: invalid seconds %v", r.Seconds)
	}
	if r.Date.IsZero() {
		r.Date = time.Now()
	}
	if y := r.Date.Year(); y < 1 || y > 9999 {
		return fmt.Errorf("cache: date %v out of range", r.Date)
	}
	if r.Solver == "" {
		r.Solver = c.solverStr
	}
	row := &resultRow{
		Key:        key,
		Verdict:    r.Verdict,
		Seconds:    r.Seconds,
		RLimitUsed: r.RLimitUsed,
		Date:       r.Date.Round(0), // strip the monotonic reading
		Name:       r.Name,
		Detail:     cloneBytes(r.Detail),
		Solver:     r.Solver,
	}
	if err := c.insert(tableResults, row); err != nil {
		return err
	}
	c.puts.Add(1)
	return nil
}

// RecordDeps records that obligation name, whose current key is key, was
// generated from the given source items (e.g. "automaton:TMS2/action:DoRead",
// "proof:P/clause:R3"). It replaces any earlier record for name. Items are
// de-duplicated; empty strings and NUL bytes are rejected.
func (c *Cache) RecordDeps(name, key string, items []string) error {
	return c.RecordGeneration(name, Generation{Key: key, Items: items})
}

// Generation is what the cache records of how an obligation was generated:
// its key, its source items, and optionally the fingerprint Unit of the
// inputs it was generated from with the kernel fingerprint Query of its
// text then. A later run that generates the obligation from inputs with
// the same Unit fingerprint knows its text without printing it.
type Generation struct {
	Key   string
	Items []string
	Unit  string // "" when not recorded
	Query string // "" when not recorded
}

// RecordGeneration records g for obligation name, replacing any earlier
// record (RecordDeps without Unit and Query). Unit and Query, when set,
// must be lowercase hex SHA-256 digests, and are set together.
func (c *Cache) RecordGeneration(name string, g Generation) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if err := validName("obligation", name); err != nil {
		return err
	}
	if !validKey(g.Key) {
		return fmt.Errorf("cache: malformed key %q", g.Key)
	}
	if !validGeneration(g.Unit, g.Query) {
		return fmt.Errorf("cache: malformed generation record for %q", name)
	}
	set, err := normalise("item", g.Items)
	if err != nil {
		return err
	}
	return c.insert(tableDeps, &depRow{Name: name, Key: g.Key, Items: set, Unit: g.Unit, Query: g.Query, Date: time.Now().Round(0)})
}

// validGeneration reports whether unit and query are both empty or both
// digests.
func validGeneration(unit, query string) bool {
	if unit == "" || query == "" {
		return unit == "" && query == ""
	}
	return validKey(unit) && validKey(query)
}

// Generated returns the generation record of obligation name.
func (c *Cache) Generated(name string) (Generation, bool) {
	raw, err := c.db.Txn(false).First(tableDeps, indexID, name)
	if err != nil || raw == nil {
		return Generation{}, false
	}
	row := raw.(*depRow)
	return Generation{Key: row.Key, Items: append([]string(nil), row.Items...), Unit: row.Unit, Query: row.Query}, true
}

// RecordEdge records the obligations a refinement edge (an invariant or a
// simulation step) consists of, replacing any earlier record for edge.
func (c *Cache) RecordEdge(edge string, obligations []string) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if err := validName("edge", edge); err != nil {
		return err
	}
	set, err := normalise("obligation", obligations)
	if err != nil {
		return err
	}
	return c.insert(tableEdges, &edgeRow{Name: edge, Obligations: set, Date: time.Now().Round(0)})
}

// RecordTheorem records the edges a derived theorem is composed from,
// replacing any earlier record for thm.
func (c *Cache) RecordTheorem(thm string, edges []string) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if err := validName("theorem", thm); err != nil {
		return err
	}
	set, err := normalise("edge", edges)
	if err != nil {
		return err
	}
	return c.insert(tableTheorems, &theoremRow{Name: thm, Edges: set, Date: time.Now().Round(0)})
}

func (c *Cache) insert(table string, row any) error {
	if c.unchanged(table, row) {
		return nil
	}
	txn := c.write()
	if err := txn.Insert(table, row); err != nil {
		txn.Abort()
		return fmt.Errorf("cache: insert into %s: %w", table, err)
	}
	c.commit(txn)
	return nil
}

// unchanged reports whether a dependency, edge or theorem row equal to row
// but for its date is stored already. Re-recording it would only move the
// date, so the caller skips it and a run that changes nothing leaves the
// snapshot alone.
func (c *Cache) unchanged(table string, row any) bool {
	var name string
	switch r := row.(type) {
	case *depRow:
		name = r.Name
	case *edgeRow:
		name = r.Name
	case *theoremRow:
		name = r.Name
	default:
		return false
	}
	raw, err := c.db.Txn(false).First(table, indexID, name)
	if err != nil || raw == nil {
		return false
	}
	switch r := row.(type) {
	case *depRow:
		old := raw.(*depRow)
		return old.Key == r.Key && slices.Equal(old.Items, r.Items) && old.Unit == r.Unit && old.Query == r.Query
	case *edgeRow:
		return slices.Equal(raw.(*edgeRow).Obligations, r.Obligations)
	case *theoremRow:
		return slices.Equal(raw.(*theoremRow).Edges, r.Edges)
	}
	return false
}

// Deps returns the recorded key and source items of obligation name.
func (c *Cache) Deps(name string) (key string, items []string, ok bool) {
	raw, err := c.db.Txn(false).First(tableDeps, indexID, name)
	if err != nil || raw == nil {
		return "", nil, false
	}
	row := raw.(*depRow)
	return row.Key, append([]string(nil), row.Items...), true
}

// ObligationsDependingOn returns, sorted, the names of the obligations whose
// recorded source items include item.
func (c *Cache) ObligationsDependingOn(item string) []string {
	return dependingOn(c.db.Txn(false), item)
}

// dependingOn scans the deps table for the obligations whose items include
// item, and returns their names sorted.
func dependingOn(txn *memdb.Txn, item string) []string {
	it, err := txn.Get(tableDeps, indexID)
	if err != nil {
		return nil
	}
	var out []string
	for o := it.Next(); o != nil; o = it.Next() {
		row := o.(*depRow)
		if _, found := slices.BinarySearch(row.Items, item); found {
			out = append(out, row.Name)
		}
	}
	return out // in the order of the id index: sorted
}

// EdgesContaining returns, sorted, the edges whose recorded obligations
// include obligation.
func (c *Cache) EdgesContaining(obligation string) []string {
	return c.query(tableEdges, indexObligations, obligation, func(o any) string { return o.(*edgeRow).Name })
}

// TheoremsUsing returns, sorted, the theorems whose recorded edges include
// edge.
func (c *Cache) TheoremsUsing(edge string) []string {
	return c.query(tableTheorems, indexEdges, edge, func(o any) string { return o.(*theoremRow).Name })
}

// Affected returns everything an edit to source item invalidates: the
// obligations generated from it, the edges containing those obligations and
// the theorems derived from those edges, each sorted. It reads one
// consistent go-memdb snapshot.
func (c *Cache) Affected(item string) (obligations, edges, theorems []string) {
	txn := c.db.Txn(false)
	obligations = dependingOn(txn, item)
	edgeSet := map[string]bool{}
	for _, ob := range obligations {
		for _, e := range queryTxn(txn, tableEdges, indexObligations, ob, func(o any) string { return o.(*edgeRow).Name }) {
			edgeSet[e] = true
		}
	}
	thmSet := map[string]bool{}
	for e := range edgeSet {
		edges = append(edges, e)
		for _, t := range queryTxn(txn, tableTheorems, indexEdges, e, func(o any) string { return o.(*theoremRow).Name }) {
			thmSet[t] = true
		}
	}
	for t := range thmSet {
		theorems = append(theorems, t)
	}
	sort.Strings(edges)
	sort.Strings(theorems)
	return obligations, edges, theorems
}

func (c *Cache) query(table, index, value string, name func(any) string) []string {
	return queryTxn(c.db.Txn(false), table, index, value, name)
}

func queryTxn(txn *memdb.Txn, table, index, value string, name func(any) string) []string {
	if value == "" || strings.IndexByte(value, 0) >= 0 {
		return nil // never stored, and NUL would confuse the index
	}
	it, err := txn.Get(table, index, value)
	if err != nil {
		return nil
	}
	var out []string
	for o := it.Next(); o != nil; o = it.Next() {
		out = append(out, name(o))
	}
	sort.Strings(out)
	return out
}

// Stats returns the current table sizes and lookup counters.
func (c *Cache) Stats() Stats {
	txn := c.db.Txn(false)
	s := Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Puts: c.puts.Load()}
	if it, err := txn.Get(tableResults, indexID); err == nil {
		for o := it.Next(); o != nil; o = it.Next() {
			s.Results++
			switch o.(*resultRow).Verdict {
			case Proved:
				s.Proved++
			case Refuted:
				s.Refuted++
			case Unknown:
				s.Unknown++
			case Trivial:
				s.Trivial++
			}
		}
	}
	s.Deps = count(txn, tableDeps)
	s.Edges = count(txn, tableEdges)
	s.Theorems = count(txn, tableTheorems)
	if it, err := txn.Get(tableItems, indexID); err == nil {
		for o := it.Next(); o != nil; o = it.Next() {
			s.Items += len(o.(*itemsRow).Items)
		}
	}
	return s
}

func count(txn *memdb.Txn, table string) int {
	it, err := txn.Get(table, indexID)
	if err != nil {
		return 0
	}
	n := 0
	for o := it.Next(); o != nil; o = it.Next() {
		n++
	}
	return n
}

// Close marks the cache closed. It does not save: call Save first to keep
// new results. After Close, Lookup misses and the mutating methods and Save
// return ErrClosed. Close is idempotent and always returns nil.
func (c *Cache) Close() error {
	c.closed.Store(true)
	return nil
}

func validSeconds(s float64) bool {
	return s >= 0 && !math.IsInf(s, 0) && !math.IsNaN(s)
}

func validName(what, s string) error {
	if s == "" {
		return fmt.Errorf("cache: empty %s name", what)
	}
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("cache: %s name %q contains NUL", what, s)
	}
	return nil
}

// normalise validates names and returns them sorted and de-duplicated, in a
// fresh slice.
func normalise(what string, names []string) ([]string, error) {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if err := validName(what, n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	sort.Strings(out)
	j := 0
	for i, n := range out {
		if i == 0 || n != out[j-1] {
			out[j] = n
			j++
		}
	}
	return out[:j], nil
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}
