// Package source owns source positions and diagnostics: the Pos of every
// syntax node and model object, the Mapper that carries offsets inside a YAML
// scalar back to file positions, and the Error and ErrorList types that every
// phase reports through.
//
// Errors print as "file:line:col: message". An ErrorList collects several
// errors per run, sorts them by position and drops duplicates on one line.
package source

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// bytes. The zero value, NoPos, means "no position".
type Pos struct {
	File string // file name as given on the command line or found on disk
	Line int    // 1-based line
	Col  int    // 1-based byte column
}

// NoPos is the zero Pos.
var NoPos = Pos{}

// IsValid reports whether p carries a line number.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", "file:line", "file" or "-" depending on
// what is known. A file name with control characters or invalid UTF-8 is
// quoted as Go's %q does (see Quote), so that no name can forge a line.
func (p Pos) String() string {
	file := Quote(p.File)
	switch {
	case p.File == "" && !p.IsValid():
		return "-"
	case !p.IsValid():
		return file
	case p.Col <= 0:
		return fmt.Sprintf("%s:%d", file, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

// Quote returns s unchanged when it is valid UTF-8 without control
// characters (bidirectional controls among them), and otherwise s quoted as
// Go's %q does ("a\nb", "\u202e"). Every file
// name and value printed in a message goes through it.
func Quote(s string) string {
	if !needsQuote(s) {
		return s
	}
	return strconv.Quote(s)
}

// Escape returns s with each control character and invalid byte written
// as in a Go string literal (\n, \x00), without adding quotes: it keeps a
// message on one line whatever values it contains.
func Escape(s string) string {
	if !needsQuote(s) {
		return s
	}
	q := strconv.Quote(s)
	q = q[1 : len(q)-1]
	// strconv.Quote escapes the quote and the backslash too: undo those.
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] == '\\' && i+1 < len(q) && (q[i+1] == '"' || q[i+1] == '\\') {
			b.WriteByte(q[i+1])
			i++
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

func needsQuote(s string) bool {
	for _, r := range s {
		// Bidirectional controls (U+202E and the like) reorder what a
		// terminal shows: a name with one could make a position read as
		// another.
		if r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r) {
			return true
		}
	}
	return false
}

// Before reports whether p comes before q in file order.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// An Anchor says that byte offset Off of a text stands at position Pos.
type Anchor struct {
	Off int
	Pos Pos
}

// A Mapper maps byte offsets inside an embedded text (an expression written in
// a YAML scalar) to file positions. It holds anchors sorted by offset; an
// offset maps to the last anchor at or before it, moved right by the distance.
// Anchors at each line start make literal block scalars exact; the loader adds
// one anchor per source line for folded scalars.
type Mapper struct {
	Anchors []Anchor
}

// NewMapper returns a Mapper for a text that starts at start and whose later
// lines, if any, start at column lineCol of the following file lines.
// text is needed to find the line breaks.
func NewMapper(start Pos, text string, lineCol int) *Mapper {
	m := &Mapper{Anchors: []Anchor{{0, start}}}
	line := start.Line
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			line++
			m.Anchors = append(m.Anchors, Anchor{i + 1, Pos{File: start.File, Line: line, Col: lineCol}})
		}
	}
	return m
}

// Pos returns the file position of byte offset off. A nil Mapper gives NoPos.
func (m *Mapper) Pos(off int) Pos {
	if m == nil || len(m.Anchors) == 0 {
		return NoPos
	}
	i := sort.Search(len(m.Anchors), func(i int) bool { return m.Anchors[i].Off > off }) - 1
	if i < 0 {
		i = 0
	}
	a := m.Anchors[i]
	p := a.Pos
	if p.Col > 0 {
		p.Col += off - a.Off
	}
	return p
}

// Code classifies an error. Control flow may depend on the code; never on the text.
type Code int

// The error codes.
const (
	ErrSyntax   Code = iota // malformed input: YAML or expression syntax
	ErrSort                 // sort (type) errors
	ErrName                 // undefined or duplicate names
	ErrModel                // structural errors in automata, views, proofs
	ErrUsage                // bad command-line use
	ErrIO                   // files that cannot be read or written
	ErrInternal             // a bug in ladder
)

var codeNames = [...]string{"syntax", "sort", "name", "model", "usage", "io", "internal"}

// String returns the tag of the code, e.g. "sort".
func (c Code) String() string {
	if int(c) >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return fmt.Sprintf("code(%d)", int(c))
}

// Error is a diagnostic at a position.
type Error struct {
	Pos  Pos
	Code Code
	Msg  string // lower-case, no trailing period
}

// Error returns "file:line:col: message", with the control characters of
// the message escaped (Escape): a message is one line.
func (e *Error) Error() string {
	if e.Pos == NoPos {
		return Escape(e.Msg)
	}
	return e.Pos.String() + ": " + Escape(e.Msg)
}

// ErrorList is a list of diagnostics. The zero value is an empty list ready to use.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, code Code, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// Append appends all errors of other.
func (l *ErrorList) Append(other ErrorList) { *l = append(*l, other...) }

// Len returns the number of errors.
func (l ErrorList) Len() int { return len(l) }

// Sort sorts the list by position, keeping the order of errors at one position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.Before(l[j].Pos) })
}

// RemoveMultiples sorts the list and keeps only the first error on each line.
// Errors without a position are all kept.
func (l *ErrorList) RemoveMultiples() {
	l.Sort()
	var out ErrorList
	var last *Error
	for _, e := range *l {
		if last != nil && e.Pos.IsValid() && e.Pos.File == last.Pos.File && e.Pos.Line == last.Pos.Line {
			continue
		}
		last = e
		out = append(out, e)
	}
	*l = out
}

// Error returns the first error and a count of the others.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l as an error, or nil if the list is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Print writes one error per line to w, at most max errors (all if max <= 0),
// and a final line counting the ones left out.
func (l ErrorList) Print(w io.Writer, max int) {
	for i, e := range l {
		if max > 0 && i == max {
			fmt.Fprintf(w, "too many errors (%d more)\n", len(l)-max)
			return
		}
		fmt.Fprintln(w, e.Error())
	}
}
