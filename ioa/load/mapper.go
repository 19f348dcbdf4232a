// This file builds the source.Mapper of a YAML scalar, which carries byte
// offsets in the scalar's value back to positions in the file.

package load

import (
	"strings"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
)

// mapper returns the Mapper for the value of scalar n:
//
//   - literal blocks (|): the content starts on the line after the indicator,
//     at the block's indentation, which is read from the raw file;
//   - plain scalars, single- or multi-line, and folded blocks (>): one anchor
//     per source line, found by matching each raw line against the folded value;
//   - quoted scalars: the same, starting after the quote; exact until the
//     first escape sequence, approximate after it.
func (f *yfile) mapper(n *yaml.Node) *source.Mapper {
	start := f.pos(n)
	switch {
	case n.Style&yaml.LiteralStyle != 0:
		return f.literalMapper(n)
	case n.Style&yaml.FoldedStyle != 0:
		if m := f.walkMapper(n.Value, n.Line+1, 0); m != nil {
			return m
		}
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		if m := f.walkMapper(n.Value, n.Line, start.Col+1); m != nil {
			return m
		}
		start.Col++
	default:
		if m := f.walkMapper(n.Value, n.Line, start.Col); m != nil {
			return m
		}
	}
	return source.NewMapper(start, n.Value, start.Col)
}

// literalMapper maps a literal block scalar: value line k is file line
// n.Line+1+k, and every line starts at the block's indentation.
func (f *yfile) literalMapper(n *yaml.Node) *source.Mapper {
	first := n.Line + 1
	indent := -1
	for k, vl := range strings.Split(n.Value, "\n") {
		ln := first + k
		if ln > len(f.lines) {
			break
		}
		if strings.TrimSpace(vl) == "" {
			continue
		}
		if raw := f.lines[ln-1]; strings.HasSuffix(raw, vl) {
			indent = len(raw) - len(vl)
		}
		break
	}
	if indent < 0 {
		// Not found in the raw text (an empty block): guess one level deeper
		// than the indicator's line.
		indent = 2
		if n.Line >= 1 && n.Line <= len(f.lines) {
			raw := f.lines[n.Line-1]
			indent = len(raw) - len(strings.TrimLeft(raw, " ")) + 2
		}
	}
	return source.NewMapper(source.Pos{File: f.path, Line: first, Col: indent + 1}, n.Value, indent+1)
}

// walkMapper matches the raw lines from line (1-based) on against value,
// whose lines were folded or trimmed by YAML, and anchors each line's
// content. On the first line the content starts at byte column col (col 0:
// after the indentation). It stops at the first mismatch (an escape sequence)
// and returns nil when nothing matched.
func (f *yfile) walkMapper(value string, line, col int) *source.Mapper {
	m := &source.Mapper{}
	cur := 0
	for ln := line; ln >= 1 && ln <= len(f.lines) && cur < len(value); ln++ {
		raw := f.lines[ln-1]
		start := len(raw) - len(strings.TrimLeft(raw, " \t"))
		if ln == line && col > 0 {
			start = col - 1
		}
		if start > len(raw) {
			break
		}
		content := raw[start:]
		if strings.TrimSpace(content) == "" {
			continue // an empty line: a line break in the folded value, or nothing
		}
		if ln != line || col == 0 {
			for cur < len(value) && (value[cur] == ' ' || value[cur] == '\t' || value[cur] == '\n') {
				cur++
			}
		}
		m.Anchors = append(m.Anchors, source.Anchor{Off: cur, Pos: source.Pos{File: f.path, Line: ln, Col: start + 1}})
		k := commonPrefix(value[cur:], content)
		cur += k
		if cur < len(value) && k < len(strings.TrimRight(content, " \t")) {
			break // an escape sequence or a comment: later offsets are approximate
		}
	}
	if len(m.Anchors) == 0 {
		return nil
	}
	return m
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
