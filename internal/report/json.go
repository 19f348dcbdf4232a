// This file implements the JSON form of a prove report. Its bytes are
// those of encoding/json with two-space indentation and no HTML escaping;
// the list of obligations, which is most of a report, is written by hand
// (one obligation at a time, in chunks on every CPU), because encoding it
// with reflection and indenting the result took longer than everything
// else a run with nothing to re-check does (TestWriteJSONSameBytes
// compares the two).

package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"runtime"
	"strconv"
	"sync"
	"unicode/utf8"
)

// WriteJSON writes p as one indented JSON object (see docs/prove.md),
// with empty lists as [] rather than null.
func (p *Prove) WriteJSON(w io.Writer) error {
	q := p.forJSON()
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("{\n  \"solver\": ")
	if err := writeEncoded(bw, q.Solver, "  "); err != nil {
		return err
	}
	bw.WriteString(",\n  \"obligations\": ")
	if err := writeObligations(bw, q.Obligations); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    any
		omit bool // omitempty
	}{
		{"invariants", q.Invariants, false},
		{"edges", q.Edges, false},
		{"theorems", q.Theorems, false},
		{"summary", q.Summary, false},
		{"errors", q.Errors, len(q.Errors) == 0},
		{"warnings", q.Warnings, len(q.Warnings) == 0},
		{"changes", q.Changes, q.Changes == nil},
	} {
		if f.omit {
			continue
		}
		bw.WriteString(",\n  \"" + f.name + "\": ")
		if err := writeEncoded(bw, f.v, "  "); err != nil {
			return err
		}
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// forJSON returns a shallow copy of p with every nil list that the JSON
// form spells [] made empty.
func (p *Prove) forJSON() Prove {
	q := *p
	if q.Obligations == nil {
		q.Obligations = []Obligation{}
	}
	if q.Invariants == nil {
		q.Invariants = []Invariant{}
	}
	if q.Edges == nil {
		q.Edges = []Edge{}
	}
	if c := q.Changes; c != nil {
		cc := *c
		for _, l := range []*[]string{&cc.Obligations, &cc.Invariants, &cc.Edges, &cc.Theorems} {
			if *l == nil {
				*l = []string{}
			}
		}
		if cc.Items == nil {
			cc.Items = []ItemChange{}
		}
		q.Changes = &cc
	}
	q.Theorems = append([]Theorem{}, q.Theorems...) // a copy: From is filled in below
	for i, t := range q.Theorems {
		if t.From == nil {
			q.Theorems[i].From = []string{}
		}
	}
	return q
}

// writeEncoded writes v as encoding/json does without HTML escaping and
// without a final newline: indented by two spaces a level, its lines after
// the first starting with prefix, or on one line when prefix is "".
func writeEncoded(w *bufio.Writer, v any, prefix string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if prefix != "" {
		enc.SetIndent(prefix, "  ")
	}
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return err
}

// obligationChunk is how many obligations one goroutine of
// writeObligations renders at a time.
const obligationChunk = 2048

// writeObligations writes the list of obligations at the second level of
// the report. An obligation with a counterexample (whose structured data
// encoding/json re-indents) goes through encoding/json; the others are
// written field by field. A long list is rendered in chunks on every CPU,
// a few chunks at a time, and written in order: the bytes are those of
// one pass, and memory holds only the chunks being rendered.
func writeObligations(w *bufio.Writer, obs []Obligation) error {
	if len(obs) == 0 {
		w.WriteString("[]")
		return nil
	}
	w.WriteString("[\n")
	workers := runtime.GOMAXPROCS(0)
	if len(obs) <= obligationChunk || workers < 2 {
		if err := writeObligationList(w, obs, true); err != nil {
			return err
		}
		w.WriteString("\n  ]")
		return nil
	}
	bufs := make([]bytes.Buffer, workers)
	errs := make([]error, workers)
	for lo := 0; lo < len(obs); lo += workers * obligationChunk {
		var wg sync.WaitGroup
		n := 0
		for k := 0; k < workers; k++ {
			from := lo + k*obligationChunk
			if from >= len(obs) {
				break
			}
			to := min(from+obligationChunk, len(obs))
			n++
			wg.Add(1)
			go func() {
				defer wg.Done()
				bufs[k].Reset()
				bw := bufio.NewWriter(&bufs[k])
				errs[k] = writeObligationList(bw, obs[from:to], from == 0)
				if errs[k] == nil {
					errs[k] = bw.Flush()
				}
			}()
		}
		wg.Wait()
		for k := 0; k < n; k++ {
			if errs[k] != nil {
				return errs[k]
			}
			w.Write(bufs[k].Bytes())
		}
	}
	w.WriteString("\n  ]")
	return nil
}

// writeObligationList writes obs, each after ",\n" but the first of the
// list (first).
func writeObligationList(w *bufio.Writer, obs []Obligation, first bool) error {
	num := make([]byte, 0, 32)
	str := func(name, v string, first bool) {
		if !first {
			w.WriteString(",\n")
		}
		w.WriteString("      \"")
		w.WriteString(name)
		w.WriteString("\": ")
		writeJSONString(w, v)
	}
	raw := func(name string, v []byte) {
		w.WriteString(",\n      \"")
		w.WriteString(name)
		w.WriteString("\": ")
		w.Write(v)
	}
	for i := range obs {
		o := &obs[i]
		if i > 0 || !first {
			w.WriteString(",\n")
		}
		w.WriteString("    ")
		if o.Counterexample != nil {
			if err := writeEncoded(w, o, "    "); err != nil {
				return err
			}
			continue
		}
		w.WriteString("{\n")
		str("id", o.ID, true)
		str("group", o.Group, false)
		if o.Pos != "" {
			str("pos", o.Pos, false)
		}
		str("verdict", o.Verdict, false)
		raw("seconds", appendJSONFloat(num[:0], o.Seconds))
		raw("solver_seconds", appendJSONFloat(num[:0], o.SolverSeconds))
		raw("z3_seconds", appendJSONFloat(num[:0], o.Z3Seconds))
		raw("rlimit_used", strconv.AppendUint(num[:0], o.RLimitUsed, 10))
		raw("cached", strconv.AppendBool(num[:0], o.Cached))
		if o.Slice != 0 {
			raw("slice", strconv.AppendInt(num[:0], int64(o.Slice), 10))
		}
		if o.Reason != "" {
			str("reason", o.Reason, false)
		}
		if o.Dump != "" {
			str("dump", o.Dump, false)
		}
		w.WriteString("\n    }")
	}
	return nil
}

// appendJSONFloat appends f as encoding/json spells a float64.
func appendJSONFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		// encoding/json refuses them; the report never holds one.
		return append(b, '0')
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9, as encoding/json does
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// writeJSONString writes s as a JSON string as encoding/json does without
// HTML escaping: quoted, with quotes, backslashes and control characters
// escaped, invalid UTF-8 replaced and U+2028, U+2029 escaped.
func writeJSONString(w *bufio.Writer, s string) {
	plain := true
	for i := 0; i < len(s) && plain; {
		c := s[i]
		if c < utf8.RuneSelf {
			plain = c >= 0x20 && c != '"' && c != '\\'
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		plain = !(r == utf8.RuneError && size == 1) && r != '\u2028' && r != '\u2029'
		i += size
	}
	if plain {
		w.WriteByte('"')
		w.WriteString(s)
		w.WriteByte('"')
		return
	}
	writeEncoded(w, s, "") // a string always encodes
}
