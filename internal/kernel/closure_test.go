package kernel

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxClosureShare is the largest share of the module's Go code that one
// must read to believe a Proved verdict: the kernel's closure within the
// module (ARCHITECTURE.md, "The trust boundary").
const maxClosureShare = 0.15

// TestKernelClosureSize measures the kernel's closure, and that of the
// theorems phase (internal/theorems, which holds the kernel's): the
// non-test Go lines of the packages of the module that `go list -deps`
// lists, against the non-test Go lines of every package of the module
// (`go list ./...`), and fails above maxClosureShare. It logs the figures
// and each package's share.
func TestKernelClosureSize(t *testing.T) {
	root := moduleRoot(t)
	module, err := goLines(root, "./...")
	if err != nil {
		t.Fatal(err)
	}
	all := 0
	for _, n := range module {
		all += n
	}
	if all == 0 {
		t.Fatal("the module has no Go lines")
	}
	// The kernel's closure is what one reads to believe a Proved
	// obligation; with internal/theorems, a proved edge or theorem.
	for _, pkg := range []string{"ladder/internal/kernel", "ladder/internal/theorems"} {
		closure, err := goLines(root, "-deps", pkg)
		if err != nil {
			t.Fatal(err)
		}
		in := 0
		var parts []string
		for p, n := range closure {
			if strings.HasPrefix(p, "ladder/") {
				in += n
				parts = append(parts, fmt.Sprintf("%s %d", strings.TrimPrefix(p, "ladder/"), n))
			}
		}
		share := float64(in) / float64(all)
		t.Logf("%s closure: %d of %d non-test Go lines of the module (%.1f%%): %s",
			pkg, in, all, 100*share, strings.Join(slices.Sorted(slices.Values(parts)), ", "))
		if share > maxClosureShare {
			t.Errorf("the closure of %s is %.1f%% of the module's Go lines, over %.0f%%", pkg, 100*share, 100*maxClosureShare)
		}
	}
}

// goLines runs `go list` with args and returns, for each package of the
// module it lists, the number of lines of its non-test Go files (GoFiles
// and CgoFiles).
func goLines(root string, args ...string) (map[string]int, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, err
	}
	list := append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}} {{join .CgoFiles \" \"}}"}, args...)
	cmd := exec.Command(gobin, list...)
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(list, " "), err, stderr.String())
	}
	lines := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("go list: unexpected line %q", l)
		}
		if !strings.HasPrefix(f[0], "ladder/") && f[0] != "ladder" {
			continue
		}
		for _, name := range strings.Fields(f[2]) {
			b, err := os.ReadFile(filepath.Join(f[1], name))
			if err != nil {
				return nil, err
			}
			lines[f[0]] += bytes.Count(b, []byte("\n"))
		}
	}
	return lines, nil
}
