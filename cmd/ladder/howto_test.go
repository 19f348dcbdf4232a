package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// markedBlocks returns the fenced code blocks of a Markdown text that
// directly follow an HTML comment <!-- KIND: NAME -->, by NAME.
func markedBlocks(t *testing.T, text, kind string) map[string]string {
	t.Helper()
	marker := regexp.MustCompile(`^<!-- ` + kind + `: (.+?) -->$`)
	lines := strings.Split(text, "\n")
	out := map[string]string{}
	for i := 0; i < len(lines); i++ {
		m := marker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			t.Fatalf("line %d: %s is not followed by a code fence", i+1, lines[i])
		}
		var body []string
		j := i + 2
		for ; j < len(lines) && lines[j] != "```"; j++ {
			body = append(body, lines[j])
		}
		if j == len(lines) {
			t.Fatalf("line %d: the code block after %s is not closed", i+1, lines[i])
		}
		if _, dup := out[m[1]]; dup {
			t.Fatalf("line %d: a second block for %s", i+1, m[1])
		}
		out[m[1]] = strings.Join(body, "\n") + "\n"
		i = j
	}
	return out
}

// TestHowtoAlgorithm keeps docs/howto-algorithm.md from drifting: the final
// files it shows are exactly the repository's algorithms/TML.yaml and
// proofs/TML-TMS2.yaml (which `make prove` proves), they load on their own
// next to the specifications, and the output of `ladder new algorithm TML`
// it shows is what the command prints.
func TestHowtoAlgorithm(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	doc := readFile(t, filepath.Join(root, "docs", "howto-algorithm.md"))
	files := markedBlocks(t, doc, "file")
	work := t.TempDir()
	for _, f := range []string{"specs/tm.yaml", "specs/TMS2.yaml"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(work, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		copyFile(t, filepath.Join(root, f), filepath.Join(work, f))
	}
	for _, want := range []string{"algorithms/TML.yaml", "proofs/TML-TMS2.yaml"} {
		got, ok := files[want]
		if !ok {
			t.Errorf("the guide shows no block marked <!-- file: %s -->", want)
			continue
		}
		if repo := readFile(t, filepath.Join(root, want)); got != repo {
			t.Errorf("the guide's %s differs from the repository's file: update one of them", want)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(work, want)), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(work, want), got)
	}
	for name := range files {
		if name != "algorithms/TML.yaml" && name != "proofs/TML-TMS2.yaml" {
			t.Errorf("unexpected file block %s", name)
		}
	}

	outputs := markedBlocks(t, doc, "output")
	newOut, ok := outputs["ladder new algorithm TML"]
	if !ok {
		t.Fatal("the guide shows no block marked <!-- output: ladder new algorithm TML -->")
	}

	t.Chdir(work)
	if code, out, stderr := runLadder("check", "algorithms/TML.yaml", "proofs/TML-TMS2.yaml"); code != exitOK {
		t.Errorf("ladder check of the guide's files = %d:\n%s%s", code, out, stderr)
	}

	fresh := filepath.Join(work, "fresh")
	if err := os.MkdirAll(filepath.Join(fresh, "specs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tm.yaml", "TMS2.yaml"} {
		copyFile(t, filepath.Join(work, "specs", f), filepath.Join(fresh, "specs", f))
	}
	t.Chdir(fresh)
	code, out, stderr := runLadder("new", "algorithm", "TML")
	if code != exitOK {
		t.Fatalf("ladder new algorithm TML = %d:\n%s%s", code, out, stderr)
	}
	if out != newOut {
		t.Errorf("ladder new algorithm TML prints\n%s\nthe guide shows\n%s", out, newOut)
	}
	if code, out, stderr := runLadder("check", "algorithms/TML.yaml", "proofs/TML-TMS2.yaml"); code != exitOK {
		t.Errorf("ladder check of the skeleton = %d:\n%s%s", code, out, stderr)
	}
}
