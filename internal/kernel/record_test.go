package kernel

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"
)

// fullDecode is decodeRecord's decoder without its fast path.
func fullDecode(data []byte) (record, bool) {
	var rec record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if dec.Decode(&rec) != nil {
		return record{}, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return record{}, false
	}
	return rec, true
}

// TestCanonicalRecord: the fast path of decodeRecord takes a record only
// when the full decoder reads the same record from the same bytes: over
// the records Encode writes for each verdict, and over every deletion,
// duplication and replacement of one byte in them (by a byte of JSON's
// syntax, a digit or a letter). It takes Encode's proved records, the ones
// a run restores by the thousand.
func TestCanonicalRecord(t *testing.T) {
	fp := "3f2a"
	results := []Result{
		{verdict: Proved, fingerprint: fp},
		{verdict: Proved, fingerprint: fp, RLimitUsed: 583, Solver: SolverPlain},
		{verdict: Proved, fingerprint: fp, RLimitUsed: 18446744073709551615, Solver: SolverDefault, Slice: 2},
		{verdict: Trivial, fingerprint: fp, Reason: `the assertion "goal (negated)" is the constant false`},
		{verdict: Unknown, fingerprint: fp, Reason: "resource limit"},
		{verdict: Refuted, fingerprint: fp, Counterexample: &Counterexample{Text: "x = 1"}},
	}
	replacements := []byte(`{}[]":,\ 019ax-.e`)
	took := 0
	for _, r := range results {
		data, err := r.Encode()
		if err != nil {
			continue // not cacheable
		}
		if rec, ok := canonicalRecord(data); r.verdict == Proved && !ok {
			t.Errorf("the fast path refuses Encode's proved record %s", data)
		} else if ok {
			took++
			if full, _ := fullDecode(data); !reflect.DeepEqual(rec, full) {
				t.Errorf("%s: fast %+v, full %+v", data, rec, full)
			}
		}
		var variants [][]byte
		for i := range data {
			variants = append(variants,
				append(append([]byte(nil), data[:i]...), data[i+1:]...),
				append(append([]byte(nil), data[:i+1]...), data[i:]...))
			for _, c := range replacements {
				v := append([]byte(nil), data...)
				v[i] = c
				variants = append(variants, v)
			}
		}
		for _, v := range variants {
			rec, ok := canonicalRecord(v)
			if !ok {
				continue
			}
			full, fok := fullDecode(v)
			if !fok || !reflect.DeepEqual(rec, full) {
				t.Errorf("%s: fast path took %+v, the decoder gives %+v (ok %t)", v, rec, full, fok)
			}
		}
	}
	if took < 3 {
		t.Errorf("the fast path took %d records", took)
	}
}
