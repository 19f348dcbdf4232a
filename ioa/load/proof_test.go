package load

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ladder/ioa"
)

// loadProofFile loads the example automata of testdata/proofs and one
// proof file.
func loadProofFile(t *testing.T, name string) (*Set, []string) {
	t.Helper()
	dir := "testdata/proofs"
	var files []string
	for _, f := range []string{"iface.yaml", "spec.yaml", "spech.yaml", "impl.yaml", "other.yaml", name} {
		files = append(files, filepath.Join(dir, f))
	}
	set, errs := Files(files...)
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return set, out
}

func TestProofErrors(t *testing.T) {
	cases := []struct {
		file string
		want []string // "line: substring", all of which must be reported in the proof file
	}{
		{"errors.yaml", []string{
			"6: ",
			`7: unknown variable "nosuch"`,
			"9: case 1 of action Stage is internal but abstract step Add is external",
			"13: abstract action Add takes 1 argument, found 2",
			`15: unknown abstract action "Sub"`,
			"14: case 2 of action Flush is external (event Emit) but its abstract steps contain no external action",
			`16: unknown action "Nope"`,
		}},
		{"kinds.yaml", []string{`4: unknown automaton "Missing"`}},
		{"sections.yaml", []string{
			`7: a backward proof has no "mapping" section`,
			`1: missing key "total": a backward proof needs "relation" and "total"`,
			"6: a backward simulation may not assume abstract invariants",
		}},
		{"iface_mismatch.yaml", []string{"4: the automata of an edge must share their events"}},
		{"missing_step.yaml", []string{
			"9: missing steps entry for action Stage of Impl: Spec has no action Stage",
			"12: case 1 of action Flush is external but its abstract steps contain 2 external actions",
			`15: malformed theorem "Impl is Spec"`,
		}},
		{"flow.yaml", []string{"9: in a YAML flow sequence [...] commas separate items"}},
		{"loops.yaml", []string{
			"11: a repeated step must be internal: Add is an output action",
			`18: the loop's "k" would hide a parameter of the step correspondence`,
			"22: a case may repeat one step",
		}},
		{"loops_kind.yaml", []string{"9: a repeated step (repeat:) needs a forward simulation; this proof is a refinement"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			_, errs := loadProofFile(t, c.file)
			for _, w := range c.want {
				line, msg, _ := strings.Cut(w, ": ")
				prefix := fmt.Sprintf("testdata/proofs/%s:%s:", c.file, line)
				found := false
				for _, e := range errs {
					if strings.HasPrefix(e, prefix) && strings.Contains(e, msg) {
						found = true
					}
				}
				if !found {
					t.Errorf("no error %q at %s; got:\n%s", msg, prefix, strings.Join(errs, "\n"))
				}
			}
			for _, e := range errs {
				if !strings.HasPrefix(e, "testdata/proofs/"+c.file+":") {
					t.Errorf("error outside the proof file: %s", e)
				}
			}
		})
	}
}

func TestProofModel(t *testing.T) {
	set, errs := loadProofFile(t, "ok.yaml")
	if len(errs) > 0 {
		t.Fatalf("errors:\n%s", strings.Join(errs, "\n"))
	}
	ps := set.Proofs
	if len(ps) != 1 {
		t.Fatalf("Proofs = %d proofs; want 1", len(ps))
	}
	p := ps[0]
	if p.Kind != ioa.ProofBackward || p.Concrete.Name != "Impl" || p.Abstract.Name != "Spec" {
		t.Errorf("proof = %s %s→%s", p.Kind, p.Concrete.Name, p.Abstract.Name)
	}
	if len(p.Relation) != 2 || p.Relation[0].Name != "R1" || p.Relation[0].Pos.Line != 6 {
		t.Errorf("relation = %+v", p.Relation)
	}
	if p.Total == nil || p.Total.Entry("total") == nil || p.Total.Entry("total").Default {
		t.Errorf("total witness = %+v", p.Total)
	}
	// Default assumptions: every invariant of Impl, implicitly.
	if len(p.AssumeConcrete) != 2 || !p.AssumeConcrete[0].Implicit || len(p.AssumeAbstract) != 0 {
		t.Errorf("assumptions = %+v / %+v", p.AssumeConcrete, p.AssumeAbstract)
	}
	if len(p.Steps) != 2 {
		t.Fatalf("steps = %d; want 2 (every concrete action)", len(p.Steps))
	}
	stage, flush := p.Step("Stage"), p.Step("Flush")
	if stage == nil || len(stage.Cases) != 1 || len(stage.Cases[0].Steps) != 0 || stage.Implicit {
		t.Errorf("Stage = %+v; want one explicit stutter case", stage)
	}
	if stage != nil && (stage.Cases[0].Pre == nil || !stage.Cases[0].Pre.Entries[0].Default) {
		t.Errorf("Stage's pre-state witness is not the default apre = a")
	}
	if flush == nil || len(flush.Cases) != 2 {
		t.Fatalf("Flush = %+v; want two cases", flush)
	}
	c1, c2 := flush.Cases[0], flush.Cases[1]
	if c1.When == nil || c2.When != nil || c1.Index != 1 || c2.Index != 2 {
		t.Errorf("Flush cases: guards %v, %v", c1.When, c2.When)
	}
	if len(c2.Steps) != 1 || c2.Steps[0].Action.Name != "Add" || len(c2.Steps[0].Args) != 1 {
		t.Errorf("Flush case 2 steps = %+v", c2.Steps)
	}
	if e := c2.Pre.Entry("total"); e == nil || e.Default || e.Pos.Line != 18 {
		t.Errorf("Flush case 2 pre = %+v", e)
	}
	for _, name := range []string{ioa.StateC, ioa.StateA, ioa.StateCPost, ioa.StateAPre, "k"} {
		if flush.Scope.Lookup(name) == nil {
			t.Errorf("%q is not in the step scope", name)
		}
	}
	if len(p.Theorems) != 2 || p.Theorems[0].Name() != "Impl implements Spec" || p.Theorems[1].Invariant != "P" ||
		p.Theorems[1].Name() != "Impl satisfies Spec.P" {
		t.Errorf("theorems = %+v", p.Theorems)
	}
}

func TestProofImplicitSteps(t *testing.T) {
	set, errs := loadProofFile(t, "implicit.yaml")
	if len(errs) > 0 {
		t.Fatalf("errors:\n%s", strings.Join(errs, "\n"))
	}
	p := set.Proofs[0]
	add := p.Step("Add")
	if add == nil || !add.Implicit || len(add.Cases) != 1 || len(add.Cases[0].Steps) != 1 {
		t.Fatalf("Add = %+v; want an implicit same-name step", add)
	}
	st := add.Cases[0].Steps[0]
	if st.Action != p.Abstract.Action("Add") || len(st.Args) != 1 {
		t.Errorf("implicit step = %+v", st)
	}
	if len(p.AssumeConcrete) != 1 || p.AssumeConcrete[0].Name != "countNonNeg" || p.AssumeConcrete[0].Implicit {
		t.Errorf("assumptions = %+v", p.AssumeConcrete)
	}
}

// TestProofOrder checks that a proof may come before the automata it names.
func TestProofOrder(t *testing.T) {
	dir := "testdata/proofs"
	set, errs := Files(filepath.Join(dir, "implicit.yaml"), filepath.Join(dir, "iface.yaml"),
		filepath.Join(dir, "spec.yaml"), filepath.Join(dir, "spech.yaml"))
	if len(errs) > 0 || len(set.Proofs) != 1 {
		t.Errorf("errors %v, %d proofs", errs, len(set.Proofs))
	}
}

// TestAmbiguousNames checks that a name both automata of an edge declare
// differently (an enum constant of two enums, constants of two sorts) is
// reported at every use in a proof, in relations, witnesses, guards and
// mappings, with the two declarations; a name only one of them declares
// (S1) stays usable.
func TestAmbiguousNames(t *testing.T) {
	dir := "testdata/ambiguous/"
	_, errs := Files(dir+"iface.yaml", dir+"spec.yaml", dir+"impl.yaml", dir+"forward.yaml", dir+"refinement.yaml")
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	const ready = `"Ready" is ambiguous in this proof: Impl declares it as a constant of the enum Pc {Start, Ready}, Spec as a constant of the enum PC {Idle, Ready}; rename one of them`
	const k0 = `"k0" is ambiguous in this proof: Impl declares it as a constant of sort Bool, Spec as a constant of sort Int`
	want := []string{
		"forward.yaml:6:15: " + ready, // relation, concrete side
		"forward.yaml:6:32: " + ready, // relation, abstract side
		"forward.yaml:7:6: " + k0,
		"forward.yaml:13:20: " + ready,   // a case guard
		"refinement.yaml:6:17: " + ready, // a mapping's guard
		"refinement.yaml:6:28: " + ready, // a mapping's value
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			if strings.HasPrefix(g, dir+w) {
				found = true
			}
		}
		if !found {
			t.Errorf("missing %q in:\n%s", w, strings.Join(got, "\n"))
		}
	}
	if len(got) != len(want)+1 { // k0 twice on line 7
		t.Errorf("%d errors, want %d:\n%s", len(got), len(want)+1, strings.Join(got, "\n"))
	}
}

// TestSameNamedEnums checks that two automata that each declare an enum of
// one name (PC) with different constants have two different sorts: a
// mapping between them is a sort error that shows both, and their shared
// constant is ambiguous. (They were once one sort, and the encoder failed.)
func TestSameNamedEnums(t *testing.T) {
	dir := "testdata/ambiguous/"
	_, errs := Files(dir+"iface.yaml", dir+"spec.yaml", dir+"impl2.yaml", dir+"samename.yaml")
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		dir + "samename.yaml:6:7: expected PC {Idle, Ready}, found PC {Start, Ready}",
		dir + `samename.yaml:10:20: "Ready" is ambiguous in this proof: Impl2 declares it as a constant of the enum PC {Start, Ready}, Spec as a constant of the enum PC {Idle, Ready}`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d errors, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("error %d = %q, want prefix %q", i, got[i], w)
		}
	}
}

func TestAssumeLists(t *testing.T) {
	c, a, present, err := AssumeLists([]byte("proof: P\nassume:\n  concrete: [x, TMS2.y]\n  abstract:\n    - z\n"))
	if err != nil || !slices.Equal(c, []string{"x", "TMS2.y"}) || !slices.Equal(a, []string{"z"}) || present != [2]bool{true, true} {
		t.Fatalf("got %v %v %v %v", c, a, present, err)
	}
	c, a, present, err = AssumeLists([]byte("proof: P\n"))
	if err != nil || c != nil || a != nil || present != [2]bool{} {
		t.Fatalf("got %v %v %v %v", c, a, present, err)
	}
	if _, _, _, err := AssumeLists([]byte("assume: [x\n")); err == nil {
		t.Fatal("no error for malformed YAML")
	}
}
