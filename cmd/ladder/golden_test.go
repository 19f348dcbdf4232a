package main

// Golden-file tests of what ladder prints: diagnostics, reports,
// counterexamples and traces. Each archive in testdata/golden is a txtar
// file (internal/txtar) whose comment holds the command line, whose files
// are the inputs, and whose sections stdout, stderr and exit hold what the
// command is expected to print and return:
//
//	# An optional description.
//	ladder check bad.yaml
//	-- bad.yaml --
//	...
//	-- stdout --
//	-- stderr --
//	bad.yaml:11:16: expected ")", found end of text
//	-- exit --
//	1
//
// The test writes the inputs to a temporary directory, runs the command
// there in-process (runLadder), normalises the output (goldenNormalise) and
// compares it with the expected sections. After an intended change of an
// output, accept the new one with
//
//	go test ./cmd/ladder -run TestGolden -update
//
// and read the diff of the archives before committing it.

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ladder/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected sections of the golden files in testdata/golden")

// goldenOutputs are the sections of an archive that hold the result.
var goldenOutputs = []string{"stdout", "stderr", "exit"}

// goldenRules replace what varies from run to run, in this order. The
// temporary directory is replaced before them, by $WORK.
var goldenRules = []struct {
	re   *regexp.Regexp
	repl string
}{
	// Numbers in JSON fields of times, rates and memory:
	// "seconds": 0.0123, "elapsedSeconds", "statesPerSecond", "peakMemoryBytes".
	{regexp.MustCompile(`("\w*(?:[sS]econds?|[bB]ytes)"): [0-9.eE+-]+`), `$1: <n>`},
	// Rates: 1981 states/s, 12.5 obligations/s.
	{regexp.MustCompile(`\b\d+(?:\.\d+)? ([a-z]+)/s\b`), `<rate> $1/s`},
	// Durations: 0.056s, 1.23 s, 12ms, 3.5µs, 1m2.5s.
	{regexp.MustCompile(`\b(?:\d+h)?(?:\d+m)?\d+\.\d+ ?(?:s|ms|µs|ns)\b|\b\d+(?:ms|µs|ns)\b`), `<dur>`},
	// Memory figures: store 4.0 MB, peak memory 12 MiB, 1 GiB.
	{regexp.MustCompile(`\b\d+(?:\.\d+)? ?(?:B|kB|KB|KiB|MB|MiB|GB|GiB)\b`), `<mem>`},
}

// goldenNormalise returns out with the temporary directory dir replaced by
// $WORK and the goldenRules applied; an output without a final newline
// gets a visible note.
func goldenNormalise(out, dir string) string {
	for _, d := range goldenDirs(dir) {
		out = strings.ReplaceAll(out, d, "$WORK")
	}
	for _, r := range goldenRules {
		out = r.re.ReplaceAllString(out, r.repl)
	}
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n[no newline at the end]\n"
	}
	return out
}

// goldenDirs returns dir and its spellings with symbolic links resolved,
// longest first.
func goldenDirs(dir string) []string {
	ds := []string{dir}
	if r, err := filepath.EvalSymlinks(dir); err == nil && r != dir {
		ds = append(ds, r)
	}
	slices.SortFunc(ds, func(a, b string) int { return len(b) - len(a) })
	return ds
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		abs, err := filepath.Abs(file) // before testGolden's t.Chdir
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			testGolden(t, abs)
		})
	}
}

// testGolden runs the archive file (an absolute path).
func testGolden(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	a := txtar.Parse(data)
	args := goldenCommand(t, a.Comment)
	dir := t.TempDir()
	for _, f := range a.Files {
		if slices.Contains(goldenOutputs, f.Name) {
			continue
		}
		if filepath.IsAbs(f.Name) || !filepath.IsLocal(f.Name) {
			t.Fatalf("input %q is not a relative path inside the archive's directory", f.Name)
		}
		write(t, filepath.Join(dir, f.Name), string(f.Data))
	}
	t.Chdir(dir)
	code, stdout, stderr := runLadder(args...)
	got := map[string]string{
		"stdout": goldenNormalise(stdout, dir),
		"stderr": goldenNormalise(stderr, dir),
		"exit":   strconv.Itoa(code) + "\n",
	}
	if *update {
		for _, name := range goldenOutputs {
			a.Set(name, []byte(got[name]))
		}
		if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, name := range goldenOutputs {
		want, ok := a.Get(name)
		if !ok {
			t.Errorf("%s has no section %q (run with -update to write it)", file, name)
			continue
		}
		if d := lineDiff(string(want), got[name]); d != "" {
			t.Errorf("%s: ladder %s: %s differs (-want +got; run with -update to accept):\n%s",
				filepath.Base(file), strings.Join(args, " "), name, d)
		}
	}
}

// goldenCommand returns the arguments of the command line in an archive's
// comment: its first line that is neither empty nor a "#" comment, which
// starts with "ladder". Arguments are separated by spaces; single quotes
// group words ('A › b').
func goldenCommand(t *testing.T, comment []byte) []string {
	t.Helper()
	for _, line := range strings.Split(string(comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		args, err := splitQuoted(line)
		if err != nil || len(args) < 2 || args[0] != "ladder" {
			t.Fatalf("bad command line %q: want `ladder COMMAND ARGS` (%v)", line, err)
		}
		args = args[1:]
		if args[0] == "prove" && !slices.ContainsFunc(args, isCacheFlag) {
			t.Fatalf("%q: a golden prove needs its own --cache-dir (or --no-cache)", line)
		}
		return args
	}
	t.Fatal("the archive's comment has no command line")
	return nil
}

// isCacheFlag reports whether s is the flag --cache-dir (-cache-dir,
// --cache-dir=DIR) or --no-cache.
func isCacheFlag(s string) bool {
	name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(s, "-"), "-"), "=")
	return strings.HasPrefix(s, "-") && (name == "cache-dir" || name == "no-cache")
}

// splitQuoted splits s at spaces outside single quotes.
func splitQuoted(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
			}
			inWord = false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unclosed quote")
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}

// lineDiff returns the lines of want and got that differ, as a diff with
// two lines of context ("-" for want, "+" for got), or "" when they are
// equal.
func lineDiff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := splitLines(want), splitLines(got)
	// lcs[i][j] is the length of a longest common subsequence of a[i:], b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ls []line
	for i, j := 0, 0; i < len(a) || j < len(b); {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ls = append(ls, line{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ls = append(ls, line{'-', a[i]})
			i++
		default:
			ls = append(ls, line{'+', b[j]})
			j++
		}
	}
	const context = 2
	var out strings.Builder
	last := -1 // the last line printed
	for k, l := range ls {
		near := false
		for d := max(0, k-context); d <= min(len(ls)-1, k+context); d++ {
			near = near || ls[d].op != ' '
		}
		if !near {
			continue
		}
		if last >= 0 && k > last+1 {
			out.WriteString("  …\n")
		}
		text := strings.TrimSuffix(l.text, "\n")
		if !strings.HasSuffix(l.text, "\n") {
			text += " [no newline]"
		}
		fmt.Fprintf(&out, "%c %s\n", l.op, text)
		last = k
	}
	return out.String()
}

// splitLines returns the lines of s, each with its newline.
func splitLines(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// TestGoldenNormalise checks that the normalisation replaces times, rates,
// memory figures and the temporary directory, and nothing else.
func TestGoldenNormalise(t *testing.T) {
	tests := []struct{ in, want string }{
		{"proved    0.056s\n", "proved    <dur>\n"},
		{"re-checked 39; 1.23 s\n", "re-checked 39; <dur>\n"},
		{"12ms 3.5µs 1m2.5s\n", "<dur> <dur> <dur>\n"},
		{"0.005s, 1981 states/s, 1 worker, store 4.0 MB\n", "<dur>, <rate> states/s, 1 worker, store <mem>\n"},
		{"peak memory 12 MiB, limit 1GiB\n", "peak memory <mem>, limit <mem>\n"},
		{`"seconds": 0.027, "solver_seconds": 1e-05, "elapsedSeconds": 2, "statesPerSecond": 8134.5, "peakMemoryBytes": 4194304`,
			`"seconds": <n>, "solver_seconds": <n>, "elapsedSeconds": <n>, "statesPerSecond": <n>, "peakMemoryBytes": <n>` + "\n[no newline at the end]\n"},
		{"/tmp/x/001/a.yaml:3:1: bad\n", "$WORK/a.yaml:3:1: bad\n"},
		// Unchanged: counts, bounds, values, positions, limits given as flags.
		{"VIOLATION after 3 steps, depth 3, 9 states, 2 s-steps\n", "VIOLATION after 3 steps, depth 3, 9 states, 2 s-steps\n"},
		{"V=2,T=1 T#0 n := n + 1 a.yaml:21:10 10 errors 30s \"rlimit_used\": 959\n", "V=2,T=1 T#0 n := n + 1 a.yaml:21:10 10 errors 30s \"rlimit_used\": 959\n"},
	}
	for _, tt := range tests {
		if got := goldenNormalise(tt.in, "/tmp/x/001"); got != tt.want {
			t.Errorf("goldenNormalise(%q) =\n%q, want\n%q", tt.in, got, tt.want)
		}
	}
}

func TestLineDiff(t *testing.T) {
	if d := lineDiff("a\nb\n", "a\nb\n"); d != "" {
		t.Errorf("equal texts: %q", d)
	}
	want := "  b\n  c\n- d\n+ D\n  e\n  f\n  …\n  j\n  k\n+ l\n"
	if d := lineDiff("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n", "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\n"); d != want {
		t.Errorf("lineDiff =\n%s\nwant\n%s", d, want)
	}
	if d := lineDiff("x\n", "x"); d != "- x\n+ x [no newline]\n" {
		t.Errorf("missing newline: %q", d)
	}
}
