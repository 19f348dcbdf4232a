package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHowtoObject keeps the YAML excerpts of docs/howto-object.md from
// drifting: every line of each ```yaml block (but the lines with an
// ellipsis, which stand for omitted text, and the trailing comments, which
// explain) appears, in the same order, in one file of specs/objects,
// algorithms/objects or proofs/objects, their testdata included.
func TestHowtoObject(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	doc := readFile(t, filepath.Join(root, "docs", "howto-object.md"))
	files := map[string][]string{}
	for _, dir := range []string{"specs/objects", "algorithms/objects", "proofs/objects", "algorithms/objects/testdata"} {
		names, err := filepath.Glob(filepath.Join(root, dir, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			rel, _ := filepath.Rel(root, n)
			files[rel] = normalizedLines(readFile(t, n))
		}
	}
	if len(files) == 0 {
		t.Fatal("no object files found")
	}
	blocks := yamlBlocks(doc)
	if len(blocks) < 10 {
		t.Fatalf("found %d yaml blocks in the guide, expected its excerpts", len(blocks))
	}
	for _, b := range blocks {
		var want []string
		for _, l := range normalizedLines(b.text) {
			if !strings.Contains(l, "…") && strings.TrimSpace(l) != "" {
				want = append(want, l)
			}
		}
		found := false
		for _, lines := range files {
			if subsequence(lines, want) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("docs/howto-object.md:%d: the yaml block is in no object file (in that order):\n%s", b.line, strings.Join(want, "\n"))
		}
	}
}

type docBlock struct {
	line int // of the opening fence
	text string
}

// yamlBlocks returns the ```yaml fenced blocks of a Markdown text.
func yamlBlocks(text string) []docBlock {
	var out []docBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```yaml" {
			continue
		}
		start := i
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		out = append(out, docBlock{line: start + 1, text: strings.Join(body, "\n")})
	}
	return out
}

var trailingComment = regexp.MustCompile(`\s+#\s.*$`)

// normalizedLines splits text into lines without trailing comments and
// spaces, and with the indentation of the block removed.
func normalizedLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(trailingComment.ReplaceAllString(l, ""), " \t")
		out = append(out, strings.TrimLeft(l, " "))
	}
	return out
}
