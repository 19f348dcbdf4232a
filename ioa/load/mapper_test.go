package load

import (
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
)

// TestMapper checks, for scalars of every style, that each word of the value
// maps to a file position where the raw file shows that same word.
func TestMapper(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		// exactUntil: words of the value at or after this offset are not
		// checked (after an escape sequence); -1 checks all.
		exactUntil int
	}{
		{"plain single line", "e: alpha = beta + 1\n", -1},
		{"plain after unicode key", "é: alpha ∧ beta\n", -1},
		{"plain in a flow mapping", "k: {e: alpha and beta, f: gamma}\n", -1},
		{"plain multi-line", "e: alpha and\n  beta or\n     gamma   # a comment\n", -1},
		{"plain multi-line with blank line", "e: alpha and\n\n  beta\n", -1},
		{"plain multi-line nested", "a:\n  b:\n    e: alpha\n      and beta\n      and gamma\nz: 1\n", -1},
		{"literal", "e: |\n  alpha := 1\n  beta := alpha + 2\n", -1},
		{"literal with blank lines and deeper lines", "e: |\n\n    alpha := 1\n\n    if x then\n      beta := 2\n    end\nz: 1\n", -1},
		{"literal with indentation indicator", "e: |2\n     alpha := 1\n   beta := 2\n", -1},
		{"literal keep", "e: |+\n  alpha\n  beta\n\n\nz: 1\n", -1},
		{"literal in a sequence", "s:\n  - |\n    alpha\n    beta\n  - gamma\n", -1},
		{"literal with trailing spaces", "e: |\n  alpha  \n  beta\n", -1},
		{"literal with a comment after the indicator", "e: |  # effect\n  alpha := beta\n", -1},
		{"folded", "e: >\n  alpha and\n  beta\n\n  gamma\n    delta deeper\n  epsilon\n", -1},
		{"double quoted", "e: \"alpha and beta\"\n", -1},
		{"double quoted multi-line", "e: \"alpha and\n  beta or\n  gamma\"\n", -1},
		{"double quoted with escape", "e: \"alpha and \\\"x\\\" beta\"\n", len("alpha and ")},
		{"single quoted", "e: 'alpha and beta'\n", -1},
		{"single quoted with escape", "e: 'alpha and ''q'' beta'\n", len("alpha and ")},
		{"crlf", "e: |\r\n  alpha\r\n  beta\r\nf: gamma\r\n  delta\r\n", -1},
	}
	word := regexp.MustCompile(`[\p{L}_][\p{L}\p{N}_]*`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errs source.ErrorList
			f := parseYAML("m.yaml", []byte(tt.yaml), &errs)
			if f == nil {
				t.Fatalf("parse: %v", errs)
			}
			checked := 0
			for _, n := range scalars(f.root) {
				m := f.mapper(n)
				for _, loc := range word.FindAllStringIndex(n.Value, -1) {
					if tt.exactUntil >= 0 && loc[0] >= tt.exactUntil {
						continue
					}
					w := n.Value[loc[0]:loc[1]]
					p := m.Pos(loc[0])
					if p.File != "m.yaml" || p.Line < 1 || p.Line > len(f.lines) {
						t.Errorf("%q at %d: bad position %v", w, loc[0], p)
						continue
					}
					raw := f.lines[p.Line-1]
					if p.Col < 1 || !strings.HasPrefix(raw[min(p.Col-1, len(raw)):], w) {
						t.Errorf("%q at offset %d maps to %v, where the file has %q", w, loc[0], p, raw[min(p.Col-1, len(raw)):])
					}
					checked++
				}
			}
			if checked < 2 {
				t.Errorf("only %d words checked", checked)
			}
		})
	}
}

// scalars returns the scalar values (not keys) under n.
func scalars(n *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		out = append(out, n)
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			out = append(out, scalars(n.Content[i])...)
		}
	default:
		for _, c := range n.Content {
			out = append(out, scalars(c)...)
		}
	}
	return out
}

// TestYAMLErrorLines checks that the YAML library's errors land on the
// offending line (the library numbers parser errors from 0).
func TestYAMLErrorLines(t *testing.T) {
	tests := []struct {
		text string
		line int
		msg  string
	}{
		{"a: 1\nb: [\nc: 2\n", 2, "did not find expected ',' or ']'"},
		{"a: 1\nb: 2\nc: d: e\n", 3, "mapping values are not allowed"},
		{"a: 1\nb: 2\n- c\n", 3, "did not find expected key"},
		{"a: 1\nb: 2\nc\nd: 3\n", 3, "could not find expected ':'"},
		{"a: 1\nb: \"x\n", 2, "found unexpected end of stream"},
		{"a: [", 1, "did not find expected node content"},
		{"a: b\x00", 1, "control characters are not allowed"},
	}
	for _, tt := range tests {
		var errs source.ErrorList
		if f := parseYAML("y.yaml", []byte(tt.text), &errs); f != nil || len(errs) != 1 {
			t.Errorf("%q: got %v, %v; want one error", tt.text, f, errs)
			continue
		}
		e := errs[0]
		if e.Pos.Line != tt.line || e.Pos.Col != 1 || e.Code != source.ErrSyntax || !strings.Contains(e.Msg, tt.msg) {
			t.Errorf("%q: got %v, want line %d with %q", tt.text, e, tt.line, tt.msg)
		}
	}
}
