package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The fixture harness. Every directory of testdata/fixtures and
// testdata/fixedbugs (regressions) is one fixture: YAML files whose
// comments say what ladder must report, in the manner of go/types'
// /* ERROR */ comments:
//
//	…  # ERROR "re"       check or prove reports an error on this line
//	                      whose message matches the regular expression re
//	…  # REFUTED "id"     prove refutes an obligation blamed on this line
//	                      whose ID contains id; so does the bounded check
//	                      of the file (explore for an automaton, crosscheck
//	                      for a proof) when it has a BOUND line
//	# HOLDS               (a line of its own) nothing is refuted and
//	                      nothing fails, in prove and in the bounded check
//	# BOUND P=2           (a line of its own) the instance of the file's
//	                      bounded check
//
// Every error and every refutation must be annotated, and every
// annotation met: an unexpected diagnostic fails the fixture as a missing
// one does. A file with HOLDS must have no ERROR or REFUTED annotation.
// Since YAML block scalars (`|`) have no comments, annotated lines are
// plain scalars.
func TestFixtureHarness(t *testing.T) {
	var dirs []string
	for _, root := range []string{"testdata/fixtures", "testdata/fixedbugs"} {
		ents, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(root, e.Name()))
			}
		}
	}
	if len(dirs) < 4 {
		t.Fatalf("%d fixtures; want the harness's own at least", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(strings.TrimPrefix(dir, "testdata/"), func(t *testing.T) {
			fx, err := readFixture(dir)
			if err != nil {
				t.Fatal(err)
			}
			fx.run(t)
		})
	}
}

// annotation is one expectation at a line of a file.
type annotation struct {
	file string // base name
	line int
	kind string // "ERROR" or "REFUTED"
	arg  string
	met  bool
}

func (a *annotation) String() string {
	return fmt.Sprintf("%s:%d: # %s %q", a.file, a.line, a.kind, a.arg)
}

// fixtureFile is one YAML file of a fixture.
type fixtureFile struct {
	path  string
	proof bool   // a proof file (its first key is proof:)
	bound string // the BOUND line's instance, "" for none
	holds bool
}

type fixture struct {
	dir   string
	files []*fixtureFile
	notes []*annotation
}

var annotationRE = regexp.MustCompile(`#\s*(ERROR|REFUTED)\s+("(?:[^"\\]|\\.)*")\s*$`)

func readFixture(dir string) (*fixture, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(paths) == 0 {
		return nil, fmt.Errorf("%s: no YAML files", dir)
	}
	fx := &fixture{dir: dir}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f := &fixtureFile{path: p}
		first := true
		for i, line := range strings.Split(string(data), "\n") {
			trim := strings.TrimSpace(line)
			switch {
			case trim == "# HOLDS":
				f.holds = true
			case strings.HasPrefix(trim, "# BOUND "):
				f.bound = strings.TrimSpace(strings.TrimPrefix(trim, "# BOUND "))
			case first && trim != "" && !strings.HasPrefix(trim, "#"):
				f.proof = strings.HasPrefix(trim, "proof:")
				first = false
			}
			if m := annotationRE.FindStringSubmatch(line); m != nil {
				arg, err := strconv.Unquote(m[2])
				if err != nil {
					return nil, fmt.Errorf("%s:%d: annotation: %v", p, i+1, err)
				}
				if f.holds {
					return nil, fmt.Errorf("%s:%d: an annotation in a file that HOLDS", p, i+1)
				}
				fx.notes = append(fx.notes, &annotation{file: filepath.Base(p), line: i + 1, kind: m[1], arg: arg})
			}
		}
		fx.files = append(fx.files, f)
	}
	return fx, nil
}

// diagRE matches a diagnostic "file:line:col: message".
var diagRE = regexp.MustCompile(`^(\S+\.yaml):(\d+):\d+: (.*)$`)

// meet marks the annotation of kind at file:line that accepts text, and
// reports whether there is one.
func (fx *fixture) meet(kind, file string, line int, text string) bool {
	for _, a := range fx.notes {
		if a.kind != kind || a.file != filepath.Base(file) || a.line != line {
			continue
		}
		ok := strings.Contains(text, a.arg)
		if kind == "ERROR" {
			ok = regexp.MustCompile(a.arg).MatchString(text)
		}
		if ok {
			a.met = true
			return true
		}
	}
	return false
}

func (fx *fixture) run(t *testing.T) {
	// check: every error annotated.
	_, _, stderr := runLadder("check", fx.dir)
	checkFailed := false
	for _, l := range strings.Split(stderr, "\n") {
		if m := diagRE.FindStringSubmatch(l); m != nil {
			checkFailed = true
			line, _ := strconv.Atoi(m[2])
			if !fx.meet("ERROR", m[1], line, m[3]) {
				t.Errorf("check: unexpected error %s", l)
			}
		}
	}
	if !checkFailed {
		fx.prove(t)
		fx.bounded(t)
	}
	for _, a := range fx.notes {
		if !a.met {
			t.Errorf("not reported: %s", a)
		}
	}
}

// prove proves the fixture and matches its refutations and errors.
func (fx *fixture) prove(t *testing.T) {
	code, stdout, stderr := runLadder("prove", "--no-cache", "-j", "1", "--json", fx.dir)
	var rep struct {
		Obligations []struct{ ID, Pos, Verdict string }
		Errors      []string
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("prove: exit code %d, no JSON report (%v)\nstderr:\n%s", code, err, stderr)
	}
	for _, o := range rep.Obligations {
		switch o.Verdict {
		case "proved", "trivial":
			continue
		case "refuted":
			if m := diagRE.FindStringSubmatch(o.Pos + ": "); m != nil {
				line, _ := strconv.Atoi(m[2])
				if fx.meet("REFUTED", m[1], line, o.ID) {
					continue
				}
			}
			t.Errorf("prove: unexpected refutation of %s (%s)", o.ID, o.Pos)
		default:
			t.Errorf("prove: %s is %s (%s): a fixture's obligations are proved or refuted", o.ID, o.Verdict, o.Pos)
		}
	}
	for _, e := range rep.Errors {
		m := diagRE.FindStringSubmatch(e)
		if m == nil {
			t.Errorf("prove: error without a position: %s", e)
			continue
		}
		line, _ := strconv.Atoi(m[2])
		if !fx.meet("ERROR", m[1], line, m[3]) {
			t.Errorf("prove: unexpected error %s", e)
		}
	}
}

// bounded runs the bounded check of every file with a BOUND line: it must
// report one of the file's REFUTED annotations, or pass when there is
// none.
func (fx *fixture) bounded(t *testing.T) {
	for _, f := range fx.files {
		if f.bound == "" {
			continue
		}
		var refuted []*annotation
		for _, a := range fx.notes {
			if a.kind == "REFUTED" && a.file == filepath.Base(f.path) {
				refuted = append(refuted, a)
			}
		}
		var found, cmd string
		if f.proof {
			cmd = "crosscheck"
			_, stdout, stderr := runLadder("crosscheck", f.path, fx.dir, "--bound", f.bound, "--json")
			var r struct {
				Results []struct {
					Failure *struct{ Obligation string }
				}
			}
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Errorf("crosscheck %s: no JSON (%v)\nstderr:\n%s", f.path, err, stderr)
				continue
			}
			for _, res := range r.Results {
				if res.Failure != nil {
					found = res.Failure.Obligation
				}
			}
		} else {
			cmd = "explore"
			_, stdout, stderr := runLadder("explore", f.path, "--bound", f.bound, "--json")
			var r struct {
				Violation *struct{ Invariant string }
			}
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Errorf("explore %s: no JSON (%v)\nstderr:\n%s", f.path, err, stderr)
				continue
			}
			if r.Violation != nil {
				found = "invariant " + r.Violation.Invariant
			}
		}
		switch {
		case found == "" && len(refuted) > 0:
			t.Errorf("%s %s --bound %s: nothing refuted; want one of %v", cmd, f.path, f.bound, refuted)
		case found != "" && len(refuted) == 0:
			t.Errorf("%s %s --bound %s: refuted %s; want nothing refuted", cmd, f.path, f.bound, found)
		case found != "":
			ok := false
			for _, a := range refuted {
				ok = ok || strings.Contains(found, a.arg)
			}
			if !ok {
				t.Errorf("%s %s --bound %s: refuted %s; want one of %v", cmd, f.path, f.bound, found, refuted)
			}
		}
	}
}
