// This file wraps the YAML library: parsing a file into nodes, turning YAML
// errors into positioned diagnostics, and the helpers that walk nodes and
// report wrong node kinds, unknown, missing and duplicate keys.

package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa/expr"
)

// yfile is one parsed YAML file with its raw lines, which the mappers need.
type yfile struct {
	path  string
	data  []byte
	lines []string // the raw lines, without line terminators
	root  *yaml.Node
	// per line, computed when a position on it is first asked for: 0 not
	// yet known, 1 ASCII, 2 not (starts holds its character offsets)
	ascii  []int8
	starts [][]int32
}

// yamlErrRE matches the errors of the YAML library: "yaml: line N: msg" or "yaml: msg".
var yamlErrRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// parseYAML parses data as a single YAML document. It returns nil after
// reporting an error when the file is not well-formed YAML or is empty.
func parseYAML(path string, data []byte, errs *source.ErrorList) (f *yfile) {
	f = &yfile{path: path, data: data, lines: splitLines(data)}
	defer func() {
		// The YAML library turns its own errors into values, but a bug in
		// it must not crash the loader.
		if r := recover(); r != nil {
			errs.Add(source.Pos{File: path, Line: 1, Col: 1}, source.ErrSyntax, "malformed YAML: the YAML parser failed: %v", r)
			f = nil
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			errs.Add(source.Pos{File: path, Line: 1, Col: 1}, source.ErrModel, "empty file: expected an interface, automaton or proof")
			return nil
		}
		f.yamlError(err, errs)
		return nil
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		errs.Add(f.pos(&next), source.ErrModel, "a file holds a single YAML document")
	} else if !errors.Is(err, io.EOF) {
		f.yamlError(err, errs)
		return nil
	}
	if len(doc.Content) == 0 {
		errs.Add(source.Pos{File: path, Line: 1, Col: 1}, source.ErrModel, "empty file: expected an interface, automaton or proof")
		return nil
	}
	f.root = doc.Content[0]
	return f
}

// yamlError reports an error of the YAML library at its line (column 1: the
// library does not give columns). The library numbers the lines of parser
// errors ("did not find expected ...") from 0 and omits line 0.
func (f *yfile) yamlError(err error, errs *source.ErrorList) {
	line, msg := 1, err.Error()
	if m := yamlErrRE.FindStringSubmatch(msg); m != nil {
		msg = m[2]
		if m[1] != "" {
			line, _ = strconv.Atoi(m[1])
			if strings.HasPrefix(msg, "did not find expected") {
				line++
			}
		}
	}
	if line > len(f.lines) {
		line = len(f.lines)
	}
	if line < 1 {
		line = 1
	}
	if strings.HasPrefix(msg, "did not find expected ',' or ']'") {
		// The usual cause: a call with brackets inside a flow sequence,
		// `Read: [DoRead(t, c.addr[t], n)]`, reported at the next line.
		for l := line; l >= 1 && l >= line-1; l-- {
			if m := flowCallRE.FindStringIndex(f.lines[l-1]); m != nil {
				col := strings.IndexByte(f.lines[l-1][m[0]:], '[') + m[0] + 1
				errs.Add(source.Pos{File: f.path, Line: l, Col: col}, source.ErrSyntax,
					"malformed YAML: a call inside a YAML flow sequence [...]: YAML reads its brackets and commas as the sequence's own; write the calls as a block sequence, one `- Act(args)` per line")
				return
			}
		}
	}
	if msg == "mapping values are not allowed in this context" {
		// The usual cause: a binder `x: S` in a plain scalar.
		msg += " (an expression containing \": \", such as `forall t: T. p`, must be quoted or written as a block scalar: `key: |`)"
	}
	errs.Add(source.Pos{File: f.path, Line: line, Col: 1}, source.ErrSyntax, "malformed YAML: %s", msg)
}

// flowCallRE matches a flow sequence that starts with a call, as in
// `Read: [DoRead(t, c.addr[t])]`.
var flowCallRE = regexp.MustCompile(`:\s*\[\s*[A-Za-z_][A-Za-z0-9_]*\s*\(`)

// splitLines splits data into lines, dropping "\n" and "\r\n" terminators.
func splitLines(data []byte) []string {
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// pos returns the file position of a node. The YAML library counts columns in
// characters; positions count bytes.
func (f *yfile) pos(n *yaml.Node) source.Pos {
	if n == nil {
		return source.Pos{File: f.path}
	}
	return source.Pos{File: f.path, Line: n.Line, Col: f.byteCol(n.Line, n.Column)}
}

// byteCol converts a 1-based character column on a 1-based line to a byte
// column. It costs O(1) on an ASCII line and, after one pass over the line,
// O(1) on others: a file with many nodes on one line loads in linear time.
func (f *yfile) byteCol(line, col int) int {
	if line < 1 || line > len(f.lines) || col < 1 {
		return col
	}
	starts := f.runeStarts(line)
	if starts == nil { // ASCII: characters are bytes
		return col
	}
	if col-1 < len(starts) {
		return int(starts[col-1]) + 1
	}
	s := f.lines[line-1]
	return col + (len(s) - len(starts))
}

// runeStarts returns the byte offset of each character of a line, or nil
// for an ASCII line; it is computed once per line.
func (f *yfile) runeStarts(line int) []int32 {
	if f.starts == nil {
		f.starts = make([][]int32, len(f.lines))
		f.ascii = make([]int8, len(f.lines))
	}
	switch f.ascii[line-1] {
	case 1:
		return nil
	case 2:
		return f.starts[line-1]
	}
	s := f.lines[line-1]
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		f.ascii[line-1] = 1
		return nil
	}
	starts := make([]int32, 0, len(s))
	for off := 0; off < len(s); {
		starts = append(starts, int32(off))
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	f.starts[line-1], f.ascii[line-1] = starts, 2
	return starts
}

// ---- walking nodes ----

// fileLoader loads one file; it carries the file and the error list.
type fileLoader struct {
	l    *loader
	f    *yfile
	refs []fileRef   // the files loading this one loaded in turn (reuse.go)
	decl *loadedDecl // what the file's bytes loaded into before, if kept (reuse.go)
}

func (fl *fileLoader) errorf(n *yaml.Node, code source.Code, format string, args ...any) {
	fl.l.errs.Add(fl.f.pos(n), code, format, args...)
}

// kindName describes a node's kind for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing"
		}
		return fmt.Sprintf("the scalar %q", shorten(n.Value))
	}
	return "a document"
}

// shorten cuts long values in messages.
func shorten(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// isNull reports whether n is an empty or null scalar (`key:` with no value).
func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Style == 0
}

// noAlias reports an alias node; aliases are not supported, since they could
// make the node graph cyclic.
func (fl *fileLoader) noAlias(n *yaml.Node) bool {
	if n == nil {
		return true
	}
	if n.Kind == yaml.AliasNode {
		fl.errorf(n, source.ErrModel, "YAML aliases are not supported")
		return false
	}
	if n.Anchor != "" {
		fl.errorf(n, source.ErrModel, "YAML anchors are not supported")
		return false
	}
	return true
}

// entry is a key and its value in a mapping.
type entry struct {
	key, val *yaml.Node
}

// name returns the key's text.
func (e entry) name() string { return e.key.Value }

// entries returns the entries of n, which must be a mapping; what names the
// mapping in messages, e.g. `"actions"`. A null node is an empty mapping.
// Duplicate keys are reported, as "duplicate <dup> "k"", and dropped; keys
// that are not plain names are reported and dropped. ok is false when n is
// not a mapping (reported).
func (fl *fileLoader) entries(n *yaml.Node, what, dup string) (es []entry, ok bool) {
	if isNull(n) {
		return nil, true
	}
	if !fl.noAlias(n) {
		return nil, false
	}
	if n.Kind != yaml.MappingNode {
		fl.errorf(n, source.ErrModel, "expected a mapping for %s, found %s", what, kindName(n))
		return nil, false
	}
	var out []entry
	seen := make(map[string]*yaml.Node)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !fl.noAlias(k) {
			continue
		}
		if k.Kind != yaml.ScalarNode || isNull(k) {
			fl.errorf(k, source.ErrModel, "expected a name as key in %s, found %s", what, kindName(k))
			continue
		}
		if first, ok := seen[k.Value]; ok {
			fl.errorf(k, source.ErrName, "duplicate %s %q (first at line %d)", dup, k.Value, first.Line)
			continue
		}
		seen[k.Value] = k
		out = append(out, entry{k, v})
	}
	return out, true
}

// fields reads a mapping with a fixed set of keys. It reports unknown keys and
// those of required that are missing (at owner, the node naming the mapping).
func (fl *fileLoader) fields(n, owner *yaml.Node, what string, allowed, required []string) map[string]entry {
	es, ok := fl.entries(n, what, "key")
	if !ok {
		return nil
	}
	m := make(map[string]entry, len(es))
	for _, e := range es {
		if !contains(allowed, e.name()) {
			msg := fmt.Sprintf("unknown key %q in %s", e.name(), what)
			if s := suggest(e.name(), allowed); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			fl.errorf(e.key, source.ErrModel, "%s", msg)
			continue
		}
		m[e.name()] = e
	}
	for _, r := range required {
		if _, ok := m[r]; !ok {
			if owner == nil {
				owner = n
			}
			fl.errorf(owner, source.ErrModel, "missing key %q in %s", r, what)
		}
	}
	return m
}

// scalar returns the text of n, which must be a non-null scalar.
func (fl *fileLoader) scalar(n *yaml.Node, what string) (string, bool) {
	if !fl.noAlias(n) {
		return "", false
	}
	if n == nil {
		fl.l.errs.Add(source.Pos{File: fl.f.path}, source.ErrModel, "missing value for %s", what)
		return "", false
	}
	if n.Kind != yaml.ScalarNode || isNull(n) {
		fl.errorf(n, source.ErrModel, "expected a value for %s, found %s", what, kindName(n))
		return "", false
	}
	return n.Value, true
}

// sequence returns the items of n: a sequence, or a single non-sequence node
// standing for a one-item sequence when single is set. A null node is empty.
func (fl *fileLoader) sequence(n *yaml.Node, what string, single bool) []*yaml.Node {
	if isNull(n) || !fl.noAlias(n) {
		return nil
	}
	if n.Kind == yaml.SequenceNode {
		return n.Content
	}
	if single {
		return []*yaml.Node{n}
	}
	fl.errorf(n, source.ErrModel, "expected a sequence for %s, found %s", what, kindName(n))
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suggest returns the element of list closest to s when it is a likely typo.
func suggest(s string, list []string) string {
	best, bestD := "", 3
	for _, x := range list {
		if d := editDistance(strings.ToLower(s), x); d < bestD {
			best, bestD = x, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// ---- names ----

// reserved reports whether s is a word of the expression language, which
// cannot be declared as a name: a keyword, or None.
func reserved(s string) bool { return expr.IsKeyword(s) || s == "None" }

// isIdent reports whether s is an identifier of the expression language: a
// letter or underscore followed by letters, digits and underscores (λ spells
// lambda and is not a letter there).
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', unicode.IsLetter(r) && r != 'λ':
		case i > 0 && unicode.IsDigit(r):
		default:
			return false
		}
	}
	return true
}

// checkName reports a key that cannot be declared as a name; what says what
// is declared, e.g. "action".
func (fl *fileLoader) checkName(k *yaml.Node, what string) bool {
	switch {
	case !isIdent(k.Value):
		fl.errorf(k, source.ErrName, "invalid %s name %q: names are letters, digits and _, starting with a letter", what, shorten(k.Value))
		return false
	case reserved(k.Value):
		fl.errorf(k, source.ErrName, "invalid %s name %q: it is a keyword", what, k.Value)
		return false
	}
	return true
}
