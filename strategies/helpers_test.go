package strategies

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/smt"
	"ladder/internal/z3"
	"ladder/ioa/load"
	"ladder/simulation"
)

// specsDir is the repository's specs directory.
const specsDir = "../specs"

// withStrategies loads specs files (names relative to specs/), after
// setting the given `strategy:` lines of the named invariants
// ("TMS2.yaml/readRespValue" → "[parametrized: [u]]"). An invariant's
// strategy must then be the first key of its mapping.
func withStrategies(t *testing.T, files []string, strat map[string]string) (*load.Set, texts) {
	t.Helper()
	texts := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(specsDir, f))
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Join(specsDir, f)] = string(data)
	}
	for key, val := range strat {
		file, inv, _ := strings.Cut(key, "/")
		path := filepath.Join(specsDir, file)
		text, ok := texts[path]
		if !ok {
			t.Fatalf("no file %s", file)
		}
		line := "\n  " + inv + ":\n"
		if !strings.Contains(text, line) {
			t.Fatalf("%s: no invariant %s written as a mapping", file, inv)
		}
		// Replace the invariant's strategy, or add one.
		i := strings.Index(text, line) + len(line)
		rest := text[i:]
		if strings.HasPrefix(rest, "    strategy:") {
			rest = rest[strings.Index(rest, "\n")+1:]
		}
		texts[path] = text[:i] + "    strategy: " + val + "\n" + rest
	}
	cfg := load.Config{ReadFile: func(name string) ([]byte, error) {
		if s, ok := texts[filepath.Clean(name)]; ok {
			return []byte(s), nil
		}
		return os.ReadFile(name)
	}}
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join(specsDir, f))
	}
	set, errs := cfg.Files(paths...)
	if len(errs) > 0 {
		t.Fatalf("loading: %v", errs)
	}
	return set, texts
}

// texts is the text of the loaded files, by path.
type texts = map[string]string

// generate generates the obligations of set's invariants with or without
// strategies.
func generate(t *testing.T, set *load.Set, strategies bool) []*simulation.Obligation {
	t.Helper()
	cfg := simulation.Config{}
	if strategies {
		cfg.Strategist = For()
	}
	obls, _, errs := simulation.Generate(&set.Hierarchy, cfg)
	if len(errs) > 0 {
		t.Fatalf("Generate: %v", errs)
	}
	return obls
}

// solverCfg is the kernel's default configuration: a fixed seed and
// rlimit.
var solverCfg = smt.Config{RLimit: 5_000_000, Seed: 1, Model: true}

// decide checks one obligation with Z3 and replays a model.
func decide(t *testing.T, o *simulation.Obligation) (smt.Status, *simulation.Counterexample, uint64) {
	t.Helper()
	zc, err := z3.NewContext(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zc.Close()
	r, err := smt.NewSession(zc).Check(context.Background(), o.Problem, solverCfg)
	if err != nil {
		t.Fatalf("%s: %v", o.ID, err)
	}
	if r.Status != smt.Sat || r.Model == nil {
		return r.Status, nil, r.RLimitUsed
	}
	defer r.Model.Close()
	cex, err := o.Replay(r.Model)
	if err != nil {
		t.Fatalf("%s: replay: %v", o.ID, err)
	}
	return r.Status, cex, r.RLimitUsed
}
