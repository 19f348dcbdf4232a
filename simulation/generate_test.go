package simulation

import (
	"path/filepath"
	"strings"
	"testing"

	"ladder/ioa/load"
)

// loadCounter loads the counter example with the given proof files (in
// testdata/counter unless they contain a slash).
func loadCounter(t *testing.T, proofs ...string) *load.Set {
	t.Helper()
	files := []string{"testdata/counter/iface.yaml", "testdata/counter/spec.yaml", "testdata/counter/spech.yaml", "testdata/counter/impl.yaml"}
	for _, p := range proofs {
		if !strings.Contains(p, "/") {
			p = filepath.Join("testdata/counter", p)
		}
		files = append(files, p)
	}
	set, errs := load.Files(files...)
	if len(errs) > 0 {
		t.Fatalf("loading %v:\n%v", proofs, errs)
	}
	return set
}

func TestGenerateSmoke(t *testing.T) {
	set := loadCounter(t, "ok_refinement.yaml", "ok_forward.yaml", "ok_backward.yaml", "ok_history.yaml", "ok_simple.yaml")
	obls, edges, errs := Generate(set, Config{})
	if len(errs) > 0 {
		t.Fatalf("Generate: %v", errs)
	}
	for _, o := range obls {
		t.Logf("%s  deps=%v assumes=%v", o.ID, o.Deps, o.Assumes)
	}
	t.Logf("%d obligations, %d edges", len(obls), len(edges))
}
