package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// goFile finds a Go file name, with or without a directory: a word
	// ending in ".go" that is not followed by more of a name.
	goFile = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])((?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.go)(?:$|[^A-Za-z0-9_/-])`)
	// pkgSymbol finds pkg.Symbol and pkg.Symbol.Member: a lower-case name,
	// a dot and an exported name, not preceded by more of a name or path.
	pkgSymbol = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./*-])([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Z][A-Za-z0-9_]*))?`)
)

// goPackage is what the doc check knows of a package of the module: its
// exported top-level names, and the fields and methods of its types.
type goPackage struct {
	dir     string
	names   map[string]bool
	members map[string]map[string]bool // type → its fields and methods
	embeds  map[string]bool            // types with embedded fields (promoted members are not listed)
	methods map[string]bool            // the methods of all its types, for the shorthand pkg.Method
}

// goPackages parses the non-test Go files of every directory that holds
// one of files, and returns the packages by name (main aside).
func goPackages(t *testing.T, root string, files []string) map[string][]*goPackage {
	t.Helper()
	dirs := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") && !strings.Contains(f, "testdata/") {
			dirs[filepath.Dir(f)] = true
		}
	}
	byName := map[string][]*goPackage{}
	for dir := range dirs {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, filepath.Join(root, dir), func(fi os.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing %s: %v", dir, err)
		}
		for name, p := range pkgs {
			if name == "main" {
				continue
			}
			gp := &goPackage{dir: dir, names: map[string]bool{}, members: map[string]map[string]bool{},
				embeds: map[string]bool{}, methods: map[string]bool{}}
			for _, f := range p.Files {
				collect(gp, f)
			}
			byName[name] = append(byName[name], gp)
		}
	}
	return byName
}

// collect adds the exported declarations of f to gp.
func collect(gp *goPackage, f *ast.File) {
	member := func(typ, name string) {
		if gp.members[typ] == nil {
			gp.members[typ] = map[string]bool{}
		}
		gp.members[typ][name] = true
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				gp.names[d.Name.Name] = true
				continue
			}
			if typ := recvType(d.Recv.List[0].Type); typ != "" {
				member(typ, d.Name.Name)
				gp.methods[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						gp.names[n.Name] = true
					}
				case *ast.TypeSpec:
					gp.names[s.Name.Name] = true
					var fields *ast.FieldList
					switch x := s.Type.(type) {
					case *ast.StructType:
						fields = x.Fields
					case *ast.InterfaceType:
						fields = x.Methods
					}
					if fields == nil {
						if s.Assign != 0 || !isLiteralType(s.Type) {
							gp.embeds[s.Name.Name] = true // an alias or a defined type: its members are elsewhere
						}
						continue
					}
					for _, fl := range fields.List {
						if len(fl.Names) == 0 {
							gp.embeds[s.Name.Name] = true
						}
						for _, n := range fl.Names {
							member(s.Name.Name, n.Name)
						}
					}
				}
			}
		}
	}
}

// isLiteralType reports whether the type defined as x has no members but
// those declared with it: x is a type literal or a predeclared type, not
// another named type, whose fields it would have.
func isLiteralType(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return types.Universe.Lookup(x.Name) != nil
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr:
		return false
	}
	return true
}

// recvType is the name of a receiver's type, "" when it has none.
func recvType(x ast.Expr) string {
	for {
		switch y := x.(type) {
		case *ast.StarExpr:
			x = y.X
		case *ast.IndexExpr:
			x = y.X
		case *ast.IndexListExpr:
			x = y.X
		case *ast.Ident:
			return y.Name
		default:
			return ""
		}
	}
}

// resolves reports whether pkg.sym (and pkg.sym.member when member is not
// "") names a declaration of a package of the module called pkg; known is
// false when no package of the module has that name. pkg.Method, the
// shorthand for a method of one of pkg's types (kernel.Prepare for
// kernel.Kernel.Prepare), resolves too.
func resolves(pkgs map[string][]*goPackage, pkg, sym, member string) (ok, known bool) {
	ps := pkgs[pkg]
	for _, p := range ps {
		if member == "" && p.methods[sym] {
			return true, true
		}
		if !p.names[sym] {
			continue
		}
		if member == "" || p.members[sym][member] || p.embeds[sym] {
			return true, true
		}
		if _, isType := p.members[sym]; !isType && !p.embeds[sym] {
			return true, true // a function or value: .X is not a member of it
		}
	}
	return false, len(ps) > 0
}

// TestGoDocReferences checks the comments of the module's Go files: a Go
// file name they give exists, a bare one (without a directory) in the
// package of the comment, one with directories from the file's directory,
// from the repository root, or as the end of a repository path
// (eval/expr.go for ioa/eval/expr.go); and a reference pkg.Symbol or
// pkg.Type.Member to a package of the module names one of its
// declarations.
func TestGoDocReferences(t *testing.T) {
	root, files := tracked(t)
	pkgs := goPackages(t, root, files)
	tails := map[string]bool{} // every tracked path and each of its tails after a slash
	for _, f := range files {
		for p := f; ; {
			tails[p] = true
			i := strings.IndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[i+1:]
		}
	}
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") || strings.Contains(f, "testdata/") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		dir := filepath.Join(root, filepath.Dir(f))
		for _, cg := range file.Comments {
			for _, c := range cg.List {
				line := fset.Position(c.Pos()).Line
				for i, text := range strings.Split(c.Text, "\n") {
					for _, problem := range checkComment(pkgs, tails, dir, text) {
						t.Errorf("%s:%d: %s", f, line+i, problem)
					}
				}
			}
		}
	}
}

// checkComment returns the problems of one line of a comment of a file
// in dir.
func checkComment(pkgs map[string][]*goPackage, tails map[string]bool, dir, text string) []string {
	var out []string
	for _, m := range goFile.FindAllStringSubmatch(text, -1) {
		p := m[1]
		if placeholder(p) {
			continue
		}
		if !strings.Contains(p, "/") {
			if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
				out = append(out, fmt.Sprintf("%s is not a file of this package; give its directory (dir/%s) if it is another's", p, p))
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil && !tails[p] {
			out = append(out, fmt.Sprintf("%s does not exist in the repository", p))
		}
	}
	for _, m := range pkgSymbol.FindAllStringSubmatch(text, -1) {
		if ok, known := resolves(pkgs, m[1], m[2], m[3]); known && !ok {
			ref := m[1] + "." + m[2]
			if m[3] != "" {
				ref += "." + m[3]
			}
			out = append(out, fmt.Sprintf("%s is not declared in package %s", ref, m[1]))
		}
	}
	return out
}

// TestCheckComment shows what the check of a comment line finds, on the
// kernel's package.
func TestCheckComment(t *testing.T) {
	root, files := tracked(t)
	pkgs := goPackages(t, root, files)
	tails := map[string]bool{"internal/kernel/check.go": true, "kernel/check.go": true}
	dir := filepath.Join(root, "internal", "kernel")
	for _, c := range []struct {
		text string
		want int // problems
	}{
		{"Session.Check (check.go) and kernel.Config.Params, kernel.New, kernel.Prepare", 0},
		{"see kernel/check.go and kernel.Verdict, a Result (fmt.Sprintf, e.g. x.Y)", 0},
		{"gone: minimize.go, kernel/minimize.go", 2},
		{"kernel.Missing, kernel.Config.Missing, kernel.Verdict.Missing", 3},
		{"files like foo_*.go or <file>.go are patterns", 0},
	} {
		if got := checkComment(pkgs, tails, dir, c.text); len(got) != c.want {
			t.Errorf("%q: %q; want %d problems", c.text, got, c.want)
		}
	}
}
