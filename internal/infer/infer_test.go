package infer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ladder/internal/driver"
	"ladder/internal/report"
	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/ioa/load"
)

// root is the repository root, from this package's directory.
const root = "../.."

// handWritten is an invariant of a repository file, as written.
type handWritten struct {
	name, body string
	indexed    bool // forall over parameter sorts: parametrized applies
}

// stripCopy copies the repository file rel to dir/dst with its
// `invariants:` section removed, and returns its hand-written invariants.
func stripCopy(t *testing.T, dir, rel, dst string) []handWritten {
	t.Helper()
	src := filepath.Join(root, rel)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	set, errs := load.Files(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var out []handWritten
	for _, a := range set.Automata {
		if abs, _ := filepath.Abs(a.File); abs != mustAbs(t, src) {
			continue
		}
		for _, inv := range a.Invariants {
			_, why := ioa.ParametrizedBinders(inv.Body)
			out = append(out, handWritten{name: inv.Name, body: expr.Print(inv.Body), indexed: why == ""})
		}
	}
	stripped, _ := replaceSection(b, "invariants", "")
	write(t, filepath.Join(dir, dst), stripped)
	return out
}

// stripAlgorithm copies algorithms/NAME.yaml, without its invariants,
// and the TM interface into a temporary directory: the hand-written
// invariants, the copy's path, a cache directory and the library.
func stripAlgorithm(t *testing.T, name string) (hw []handWritten, file, cache string, lib []string) {
	t.Helper()
	dir := t.TempDir()
	copyFile(t, dir, "specs/tm.yaml", "specs/tm.yaml")
	rel := "algorithms/" + name + ".yaml"
	hw = stripCopy(t, dir, rel, rel)
	lib = []string{filepath.Join(dir, "specs"), filepath.Join(dir, "algorithms")}
	return hw, filepath.Join(dir, rel), filepath.Join(dir, "cache"), lib
}

func copyFile(t *testing.T, dir, rel, dst string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, dst), b)
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func options(t *testing.T, file, cache string, lib []string) Options {
	return Options{File: file, Library: lib, Prover: driver.Config{Jobs: 2, CacheDir: cache},
		Progress: func(s string) { t.Log(s) }}
}

// runInfer infers the invariants of file and checks the result's shape:
// every printed invariant proved, assuming exactly the printed set.
func runInfer(t *testing.T, o Options) *Result {
	t.Helper()
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var sum strings.Builder
	res.WriteSummary(&sum)
	t.Log("\n" + sum.String() + res.YAML())
	if len(res.Invariants) == 0 {
		t.Fatalf("%s: no invariant inferred", o.File)
	}
	if len(res.Nat) > 0 {
		t.Fatalf("Nat conditions not proved: %v", res.Nat)
	}
	printed := map[string]bool{}
	for _, inv := range res.Invariants {
		printed[inv.Name] = true
	}
	for _, inv := range res.Invariants {
		if inv.Status != report.Proved || !slices.Contains(inv.Assumes, inv.Name) {
			t.Fatalf("%s: status %s, assumes %v (not itself)", inv.Name, inv.Status, inv.Assumes)
		}
		for _, n := range inv.Assumes {
			if !printed[n] {
				t.Fatalf("%s assumes %s, which is not printed", inv.Name, n)
			}
		}
	}
	return res
}

// provesFromInferred checks that each hand-written invariant is proved
// with the inferred set as its assumptions: it is added to the file as an
// invariant that assumes only the inferred invariants, and its start and
// step obligations (and the inferred ones) must all be proved.
func provesFromInferred(t *testing.T, res *Result, hw []handWritten, lib []string, cache string) {
	t.Helper()
	for _, h := range hw {
		if status := fromInferred(t, res, []handWritten{h}, lib, cache)[h.name]; status != report.Proved {
			t.Errorf("%s.%s is not proved from the inferred invariants: %s", res.Automaton, h.name, status)
		} else {
			t.Logf("%s.%s proved from the inferred invariants", res.Automaton, h.name)
		}
	}
}

// fromInferred returns the status of each hand-written invariant proved
// with the inferred set as its assumptions (provesFromInferred), by name.
func fromInferred(t *testing.T, res *Result, hw []handWritten, lib []string, cache string) map[string]string {
	t.Helper()
	out := map[string]string{}
	p, err := driver.NewProver(driver.Config{Jobs: 1, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var names []string
	for _, inv := range res.Invariants {
		names = append(names, inv.Name)
	}
	for _, h := range hw {
		status := ""
		for _, param := range []bool{true, false} {
			if param && !h.indexed {
				continue
			}
			entry := "  hw_" + h.name + ":\n    body: |\n      " + strings.ReplaceAll(h.body, "\n", "\n      ") +
				"\n    assumes: [" + strings.Join(names, ", ") + "]\n"
			if param {
				entry += "    strategy: [parametrized]\n"
			}
			text, _ := replaceSection(res.Text(), "invariants", res.YAML()+entry)
			set, errs := loadConfig(lib, map[string][]byte{res.path: text}).Files(res.path)
			if len(errs) > 0 {
				t.Fatalf("%s: %v", h.name, errs)
			}
			in, errs := driver.Generate(set)
			if len(errs) > 0 {
				t.Fatalf("%s: %v", h.name, errs)
			}
			rep, err := p.Prove(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			for _, inv := range rep.Invariants {
				if inv.Automaton == res.Automaton && inv.Name == "hw_"+h.name {
					status = inv.Status
				}
			}
			for _, o := range rep.Obligations {
				if o.Verdict != report.Proved {
					t.Logf("%s (parametrized %v): %s %s", h.name, param, o.ID, o.Verdict)
				}
			}
			if status == report.Proved {
				break
			}
		}
		out[h.name] = status
	}
	return out
}

// TestInferTicketLock infers the invariants of the ticket lock with its
// hand-written ones removed, proves each hand-written invariant from the
// inferred set, and proves the edge TicketLock-Mutex with the inferred set
// as its concrete assumptions.
func TestInferTicketLock(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	hw := stripCopy(t, dir, "docs/examples/mutex/TicketLock.yaml", "mutex/TicketLock.yaml")
	for _, f := range []string{"lock.yaml", "Mutex.yaml", "TicketLock-Mutex.yaml"} {
		copyFile(t, dir, "docs/examples/mutex/"+f, "mutex/"+f)
	}
	if len(hw) != 4 {
		t.Fatalf("expected the 4 invariants of the ticket lock, got %d", len(hw))
	}
	o := options(t, filepath.Join(dir, "mutex/TicketLock.yaml"), cache, nil)
	o.Proof = filepath.Join(dir, "mutex/TicketLock-Mutex.yaml")
	res := runInfer(t, o)
	provesFromInferred(t, res, hw, nil, cache)
	if res.Edge == nil || res.Edge.Status != report.Proved {
		t.Fatalf("edge TicketLock-Mutex not proved with the inferred invariants: %+v", res.Edge)
	}
}

// TestInferTPLProducts infers the invariants of TPL (two-phase locking)
// with its hand-written ones removed. Those relate a transaction and a
// location (forall t: T, l: L. wlock[l] = Some(t) => …), which only the
// candidates of the product contexts say: with them (the default, TPL's
// other candidates being few) every hand-written invariant is proved from
// the inferred set; with --products off, the inferred set has no
// invariant over both sorts and the lock invariants are not proved.
func TestInferTPLProducts(t *testing.T) {
	hw, file, cache, lib := stripAlgorithm(t, "TPL")
	if len(hw) != 5 {
		t.Fatalf("expected the 5 invariants of TPL, got %d", len(hw))
	}
	over := func(res *Result) int {
		n := 0
		for _, inv := range res.Invariants {
			if strings.HasPrefix(inv.Body, "forall t: T, l: L.") {
				n++
			}
		}
		return n
	}
	res := runInfer(t, options(t, file, cache, lib))
	if over(res) == 0 {
		t.Errorf("no invariant over T and L inferred")
	}
	provesFromInferred(t, res, hw, lib, cache)

	o := options(t, file, cache, lib)
	o.Products = ProductsOff
	off := runInfer(t, o)
	if n := over(off); n != 0 {
		t.Errorf("--products off: %d invariants over T and L", n)
	}
	// a lock invariant: a write lock is taken only for a written location
	var lock []handWritten
	for _, h := range hw {
		if h.name == "lockWritten" {
			lock = append(lock, h)
		}
	}
	if len(lock) != 1 {
		t.Fatalf("TPL has no invariant lockWritten")
	}
	if status := fromInferred(t, off, lock, lib, cache)["lockWritten"]; status == report.Proved {
		t.Errorf("--products off: lockWritten still proved from the inferred set; the test no longer shows what product contexts add")
	}
}

// TestInferTMLDefinitions infers the invariants of TML with its
// hand-written ones removed. TML's lock facts are stated over its
// definition writer(t) (odd(loc[t]) and pc[t] notin {…}): at most one
// writer, and a writer's loc is glb. Only the templates over the
// automaton's definitions say them (writer(t) as a guard, and as the
// guards of a pair candidate); with them every hand-written invariant is
// proved from the inferred set.
func TestInferTMLDefinitions(t *testing.T) {
	hw, file, cache, lib := stripAlgorithm(t, "TML")
	if len(hw) != 6 {
		t.Fatalf("expected the 6 invariants of TML, got %d", len(hw))
	}
	res := runInfer(t, options(t, file, cache, lib))
	pair := false
	for _, inv := range res.Invariants {
		pair = pair || strings.Contains(inv.Body, "writer(t) and writer(u) => t = u")
	}
	if !pair {
		t.Errorf("no pair invariant writer(t) and writer(u) => t = u inferred")
	}
	provesFromInferred(t, res, hw, lib, cache)
}

// TestInferScalarFacts infers the invariants of a lock whose facts are
// over its scalar state (testdata/HolderLock.yaml): an equivalence of the
// lock bit with the parity of a counter, and the program counter of the
// history variable holder, a lookup at a scalar key. Only the scalar
// implications and equivalences say them; with them every hand-written
// invariant is proved from the inferred set.
func TestInferScalarFacts(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, dir, "docs/examples/mutex/lock.yaml", "docs/examples/mutex/lock.yaml")
	const rel = "internal/infer/testdata/HolderLock.yaml"
	hw := stripCopy(t, dir, rel, rel)
	if len(hw) != 3 {
		t.Fatalf("expected the 3 invariants of HolderLock, got %d", len(hw))
	}
	cache := filepath.Join(dir, "cache")
	o := options(t, filepath.Join(dir, rel), cache, nil)
	o.Bounds = []string{"P=2", "P=3"}
	res := runInfer(t, o)
	equiv, lookup := false, false
	for _, inv := range res.Invariants {
		equiv = equiv || strings.Contains(inv.Body, "<=>")
		lookup = lookup || strings.Contains(inv.Body, "pc[holder]")
	}
	if !equiv || !lookup {
		t.Errorf("inferred an equivalence: %t, a fact over pc[holder]: %t; want both", equiv, lookup)
	}
	provesFromInferred(t, res, hw, nil, cache)
}

// TestCheapPasses infers the ticket lock's invariants with the search's
// passes of cheap checks and without them: the same invariants either way
// (the cheap passes drop nothing without a model), and the rounds say
// which passes were cheap.
func TestCheapPasses(t *testing.T) {
	dir := t.TempDir()
	stripCopy(t, dir, "docs/examples/mutex/TicketLock.yaml", "mutex/TicketLock.yaml")
	copyFile(t, dir, "docs/examples/mutex/lock.yaml", "mutex/lock.yaml")
	inferred := func(noCheap bool) ([]string, int) {
		o := options(t, filepath.Join(dir, "mutex/TicketLock.yaml"), filepath.Join(t.TempDir(), "cache"), nil)
		o.NoCheapPasses = noCheap
		res := runInfer(t, o)
		out := bodies(res)
		cheap := 0
		for _, r := range res.Rounds {
			if r.Cheap {
				cheap++
			}
		}
		return out, cheap
	}
	with, n := inferred(false)
	without, m := inferred(true)
	if n == 0 || m != 0 {
		t.Errorf("%d cheap passes with them, %d without; want some, and none", n, m)
	}
	if !slices.Equal(with, without) {
		t.Errorf("invariants with cheap passes:\n%s\nwithout:\n%s", strings.Join(with, "\n"), strings.Join(without, "\n"))
	}
}

// TestInferNOrecTMS2 infers the invariants of TMS2 and of
// NOrecAtomicCommitValidate with their hand-written invariants removed,
// proves every hand-written invariant from the inferred sets, and proves
// the edge NOrecAtomicCommitValidate-TMS2 with both of its assume: lists
// replaced by the inferred invariants. make test-long and make bench run
// it.
func TestInferNOrecTMS2(t *testing.T) {
	if os.Getenv("LADDER_LONG_TESTS") == "" {
		t.Skip("set LADDER_LONG_TESTS=1 (make test-long does)")
	}
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	copyFile(t, dir, "specs/tm.yaml", "specs/tm.yaml")
	hwTMS2 := stripCopy(t, dir, "specs/TMS2.yaml", "specs/TMS2.yaml")
	hwNOrec := stripCopy(t, dir, "algorithms/NOrecAtomicCommitValidate.yaml", "algorithms/NOrecAtomicCommitValidate.yaml")
	copyFile(t, dir, "proofs/NOrecAtomicCommitValidate-TMS2.yaml", "proofs/NOrecAtomicCommitValidate-TMS2.yaml")
	lib := []string{filepath.Join(dir, "specs"), filepath.Join(dir, "algorithms")}

	tms2 := runInfer(t, options(t, filepath.Join(dir, "specs/TMS2.yaml"), cache, lib))
	provesFromInferred(t, tms2, hwTMS2, lib, cache)

	var abstract []string
	for _, inv := range tms2.Invariants {
		abstract = append(abstract, inv.Name)
	}
	o := options(t, filepath.Join(dir, "algorithms/NOrecAtomicCommitValidate.yaml"), cache, lib)
	o.Overlays = map[string][]byte{tms2.path: tms2.Text()}
	o.Proof = filepath.Join(dir, "proofs/NOrecAtomicCommitValidate-TMS2.yaml")
	o.EdgeAbstract = abstract
	norec := runInfer(t, o)
	provesFromInferred(t, norec, hwNOrec, lib, cache)
	e := norec.Edge
	if e == nil || e.Status != report.Proved {
		t.Fatalf("edge not proved with the inferred invariants: %+v", e)
	}
	t.Logf("edge %s proved with\n%s", e.Edge, e.Assume)
}

func TestReplaceSection(t *testing.T) {
	in := "automaton: A\ninvariants:\n  x: |\n    y\n# c\nview:\n  B: B(t)\n"
	got, line := replaceSection([]byte(in), "invariants", "invariants:\n  z: w\n")
	want := "automaton: A\nview:\n  B: B(t)\ninvariants:\n  z: w\n"
	if string(got) != want || line != 4 {
		t.Fatalf("got %q at line %d", got, line)
	}
}

// TestInferTooMany checks that inference stops before the Houdini rounds,
// with the figures of the phases so far, when more non-redundant
// candidates survive than Options.MaxCandidates.
func TestInferTooMany(t *testing.T) {
	dir := t.TempDir()
	stripCopy(t, dir, "docs/examples/mutex/TicketLock.yaml", "mutex/TicketLock.yaml")
	copyFile(t, dir, "docs/examples/mutex/lock.yaml", "mutex/lock.yaml")
	o := options(t, filepath.Join(dir, "mutex/TicketLock.yaml"), filepath.Join(dir, "cache"), nil)
	o.MaxCandidates = 3
	res, err := Run(context.Background(), o)
	if !errors.Is(err, ErrTooMany) {
		t.Fatalf("err = %v, want ErrTooMany", err)
	}
	if res == nil || res.Stopped == "" || len(res.Rounds) != 0 || res.Obligations.Checked != 0 {
		t.Fatalf("result %+v", res)
	}
	if n := res.Phases[len(res.Phases)-1]; n.Name != "non-redundant" || n.Candidates <= 3 {
		t.Fatalf("last phase %+v", n)
	}
}

// TestInferMemoryLimit checks that a run over Options.MaxMemory stops with
// ErrLimit and says why, and returns no invariants.
func TestInferMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	stripCopy(t, dir, "docs/examples/mutex/TicketLock.yaml", "mutex/TicketLock.yaml")
	copyFile(t, dir, "docs/examples/mutex/lock.yaml", "mutex/lock.yaml")
	o := options(t, filepath.Join(dir, "mutex/TicketLock.yaml"), filepath.Join(dir, "cache"), nil)
	o.MaxMemory = 1 // any process holds more
	res, err := Run(context.Background(), o)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v, want ErrLimit", err)
	}
	if res == nil || !strings.HasPrefix(res.Stopped, "memory limit 1 B (") || len(res.Invariants) != 0 {
		t.Fatalf("result %+v", res)
	}
}

// TestMemoryWatch checks the watch: over its limit it cancels the context
// with the reason as the cause; under it, it does nothing until stopped.
func TestMemoryWatch(t *testing.T) {
	ctx, w, stop := watchMemory(context.Background(), 1, time.Millisecond)
	<-ctx.Done()
	if cause := context.Cause(ctx); cause == nil || !strings.HasPrefix(cause.Error(), "memory limit") || w.reached() != cause.Error() {
		t.Fatalf("cause %v, reached %q", cause, w.reached())
	}
	stop()
	ctx, w, stop = watchMemory(context.Background(), 1<<50, time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	if ctx.Err() != nil || w.reached() != "" {
		t.Fatalf("under the limit: err %v, reached %q", ctx.Err(), w.reached())
	}
	stop()
	if ctx.Err() == nil {
		t.Fatalf("the context outlives the watch")
	}
	if w.peak <= 0 {
		t.Fatalf("no sample taken")
	}
}

// TestDefTerm checks which definitions make terms of the templates: TML's
// writer(t) (a lookup of a state variable) does; Opacity's ws(t) =
// dom(wrSet[t]), a set comprehension, and its startStatus(t), over an
// enum-valued map alone, do not.
func TestDefTerm(t *testing.T) {
	set, errs := load.Config{}.Files(filepath.Join(root, "specs/tm.yaml"), filepath.Join(root, "algorithms/TML.yaml"), filepath.Join(root, "specs/Opacity.yaml"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		auto, def string
		want      bool
	}{
		{"TML", "writer", true},
		{"Opacity", "ws", false},
		{"Opacity", "startStatus", false},
	} {
		a := set.Hierarchy.Automaton(tc.auto)
		if a == nil {
			t.Fatalf("no automaton %s", tc.auto)
		}
		var d *expr.Object
		for _, x := range a.Defs {
			if x.Name == tc.def {
				d = x
			}
		}
		if d == nil {
			t.Fatalf("%s has no definition %s", tc.auto, tc.def)
		}
		if got := defTerm(a, d); got != tc.want {
			t.Errorf("defTerm(%s.%s) = %t, want %t", tc.auto, tc.def, got, tc.want)
		}
	}
}
