package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"ladder/internal/cache"
	"ladder/internal/kernel"
	"ladder/internal/refute"
	"ladder/internal/report"
	"ladder/ioa/load"
	"ladder/simulation"
)

// newProver returns a prover with jobs workers and an empty cache of its
// own, closed when the test ends.
func newProver(t *testing.T, jobs int) *Prover {
	t.Helper()
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// loadRecorded loads paths as `ladder prove` does: through Inputs, with
// the files' content hashes in Input.Sums.
func loadRecorded(t *testing.T, paths ...string) *Input {
	t.Helper()
	set, sums := loadSums(t, paths...)
	in, errs := Generate(set)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in.Sums = sums
	return in
}

// loadSums loads paths through Inputs and returns the set and the content
// hashes of the files read.
func loadSums(t *testing.T, paths ...string) (*load.Set, map[string]string) {
	t.Helper()
	var inputs Inputs
	set, errs := inputs.LoadConfig().Files(paths...)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return set, inputs.Sums()
}

// TestGenerationRecordsBuildOnlyTheEdited proves the counter fixture cold,
// then again with nothing changed (no obligation built), then after an
// edit of impl.yaml: exactly the obligations with impl.yaml among their
// sources are built, those whose text changed are re-checked, and every
// verdict equals that of a run without generation records.
func TestGenerationRecordsBuildOnlyTheEdited(t *testing.T) {
	dir := copyTestdata(t, "counter")
	ctx := context.Background()
	p := newProver(t, 2)

	in := loadRecorded(t, dir)
	if _, err := p.Prove(ctx, in); err != nil {
		t.Fatal(err)
	}
	if got, want := p.Built(), len(in.Obligations); got != want {
		t.Fatalf("cold run built %d obligations, want all %d", got, want)
	}
	warm, err := p.Prove(ctx, loadRecorded(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if p.Built() != 0 || warm.Summary.Rechecked != 0 || !warm.OK() {
		t.Fatalf("warm run: built %d, %+v; want nothing built or re-checked", p.Built(), warm.Summary)
	}

	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, "      buf := k\n      full := true\n", "      buf := min(k, 2)\n      full := k >= 0\n      sum := sum + 0\n")
	in = loadRecorded(t, dir)
	after, err := p.Prove(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	fromImpl := 0
	for _, o := range in.Obligations {
		if slices.Contains(o.Sources, impl) {
			fromImpl++
		}
	}
	if fromImpl == 0 || fromImpl == len(in.Obligations) {
		t.Fatalf("%d of %d obligations read impl.yaml: the fixture no longer tells built from reused", fromImpl, len(in.Obligations))
	}
	if p.Built() != fromImpl {
		t.Errorf("after the edit %d obligations were built, want the %d that read impl.yaml", p.Built(), fromImpl)
	}
	if len(rechecked(after)) == 0 {
		t.Error("the edit re-checked nothing")
	}

	// The same files without generation records: every obligation built,
	// the same verdicts.
	q := newProver(t, 2)
	fresh, err := q.Prove(ctx, loadDir(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(fresh.Obligations) != len(after.Obligations) {
		t.Fatalf("%d obligations without records, %d with", len(fresh.Obligations), len(after.Obligations))
	}
	for i, o := range fresh.Obligations {
		if a := after.Obligations[i]; a.ID != o.ID || a.Verdict != o.Verdict {
			t.Errorf("%s: %s with records, %s without", o.ID, a.Verdict, o.Verdict)
		}
	}
}

// TestGenerationRecordsRefuseStaleText checks that a record is used only
// under its unit fingerprint: a record whose query fingerprint no longer
// matches the cached result (here: the result is for another query) makes
// the obligation be built again, never reported proved on the record's word.
func TestGenerationRecordsRefuseStaleText(t *testing.T) {
	dir := copyTestdata(t, "counter")
	ctx := context.Background()
	p := newProver(t, 1)
	in := loadRecorded(t, dir)
	if _, err := p.Prove(ctx, in); err != nil {
		t.Fatal(err)
	}
	// Point every record at another query's text.
	n := 0
	for _, o := range in.Obligations {
		g, ok := p.cache.Generated(o.ID)
		if !ok || g.Unit == "" {
			continue
		}
		g.Query = "0000000000000000000000000000000000000000000000000000000000000000"
		if err := p.cache.RecordGeneration(o.ID, g); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no generation record was written")
	}
	rep, err := p.Prove(ctx, loadRecorded(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if p.Built() != len(in.Obligations) || !rep.OK() {
		t.Fatalf("built %d of %d with records for other texts (%+v); want every one built", p.Built(), len(in.Obligations), rep.Summary)
	}
}

// loadOnly loads the files given and generates their obligations,
// failing the test when the load reads any other file (an interface or a
// library file it follows a reference to).
func loadOnly(t *testing.T, files []string) *Input {
	t.Helper()
	var inputs Inputs
	cfg := inputs.LoadConfig()
	read := cfg.ReadFile
	cfg.ReadFile = func(name string) ([]byte, error) {
		if !slices.Contains(files, name) {
			t.Errorf("loading %v reads %s too", files, name)
		}
		return read(name)
	}
	set, errs := cfg.Files(files...)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in, errs := Generate(set)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return in
}

// TestSourcesSuffice checks Obligation.Sources on the repository: each
// group, generated from its source files alone, has the same texts as
// generated from the whole repository (its first and last obligations are
// compared). A file a group's generation reads but Sources leaves out
// would make a generation record vouch for a text it does not determine.
func TestSourcesSuffice(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every group of the repository twice")
	}
	root := filepath.Join("..", "..")
	var paths []string
	for _, d := range []string{"specs", "algorithms", "proofs"} {
		paths = append(paths, filepath.Join(root, d))
	}
	all := loadRecorded(t, paths...)
	groups := map[string][]*simulation.Obligation{}
	var names []string
	for _, o := range all.Obligations {
		if groups[o.Group] == nil {
			names = append(names, o.Group)
		}
		groups[o.Group] = append(groups[o.Group], o)
	}
	sort.Strings(names)
	k, err := kernel.New(kernel.Config{}, t.TempDir(), refute.New())
	if err != nil {
		t.Fatal(err)
	}
	text := func(o *simulation.Obligation) string {
		t.Helper()
		if err := o.Encode(); err != nil {
			t.Fatalf("%s: %v", o.ID, err)
		}
		defer o.Release()
		q, err := k.Prepare(KernelObligation(o))
		if err != nil {
			t.Fatalf("%s: %v", o.ID, err)
		}
		return q.Text()
	}
	bySources := map[string]*Input{}
	for _, g := range names {
		obs := groups[g]
		var sources []string
		for _, o := range obs {
			for _, f := range o.Sources {
				if !slices.Contains(sources, f) {
					sources = append(sources, f)
				}
			}
		}
		sort.Strings(sources)
		key := fmt.Sprint(sources)
		part := bySources[key]
		if part == nil {
			part = loadOnly(t, sources)
			bySources[key] = part
		}
		for _, o := range []*simulation.Obligation{obs[0], obs[len(obs)-1]} {
			var twin *simulation.Obligation
			for _, x := range part.Obligations {
				if x.ID == o.ID {
					twin = x
				}
			}
			if twin == nil {
				t.Errorf("%s: not generated from its sources %v alone", o.ID, sources)
				continue
			}
			if text(o) != text(twin) {
				t.Errorf("%s: generated from its sources %v alone, its text differs", o.ID, sources)
			}
		}
	}
}

// texts builds every obligation of in and returns its text by ID, with the
// IDs of the trivial ones.
func texts(t *testing.T, k *kernel.Kernel, in *Input) (map[string]string, map[string]bool) {
	t.Helper()
	out, trivial := map[string]string{}, map[string]bool{}
	for _, o := range in.Obligations {
		if err := o.Encode(); err != nil {
			t.Fatalf("%s: %v", o.ID, err)
		}
		q, err := k.Prepare(KernelObligation(o))
		if err != nil {
			t.Fatalf("%s: %v", o.ID, err)
		}
		out[o.ID] = q.Text()
		if _, ok := k.Trivial(q); ok {
			trivial[o.ID] = true
		}
		o.Release()
	}
	return out, trivial
}

// TestEditEachKind edits each kind of item in turn — an automaton's action,
// an invariant, a relation clause, a strategy, the interface, a definition
// that another file's proof uses — and checks that the run with generation
// records re-checks exactly the obligations whose text changed, and builds
// exactly those whose sources include the edited file.
// editKinds are the edits of TestEditEachKind and TestUnitRecordsEachKind:
// one of each kind of item, in the kinds fixture.
var editKinds = []struct{ kind, file, old, new string }{
	{"automaton action", "TicketLock.yaml", "    eff: pc[p] := Critical\n", "    eff: |\n      pc[p] := Critical\n      next := next + 0\n"},
	{"invariant", "TicketLock.yaml", "pc[p] != Idle => ticket[p] < next", "pc[p] != Idle => ticket[p] + 0 < next"},
	{"relation clause", "TicketLock-Mutex.yaml", "a.busy[p] = c.critical(p)", "c.critical(p) = a.busy[p]"},
	{"strategy", "TicketLock.yaml", "[assume: [criticalServed, distinctTickets]]", "[assume: [criticalServed, distinctTickets, ticketsIssued]]"},
	{"interface", "lock.yaml", "  Release: {p: P}\n", "  Release: {p: P}\n  Reset: {}\n"},
	{"definition used by another file", "TicketLock.yaml", "    body: pc[p] = Critical", "    body: Critical = pc[p]"},
}

func TestEditEachKind(t *testing.T) {
	dir := copyTestdata(t, "kinds")
	ctx := context.Background()
	p := newProver(t, 2)
	if rep, err := p.Prove(ctx, loadRecorded(t, dir)); err != nil || !rep.OK() {
		t.Fatalf("cold run: %v %+v", err, rep)
	}
	k, err := kernel.New(kernel.Config{}, t.TempDir(), refute.New())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range editKinds {
		before, _ := texts(t, k, loadDir(t, dir))
		file := filepath.Join(dir, e.file)
		edit(t, file, e.old, e.new)
		in := loadRecorded(t, dir)
		after, trivial := texts(t, k, loadDir(t, dir))
		var changed []string
		for id, text := range after {
			if before[id] != text && !trivial[id] {
				changed = append(changed, id)
			}
		}
		sort.Strings(changed)
		rep, err := p.Prove(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", e.kind, err)
		}
		if !rep.OK() {
			t.Fatalf("%s: the edit broke the proof: %+v", e.kind, rep.Summary)
		}
		checkRechecked(t, e.kind, rep, changed)
		if e.kind != "interface" && len(changed) == 0 {
			t.Errorf("%s: the edit changed no text: the case tests nothing", e.kind)
		}
		reads := 0
		for _, o := range in.Obligations {
			if slices.Contains(o.Sources, file) {
				reads++
			}
		}
		if p.Built() != reads {
			t.Errorf("%s: built %d obligations, want the %d that read %s", e.kind, p.Built(), reads, e.file)
		}
	}
}

// checkRechecked checks that a run after an edit re-checked exactly the
// obligations whose text changed (sorted), except those it proved from the
// cached proof of a slice that the edit left as it was.
func checkRechecked(t *testing.T, kind string, rep *report.Prove, changed []string) {
	t.Helper()
	bySlice := map[string]bool{}
	for _, o := range rep.Obligations {
		bySlice[o.ID] = o.Cached && o.Slice > 0
	}
	var want []string
	for _, id := range changed {
		if !bySlice[id] {
			want = append(want, id)
		}
	}
	if got := rechecked(rep); !slices.Equal(got, want) {
		t.Errorf("%s: re-checked %q; the texts that changed, but not the slices that proved them, are %q", kind, got, want)
	}
}

// TestSnapshotStamp: the stamp a run record keeps of the cache changes
// when the snapshot is written and when its log is created or appended to,
// so that a run after either is not replayed from the record.
func TestSnapshotStamp(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{snapshotStamp(dir): true}
	step := func(what string, f func() error) {
		t.Helper()
		time.Sleep(10 * time.Millisecond) // a new modification time
		if err := f(); err != nil {
			t.Fatal(err)
		}
		s := snapshotStamp(dir)
		if seen[s] {
			t.Errorf("%s: stamp %q seen before", what, s)
		}
		seen[s] = true
	}
	appendTo := func(name, text string) func() error {
		return func() error {
			f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				return err
			}
			_, err = f.WriteString(text)
			return errors.Join(err, f.Close())
		}
	}
	step("snapshot written", appendTo(cache.SnapshotFile, "snapshot"))
	step("log created", appendTo(cache.LogFile, "frame 1"))
	step("log appended to", appendTo(cache.LogFile, "frame 2"))
	step("snapshot written, log removed", func() error {
		return errors.Join(appendTo(cache.SnapshotFile, "again")(), os.Remove(filepath.Join(dir, cache.LogFile)))
	})
}
