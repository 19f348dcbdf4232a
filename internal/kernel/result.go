// This file implements verdicts, results, and their encoding for the
// untrusted cache with re-admission against a fresh query.

package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// Verdict is the kernel's decision on an obligation. The zero value is
// Unknown.
type Verdict int

// The verdicts.
const (
	Unknown Verdict = iota // the solver gave up, or ladder failed (Result.Internal)
	Proved                 // the solver answered unsat
	Refuted                // the solver answered sat and the model replays
	// Trivial: an assertion of the problem is the literal false (for an
	// obligation, its negated goal simplified to false when it was built),
	// so the problem is unsat without asking the solver. It discharges the
	// obligation like Proved, and is reported apart from it.
	Trivial
)

// String returns "unknown", "proved", "refuted" or "trivial".
func (v Verdict) String() string {
	switch v {
	case Proved:
		return "proved"
	case Refuted:
		return "refuted"
	case Trivial:
		return "trivial"
	}
	return "unknown"
}

// Discharged reports whether v discharges an obligation: Proved or
// Trivial.
func (v Verdict) Discharged() bool { return v == Proved || v == Trivial }

// Counterexample is a replayed counterexample, rendered.
type Counterexample struct {
	// Text prints it in the language's notation, one fact per line.
	Text string `json:"text"`
	// Data is its structured JSON form, when the generator has one.
	Data json.RawMessage `json:"data,omitempty"`
}

// Result is the kernel's answer for one query. Only this package creates a
// Result whose Verdict is Proved.
type Result struct {
	verdict     Verdict
	fingerprint string // of the query it answers

	// Counterexample is set when Verdict is Refuted.
	Counterexample *Counterexample
	// Reason explains Unknown: Z3's reason_unknown and the limits, or
	// "[internal] …" when Internal is set; for Trivial, it names the
	// assertion that is the constant false.
	Reason string
	// Internal marks a failure of ladder (a model that does not replay, a
	// solver error, an ill-formed problem) rather than of the solver.
	Internal bool
	// Dump is the path of the query's .smt2 file, written for every
	// Unknown (and internal failure) into the kernel's UnknownDir.
	Dump string
	// SolverSeconds is the wall-clock time of the solver's check alone
	// (not building the problem in Z3, not replaying a model); 0 for an
	// admitted result.
	SolverSeconds float64
	// Z3Seconds is the wall-clock time of every Z3 call made for the
	// query: creating and deleting the context, parsing, asserting,
	// checking (SolverSeconds) and, on sat, building the model. The rest of
	// the kernel's time is ladder's own (printing, hashing, replay).
	Z3Seconds float64
	// RLimitUsed is the resource count the solver used.
	RLimitUsed uint64
	// Solver names the Z3 solver whose unsat answer proved the query
	// (SolverPlain or SolverDefault); "" for any other verdict. A dump of
	// the query selects the same solver (Query.ScriptFor).
	Solver string
	// Slice is n > 0 when the query was proved by its n-th slice alone
	// (Obligation.Slices, Query.Slice): the unsat answer is the slice's,
	// and the query's follows by weakening. A dump of the query is the
	// slice's.
	Slice int
	// sliceQuery and sliceResult are the slice and its own Proved result
	// when Check proved the query by it (SliceProof).
	sliceQuery  *Query
	sliceResult *Result
	// Timeout is set when the solver stopped at the wall-clock limit or
	// was interrupted: such an Unknown depends on the machine and is not
	// worth caching.
	Timeout bool
	// Used are the indices, in increasing order, of the query's
	// assertions in Z3's unsat core of the check that proved it, when that
	// check tracked them (the plain solver with the first limit; Format);
	// nil otherwise. It is a hint about which assertions the proof used,
	// not part of the verdict: it is not encoded, and a subset proves
	// nothing until it is checked on its own.
	Used []int
}

// Verdict returns the verdict.
func (r Result) Verdict() Verdict { return r.verdict }

// Cacheable reports whether the result may be stored: everything except
// internal failures (which are bugs to fix, not facts about the query),
// and Unknowns caused by the wall-clock timeout (which depend on the
// machine).
func (r Result) Cacheable() bool { return r.fingerprint != "" && !r.Internal && !r.Timeout }

// internalResult returns an Unknown for a failure of ladder.
func internalResult(fingerprint, format string, args ...any) Result {
	return Result{fingerprint: fingerprint, Internal: true, Reason: "[internal] " + fmt.Sprintf(format, args...)}
}

// Failed returns the Unknown, internal result for an obligation the kernel
// could not even prepare (see Kernel.Prepare).
func Failed(err error) Result {
	return internalResult("", "%v", err)
}

// The solvers a Result names (Result.Solver).
const (
	// SolverPlain is Z3's plain SMT solver (steps 1 and 4 of Check).
	SolverPlain = "plain"
	// SolverDefault is Z3's default solver (step 2 of Check).
	SolverDefault = "default"
)

// record is the encoded form of a Result.
type record struct {
	Kernel         int             `json:"kernel"`
	Query          string          `json:"query"`
	Verdict        string          `json:"verdict"`
	RLimitUsed     uint64          `json:"rlimit_used,omitempty"`
	Solver         string          `json:"solver,omitempty"`
	Slice          int             `json:"slice,omitempty"`
	Reason         string          `json:"reason,omitempty"`
	Counterexample *Counterexample `json:"counterexample,omitempty"`
}

// Encode returns r as a compact JSON record for the cache: the verdict, the
// fingerprint of the query it answers, and the counterexample or reason.
// Results that are not Cacheable cannot be encoded.
func (r Result) Encode() ([]byte, error) {
	if !r.Cacheable() {
		return nil, errors.New("kernel: result is not cacheable")
	}
	return json.Marshal(record{Kernel: Format, Query: r.fingerprint, Verdict: r.verdict.String(),
		RLimitUsed: r.RLimitUsed, Solver: r.Solver, Slice: r.Slice, Reason: r.Reason, Counterexample: r.Counterexample})
}

// Admit decodes a result that Encode produced and accepts it only when it
// answers exactly q: same kernel format, and a fingerprint equal to q's,
// which is freshly computed from q's canonical text and solver identity.
// An admitted Unknown is dumped again, so that it carries its .smt2 file.
func (k *Kernel) Admit(q *Query, data []byte) (Result, error) {
	rec, err := decodeRecord(data, q.fingerprint)
	if err != nil {
		return Result{}, err
	}
	r := Result{fingerprint: q.fingerprint, RLimitUsed: rec.RLimitUsed}
	switch rec.Verdict {
	case "proved":
		r.verdict, r.Solver, r.Slice = Proved, rec.Solver, rec.Slice
	case "refuted":
		if rec.Counterexample == nil {
			return Result{}, errors.New("kernel: refuted record without a counterexample")
		}
		r.verdict, r.Counterexample = Refuted, rec.Counterexample
	case "unknown":
		r.verdict, r.Reason = Unknown, rec.Reason
		r.Dump = k.dump(q)
	case "trivial":
		// Decided again from the fresh query: the record only says so.
		t, ok := k.Trivial(q)
		if !ok {
			return Result{}, errors.New("kernel: trivial record for a query with no false assertion")
		}
		return t, nil
	default:
		return Result{}, fmt.Errorf("kernel: invalid verdict %q", rec.Verdict)
	}
	return r, nil
}

// TakeSliceProof returns the slice that proved the query and the slice's
// own Proved result, which the caller may cache under the slice's text,
// when Session.Check proved the query by a slice in this run, and forgets
// them (a slice's query holds its problem); ok is false otherwise.
func (r *Result) TakeSliceProof() (q *Query, proof Result, ok bool) {
	sq, sr := r.sliceQuery, r.sliceResult
	r.sliceQuery, r.sliceResult = nil, nil
	if r.verdict != Proved || sq == nil || sr == nil {
		return nil, Result{}, false
	}
	return sq, *sr, true
}

// AdmitSlice decodes a result that Encode produced for q's n-th slice
// (Query.Slice) and, when it is the slice's Proved result, returns q's
// Proved result by weakening: the record must be of this kernel's format,
// answer exactly the slice's fingerprint, which is freshly computed from
// the slice's text (q's declarations and a subset of q's assertions), and
// say proved on the slice's whole text (no slice of its own). Any other
// record is an error: only a proof carries over from a subset.
func (k *Kernel) AdmitSlice(q *Query, n int, data []byte) (Result, error) {
	if q.identity != k.identity {
		return Result{}, errors.New("kernel: query prepared under another configuration")
	}
	sq, err := q.Slice(n)
	if err != nil {
		return Result{}, fmt.Errorf("kernel: slice %d: %v", n, err)
	}
	if sq == nil {
		return Result{}, fmt.Errorf("kernel: the query has no slice %d", n)
	}
	rec, err := decodeRecord(data, sq.fingerprint)
	if err != nil {
		return Result{}, err
	}
	if rec.Verdict != "proved" || rec.Slice != 0 {
		return Result{}, fmt.Errorf("kernel: a %s record of a slice proves nothing", rec.Verdict)
	}
	return Result{verdict: Proved, fingerprint: q.fingerprint, Solver: rec.Solver, Slice: n}, nil
}

// canonicalRecord returns the record that data encodes when data is
// exactly what Encode writes for a record without a reason or a
// counterexample (every proved record): the record is read with a scanner
// of that one shape, and taken only when encoding it again gives data byte
// for byte. encoding/json decodes its own encoding of these fields (ints
// and strings) to the same values, so the record is the one decodeRecord's
// decoder would return, without the decoder's cost, which a run that
// restores every unit record pays once per obligation. ok is false for
// anything else, which decodeRecord decodes in full.
func canonicalRecord(data []byte) (rec record, ok bool) {
	rest, ok := bytes.CutPrefix(data, []byte("{"))
	for ok && len(rest) > 0 && rest[0] != '}' {
		var name, value []byte
		var quoted bool
		if name, rest, ok = scanString(rest); !ok {
			break
		}
		if rest, ok = bytes.CutPrefix(rest, []byte(":")); !ok {
			break
		}
		if quoted = len(rest) > 0 && rest[0] == '"'; quoted {
			value, rest, ok = scanString(rest)
		} else {
			i := 0
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			value, rest, ok = rest[:i], rest[i:], i > 0
		}
		if !ok {
			break
		}
		var n uint64
		if !quoted {
			if n, ok = parseDigits(value); !ok {
				break
			}
		}
		switch string(name) {
		case "kernel":
			rec.Kernel, ok = int(n), !quoted && n <= math.MaxInt32
		case "query":
			rec.Query, ok = string(value), quoted
		case "verdict":
			rec.Verdict, ok = string(value), quoted
		case "rlimit_used":
			rec.RLimitUsed, ok = n, !quoted
		case "solver":
			rec.Solver, ok = string(value), quoted
		case "slice":
			rec.Slice, ok = int(n), !quoted && n <= math.MaxInt32
		default:
			ok = false
		}
		if ok && len(rest) > 0 && rest[0] == ',' {
			rest = rest[1:]
		}
	}
	if !ok || string(rest) != "}" {
		return record{}, false
	}
	again, err := json.Marshal(rec)
	if err != nil || !bytes.Equal(again, data) {
		return record{}, false
	}
	return rec, true
}

// scanString returns the content of the JSON string at the start of b,
// which has no escape, and what follows it; ok is false otherwise.
func scanString(b []byte) (s, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return nil, nil, false
	}
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '"':
			return b[1:i], b[i+1:], true
		case '\\':
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// parseDigits returns the value of a run of decimal digits that fits in
// 64 bits.
func parseDigits(b []byte) (uint64, bool) {
	var n uint64
	for _, c := range b {
		d := uint64(c - '0')
		if n > (math.MaxUint64-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// seconds converts a duration in seconds to a finite non-negative float.
func seconds(s float64) float64 {
	if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return 0
	}
	return s
}

// AdmitRecorded decodes a result that Encode produced for a query that was
// not printed in this run, and accepts it only when it discharges the
// query whose fingerprint the caller vouches for: same kernel format, a
// fingerprint equal to fingerprint, and a Proved or Trivial verdict (a
// trivial verdict is one of the text alone, decided when the record was
// made). The caller vouches by regenerating nothing: its fingerprint is
// the one recorded when the same ladder printed the obligation from input
// files with the same content (docs/prove.md, "Generation records"), and
// obligation generation is deterministic. Refuted and Unknown records are
// not admitted here: their counterexample and dump belong to a freshly
// printed query (Admit).
func (k *Kernel) AdmitRecorded(fingerprint string, data []byte) (Result, error) {
	if fingerprint == "" {
		return Result{}, errors.New("kernel: no fingerprint")
	}
	rec, err := decodeRecord(data, fingerprint)
	if err != nil {
		return Result{}, err
	}
	r := Result{fingerprint: fingerprint, RLimitUsed: rec.RLimitUsed}
	switch rec.Verdict {
	case "proved":
		r.verdict, r.Solver, r.Slice = Proved, rec.Solver, rec.Slice
	case "trivial":
		if rec.Counterexample != nil {
			return Result{}, errors.New("kernel: trivial record with a counterexample")
		}
		r.verdict, r.Reason = Trivial, rec.Reason
	default:
		return Result{}, fmt.Errorf("kernel: a %q record is admitted only against a printed query", rec.Verdict)
	}
	return r, nil
}

// decodeRecord decodes an encoded Result and checks that it is of this
// kernel's format and answers the query with the given fingerprint.
func decodeRecord(data []byte, fingerprint string) (record, error) {
	rec, ok := canonicalRecord(data)
	if !ok {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return record{}, fmt.Errorf("kernel: undecodable record: %v", err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return record{}, errors.New("kernel: data after the record")
		}
	}
	if rec.Kernel != Format {
		return record{}, fmt.Errorf("kernel: record format %d, want %d", rec.Kernel, Format)
	}
	if rec.Query != fingerprint {
		return record{}, errors.New("kernel: record answers another query")
	}
	switch {
	case rec.Slice < 0:
		return record{}, fmt.Errorf("kernel: record naming the slice %d", rec.Slice)
	case rec.Verdict != "proved" && (rec.Solver != "" || rec.Slice != 0):
		return record{}, fmt.Errorf("kernel: %s record naming how it was proved", rec.Verdict)
	case rec.Verdict == "proved" && (rec.Reason != "" || rec.Counterexample != nil):
		return record{}, errors.New("kernel: proved record with a reason or counterexample")
	case rec.Verdict == "proved" && rec.Solver != SolverPlain && rec.Solver != SolverDefault:
		return record{}, fmt.Errorf("kernel: proved record naming the solver %q", rec.Solver)
	}
	return rec, nil
}
