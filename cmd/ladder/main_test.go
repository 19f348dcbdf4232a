package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// runLadder runs the command and returns its exit code and outputs.
func runLadder(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // regexp the output must match ("" matches anything)
		stderr string
	}{
		{"no arguments", nil, exitUsage, "", `(?s)^ladder is a .*check`},
		{"help", []string{"help"}, exitOK, `(?s)The commands are:.*check.*explore.*run`, ""},
		{"help check", []string{"help", "check"}, exitOK, `(?s)usage: ladder check.*-all-errors`, ""},
		{"help unknown", []string{"help", "nope"}, exitUsage, "", `unknown command "nope"`},
		{"check -h", []string{"check", "-h"}, exitOK, `usage: ladder check`, ""},
		{"version", []string{"version"}, exitOK, `^ladder \S+ \(go`, ""},
		{"unknown command", []string{"frobnicate"}, exitUsage, "", `ladder: unknown command "frobnicate"`},
		{"unknown flag", []string{"check", "--frob", "testdata/ok"}, exitUsage, "", `(?s)flag provided but not defined: -frob.*usage: ladder check`},
		{"check clean", []string{"check", "testdata/ok"}, exitOK, `^checked 2 files: 1 automaton, 1 interface, 0 proofs\n$`, `^$`},
		{"check flag after path", []string{"check", "testdata/ok", "--all-errors"}, exitOK, `checked 2 files`, `^$`},
		{"check errors", []string{"check", "testdata/bad/syntax.yaml"}, exitFailure,
			`checked 1 file: 0 automata, 0 interfaces, 0 proofs`,
			`^testdata/bad/syntax.yaml:3:1: malformed YAML: did not find expected node content\n1 error\n$`},
		{"check missing file", []string{"check", "testdata/nope.yaml"}, exitFailure, "", `testdata/nope.yaml: cannot read file`},
		{"check at most 10 per file", []string{"check", "testdata/bad/bad.yaml"}, exitFailure, "",
			`(?s)^(testdata/bad/bad.yaml:\d+:\d+: undefined name "u\d+"\n){10}testdata/bad/bad.yaml: too many errors \(2 more; use --all-errors to see them\)\n12 errors\n$`},
		{"check all errors", []string{"check", "--all-errors", "testdata/bad/bad.yaml"}, exitFailure, "",
			`(?s)^(testdata/bad/bad.yaml:\d+:\d+: undefined name "u\d+"\n){12}12 errors\n$`},
		{"check -- path", []string{"check", "--", "testdata/ok"}, exitOK, `checked 2 files`, ""},
		{"explore clean", []string{"explore", "testdata/ok/counter.yaml", "--bound", "T=2"}, exitOK,
			`(?s)^Counter \(T=2\): 3 states, .*OK: all 1 invariant`, `^$`},
		{"explore flags first", []string{"explore", "--bound=T=1", "--automaton", "Counter", "testdata/ok"}, exitOK, `Counter \(T=1\): 3 states`, `^$`},
		{"explore constant bound", []string{"explore", "testdata/ok/counter.yaml", "--bound", "T=1,max=4"}, exitOK, `5 states`, `^$`},
		{"explore violation", []string{"explore", "testdata/violation/counter.yaml", "--bound", "T=1"}, exitFailure,
			`(?s)VIOLATION of small after 2 steps.*Inc\(T#0\).*n = 2`, `^$`},
		{"explore max-states", []string{"explore", "testdata/ok/counter.yaml", "--bound", "T=2", "--max-states", "2"}, exitOK, `INCOMPLETE`, `^$`},
		{"explore without file", []string{"explore", "--bound", "T=2"}, exitUsage, "", `expected one FILE, got 0 arguments`},
		{"explore bad bound", []string{"explore", "testdata/ok/counter.yaml", "--bound", "T"}, exitUsage, "", `--bound: bad bound "T"`},
		{"explore unknown automaton", []string{"explore", "testdata/ok/counter.yaml", "--automaton", "Nope"}, exitUsage, "", `no automaton Nope \(there is Counter\)`},
		{"explore unknown invariant", []string{"explore", "testdata/ok/counter.yaml", "--invariants", "nope"}, exitUsage, "", `automaton Counter has no invariant "nope"`},
		{"explore load errors", []string{"explore", "testdata/bad/bad.yaml"}, exitFailure, "", `(?s)undefined name.*too many errors.*12 errors`},
		{"explore unknown flag", []string{"explore", "testdata/ok/counter.yaml", "--frob"}, exitUsage, "", `flag provided but not defined`},
		{"run", []string{"run", "testdata/ok/counter.yaml", "--bound", "T=1", "--steps", "5", "--seed", "3"}, exitOK,
			`(?s)0: start state.*n = 0.*1: Inc\(T#0\).*2: Inc\(T#0\).*n = 2\nThe last state enables no action`, `^$`},
		{"run violation", []string{"run", "testdata/violation/counter.yaml", "--bound", "T=1", "--steps", "5"}, exitFailure, `violates small`, `^$`},
		{"run negative steps", []string{"run", "testdata/ok/counter.yaml", "--steps", "-1"}, exitUsage, "", `--steps must not be negative`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runLadder(tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			if tt.stdout != "" && !regexp.MustCompile(tt.stdout).MatchString(stdout) {
				t.Errorf("stdout does not match %q:\n%s", tt.stdout, stdout)
			}
			if tt.stderr != "" && !regexp.MustCompile(tt.stderr).MatchString(stderr) {
				t.Errorf("stderr does not match %q:\n%s", tt.stderr, stderr)
			}
		})
	}
}

// TestRunSeed checks that a seed reproduces its run, and that runs of
// different seeds differ (for an automaton with choices).
func TestRunSeed(t *testing.T) {
	out := func(seed string) string {
		code, stdout, stderr := runLadder("run", "testdata/ok/counter.yaml", "--bound", "T=3", "--steps", "2", "--seed", seed, "--json")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return stdout
	}
	first, again := out("7"), out("7")
	if first != again {
		t.Error("the same seed gave different runs")
	}
	differ := false
	for s := 2; s <= 20 && !differ; s++ {
		differ = out("1") != out(strconv.Itoa(s))
	}
	if !differ {
		t.Error("20 seeds gave the same run")
	}
}

func TestExploreJSON(t *testing.T) {
	code, stdout, _ := runLadder("explore", "testdata/violation/counter.yaml", "--bound", "T=2", "--json")
	if code != exitFailure {
		t.Errorf("exit %d", code)
	}
	var res struct {
		Automaton string `json:"automaton"`
		States    int    `json:"states"`
		Complete  bool   `json:"complete"`
		Violation *struct {
			Invariant string `json:"invariant"`
			Steps     []struct {
				Action string `json:"action"`
			} `json:"steps"`
		} `json:"violation"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("bad JSON %v:\n%s", err, stdout)
	}
	if res.Automaton != "Counter" || res.States < 3 || res.Violation == nil || res.Violation.Invariant != "small" || len(res.Violation.Steps) != 3 {
		t.Errorf("result: %+v", res)
	}
}

func TestCheckJSON(t *testing.T) {
	for _, tt := range []struct {
		path   string
		code   int
		ok     bool
		errors int
	}{
		{"testdata/ok", exitOK, true, 0},
		{"testdata/bad/bad.yaml", exitFailure, false, 12},
	} {
		code, stdout, stderr := runLadder("check", tt.path, "--json")
		if code != tt.code || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q", tt.path, code, stderr)
		}
		var out checkJSON
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%s: bad JSON %v:\n%s", tt.path, err, stdout)
		}
		if out.OK != tt.ok || len(out.Errors) != tt.errors || out.Files == nil || out.Automata == nil {
			t.Errorf("%s: %+v", tt.path, out)
		}
		for _, e := range out.Errors {
			if e.File == "" || e.Line < 1 || e.Col < 1 || e.Code != "name" || !strings.HasPrefix(e.Message, "undefined name") {
				t.Errorf("%s: error %+v", tt.path, e)
			}
		}
	}
	// The raw keys, as documented in docs/cli.md.
	_, stdout, _ := runLadder("check", "--json", "testdata/ok")
	var raw map[string]any
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"files", "automata", "interfaces", "proofs", "errors", "ok"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("key %q missing in %s", k, stdout)
		}
	}
	if a := raw["automata"].([]any); len(a) != 1 || a[0] != "Counter" {
		t.Errorf("automata = %v", a)
	}
}

// TestCheckDefaultDirs runs check without paths in a directory holding
// specs/ only.
func TestCheckDefaultDirs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"events.yaml", "counter.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata/ok", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "specs"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "specs", f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	if code, stdout, stderr := runLadder("check"); code != exitOK || !strings.HasPrefix(stdout, "checked 2 files") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	t.Chdir(t.TempDir())
	if code, _, stderr := runLadder("check"); code != exitUsage || !strings.Contains(stderr, "no paths given") {
		t.Errorf("empty directory: exit %d, %s", code, stderr)
	}
}

// TestInternalError checks that a panic in a command becomes exit code 3
// without a stack trace.
func TestInternalError(t *testing.T) {
	register(&command{name: "test-panic", setup: func(*flag.FlagSet) func(*env, []string) int {
		return func(*env, []string) int { panic("boom") }
	}})
	defer delete(commands, "test-panic")
	t.Setenv("LADDER_DEBUG", "")
	code, _, stderr := runLadder("test-panic")
	if code != exitInternal || !strings.HasPrefix(stderr, "ladder: internal error: boom\n") || strings.Contains(stderr, "goroutine") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	t.Setenv("LADDER_DEBUG", "1")
	code, _, stderr = runLadder("test-panic")
	if code != exitInternal || !strings.Contains(stderr, "goroutine") {
		t.Errorf("with LADDER_DEBUG=1: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		args []string
		pos  []string
		n    int
	}{
		{[]string{"a", "-n", "3", "b"}, []string{"a", "b"}, 3},
		{[]string{"-n", "3", "a", "b"}, []string{"a", "b"}, 3},
		{[]string{"a", "b", "--n=4"}, []string{"a", "b"}, 4},
		{[]string{"a", "--", "-n", "5"}, []string{"a", "-n", "5"}, 0},
		{nil, nil, 0},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		n := fs.Int("n", 0, "")
		pos, err := parseInterleaved(fs, tt.args)
		if err != nil || strings.Join(pos, " ") != strings.Join(tt.pos, " ") || *n != tt.n {
			t.Errorf("%q: got %q, n=%d, %v; want %q, n=%d", tt.args, pos, *n, err, tt.pos, tt.n)
		}
	}
}
