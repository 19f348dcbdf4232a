package shape

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The rules (see the package documentation).
const (
	maxFileLines  = 800
	maxFuncLines  = 120
	maxComplexity = 40
	// growth is how much an exempted file or function may grow beyond its
	// recorded size, in percent.
	growth = 10
)

// The kinds of findings.
const (
	ruleFile       = "lines"      // a file's lines
	ruleFunc       = "func lines" // a function's lines
	ruleComplexity = "complexity" // a function's cyclomatic complexity
)

// exemption lets one file or function break a rule: where (a file,
// relative to the module root, or file:Func, file:Type.Method), its size
// when it was exempted under each rule it breaks (lines: of the file or
// function; complexity: of the function; 0 when it keeps the rule), and
// why it is left as it is.
type exemption struct {
	where      string
	lines      int
	complexity int
	reason     string
}

// size returns e's recorded size under rule, 0 when e does not exempt it.
func (e exemption) size(rule string) int {
	if rule == ruleComplexity {
		return e.complexity
	}
	return e.lines
}

// exemptions are the files and functions that broke a rule when the test
// was written. Each may grow by growth percent at most; shrink one below
// its rule and remove (or zero) its size.
var exemptions = []exemption{
	// files over maxFileLines
	{"internal/crosscheck/search.go", 855, 0, "the breadth-first search the proof cross-checks share, with its parallel expansion"},
	{"internal/explore/explore.go", 1201, 0, "the explorer's search, options, budgets and result"},
	{"ioa/expr/parse.go", 802, 0, "the recursive-descent parser of the whole expression grammar"},
	// functions over maxFuncLines or maxComplexity
	{"cmd/ladder/crosscheck.go:crosscheckFlags.run", 133, 0, "checks crosscheck's flags and dispatches its modes, in the order of the usage"},
	{"cmd/ladder/explore.go:init", 154, 0, "the command's registration, mostly its long usage text"},
	{"internal/crosscheck/search.go:search.expandNode", 0, 51, "one node's transitions, with symmetry, dead registers and the Flat fast path"},
	{"internal/encode/decode.go:Encoder.literal", 126, 0, "one case per kind of evaluator value"},
	{"internal/encode/expr_calls.go:Encoder.builtin", 138, 43, "one case per built-in function"},
	{"internal/explore/parallel_flat.go:explorer.expandFlat", 140, 0, "the inner loop of the parallel search, kept whole for speed"},
	{"internal/explore/symmetry_guard.go:symChecker.assume", 0, 52, "one case per form of fact the symmetry analysis recognizes"},
	{"internal/explore/symmetry_guard.go:symChecker.check", 0, 42, "one case per expression form the symmetry check reads"},
	{"internal/infer/candidate.go:candidates", 189, 82, "the combinations of atoms per template, with their redundancy links"},
	{"internal/infer/infer.go:run", 188, 0, "the inference pipeline's phases in order"},
	{"internal/report/html.go:buildView", 127, 0, "builds the HTML report's view, one section after another"},
	{"internal/smt/smt.go:builder.term1", 122, 44, "one case per kind and operator of logic terms"},
	{"ioa/eval/expr_calls.go:compiler.builtin", 142, 0, "one case per built-in function"},
	{"ioa/eval/fast/expr_ops.go:flatCompiler.binary", 136, 0, "one case per binary operator and layout of its operands"},
	{"ioa/eval/fast/expr_calls.go:flatCompiler.callRegion", 128, 0, "one case per built-in on a region of an encoding"},
	{"ioa/expr/builtin.go:Checker.callBuiltin", 126, 43, "one case per built-in function"},
	{"ioa/expr/check.go:Checker.check1", 141, 49, "one case per kind of expression node"},
	{"ioa/expr/check_ops.go:Checker.checkBinary", 0, 50, "one case per binary operator"},
	{"ioa/expr/print.go:printer.expr1", 138, 0, "one case per kind of expression node"},
	{"ioa/expr/scan.go:scan", 157, 64, "the scanner: one case per token"},
	{"ioa/expr/walk.go:Equal", 0, 67, "one case per kind of expression node, comparing its fields"},
	{"scripts/docfigures/main.go:proveSection", 129, 0, "renders one section of the documentation's figures from a prove report"},
	{"simulation/strategy_apply.go:runHinted", 130, 0, "applies a hint step by step, each step's soundness argued where it is taken"},
}

// finding is one file or function over a rule.
type finding struct {
	where string
	rule  string
	size  int
	limit int
}

// TestShape measures every non-test Go file of the module and fails on a
// file or function over a rule that no exemption covers, on an exempted
// one that grew more than growth percent, and on an exemption that is no
// longer needed.
func TestShape(t *testing.T) {
	root := moduleRoot(t)
	findings, err := measure(root)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{} // where and rule of the exemptions used
	for _, f := range findings {
		i := slices.IndexFunc(exemptions, func(e exemption) bool { return e.where == f.where && e.size(f.rule) > 0 })
		if i < 0 {
			t.Errorf("%s: %s %d, over %d; split it, or exempt it with its size and a one-line reason",
				f.where, f.rule, f.size, f.limit)
			continue
		}
		used[f.where+"\x00"+f.rule] = true
		e := exemptions[i]
		if n := e.size(f.rule); f.size > n+n*growth/100 {
			t.Errorf("%s: %s %d, more than %d%% over its exempted size %d (%s); split it rather than grow it",
				f.where, f.rule, f.size, growth, n, e.reason)
		}
	}
	seen := map[string]bool{}
	for _, e := range exemptions {
		if seen[e.where] {
			t.Errorf("%s is exempted twice", e.where)
		}
		seen[e.where] = true
		if strings.TrimSpace(e.reason) == "" || strings.Contains(e.reason, "\n") {
			t.Errorf("exemption of %s needs a one-line reason", e.where)
		}
		rules := []string{ruleComplexity, ruleFunc}
		if !strings.Contains(e.where, ":") {
			rules = []string{ruleFile}
			if e.complexity != 0 {
				t.Errorf("exemption of the file %s gives a complexity", e.where)
			}
		}
		for _, rule := range rules {
			if e.size(rule) > 0 && !used[e.where+"\x00"+rule] {
				t.Errorf("exemption of %s (%s %d) is no longer needed: remove it", e.where, rule, e.size(rule))
			}
		}
	}
}

// TestComplexity checks the measure of cyclomatic complexity on a small
// function.
func TestComplexity(t *testing.T) {
	const src = `package p
func f(x int, c chan int) int {
	if x > 0 && x < 10 || x == 20 {
		return 1
	}
	for i := 0; i < x; i++ {
	}
	for range c {
	}
	switch x {
	case 1, 2:
	case 3:
	default:
	}
	select {
	case <-c:
	default:
	}
	g := func() bool { return x > 1 && x < 3 }
	_ = g
	return 0
}`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	fn := file.Decls[0].(*ast.FuncDecl)
	// 1 + if + && + || + for + range + 2 cases + 1 comm case + && in the literal
	if got, want := complexity(fn), 10; got != want {
		t.Errorf("complexity = %d; want %d", got, want)
	}
	if got, want := funcName(fn), "f"; got != want {
		t.Errorf("funcName = %q; want %q", got, want)
	}
}

// measure returns the findings of every non-test Go file under root, in
// the order of the files and of the functions in them.
func measure(root string) ([]finding, error) {
	var out []finding
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if n := strings.Count(string(src), "\n"); n > maxFileLines {
			out = append(out, finding{where: rel, rule: ruleFile, size: n, limit: maxFileLines})
		}
		seen := map[string]int{}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			where := rel + ":" + funcName(fn)
			if seen[where]++; seen[where] > 1 {
				where += fmt.Sprintf("#%d", seen[where])
			}
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if lines > maxFuncLines {
				out = append(out, finding{where: where, rule: ruleFunc, size: lines, limit: maxFuncLines})
			}
			if c := complexity(fn); c > maxComplexity {
				out = append(out, finding{where: where, rule: ruleComplexity, size: c, limit: maxComplexity})
			}
		}
		return nil
	})
	return out, err
}

// funcName names a function as exemptions do: F, or T.M for a method of T
// or *T (type parameters left out).
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr:
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return "?." + fn.Name.Name
	}
}

// complexity is fn's cyclomatic complexity: 1, plus one for each if, for,
// range, case of a switch or select (not default), && and || in its body,
// function literals included.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if x.List != nil {
				c++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// moduleRoot returns the directory of go.mod above the test.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}
