// This file implements the JSON form of a prove report. Its bytes are
// those of encoding/json with two-space indentation and no HTML escaping;
// the list of obligations, which is most of a report, is written by hand
// (appended to one buffer, an obligation at a time), because encoding it
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
	"strconv"
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

// writeObligations writes the list of obligations at the second level of
// the report. An obligation with a counterexample (whose structured data
// encoding/json re-indents) goes through encoding/json; the others are
// written field by field.
func writeObligations(w *bufio.Writer, obs []Obligation) error {
	if len(obs) == 0 {
		w.WriteString("[]")
		return nil
	}
	w.WriteString("[\n")
	if err := writeObligationList(w, obs); err != nil {
		return err
	}
	w.WriteString("\n  ]")
	return nil
}

// writeObligationList writes obs, separated by ",\n". Each obligation is
// appended to one buffer, which is written when it is full: a write per
// field cost more than the fields.
func writeObligationList(w *bufio.Writer, obs []Obligation) error {
	b := make([]byte, 0, 64<<10)
	key := func(name string) { // a field after the first
		b = append(b, ",\n      \""...)
		b = append(b, name...)
		b = append(b, "\": "...)
	}
	str := func(name, v string) {
		key(name)
		b = appendJSONString(b, v)
	}
	for i := range obs {
		o := &obs[i]
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = append(b, "    "...)
		if o.Counterexample != nil {
			w.Write(b)
			b = b[:0]
			if err := writeEncoded(w, o, "    "); err != nil {
				return err
			}
			continue
		}
		b = append(b, "{\n      \"id\": "...)
		b = appendJSONString(b, o.ID)
		str("group", o.Group)
		if o.Pos != "" {
			str("pos", o.Pos)
		}
		str("verdict", o.Verdict)
		key("seconds")
		b = appendJSONFloat(b, o.Seconds)
		key("solver_seconds")
		b = appendJSONFloat(b, o.SolverSeconds)
		key("z3_seconds")
		b = appendJSONFloat(b, o.Z3Seconds)
		key("rlimit_used")
		b = strconv.AppendUint(b, o.RLimitUsed, 10)
		key("cached")
		b = strconv.AppendBool(b, o.Cached)
		if o.Slice != 0 {
			key("slice")
			b = strconv.AppendInt(b, int64(o.Slice), 10)
		}
		if o.Reason != "" {
			str("reason", o.Reason)
		}
		if o.Dump != "" {
			str("dump", o.Dump)
		}
		b = append(b, "\n    }"...)
		if len(b) >= 60<<10 {
			w.Write(b)
			b = b[:0]
		}
	}
	_, err := w.Write(b)
	return err
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

// appendJSONString appends s as a JSON string as encoding/json spells it
// without HTML escaping: as it is, in quotes, when no byte of it needs an
// escape (a control character, a quote, a backslash, invalid UTF-8, U+2028
// or U+2029), else through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	if plainJSON(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	var e bytes.Buffer
	enc := json.NewEncoder(&e)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(e.Bytes(), []byte("\n"))...)
}

// plainJSON reports whether s is a JSON string's content as it is.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' {
			return false
		}
		// U+2028 and U+2029 are E2 80 A8 and E2 80 A9
		if c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
			return false
		}
	}
	return utf8.ValidString(s)
}
