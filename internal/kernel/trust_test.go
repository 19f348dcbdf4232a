package kernel

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// allowed lists, per trusted package, every package of the module its
// dependency closure may contain (ARCHITECTURE.md, "The trust boundary").
// A Proved verdict rests on the kernel's closure alone: it may import no
// module from outside the standard library (noModules), and in particular
// neither the YAML loader nor yaml.v3. The other trusted packages decide
// what statement an obligation states; their closures are listed as they
// are. The obligation generator (simulation) and the strategies it applies
// read the model of package ioa, never the loader: neither closure holds
// ioa/load or yaml.v3. The kernel's closure is the decision alone:
// counterexamples cross into it as text (package counterexample imports
// nothing of the module), so neither the model (ioa, ioa/expr) nor the
// evaluator (ioa/eval) is in it; a Refuted verdict's replay runs in the
// obligation's Replay, which simulation supplies. The bounded refutation
// search (internal/refute) is not in it either: the kernel sees it only
// through the types of internal/proposal, and replays what it proposes.
// What follows from the verdicts (edge and invariant statuses, theorems)
// is decided by internal/theorems, whose closure is the kernel's: it reads
// names and verdicts, never the model.
var allowed = map[string][]string{
	"internal/theorems": {"internal/theorems", "internal/kernel", "internal/logic", "internal/smt", "internal/z3",
		"internal/counterexample", "internal/source", "internal/proposal"},
	"internal/kernel": {"internal/kernel", "internal/logic", "internal/smt", "internal/z3",
		"internal/counterexample", "internal/source", "internal/proposal"},
	"internal/counterexample": {"internal/counterexample"},
	"internal/proposal":       {"internal/proposal", "internal/logic"},
	"internal/smt":            {"internal/smt", "internal/logic", "internal/z3"},
	"internal/logic":          {"internal/logic"},
	"internal/z3":             {"internal/z3"},
	"internal/encode":         {"internal/encode", "internal/logic", "internal/source", "ioa", "ioa/expr", "ioa/eval"},
	"ioa/eval":                {"ioa/eval", "internal/source", "ioa", "ioa/expr"},
	"ioa/expr":                {"ioa/expr", "internal/source"},
	"internal/source":         {"internal/source"},
	"simulation": {"simulation", "internal/counterexample", "internal/encode", "internal/logic", "internal/source",
		"ioa", "ioa/expr", "ioa/eval", "internal/theorems", "internal/kernel", "internal/smt", "internal/z3", "internal/proposal"},
	"strategies": {"strategies", "simulation", "internal/counterexample", "internal/encode", "internal/logic",
		"internal/source", "ioa", "ioa/expr", "ioa/eval", "internal/theorems", "internal/kernel", "internal/smt", "internal/z3", "internal/proposal"},
}

// noModules are the trusted packages whose closure must be the module and
// the standard library only.
var noModules = []string{"internal/theorems", "internal/kernel", "internal/counterexample", "internal/proposal", "internal/smt", "internal/logic",
	"internal/z3", "internal/encode", "ioa/eval", "ioa/expr", "internal/source", "simulation", "strategies"}

// TestTrustedImports runs `go list -deps` on every trusted package and fails
// if its closure holds a package of the module that is not on its
// allowlist, or (for the packages of noModules) any package from outside the
// module and the standard library.
func TestTrustedImports(t *testing.T) {
	root := moduleRoot(t)
	for p, allow := range allowed {
		deps, err := closure(root, "ladder/"+p)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range disallowed(deps, allow, slices.Contains(noModules, p)) {
			t.Errorf("trusted package ladder/%s depends on %s, which is not on its allowlist", p, bad)
		}
	}
}

// TestAllowlistRejects shows that the check fails when the loader or
// yaml.v3 reaches the kernel, simulation or strategies, or when the model
// or the evaluator (ioa, ioa/expr, ioa/eval) or the bounded search
// (internal/refute) reaches the kernel or package counterexample: each
// one's real closure with any of them added is rejected, and the closure
// of a package that imports the loader (internal/driver) is rejected under
// the kernel's allowlist.
func TestAllowlistRejects(t *testing.T) {
	root := moduleRoot(t)
	for _, p := range []string{"internal/kernel", "simulation", "strategies"} {
		deps, err := closure(root, "ladder/"+p)
		if err != nil {
			t.Fatal(err)
		}
		if bad := disallowed(deps, allowed[p], true); len(bad) > 0 {
			t.Fatalf("the closure of %s is rejected: %v", p, bad)
		}
		for _, extra := range []dep{{path: "ladder/ioa/load"}, {path: "gopkg.in/yaml.v3"}} {
			bad := disallowed(append(slices.Clone(deps), extra), allowed[p], true)
			if !slices.Contains(bad, extra.path) {
				t.Errorf("%s added to the closure of %s is not rejected (got %v)", extra.path, p, bad)
			}
		}
	}
	for _, p := range []string{"internal/kernel", "internal/counterexample", "internal/theorems"} {
		deps, err := closure(root, "ladder/"+p)
		if err != nil {
			t.Fatal(err)
		}
		for _, extra := range []string{"ladder/ioa", "ladder/ioa/expr", "ladder/ioa/eval", "ladder/internal/refute"} {
			bad := disallowed(append(slices.Clone(deps), dep{path: extra}), allowed[p], true)
			if !slices.Contains(bad, extra) {
				t.Errorf("%s added to the closure of %s is not rejected (got %v)", extra, p, bad)
			}
		}
	}
	drv, err := closure(root, "ladder/internal/driver")
	if err != nil {
		t.Fatal(err)
	}
	bad := disallowed(drv, allowed["internal/kernel"], true)
	if !slices.Contains(bad, "ladder/ioa/load") || !slices.Contains(bad, "gopkg.in/yaml.v3") {
		t.Errorf("the closure of internal/driver passes the kernel's allowlist: %v", bad)
	}
}

// dep is a package of a closure.
type dep struct {
	path     string
	standard bool
}

// disallowed returns the packages of deps that are neither in the standard
// library nor on allow (paths relative to the module), or, with
// moduleOnly false, from another module.
func disallowed(deps []dep, allow []string, moduleOnly bool) []string {
	var bad []string
	for _, d := range deps {
		switch {
		case d.standard:
		case strings.HasPrefix(d.path, "ladder/"):
			if !slices.Contains(allow, strings.TrimPrefix(d.path, "ladder/")) {
				bad = append(bad, d.path)
			}
		case moduleOnly:
			bad = append(bad, d.path)
		}
	}
	return bad
}

// closure returns pkg's dependencies (including pkg), as `go list -deps`
// lists them.
func closure(root, pkg string) ([]dep, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", pkg)
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %v\n%s", pkg, err, stderr.String())
	}
	var deps []dep
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, ok := strings.Cut(line, " ")
		if !ok {
			return nil, fmt.Errorf("go list -deps %s: unexpected line %q", pkg, line)
		}
		deps = append(deps, dep{path: path, standard: std == "true"})
	}
	if len(deps) == 0 || deps[len(deps)-1].path != pkg {
		return nil, fmt.Errorf("go list -deps %s printed no list ending with the package itself", pkg)
	}
	return deps, nil
}

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
