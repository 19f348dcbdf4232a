package driver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"ladder/internal/kernel"
	"ladder/internal/refute"
	"ladder/internal/report"
	"ladder/internal/sign"
	"ladder/ioa"
	"ladder/simulation"
)

// planRecorded loads paths as `ladder prove` does and plans them with p's
// unit records.
func planRecorded(t *testing.T, p *Prover, paths ...string) *Input {
	t.Helper()
	set, sums := loadSums(t, paths...)
	in, errs := p.Plan(set, sums)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// In the report's order, restored and planned units alike, so that a
	// run need not sort them; each restored with its own verdict.
	for i, o := range in.Obligations {
		if i > 0 && byGroup(in.Obligations[i-1], o) >= 0 {
			t.Fatalf("planned out of order: %s before %s", in.Obligations[i-1].ID, o.ID)
		}
		if o.Restored() != (in.restored[i] != nil) {
			t.Fatalf("%s: restored %v, with a verdict %v", o.ID, o.Restored(), in.restored[i] != nil)
		}
	}
	return in
}

// restoredCount returns how many obligations of in were restored from unit
// records.
func restoredCount(in *Input) int {
	n := 0
	for _, o := range in.Obligations {
		if o.Restored() {
			n++
		}
	}
	return n
}

// unitsOf groups the obligations of in by unit: "automaton:A" for the
// invariants of A, "proof:P" for the edge of P.
func unitsOf(in *Input) map[string][]*simulation.Obligation {
	edges := edgesByName(in)
	out := map[string][]*simulation.Obligation{}
	for _, o := range in.Obligations {
		u, _ := unitOf(o, edges)
		out[u] = append(out[u], o)
	}
	return out
}

// summary is what a report says of every obligation, invariant, edge and
// theorem, without times and reuse.
func summary(r *report.Prove) string {
	var b strings.Builder
	for _, o := range r.Obligations {
		b.WriteString(o.ID + " " + o.Group + " " + o.Pos + " " + o.Verdict + "\n")
	}
	for _, i := range r.Invariants {
		b.WriteString(i.Automaton + "." + i.Name + " " + i.Status + " " + strings.Join(i.Assumes, ",") + "\n")
	}
	for _, e := range r.Edges {
		b.WriteString(e.Name + " " + e.Status + " " + strings.Join(e.Assumes, ",") + "\n")
	}
	for _, th := range r.Theorems {
		b.WriteString(th.Statement + " " + th.Rule + " " + strings.Join(th.From, ",") + "\n")
	}
	return b.String()
}

// TestUnitPlansRoundTrip plans the whole repository, stores the plan of
// every unit as JSON, restores it into the hierarchy and compares it with
// what Generate planned: every field of every obligation (but the
// problem), and every edge.
func TestUnitPlansRoundTrip(t *testing.T) {
	root := filepath.Join("..", "..")
	var paths []string
	for _, d := range []string{"specs", "algorithms", "proofs"} {
		paths = append(paths, filepath.Join(root, d))
	}
	var inputs Inputs
	set, errs := inputs.LoadConfig().Files(paths...)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in, errs := Generate(set)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	h := &set.Hierarchy
	byUnit := unitsOf(in)
	edgeOf := map[*ioa.Proof]*simulation.Edge{}
	for _, e := range in.Edges {
		edgeOf[e.Proof] = e
	}
	type meta struct {
		ID, Group, Edge, Invariant, Clause, Action, Case, Pos string
		Assumes, Sources                                      []string
	}
	metaOf := func(obs []*simulation.Obligation) []meta {
		var out []meta
		for _, o := range obs {
			out = append(out, meta{o.ID, o.Group, o.Edge, o.Invariant, o.Clause, o.Action, o.Case, o.Pos.String(), o.Assumes, o.Sources})
		}
		return out
	}
	check := func(unit string, a *ioa.Automaton, p *ioa.Proof, obs []*simulation.Obligation, e *simulation.Edge) {
		t.Helper()
		if e != nil {
			// the unit's obligations in the edge's order
			pos := map[string]int{}
			for i, id := range e.Obligations {
				pos[id] = i
			}
			sort.SliceStable(obs, func(i, j int) bool { return pos[obs[i].ID] < pos[obs[j].ID] })
		}
		data, err := json.Marshal(simulation.PlanOf(obs, e))
		if err != nil {
			t.Fatal(err)
		}
		var plan simulation.UnitPlan
		if err := json.Unmarshal(data, &plan); err != nil {
			t.Fatal(err)
		}
		got, ge, err := plan.Restore(simulation.EdgeNames(h.Proofs), a, p)
		if err != nil {
			t.Fatalf("%s: %v", unit, err)
		}
		if !reflect.DeepEqual(metaOf(got), metaOf(obs)) {
			t.Errorf("%s: restored obligations differ from the generated ones", unit)
		}
		for _, o := range got {
			if !o.Restored() || o.Encode() == nil {
				t.Errorf("%s: a restored obligation can be built", o.ID)
			}
		}
		// Restored again for the same automaton or proof, the plan gives
		// the same obligations; for another automaton object, new ones.
		again, ge2, err := plan.Restore(simulation.EdgeNames(h.Proofs), a, p)
		if err != nil || len(got) == 0 || &again[0] != &got[0] || ge2 != ge {
			t.Errorf("%s: restored again, not the same obligations (%v)", unit, err)
		}
		if a != nil {
			other := *a
			if o, _, err := plan.Restore(simulation.EdgeNames(h.Proofs), &other, nil); err != nil || &o[0] == &got[0] {
				t.Errorf("%s: restored for another automaton, the first one's obligations (%v)", unit, err)
			}
		}
		if e == nil {
			return
		}
		if ge.Name != e.Name || ge.Proof != e.Proof || !slices.Equal(ge.Obligations, e.Obligations) || !slices.Equal(ge.Assumes, e.Assumes) ||
			len(ge.Transfers) != len(e.Transfers) {
			t.Fatalf("%s: restored edge %+v, generated %+v", unit, ge, e)
		}
		for i, tr := range e.Transfers {
			g := ge.Transfers[i]
			if g.Key != tr.Key || g.Name != tr.Name || g.Source != tr.Source || !slices.Equal(g.Chain, tr.Chain) {
				t.Errorf("%s: transfer %d restored as %+v, generated %+v", unit, i, g, tr)
			}
		}
	}
	n, transfers := 0, 0
	for _, a := range h.Automata {
		if obs := byUnit[simulation.AutomatonOwner(a)]; len(obs) > 0 {
			check(simulation.AutomatonOwner(a), a, nil, obs, nil)
			n++
		}
	}
	for _, p := range h.Proofs {
		u := simulation.ProofOwner(p)
		check(u, nil, p, byUnit[u], edgeOf[p])
		transfers += len(edgeOf[p].Transfers)
		n++
	}
	if n < 20 || transfers == 0 {
		t.Fatalf("%d units, %d transfers: the repository should have many units and some transfers", n, transfers)
	}
	// A plan does not fit another unit.
	var plan simulation.UnitPlan
	data, _ := json.Marshal(simulation.PlanOf(byUnit[simulation.ProofOwner(h.Proofs[0])], edgeOf[h.Proofs[0]]))
	if err := json.Unmarshal(data, &plan); err != nil {
		t.Fatal(err)
	}
	if _, _, err := plan.Restore(simulation.EdgeNames(h.Proofs), nil, h.Proofs[1]); err == nil {
		t.Errorf("the plan of %s restored as that of %s", h.Proofs[0].Name, h.Proofs[1].Name)
	}
	if _, _, err := plan.Restore(simulation.EdgeNames(h.Proofs), h.Automata[0], nil); err == nil {
		t.Errorf("the plan of %s restored as an automaton's", h.Proofs[0].Name)
	}
}

// TestUnitRecordsEachKind proves the kinds fixture through Plan, then
// edits each kind of item in turn and checks that exactly the units that
// read the edited file are planned (the others restored from their
// records), that exactly the obligations whose text changed are
// re-checked, and that the report says what a run without any record
// says.
func TestUnitRecordsEachKind(t *testing.T) {
	dir := copyTestdata(t, "kinds")
	ctx := context.Background()
	p := newProver(t, 2)
	cold, err := p.Prove(ctx, planRecorded(t, p, dir))
	if err != nil || !cold.OK() {
		t.Fatalf("cold run: %v %+v", err, cold)
	}
	in := planRecorded(t, p, dir)
	if got := restoredCount(in); got != len(in.Obligations) {
		t.Fatalf("nothing changed: %d of %d obligations restored", got, len(in.Obligations))
	}
	warm, err := p.Prove(ctx, in)
	if err != nil || summary(warm) != summary(cold) || p.Built() != 0 {
		t.Fatalf("warm run: %v, built %d, report\n%s\nwant\n%s", err, p.Built(), summary(warm), summary(cold))
	}
	k, err := kernel.New(kernel.Config{}, t.TempDir(), refute.New())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range editKinds {
		before, _ := texts(t, k, loadDir(t, dir))
		file := filepath.Join(dir, e.file)
		edit(t, file, e.old, e.new)
		after, trivial := texts(t, k, loadDir(t, dir))
		var changed []string
		for id, text := range after {
			if before[id] != text && !trivial[id] {
				changed = append(changed, id)
			}
		}
		sort.Strings(changed)
		in := planRecorded(t, p, dir)
		fresh := loadRecorded(t, dir)
		reads := map[string]bool{} // the units with the edited file among their sources
		for u, obs := range unitsOf(fresh) {
			for _, o := range obs {
				if slices.Contains(o.Sources, file) {
					reads[u] = true
				}
			}
		}
		for u, obs := range unitsOf(in) {
			for _, o := range obs {
				if o.Restored() == reads[u] {
					t.Fatalf("%s: %s restored %v, but its unit reads %s: %v", e.kind, o.ID, o.Restored(), e.file, reads[u])
				}
			}
		}
		rep, err := p.Prove(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", e.kind, err)
		}
		checkRechecked(t, e.kind, rep, changed)
		q := newProver(t, 2)
		ref, err := q.Prove(ctx, fresh)
		if err != nil {
			t.Fatal(err)
		}
		if summary(rep) != summary(ref) {
			t.Errorf("%s: with unit records the report is\n%s\nwithout\n%s", e.kind, summary(rep), summary(ref))
		}
	}
}

// TestUnitRecordsRefused damages the records of a proved fixture in the
// ways a record can be wrong — corrupt, of another file content, with a
// verdict record for another query, with a refuted verdict — and checks
// that each such unit is planned again and its obligations built, never
// taken from the record.
func TestUnitRecordsRefused(t *testing.T) {
	dir := copyTestdata(t, "counter")
	ctx := context.Background()
	p := newProver(t, 2)
	if rep, err := p.Prove(ctx, planRecorded(t, p, dir)); err != nil || !rep.OK() {
		t.Fatalf("cold run: %v %+v", err, rep)
	}
	files, err := filepath.Glob(filepath.Join(p.cfg.CacheDir, "units", "*"+unitRecordExt))
	if err != nil || len(files) == 0 {
		t.Fatalf("no unit records written: %v", err)
	}
	if got, in := restoredCount(planRecorded(t, p, dir)), planRecorded(t, p, dir); got != len(in.Obligations) {
		t.Fatalf("%d of %d obligations restored", got, len(in.Obligations))
	}
	originals := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		originals[f] = data
	}
	// rewrite re-signs the record's checksum after changing its JSON,
	// as a forger who knows the format would.
	rewrite := func(f string, change func(rec *unitRecord)) {
		t.Helper()
		_, payload, _ := strings.Cut(string(originals[f]), "\n")
		rec, ok := decodeUnitPayload([]byte(payload))
		if !ok {
			t.Fatal("undecodable unit record")
		}
		change(rec)
		if err := p.writeUnitRecord(rec); err != nil {
			t.Fatal(err)
		}
	}
	damage := []struct {
		name   string
		damage func(f string)
	}{
		{"corrupt", func(f string) { os.WriteFile(f, originals[f][:len(originals[f])/2], 0o644) }},
		{"bad checksum", func(f string) {
			data := append([]byte(nil), originals[f]...)
			data[len(data)-3] ^= 1
			os.WriteFile(f, data, 0o644)
		}},
		{"other file content", func(f string) {
			rewrite(f, func(rec *unitRecord) {
				for name := range rec.Files {
					rec.Files[name] = strings.Repeat("0", 64)
				}
			})
		}},
		{"verdict of another query", func(f string) {
			rewrite(f, func(rec *unitRecord) { rec.Results[0].Query = strings.Repeat("1", 64) })
		}},
		{"refuted verdict", func(f string) {
			rewrite(f, func(rec *unitRecord) {
				for i, r := range rec.Results {
					if strings.Contains(string(r.Record), `"proved"`) {
						rec.Results[i].Record = json.RawMessage(strings.Replace(string(r.Record), `"proved"`, `"refuted"`, 1))
						return
					}
				}
				t.Fatal("no proved verdict in the record")
			})
		}},
		{"another ladder", func(f string) { rewrite(f, func(rec *unitRecord) { rec.Exe = strings.Repeat("2", 64) }) }},
	}
	_, payload, _ := strings.Cut(string(originals[files[0]]), "\n")
	first, ok := decodeUnitPayload([]byte(payload))
	if !ok {
		t.Fatal("undecodable unit record")
	}
	damaged := first.Unit
	for _, d := range damage {
		for _, f := range files {
			if err := os.WriteFile(f, originals[f], 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d.damage(files[0])
		in := planRecorded(t, p, dir)
		for u, obs := range unitsOf(in) {
			for _, o := range obs {
				if o.Restored() == (u == damaged) {
					t.Errorf("%s: %s restored: %v", d.name, o.ID, o.Restored())
				}
			}
		}
		rep, err := p.Prove(ctx, in)
		if err != nil || !rep.OK() {
			t.Fatalf("%s: %v %+v", d.name, err, rep)
		}
	}
}

// newSigner returns a signer with a key of its own, made in a temporary
// directory.
func newSigner(t *testing.T) *sign.Signer {
	t.Helper()
	s, err := sign.OpenSigner(sign.Config{Dir: t.TempDir(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSignedUnitRecords proves a fixture with signed records, then puts in
// place of each unit record the same record unsigned (with a right
// checksum) and the same record signed by a key that is not trusted: no
// unit is restored from either, and the run warns once.
func TestSignedUnitRecords(t *testing.T) {
	dir := copyTestdata(t, "counter")
	ctx := context.Background()
	own, other := newSigner(t), newSigner(t)
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 2, Signer: own, Verifier: sign.NewVerifier(own.PublicKey())})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if rep, err := p.Prove(ctx, planRecorded(t, p, dir)); err != nil || !rep.OK() || len(rep.Warnings) > 0 {
		t.Fatalf("cold run: %v %+v", err, rep)
	}
	in := planRecorded(t, p, dir)
	if got := restoredCount(in); got != len(in.Obligations) {
		t.Fatalf("signed records: %d of %d obligations restored", got, len(in.Obligations))
	}
	files, _ := filepath.Glob(filepath.Join(p.cfg.CacheDir, "units", "*"+unitRecordExt))
	for _, variant := range []string{"unsigned", "untrusted"} {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, rest, _ := strings.Cut(string(data), "\n") // the signature line
			_, rest, _ = strings.Cut(rest, "\n")          // the header
			name, payload, _ := strings.Cut(rest, "\n")   // the name it is bound to
			var out []byte
			if variant == "unsigned" {
				var q Prover
				out = q.sealFile(strings.TrimPrefix(name, "ladder-record-of "), []byte(payload))
			} else {
				out = other.Seal([]byte(rest))
			}
			if err := os.WriteFile(f, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		in := planRecorded(t, p, dir)
		if got := restoredCount(in); got != 0 {
			t.Errorf("%s: %d obligations restored", variant, got)
		}
		rep, err := p.Prove(ctx, in)
		if err != nil || !rep.OK() {
			t.Fatalf("%s: %v %+v", variant, err, rep)
		}
		if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "not signed by a trusted key") {
			t.Errorf("%s: warnings %q; want one about the ignored records", variant, rep.Warnings)
		}
	}
}

// TestUnitRecordsOnlyComplete checks that a unit gets a record only when
// every one of its obligations was decided and discharged in the run: not
// after a run of selected obligations (--only), nor when one is refuted.
func TestUnitRecordsOnlyComplete(t *testing.T) {
	dir := copyTestdata(t, "counter")
	ctx := context.Background()
	p := newProver(t, 2)
	records := func() []string {
		files, _ := filepath.Glob(filepath.Join(p.cfg.CacheDir, "units", "*"+unitRecordExt))
		return files
	}
	p.cfg.Only = "start"
	p.sel, _ = newSelector(p.cfg.Only)
	if _, err := p.Prove(ctx, planRecorded(t, p, dir)); err != nil {
		t.Fatal(err)
	}
	if got := records(); len(got) != 0 {
		t.Errorf("a run of selected obligations wrote unit records: %v", got)
	}
	p.cfg.Only = ""
	p.sel, _ = newSelector("")
	// A wrong invariant: its automaton's unit has a refuted obligation.
	edit(t, filepath.Join(dir, "impl.yaml"), "invariants:\n", "invariants:\n  wrong: false\n")
	rep, err := p.Prove(ctx, planRecorded(t, p, dir))
	if err != nil || rep.OK() {
		t.Fatalf("the wrong invariant was not refuted: %v %+v", err, rep)
	}
	for _, f := range records() {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), `"unit":"automaton:Buffered"`) {
			t.Errorf("the unit with a refuted obligation got a record")
		}
	}
	if len(records()) == 0 {
		t.Errorf("no unit record at all after a complete run")
	}
	// The groups of the unit no record holds stay in the snapshot, and
	// only those.
	held := 0
	for _, o := range rep.Obligations {
		got := p.cache.EdgesContaining(o.ID)
		switch buffered := strings.HasPrefix(o.ID, "Buffered › "); {
		case buffered && len(got) == 0:
			t.Errorf("%s, of the unit with a refuted obligation, is in no group of the snapshot", o.ID)
		case !buffered && len(got) != 0:
			t.Errorf("%s, of a unit with a record, is in the snapshot's groups %q", o.ID, got)
		case buffered:
			held++
		}
	}
	if held == 0 {
		t.Errorf("no obligation of automaton Buffered in the report: %+v", rep.Obligations)
	}
}

// TestUnitRecordsEditDuringRun checks that a unit record names the bytes
// the run loaded: a file edited after loading does not make the next run,
// over the edited file, restore the units generated from the old content.
func TestUnitRecordsEditDuringRun(t *testing.T) {
	dir := copyTestdata(t, "counter")
	p := newProver(t, 2)
	var inputs Inputs
	set, errs := inputs.LoadConfig().Files(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, "Stage an amount", "Stage one amount")
	in, errs := p.Plan(set, inputs.Sums())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := p.Prove(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	for _, o := range planRecorded(t, p, dir).Obligations {
		if o.Restored() && slices.Contains(o.Sources, impl) {
			t.Errorf("%s restored from a record of the content before the edit", o.ID)
		}
	}
}

// TestUnitRecordsForget checks that the cache snapshot forgets what unit
// records hold, that a run still reuses every verdict, and that undoing an
// edit re-checks nothing: the verdicts of the replaced records are kept in
// the snapshot.
func TestUnitRecordsForget(t *testing.T) {
	dir := copyTestdata(t, "counter")
	ctx := context.Background()
	p := newProver(t, 2)
	if rep, err := p.Prove(ctx, planRecorded(t, p, dir)); err != nil || !rep.OK() {
		t.Fatalf("cold run: %v %+v", err, rep)
	}
	if s := p.cache.Stats(); s.Results != 0 || s.Deps != 0 || s.Edges != 0 || s.Theorems != 0 {
		t.Errorf("after a complete proved run the snapshot holds %d results, %d dependency, %d edge and %d theorem records; want none (the unit records hold them)",
			s.Results, s.Deps, s.Edges, s.Theorems)
	}
	// Status (ladder graph, ladder report) reads the unit records.
	st, err := p.Status(ctx, loadDir(t, dir))
	if err != nil || !st.OK() {
		t.Fatalf("status from the unit records: %v %+v", err, st.Summary)
	}
	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, "      buf := k\n", "      buf := min(k, 2)\n")
	edited, err := p.Prove(ctx, planRecorded(t, p, dir))
	if err != nil || !edited.OK() || len(rechecked(edited)) == 0 {
		t.Fatalf("edited run: %v %+v", err, edited)
	}
	// What the edit affects is still reported, from the obligations'
	// dependencies rather than the forgotten edge records.
	if c := edited.Changes; c == nil || len(c.Items) == 0 || len(c.Obligations) == 0 || len(c.Invariants)+len(c.Edges) == 0 || len(c.Theorems) == 0 {
		t.Errorf("the edit's changes: %+v", c)
	}
	edit(t, impl, "      buf := min(k, 2)\n", "      buf := k\n")
	undone, err := p.Prove(ctx, planRecorded(t, p, dir))
	if err != nil || !undone.OK() {
		t.Fatalf("undone edit: %v %+v", err, undone)
	}
	if got := rechecked(undone); len(got) != 0 {
		t.Errorf("undoing the edit re-checked %q; their verdicts were in the replaced unit records", got)
	}
}

// TestExecutableHashIsTheRunningImage checks that the executable's hash,
// which unit and generation records carry, is that of the running image
// (/proc/self/exe on Linux), not of whatever file now has its path.
func TestExecutableHashIsTheRunningImage(t *testing.T) {
	data, err := os.ReadFile("/proc/self/exe")
	if err != nil {
		t.Skip("no /proc/self/exe here")
	}
	sum := sha256.Sum256(data)
	p := newProver(t, 1)
	if got := p.executableHash(); got != hex.EncodeToString(sum[:]) {
		t.Errorf("executable hash %s, want that of the running image %x", got, sum)
	}
}

// TestUnitRecordMemo checks that a prover decodes a unit record once per
// content, and reads its file again only when its stamp changed: a second read of the same bytes returns the record it decoded,
// with the kernel's admissions of its verdicts, and a read of other bytes
// (a record rewritten, or damaged) decodes them afresh, so that a damaged
// record is refused even after its intact content was read.
func TestUnitRecordMemo(t *testing.T) {
	dir := copyTestdata(t, "counter")
	ctx := context.Background()
	p := newProver(t, 2)
	if rep, err := p.Prove(ctx, planRecorded(t, p, dir)); err != nil || !rep.OK() {
		t.Fatalf("cold run: %v %+v", err, rep)
	}
	in := planRecorded(t, p, dir)
	if got := restoredCount(in); got != len(in.Obligations) {
		t.Fatalf("%d of %d obligations restored", got, len(in.Obligations))
	}
	var unit string // an automaton's: unitOf finds it without the edges
	for u := range unitsOf(in) {
		if strings.HasPrefix(u, "automaton:") {
			unit = u
		}
	}
	if unit == "" {
		t.Fatal("no automaton unit")
	}
	first, ok := p.readUnitRecord(unit)
	if !ok || first.admitted == nil {
		t.Fatalf("record of %s: read %v, admitted %v", unit, ok, first != nil && first.admitted != nil)
	}
	if again, ok := p.readUnitRecord(unit); !ok || again != first {
		t.Errorf("a second read of the same content decoded it again")
	}
	path := p.unitPath(unit)
	if rec, ok := p.records.stamped(unit, stampOf(path)); runtime.GOOS == "linux" && (!ok || rec != first) {
		t.Errorf("the record read is not kept under its file's stamp: %v", ok)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The same bytes written again (a new file renamed over the record):
	// the stamp says the file must be read again, and the bytes give back
	// the record decoded first.
	if err := writeAtomic(path, data); err != nil {
		t.Fatal(err)
	}
	if _, ok := p.records.stamped(unit, stampOf(path)); ok {
		t.Errorf("a record file written again kept its stamp")
	}
	if again, ok := p.readUnitRecord(unit); !ok || again != first {
		t.Errorf("the same bytes written again: read %v, the record decoded first %v", ok, again == first)
	}
	damaged := append([]byte(nil), data...)
	damaged[len(damaged)-3] ^= 1
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := p.readUnitRecord(unit); ok {
		t.Errorf("a damaged record was read after its intact content")
	}
	for _, o := range planRecorded(t, p, dir).Obligations {
		if name, _ := unitOf(o, nil); o.Restored() && name == unit {
			t.Errorf("%s restored from a damaged record", o.ID)
		}
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if back, ok := p.readUnitRecord(unit); !ok || back != first {
		t.Errorf("the intact content again: read %v, the record decoded first %v", ok, back == first)
	}
}

// TestWrittenUnitRecordMemo checks that a record the prover writes is in
// its memo under the hash of the bytes written, so that its next Plan (a
// watcher's next run) takes the record without decoding the file again.
func TestWrittenUnitRecordMemo(t *testing.T) {
	dir := copyTestdata(t, "counter")
	p := newProver(t, 2)
	if rep, err := p.Prove(context.Background(), planRecorded(t, p, dir)); err != nil || !rep.OK() {
		t.Fatalf("cold run: %v %+v", err, rep)
	}
	files, err := filepath.Glob(filepath.Join(p.cfg.CacheDir, "units", "*"+unitRecordExt))
	if err != nil || len(files) == 0 {
		t.Fatalf("no unit records written: %v", err)
	}
	written := map[string]*unitRecord{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, payload, _ := strings.Cut(string(data), "\n")
		rec, ok := decodeUnitPayload([]byte(payload))
		if !ok {
			t.Fatalf("%s: undecodable", f)
		}
		mem, ok := p.records.get(rec.Unit, p.records.hash(data))
		if !ok {
			t.Fatalf("the record of %s written is not in the memo", rec.Unit)
		}
		written[rec.Unit] = mem
	}
	in := planRecorded(t, p, dir)
	if got := restoredCount(in); got != len(in.Obligations) {
		t.Fatalf("%d of %d obligations restored", got, len(in.Obligations))
	}
	for unit, mem := range written {
		if rec, ok := p.readUnitRecord(unit); !ok || rec != mem {
			t.Errorf("%s: read %v, the record written %v", unit, ok, rec == mem)
		}
	}
}

// TestWrittenUnitRecordUntrusted checks that a record written by a prover
// whose verifier does not trust its own key is not kept in its memo: the
// next Plan refuses the record as it refuses one read from disk.
func TestWrittenUnitRecordUntrusted(t *testing.T) {
	dir := copyTestdata(t, "counter")
	own, other := newSigner(t), newSigner(t)
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 2, Signer: own, Verifier: sign.NewVerifier(other.PublicKey())})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if rep, err := p.Prove(context.Background(), planRecorded(t, p, dir)); err != nil || !rep.OK() {
		t.Fatalf("cold run: %v %+v", err, rep)
	}
	if files, _ := filepath.Glob(filepath.Join(p.cfg.CacheDir, "units", "*"+unitRecordExt)); len(files) == 0 {
		t.Fatal("no unit records written")
	}
	if n := len(p.records.by); n != 0 {
		t.Errorf("%d records the prover does not believe kept in its memo", n)
	}
	if got := restoredCount(planRecorded(t, p, dir)); got != 0 {
		t.Errorf("%d obligations restored from records signed by an untrusted key", got)
	}
}
