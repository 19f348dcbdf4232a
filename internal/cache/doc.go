// Package cache is ladder's proof-result cache: after an edit only the
// obligations whose content changed are sent to the solver again, and every
// other verdict is reused without any loss of soundness.
//
// # Key
//
// An obligation's key is computed by the caller with KeyOf: the lowercase hex
// SHA-256 of the canonical obligation text exactly as sent to Z3, followed by
// the solver's name, version and parameters (SolverID.Params: random seed,
// rlimit, timeout, encoding version; CanonicalParams renders a parameter map
// deterministically). Every component is length-prefixed and the hash is
// domain-separated ("ladder-obligation-key/v1"), so two different
// (text, solver) pairs never share a byte stream.
//
// Because the limits are inside the key, an Unknown verdict is reused only
// under identical limits, where re-running would most likely give Unknown
// again; it is retried automatically as soon as the limits change (for
// instance a larger rlimit or timeout), since that yields a different key.
//
// # Tables
//
// The cache lives in a go-memdb database with five tables:
//
//   - results: id = Key. Verdict ("proved", "refuted", "unknown"), Seconds,
//     RLimitUsed, Date, Name (display name such as
//     "TMS2 › invariant beginIdxBound › DoRead"), Detail (opaque caller
//     JSON: a counterexample or Z3's reason) and Solver.
//   - deps: id = obligation name. The obligation's current Key and the source
//     items it was generated from ("automaton:TMS2/action:DoRead",
//     "automaton:TMS2/definition:validIdx", "proof:P/clause:R3", ...), with
//     ObligationsDependingOn(item) scans the table (an index on some
//     twenty items per obligation cost more to build when a snapshot is
//     opened than it saved).
//   - edges: id = edge name; the obligations the edge consists of, indexed
//     the same way (EdgesContaining).
//   - theorems: id = theorem name; the edges it is derived from, indexed
//     (TheoremsUsing). Affected(item) walks item → obligations → edges →
//     theorems to list everything an edit invalidates.
//   - items: id = owner ("automaton:TMS2"); its source items
//     ("automaton:TMS2/action:DoRead") and the fingerprint of each one's
//     content as the last complete run saw them (RecordItems,
//     ItemFingerprints), one row per owner, so that the table, which every
//     run that opens the cache reads, grows with the automata and proofs
//     and not with their items. The driver compares them with the current
//     fingerprints to say which items an edit changed.
//
// go-memdb gives lock-free consistent reads and serialised writes, so a
// Cache may be shared by any number of worker goroutines. Rows are never
// mutated after insertion, and byte and string slices are copied at the API
// boundary.
//
// # Snapshot format
//
// go-memdb is memory only; Save persists a snapshot to dir/cache.db (ladder
// uses .ladder/cache.db at the repository root). The file is
//
//	ladder-cache <format version> <payload length> <SolverID.String()>\n
//	<payload>\n
//	sha256:<lowercase hex SHA-256 of payload>\n
//
// The payload is a single compact JSON object
//
//	{"format":4,"solver":"...","results":[...],"item_names":[...],"deps":[...],"edges":[...],"theorems":[...],"items":[...]}
//
// with each table in key order, so equal contents give identical files.
// JSON rather than gob because the file is untrusted input: encoding/json
// decodes into fixed structs with DisallowUnknownFields and no type
// registry, the format does not depend on Go-internal type descriptions, and
// a developer can inspect a snapshot with ordinary tools. Its cost is
// modest (see the benchmarks). Format and solver are repeated inside the
// payload, because the checksum covers the payload only.
//
// # Log
//
// Save does not write the whole snapshot for a few changed rows: when the
// snapshot and its log on disk are those this cache read or wrote last,
// it appends the rows changed since to dir/cache.log, one frame per Save
// (header, JSON payload, checksum, like a snapshot), naming the snapshot
// the frame extends by its payload checksum, and fsyncs the log. Open
// applies the frames that extend the snapshot it read, in order, and stops
// at the first that fails validation (a write cut short), with a warning;
// the next Save then writes the snapshot whole. Once the log would pass
// half the snapshot's size, Save writes the snapshot whole and removes the
// log (log.go). So a Save costs what changed, not what the cache holds.
//
// Save is atomic and safe against concurrent writers: it takes an exclusive
// flock(2) on dir/cache.lock. Unless it appends to the log, it re-reads the
// snapshot and log on disk, merges them into memory (union; the newer Date
// wins for the same key or name), writes a temporary file in dir, fsyncs
// it, renames it over cache.db, fsyncs the directory, removes the log, and
// only then releases the lock. A crash leaves either the old or the new
// snapshot, with the frames of its log that were written whole, and two
// `ladder prove` runs never lose each other's rows.
//
// Open accepts a snapshot only if the magic, format version, payload length,
// checksum, header solver, JSON decoding and every row's invariants (key
// shape, verdict, finite seconds, unique ids, well-formed names) all check
// out. Otherwise it returns exactly one Warning, such as
//
//	cache: snapshot .ladder/cache.db is corrupt (checksum mismatch); rebuilding
//
// and an empty cache; the next Save replaces the file. A missing file is
// simply an empty cache. A snapshot from another solver version or other
// parameters is discarded the same way (its keys could never match anyway).
//
// # Why reuse is sound
//
// The cache is untrusted storage and is never consulted by name. A verdict is
// reused only when the key of the obligation the caller is about to check,
// freshly computed from the exact solver input and configuration, equals a
// stored key byte for byte. SHA-256 collision resistance then means the
// stored verdict was obtained by this solver configuration on this very
// input. Any edit to the obligation text, to a definition inlined into it,
// to the encoding or to the solver changes the key, so the stale row is
// simply never hit. The dependency, edge, theorem and item tables only tell
// the user what an edit affects and order the work; they never decide
// whether a result is reused.
//
// Accidental damage (torn writes, bit flips, truncation, files from other
// versions) is detected by the checksum and validation and costs only
// reuse. Deliberate forgery is out of scope: whoever can write
// .ladder/cache.db can claim any obligation proved, exactly as they could
// edit the source. A final certification run should therefore start from an
// empty cache directory.
package cache
