package load

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// memConfig returns a Config reading the given in-memory files.
func memConfig(files map[string]string) Config {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return Config{
		ReadFile: func(name string) ([]byte, error) { return fs.ReadFile(fsys, filepath.ToSlash(name)) },
		ReadDir:  func(name string) ([]fs.DirEntry, error) { return fs.ReadDir(fsys, filepath.ToSlash(name)) },
	}
}

func TestLoadCounter(t *testing.T) {
	set, errs := Files("testdata/ok/counter.yaml")
	if len(errs) > 0 {
		t.Fatalf("unexpected errors:\n%v", errList(errs))
	}
	if got, want := set.Files, []string{"testdata/ok/counter.yaml", "testdata/ok/counter-events.yaml"}; !equal(got, want) {
		t.Errorf("Files = %v, want %v", got, want)
	}
	if len(set.Interfaces) != 1 || len(set.Automata) != 1 {
		t.Fatalf("got %d interfaces and %d automata, want 1 and 1", len(set.Interfaces), len(set.Automata))
	}
	a := set.Automaton("Counter")
	if a == nil {
		t.Fatal("no automaton Counter")
	}
	if a.Interface != set.Interfaces[0] || a.Interface.Name != "CounterEvents" {
		t.Errorf("Interface = %v", a.Interface)
	}
	if a.Pos != (source.Pos{File: "testdata/ok/counter.yaml", Line: 1, Col: 12}) {
		t.Errorf("Pos = %v", a.Pos)
	}
	if !strings.HasPrefix(a.Doc, "A counter") {
		t.Errorf("Doc = %q", a.Doc)
	}
	var sorts []string
	for _, s := range a.Sorts {
		sorts = append(sorts, s.String())
	}
	if want := []string{"T", "Phase", "Cell"}; !equal(sorts, want) {
		t.Errorf("Sorts = %v, want %v (aliases are not sorts)", sorts, want)
	}
	// Flags is an alias of Map[T, Bool].
	if o := a.Scope.Lookup("Flags"); o == nil || o.Kind != expr.ObjSort || o.Sort.String() != "Map[T, Bool]" {
		t.Errorf("Flags = %+v", o)
	}
	if o := a.Scope.Lookup("Busy"); o == nil || o.Kind != expr.ObjEnum || o.Index != 1 || o.Sort.Name != "Phase" {
		t.Errorf("Busy = %+v", o)
	}
	if o := a.Scope.Lookup("Incremented"); o == nil || o.Kind != expr.ObjEvent || len(o.Params) != 1 {
		t.Errorf("Incremented = %+v", o)
	}

	// Constants: those without a value first, then callees first.
	if got := names(a.Consts); !equal(got, []string{"v0", "max"}) {
		t.Errorf("Consts = %v", got)
	}
	// Definitions callees first: max needs limit, full needs max, below needs full.
	defs := names(a.Defs)
	if len(defs) != 3 || index(defs, "limit") > index(defs, "full") || index(defs, "full") > index(defs, "below") {
		t.Errorf("Defs = %v, want callees first", defs)
	}
	for _, d := range a.Defs {
		if d.Kind != expr.ObjDef || d.Body == nil || d.Sort == nil || d.Owner != a {
			t.Errorf("definition %s = %+v", d.Name, d)
		}
	}
	if below := a.Scope.Lookup("below"); len(below.Params) != 1 || below.Params[0].Name != "k" || below.Sort != expr.BoolSort {
		t.Errorf("below = %+v", below)
	}

	// State.
	var vars []string
	for i, v := range a.Vars {
		vars = append(vars, v.Name)
		if v.Obj.Kind != expr.ObjVar || v.Obj.Index != i || v.Obj.Sort != v.Sort || a.Scope.Lookup(v.Name) != v.Obj {
			t.Errorf("var %s: obj %+v", v.Name, v.Obj)
		}
	}
	if !equal(vars, []string{"n", "phase", "seen", "cell"}) {
		t.Errorf("Vars = %v", vars)
	}
	if a.Var("n").Sort != expr.NatSort || a.Var("n").Init == nil || a.Var("seen").Init != nil {
		t.Errorf("n = %+v, seen = %+v", a.Var("n"), a.Var("seen"))
	}
	ss := a.StateSort
	if ss == nil || ss.Kind != expr.KRecord || ss.State != a || len(ss.Fields) != 4 || ss.Fields[2].Name != "seen" || ss.Fields[2].Sort.String() != "Map[T, Bool]" {
		t.Errorf("StateSort = %+v", ss)
	}
	if AutomatonScope(ss) != a.Scope {
		t.Error("AutomatonScope(StateSort) is not the automaton's scope")
	}
	if len(a.Initially) != 1 {
		t.Errorf("Initially = %v", a.Initially)
	}

	// Actions and the view.
	if len(a.Actions) != 3 {
		t.Fatalf("Actions = %v", a.Actions)
	}
	inc, tick, clear := a.Action("Inc"), a.Action("Tick"), a.Action("Clear")
	if inc.Kind != ioa.Input || tick.Kind != ioa.Internal || clear.Kind != ioa.Output {
		t.Errorf("kinds: %v %v %v", inc.Kind, tick.Kind, clear.Kind)
	}
	if len(inc.Params) != 1 || inc.Params[0].Var.Kind != expr.ObjParam || inc.Params[0].Var.Sort.Name != "T" || inc.Scope.Lookup("t") != inc.Params[0].Var {
		t.Errorf("Inc params = %+v", inc.Params)
	}
	if p := tick.Params[0]; p.Lo == nil || p.Hi == nil || p.Var.Sort != expr.IntSort || p.SortExpr.Name != "" {
		t.Errorf("Tick param = %+v", p)
	}
	if inc.Pre == nil || len(inc.Eff) != 2 || len(tick.Eff) != 1 || len(clear.Eff) != 2 {
		t.Errorf("pre/eff: %v %d %d %d", inc.Pre, len(inc.Eff), len(tick.Eff), len(clear.Eff))
	}
	if tick.View != nil || inc.View == nil || inc.View.Event.Name != "Incremented" || len(inc.View.Args) != 1 || inc.View.Action != inc {
		t.Errorf("Inc view = %+v, Tick view = %+v", inc.View, tick.View)
	}
	if clear.View == nil || clear.View.Event.Name != "Reset" || len(clear.View.Args) != 0 {
		t.Errorf("Clear view = %+v", clear.View)
	}
	if len(a.View) != 2 || a.View[0] != inc.View || a.View[1] != clear.View {
		t.Errorf("View = %v, want Inc's and Clear's in action order", a.View)
	}

	// Invariants.
	if len(a.Invariants) != 2 || a.Invariants[0].Assumes != nil || !equal(a.Invariants[1].Assumes, []string{"bounded"}) || a.Invariants[1].Doc == "" {
		t.Errorf("Invariants = %+v %+v", a.Invariants[0], a.Invariants[1])
	}
}

// errorComment matches the expected-error comments of the fixtures:
// `# ERROR "substring"` in YAML, `// ERROR "substring"` inside expressions.
var errorComment = regexp.MustCompile(`(?:#|//)\s*ERROR\s+((?:"(?:[^"\\]|\\.)*"\s*)+)$`)
var quoted = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)

// expectation is an expected error: a substring of the message on a line.
type expectation struct {
	file string
	line int
	sub  string
	hit  bool
}

// expectations reads the ERROR comments of a file.
func expectations(t *testing.T, file string) []*expectation {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []*expectation
	for i, line := range strings.Split(string(data), "\n") {
		m := errorComment.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
			out = append(out, &expectation{file: file, line: i + 1, sub: strings.ReplaceAll(q[1], `\"`, `"`)})
		}
	}
	return out
}

// TestErrorFixtures loads each file of testdata/errors and checks that the
// errors are exactly those announced by its ERROR comments, by line.
func TestErrorFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			set, errs := Files(file)
			var exps []*expectation
			for _, f := range set.Files {
				exps = append(exps, expectations(t, f)...)
			}
			if len(exps) == 0 {
				t.Fatalf("%s announces no errors", file)
			}
			for _, e := range errs {
				if !e.Pos.IsValid() || e.Pos.Col < 1 {
					t.Errorf("error without line and column: %v", e)
				}
				found := false
				for _, x := range exps {
					if x.file == e.Pos.File && x.line == e.Pos.Line && strings.Contains(e.Msg, x.sub) {
						x.hit, found = true, true
					}
				}
				if !found {
					t.Errorf("unexpected error: %v", e)
				}
			}
			for _, x := range exps {
				if !x.hit {
					t.Errorf("%s:%d: missing error %q", x.file, x.line, x.sub)
				}
			}
		})
	}
}

// TestExactErrors checks complete diagnostics, file:line:col: message.
func TestExactErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		load  []string // the paths to load; nil: every file
		want  []string
	}{
		{
			name:  "yaml syntax error",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  n: [Int\nactions: {}\n"},
			want:  []string{"a.yaml:3:1: malformed YAML: did not find expected ',' or ']'"},
		},
		{
			name:  "a call with brackets in a flow sequence",
			files: map[string]string{"a.yaml": "proof: P\nsteps:\n  Go: [Go()]\n  Read: [DoRead(t, c.addr[t], 0)]\ntheorems: []\n"},
			want:  []string{"a.yaml:4:9: malformed YAML: a call inside a YAML flow sequence [...]: YAML reads its brackets and commas as the sequence's own; write the calls as a block sequence, one `- Act(args)` per line"},
		},
		{
			name:  "yaml syntax error on the first line",
			files: map[string]string{"a.yaml": "automaton: A: B\n"},
			want:  []string{"a.yaml:1:1: malformed YAML: mapping values are not allowed in this context (an expression containing \": \", such as `forall t: T. p`, must be quoted or written as a block scalar: `key: |`)"},
		},
		{
			name:  "not a mapping at top level",
			files: map[string]string{"a.yaml": "- automaton\n"},
			want:  []string{"a.yaml:1:1: expected a mapping with a key interface, automaton or proof at the top level, found a sequence"},
		},
		{
			name:  "no kind key",
			files: map[string]string{"a.yaml": "name: x\n"},
			want:  []string{"a.yaml:1:1: expected a key interface, automaton or proof at the top level"},
		},
		{
			name:  "empty file",
			files: map[string]string{"a.yaml": "# nothing\n"},
			want:  []string{"a.yaml:1:1: empty file: expected an interface, automaton or proof"},
		},
		{
			name:  "two documents",
			files: map[string]string{"a.yaml": "automaton: A\nstate: {}\nactions: {}\n---\nx: 1\n"},
			want:  []string{"a.yaml:4:1: a file holds a single YAML document"},
		},
		{
			name:  "wrong node kind",
			files: map[string]string{"a.yaml": "automaton: A\nstate: {}\nactions: [a, b]\n"},
			want:  []string{`a.yaml:3:10: expected a mapping for "actions", found a sequence`},
		},
		{
			name:  "unknown key",
			files: map[string]string{"a.yaml": "automaton: A\nstate: {}\nactions: {}\ninvariant: {}\n"},
			want:  []string{`a.yaml:4:1: unknown key "invariant" in an automaton (did you mean "invariants"?)`},
		},
		{
			name:  "missing key",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  x: {init: 1}\nactions: {}\n"},
			want:  []string{`a.yaml:3:3: missing key "sort" in state variable "x"`},
		},
		{
			name:  "duplicate action",
			files: map[string]string{"a.yaml": "automaton: A\nstate: {}\nactions:\n  B: {kind: internal}\n  B: {kind: internal}\n"},
			want:  []string{`a.yaml:5:3: duplicate action "B" (first at line 4)`},
		},
		{
			name:  "sort error",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  n: Int\nactions:\n  B:\n    kind: internal\n    pre: n + 1\n    eff: |\n      n := n > 0\n"},
			want:  []string{`a.yaml:7:10: expected Bool, found Int`, `a.yaml:9:12: expected Int, found Bool in assignment to n`},
		},
		{
			name:  "unknown identifier in a plain scalar",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  n: Int\nactions:\n  B:\n    kind: internal\n    pre: n > 0 and zz > 1\n"},
			want:  []string{`a.yaml:7:20: undefined name "zz"`},
		},
		{
			name:  "unknown identifier in a literal block",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  n: Int\nactions:\n  B:\n    kind: internal\n    eff: |\n      n := 1\n\n      n2 := n + zz\n"},
			want:  []string{`a.yaml:10:7: undefined name "n2"`, `a.yaml:10:17: undefined name "zz"`},
		},
		{
			name:  "unknown identifier in a folded block",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  n: Int\nactions:\n  B:\n    kind: internal\n    pre: >\n      n > 0\n        and zz\n"},
			want:  []string{`a.yaml:9:13: undefined name "zz"`},
		},
		{
			name:  "unknown identifier in a multi-line plain scalar",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  n: Int\nactions:\n  B:\n    kind: internal\n    pre: n > 0\n      and\n         zz\n"},
			want:  []string{`a.yaml:9:10: undefined name "zz"`},
		},
		{
			name:  "unknown identifier in a quoted scalar",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  n: Int\nactions:\n  B:\n    kind: internal\n    pre: \"n > zz\"\n"},
			want:  []string{`a.yaml:7:15: undefined name "zz"`},
		},
		{
			name:  "unknown identifier after a unicode operator",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  n: Int\nactions:\n  B:\n    kind: internal\n    pre: n ≥ 0 ∧ zz\n"},
			want:  []string{`a.yaml:7:22: undefined name "zz"`},
		},
		{
			name:  "interface not found",
			files: map[string]string{"dir/a.yaml": "automaton: A\ninterface:   ../if.yaml\nstate: {}\nactions: {}\n"},
			want:  []string{"dir/a.yaml:2:14: cannot read if.yaml: file does not exist"},
		},
		{
			name: "interface file is an automaton",
			files: map[string]string{
				"a.yaml": "automaton: A\ninterface: b.yaml\nstate: {}\nactions: {}\n",
				"b.yaml": "automaton: B\nstate: {}\nactions: {}\n",
			},
			load: []string{"a.yaml"},
			want: []string{"a.yaml:2:12: b.yaml is an automaton file, not an interface file"},
		},
		{
			name:  "file not found",
			files: map[string]string{},
			load:  []string{"a.yaml"},
			want:  []string{"a.yaml: cannot read file: file does not exist"},
		},
		{
			name:  "recursive definition",
			files: map[string]string{"a.yaml": "automaton: A\nstate: {}\ndefinitions:\n  f: g\n  g: f\nactions: {}\n"},
			want:  []string{`a.yaml:4:3: definition "f" is recursive: f → g → f`},
		},
		{
			name:  "yaml alias",
			files: map[string]string{"a.yaml": "automaton: A\nstate: &s {}\nactions: *s\n"},
			want:  []string{"a.yaml:2:8: YAML anchors are not supported", "a.yaml:3:10: YAML aliases are not supported"},
		},
		{
			name: "same automaton twice",
			files: map[string]string{
				"a.yaml": "automaton: A\nstate: {}\nactions: {}\n",
				"b.yaml": "automaton: A\nstate: {}\nactions: {}\n",
			},
			want: []string{`b.yaml:1:12: automaton "A" is already declared at a.yaml:1:12`},
		},
		{
			name:  "keyword as a name",
			files: map[string]string{"a.yaml": "automaton: A\nstate:\n  in: Int\nactions: {}\n"},
			want:  []string{`a.yaml:3:3: invalid state variable name "in": it is a keyword`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			paths := tt.load
			if paths == nil {
				for name := range tt.files {
					paths = append(paths, name)
				}
				sort.Strings(paths)
			}
			_, errs := memConfig(tt.files).Files(paths...)
			if got := errList(errs); !equal(got, tt.want) {
				t.Errorf("got errors\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
		})
	}
}

// TestDirectories checks how directories are walked, and that a file
// reached twice is loaded once.
func TestDirectories(t *testing.T) {
	iface := "interface: I\nsorts: {T: param}\nevents: {E: {t: T}}\n"
	auto := func(name string) string {
		return "automaton: " + name + "\ninterface: ../lib/i.yaml\nstate: {}\nactions:\n  A: {kind: input, params: {t: T}}\nview:\n  A: E(t)\n"
	}
	cfg := memConfig(map[string]string{
		"specs/lib/i.yaml":           iface,
		"specs/b/b.yaml":             auto("B"),
		"specs/b/a.yml":              auto("A"),
		"specs/b/notes.txt":          "not yaml",
		"specs/b/_draft.yaml":        "broken: [",
		"specs/b/.hidden.yaml":       "broken: [",
		"specs/b/testdata/x.yaml":    "broken: [",
		"specs/_old/x.yaml":          "broken: [",
		"specs/.git/x.yaml":          "broken: [",
		"specs/b/proofs/p.yaml":      "proof: P\n",
		"specs/b/deeper/c/more.yaml": "interface: J\nevents: {}\n",
	})
	set, errs := cfg.Files("specs/b", "specs/lib")
	for _, e := range errs {
		// The proof file is recognised; its (incomplete) contents are the
		// proof loader's business.
		if e.Pos.File != "specs/b/proofs/p.yaml" {
			t.Errorf("unexpected error: %v", e)
		}
	}
	want := []string{"specs/b/a.yml", "specs/lib/i.yaml", "specs/b/b.yaml", "specs/b/deeper/c/more.yaml", "specs/b/proofs/p.yaml"}
	if !equal(set.Files, want) {
		t.Errorf("Files = %v, want %v", set.Files, want)
	}
	if len(set.Interfaces) != 2 || set.Interface("I") == nil || set.Interface("J") == nil {
		t.Errorf("Interfaces = %v", set.Interfaces)
	}
	if len(set.Automata) != 2 || set.Automaton("A").Interface != set.Automaton("B").Interface {
		t.Errorf("the automata do not share their interface: %v", set.Automata)
	}
	if len(set.ProofFiles) != 1 || set.ProofFiles[0].Name != "P" || set.ProofFiles[0].Pos.Line != 1 {
		t.Errorf("ProofFiles = %+v", set.ProofFiles)
	}

	// An explicit path into a skipped directory is loaded.
	_, errs = cfg.Files("specs/b/testdata")
	if len(errs) != 1 || errs[0].Code != source.ErrSyntax {
		t.Errorf("explicit testdata: errors %v", errList(errs))
	}
}

func TestOSFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/x.yaml", "interface: X\nevents: {}\n")
	write("a/testdata/bad.yaml", "broken: [")
	write("b.yaml", "interface: Y\nevents: {}\n")
	set, errs := Files(filepath.Join(dir, "a"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "missing"))
	if len(set.Interfaces) != 2 {
		t.Errorf("Interfaces = %v", set.Interfaces)
	}
	if len(errs) != 1 || errs[0].Code != source.ErrIO || errs[0].Pos.File != filepath.Join(dir, "missing") {
		t.Errorf("errors = %v", errList(errs))
	}
	var pe *fs.PathError
	if _, err := os.ReadFile(filepath.Join(dir, "missing")); !errors.As(err, &pe) {
		t.Errorf("os.ReadFile did not give a PathError: %v", err)
	}
}

func errList(errs source.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func names(objs []*expr.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Name)
	}
	return out
}

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
