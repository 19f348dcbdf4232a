package kernel

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// trusted are the packages whose correctness the soundness of a Proved
// verdict rests on (style.md, "Trust").
var trusted = []string{
	"internal/source",
	"internal/logic",
	"internal/z3",
	"internal/smt",
	"internal/encode",
	"internal/kernel",
	"simulation",
	"ioa/expr",
	"ioa/eval",
}

// forbidden are the untrusted packages (and trees) no trusted package may
// import, directly or not.
var forbidden = []string{
	"internal/cache",
	"internal/report",
	"internal/driver",
	"strategies",
	"cmd",
}

// TestTrustedImports runs `go list -deps` on every trusted package and fails
// if any of them imports an untrusted one: then a bug in the cache, the
// report, the driver, the strategies or the command could reach a verdict.
func TestTrustedImports(t *testing.T) {
	root := moduleRoot(t)
	for _, p := range trusted {
		if matches, _ := filepath.Glob(filepath.Join(root, p, "*.go")); len(matches) == 0 {
			t.Logf("trusted package %s is not in the tree yet", p)
			continue
		}
		bad, err := violations(root, "ladder/"+p)
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range bad {
			t.Errorf("trusted package ladder/%s imports %s", p, dep)
		}
	}
}

// TestViolationsDetected makes sure the check can fail: listed through the
// same code, the cache package itself is a forbidden dependency.
func TestViolationsDetected(t *testing.T) {
	root := moduleRoot(t)
	bad, err := violations(root, "ladder/internal/cache")
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) == 0 || bad[len(bad)-1] != "ladder/internal/cache" {
		t.Errorf("violations(internal/cache) = %q; want it to end with ladder/internal/cache", bad)
	}
}

// violations returns the forbidden packages among pkg's dependencies
// (including pkg itself), as `go list -deps` lists them.
func violations(root, pkg string) ([]string, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}", pkg)
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %v\n%s", pkg, err, stderr.String())
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != pkg {
		return nil, fmt.Errorf("go list -deps %s printed no list ending with the package itself: %q", pkg, deps)
	}
	var bad []string
	for _, dep := range deps {
		for _, f := range forbidden {
			if dep == "ladder/"+f || strings.HasPrefix(dep, "ladder/"+f+"/") {
				bad = append(bad, dep)
			}
		}
	}
	return bad, nil
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
