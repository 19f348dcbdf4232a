package theorems

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ladder/internal/kernel"
)

// ---- hand-built inputs ----

func autos(itf string, names ...string) []Automaton {
	var out []Automaton
	for _, n := range names {
		out = append(out, Automaton{Name: n, Interface: itf})
	}
	return out
}

// edge returns an edge C → A of the given kind with one obligation.
func edge(kind EdgeKind, c, a string, assumes ...string) Edge {
	name := c + "→" + a
	return Edge{Name: name, Kind: kind, Concrete: c, Abstract: a, Obligations: []string{name + " › start"}, Assumes: assumes}
}

// verdicts returns the verdicts of every obligation of in: proved, except
// those listed.
func verdicts(in *Input, except map[string]kernel.Verdict) Verdicts {
	vs := Verdicts{}
	for _, o := range in.Obligations {
		vs[o.ID] = kernel.Proved
	}
	for _, e := range in.Edges {
		for _, id := range e.Obligations {
			vs[id] = kernel.Proved
		}
	}
	for id, v := range except {
		vs[id] = v
	}
	return vs
}

// invariant adds invariant name to the automaton named auto of in, with
// one start obligation assuming the given keys, and returns its key.
func invariant(in *Input, auto, name string, assumes ...string) string {
	key := "automaton:" + auto + "/invariant:" + name
	for i := range in.Automata {
		if in.Automata[i].Name == auto {
			in.Automata[i].Invariants = append(in.Automata[i].Invariants, Invariant{Name: name, Key: key})
		}
	}
	in.Obligations = append(in.Obligations, Obligation{ID: auto + " › invariant " + name + " › start",
		Automaton: auto, Invariant: key, Assumes: assumes})
	return key
}

// stOf returns the statuses of obls under vs, by position.
func stOf(obls []Obligation, vs Verdicts) Statuses {
	st := make(Statuses, len(obls))
	for i, o := range obls {
		st[i] = vs.Status(o.ID)
	}
	return st
}

func names(d *Derivation) string {
	var out []string
	for _, t := range d.Theorems {
		out = append(out, t.Name)
	}
	return strings.Join(out, "\n")
}

// ---- tests ----

func TestFromVerdict(t *testing.T) {
	for _, tt := range []struct {
		v       kernel.Verdict
		decided bool
		want    Status
	}{
		{kernel.Proved, true, Proved}, {kernel.Trivial, true, Proved}, {kernel.Refuted, true, Refuted},
		{kernel.Unknown, true, Unknown}, {kernel.Proved, false, Unchecked},
	} {
		if got := FromVerdict(tt.v, tt.decided); got != tt.want {
			t.Errorf("FromVerdict(%v, %v) = %v; want %v", tt.v, tt.decided, got, tt.want)
		}
	}
	if Unchecked.String() != "not checked" || Proved.String() != "proved" {
		t.Errorf("spellings %q, %q", Unchecked, Proved)
	}
}

func TestDeriveChain(t *testing.T) {
	in := &Input{Automata: autos("TM", "A", "B", "C"),
		Edges: []Edge{edge(Refinement, "C", "B"), edge(Forward, "B", "A")}}
	d := Derive(in, verdicts(in, nil))
	for _, want := range []string{"C implements B", "B implements A", "C implements A", "C refines B"} {
		if d.Theorem(want) == nil {
			t.Errorf("missing theorem %q; derived:\n%s", want, names(d))
		}
	}
	if th := d.Theorem("C implements A"); th != nil {
		if th.Rule != RuleTransitivity || strings.Join(th.Edges, ",") != "B→A,C→B" {
			t.Errorf("C implements A: rule %s, edges %v; want transitivity from B→A,C→B", th.Rule, th.Edges)
		}
	}
	// A forward simulation is no refinement mapping: nothing composes.
	if d.Theorem("C refines A") != nil || d.Theorem("B refines A") != nil {
		t.Errorf("a forward simulation was used as a refinement mapping:\n%s", names(d))
	}
	// Two refinements compose.
	in.Edges[1].Kind = Refinement
	if d := Derive(in, verdicts(in, nil)); d.Theorem("C refines A") == nil || d.Theorem("C refines A").Rule != RuleComposition {
		t.Errorf("C refines A not derived by composition:\n%s", names(d))
	}
}

func TestTransitivityRefusesUnprovedEdge(t *testing.T) {
	in := &Input{Automata: autos("TM", "A", "B", "C"),
		Edges: []Edge{edge(Refinement, "C", "B"), edge(Refinement, "B", "A")}}
	e2 := in.Edges[1]
	for _, v := range []kernel.Verdict{kernel.Unknown, kernel.Refuted} {
		d := Derive(in, verdicts(in, map[string]kernel.Verdict{e2.Obligations[0]: v}))
		if want := FromVerdict(v, true); d.Edges[e2.Name] != want {
			t.Errorf("status of %s = %s; want %s", e2.Name, d.Edges[e2.Name], want)
		}
		if d.Theorem("C implements A") != nil || d.Theorem("B implements A") != nil || d.Theorem("C refines A") != nil {
			t.Errorf("with B→A %s, derived:\n%s", v, names(d))
		}
	}
	vs := verdicts(in, nil)
	delete(vs, e2.Obligations[0])
	if d := Derive(in, vs); d.Edges[e2.Name] != Unchecked || d.Theorem("C implements A") != nil {
		t.Errorf("with B→A unchecked: %s, derived:\n%s", d.Edges[e2.Name], names(d))
	}
	iface := map[string]string{"A": "TM", "B": "TM", "C": "TM"}
	for _, st := range []Status{Unknown, Refuted, Unchecked} {
		if _, err := TraceInclusion(&e2, st, iface); err == nil {
			t.Errorf("TraceInclusion accepted an edge that is %s", st)
		}
	}
	// Premises that do not meet are refused.
	x, _ := TraceInclusion(&in.Edges[0], Proved, iface)
	if _, err := Transitivity(x[0], x[0]); err == nil {
		t.Errorf("Transitivity(C implements B, C implements B) succeeded")
	}
}

func TestRulesRefuseDifferentInterfaces(t *testing.T) {
	in := &Input{Automata: append(autos("TM", "B", "C"), autos("Other", "A")...),
		Edges: []Edge{edge(Refinement, "C", "B"), edge(Refinement, "B", "A")}}
	d := Derive(in, verdicts(in, nil))
	if d.Theorem("C refines B") == nil || d.Theorem("B refines A") != nil || d.Theorem("C implements A") != nil {
		t.Errorf("across interfaces, derived:\n%s", names(d))
	}
	iface := map[string]string{"A": "Other", "B": "TM", "C": "TM"}
	if _, err := EdgeRefinement(&in.Edges[1], Proved, iface); err == nil || !strings.Contains(err.Error(), "interface") {
		t.Errorf("EdgeRefinement across interfaces: %v", err)
	}
	f, _ := EdgeRefinement(&in.Edges[0], Proved, iface)
	g := &Theorem{Name: "B refines A", Kind: Refines, Concrete: "B", Abstract: "A", iface: iface}
	if _, err := Composition(f, g); err == nil || !strings.Contains(err.Error(), "interface") {
		t.Errorf("Composition across interfaces: err = %v; want an interface error", err)
	}
	// Composition refuses trace inclusions.
	ti, _ := TraceInclusion(&in.Edges[0], Proved, iface)
	if _, err := Composition(ti[0], f); err == nil {
		t.Errorf("Composition accepted a trace inclusion as a refinement")
	}
}

func TestTransfer(t *testing.T) {
	in := &Input{Automata: autos("TM", "A", "C"), Edges: []Edge{edge(Forward, "C", "A")}}
	invariant(in, "A", "pos")
	d := Derive(in, verdicts(in, nil))
	if d.Theorem("A satisfies A.pos") == nil {
		t.Fatalf("the invariant itself is not derived:\n%s", names(d))
	}
	if d.Theorem("C satisfies A.pos") != nil {
		t.Errorf("an invariant was transferred along a forward simulation")
	}
	// Along a refinement it transfers, when the invariant is proved.
	in.Edges[0].Kind = Refinement
	d = Derive(in, verdicts(in, nil))
	th := d.Theorem("C satisfies A.pos")
	if th == nil || th.Rule != RuleTransfer || th.Invariant != "pos" {
		t.Fatalf("not transferred:\n%s", names(d))
	}
	d = Derive(in, verdicts(in, map[string]kernel.Verdict{in.Obligations[0].ID: kernel.Unknown}))
	if d.Theorem("C satisfies A.pos") != nil || d.Theorem("A satisfies A.pos") != nil {
		t.Errorf("an unproved invariant was used:\n%s", names(d))
	}
	ti, _ := TraceInclusion(&in.Edges[0], Proved, map[string]string{"A": "TM", "C": "TM"})
	if _, err := Transfer(ti[0], d.Theorem("A satisfies A.pos")); err == nil {
		t.Errorf("Transfer accepted a trace inclusion")
	}
}

func TestInvariantStatusJointInduction(t *testing.T) {
	in := &Input{Automata: autos("TM", "A")}
	kp, kq, kr := "automaton:A/invariant:P", "automaton:A/invariant:Q", "automaton:A/invariant:R"
	invariant(in, "A", "P", kp, kq)
	invariant(in, "A", "Q", kp, kq)
	invariant(in, "A", "R", kr, kq)
	ids := []string{in.Obligations[0].ID, in.Obligations[1].ID, in.Obligations[2].ID}
	check := func(except map[string]kernel.Verdict, p, q, r Status) {
		t.Helper()
		st := InvariantStatus(in.Obligations, verdicts(in, except))
		if st[kp] != p || st[kq] != q || st[kr] != r {
			t.Errorf("with %v: statuses = %v; want P %s, Q %s, R %s", except, st, p, q, r)
		}
	}
	// P and Q assume each other: both proved.
	check(nil, Proved, Proved, Proved)
	// Q unknown: P (assumes Q) and R (assumes Q) are unknown too.
	check(map[string]kernel.Verdict{ids[1]: kernel.Unknown}, Unknown, Unknown, Unknown)
	// Q refuted: Q is refuted, and P and R, which assume it, are unknown.
	check(map[string]kernel.Verdict{ids[1]: kernel.Refuted}, Unknown, Refuted, Unknown)
	// R refuted: P and Q are unaffected.
	check(map[string]kernel.Verdict{ids[2]: kernel.Refuted}, Proved, Proved, Refuted)
}

func TestEdgeNeedsAssumedInvariants(t *testing.T) {
	in := &Input{Automata: autos("TM", "A", "C")}
	k := invariant(in, "C", "inv")
	in.Edges = []Edge{edge(Refinement, "C", "A", k)}
	if d := Derive(in, verdicts(in, nil)); d.Theorem("C implements A") == nil {
		t.Errorf("not derived with the assumed invariant proved:\n%s", names(d))
	}
	d := Derive(in, verdicts(in, map[string]kernel.Verdict{in.Obligations[0].ID: kernel.Refuted}))
	// The edge's own obligations are not refuted: it is unknown, and no
	// theorem follows from it.
	if d.Edges["C→A"] != Unknown || d.Theorem("C implements A") != nil {
		t.Errorf("edge assuming a refuted invariant: status %s, theorems:\n%s", d.Edges["C→A"], names(d))
	}
	// An assumption nobody generated leaves the edge unchecked.
	e2 := edge(Refinement, "C", "A", "automaton:C/invariant:missing")
	if st := edgeStatus(&e2, ownByID(verdicts(in, nil).Status)(&e2), InvariantStatus(in.Obligations, verdicts(in, nil))); st != Unchecked {
		t.Errorf("edge assuming an unknown invariant: status %s; want unchecked", st)
	}
}

func TestTransferChains(t *testing.T) {
	// C→B assumes B.p∘g transferred along the refinement B→A (g), which
	// holds once A.p and B→A are proved.
	in := &Input{Automata: autos("TM", "A", "B", "C")}
	src := invariant(in, "A", "p")
	key := "automaton:B/invariant:A.p"
	cb := edge(Forward, "C", "B", key)
	cb.Transfers = []Transferred{{Key: key, Source: src, Chain: []string{"B→A"}}}
	in.Edges = []Edge{cb, edge(Refinement, "B", "A")}
	if d := Derive(in, verdicts(in, nil)); d.Edges["C→B"] != Proved {
		t.Errorf("C→B = %s; want proved", d.Edges["C→B"])
	}
	d := Derive(in, verdicts(in, map[string]kernel.Verdict{in.Edges[1].Obligations[0]: kernel.Refuted}))
	if d.Edges["C→B"] != Unknown {
		t.Errorf("with the chain's edge refuted, C→B = %s; want unknown", d.Edges["C→B"])
	}
	// A chain through a proof that is not an edge here is not checked.
	in.Edges[0].Transfers[0].Chain = []string{""}
	if d := Derive(in, verdicts(in, nil)); d.Edges["C→B"] != Unchecked {
		t.Errorf("with a chain outside the input, C→B = %s; want not checked", d.Edges["C→B"])
	}
}

func TestHistoryBothWays(t *testing.T) {
	in := &Input{Automata: autos("TM", "TMS2", "TxnOrd", "Res"),
		Edges: []Edge{edge(History, "TMS2", "TxnOrd"), edge(Refinement, "TxnOrd", "Res"), edge(Backward, "Res", "TxnOrd")}}
	d := Derive(in, verdicts(in, nil))
	for _, want := range []string{"TMS2 implements TxnOrd", "TxnOrd implements TMS2", "TxnOrd refines TMS2",
		"TMS2 implements Res", "Res implements TMS2"} {
		if d.Theorem(want) == nil {
			t.Errorf("missing %q; derived:\n%s", want, names(d))
		}
	}
	if d.Theorem("TMS2 refines TxnOrd") != nil {
		t.Errorf("a history edge's forward half was used as a refinement mapping")
	}
	th := d.Theorem("Res implements TMS2")
	if th != nil && !strings.Contains(th.Provenance(), "transitivity") {
		t.Errorf("provenance = %q", th.Provenance())
	}
}

// TestInvariantStatusUncheckedAnywhere checks that an invariant with an
// obligation not checked is not checked, wherever that obligation comes
// among its obligations: a proved obligation after it does not make the
// invariant proved.
func TestInvariantStatusUncheckedAnywhere(t *testing.T) {
	const key = "automaton:A/invariant:P"
	for missing := 0; missing < 3; missing++ {
		var obls []Obligation
		vs := Verdicts{}
		for i := 0; i < 3; i++ {
			id := "A › invariant P › " + string(rune('a'+i))
			obls = append(obls, Obligation{ID: id, Invariant: key, Automaton: "A"})
			if i != missing {
				vs[id] = kernel.Proved
			}
		}
		if st := InvariantStatus(obls, vs)[key]; st != Unchecked {
			t.Errorf("obligation %d of 3 not checked: P is %s", missing+1, st)
		}
	}
}

// TestInvariantStatusInterleaved checks that an invariant's status is the
// worst of its obligations' wherever they come, in one run or split by
// another invariant's: each of P's obligations is in turn refuted, then
// not checked, with Q's obligation between P's first and the rest.
func TestInvariantStatusInterleaved(t *testing.T) {
	const p, q = "automaton:A/invariant:P", "automaton:A/invariant:Q"
	for _, bad := range []kernel.Verdict{kernel.Refuted, kernel.Unknown} {
		for at := 0; at < 3; at++ {
			obls := []Obligation{
				{ID: "P0", Invariant: p}, {ID: "Q0", Invariant: q},
				{ID: "P1", Invariant: p}, {ID: "P2", Invariant: p}, {ID: "edge", Invariant: ""},
			}
			vs := Verdicts{"P0": kernel.Proved, "Q0": kernel.Proved, "P1": kernel.Proved, "P2": kernel.Proved, "edge": kernel.Refuted}
			vs[fmt.Sprintf("P%d", at)] = bad
			st := InvariantStatus(obls, vs)
			if want := FromVerdict(bad, true); st[p] != want || st[q] != Proved {
				t.Errorf("P%d %v: P is %s, Q is %s; want %s and proved", at, bad, st[p], st[q], want)
			}
			if _, ok := st[""]; ok {
				t.Errorf("an edge obligation gave a status to the empty key")
			}
		}
	}
}

// naiveInvariantStatus is InvariantStatus's closure step done the plain
// way: for each invariant, a walk over every invariant it reaches through
// assumptions, its own status as it is and the others' through
// viaAssumption. TestInvariantStatusClosure checks InvariantStatus against
// it.
func naiveInvariantStatus(local map[string]Status, assumes map[string][]string) map[string]Status {
	out := map[string]Status{}
	for k := range local {
		seen := map[string]bool{k: true}
		stack := []string{k}
		st := Proved
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			s, ok := local[x]
			if !ok {
				s = Unchecked
			}
			if x != k {
				s = viaAssumption(s)
			}
			st = worse(st, s)
			for _, y := range assumes[x] {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		out[k] = st
	}
	return out
}

// TestInvariantStatusClosure compares InvariantStatus with the plain walk
// on random assumption graphs (cycles, self-assumptions, invariants
// assumed but never generated) with random verdicts.
func TestInvariantStatusClosure(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	verdicts := []kernel.Verdict{kernel.Proved, kernel.Proved, kernel.Proved, kernel.Refuted, kernel.Unknown}
	for round := range 2000 {
		n := 1 + rng.IntN(9)
		key := func(i int) string { return fmt.Sprintf("automaton:A/invariant:p%d", i) }
		var obls []Obligation
		vs := Verdicts{}
		local := map[string]Status{}
		assumes := map[string][]string{}
		for i := range n {
			if rng.IntN(8) == 0 {
				continue // p_i is assumed, never generated
			}
			var as []string
			for j := range n + 1 { // p_n is never generated
				if rng.IntN(4) == 0 {
					as = append(as, key(j))
				}
			}
			for o := range 1 + rng.IntN(3) {
				id := fmt.Sprintf("%s › %d", key(i), o)
				obls = append(obls, Obligation{ID: id, Invariant: key(i), Automaton: "A", Assumes: as})
				if rng.IntN(10) > 0 {
					vs[id] = verdicts[rng.IntN(len(verdicts))]
				}
				if acc, ok := local[key(i)]; ok {
					local[key(i)] = worse(acc, vs.Status(id))
				} else {
					local[key(i)] = vs.Status(id)
				}
			}
			assumes[key(i)] = as
		}
		got, want := InvariantStatus(obls, vs), naiveInvariantStatus(local, assumes)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: InvariantStatus %v; the plain walk %v\nassumes %v", round, got, want, assumes)
		}
	}
}

// TestUnion compares union with sorting the concatenation and removing
// repetitions, on random lists, sorted or not.
func TestUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	list := func() []string {
		var xs []string
		for range rng.IntN(6) {
			xs = append(xs, string(rune('a'+rng.IntN(8))))
		}
		if rng.IntN(2) == 0 {
			slices.Sort(xs)
			xs = slices.Compact(xs)
		}
		return xs
	}
	for range 5000 {
		a, b := list(), list()
		want := slices.Concat(a, b)
		slices.Sort(want)
		want = slices.Compact(want)
		if got := union(a, b); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("union(%q, %q) = %q; want %q", a, b, got, want)
		}
	}
}

// TestDeriveTallies checks that deriving from the tallies of random
// parts of an input's obligations gives what deriving from the verdicts
// by ID gives, on random hierarchies whose edge obligations are among the
// input's, with obligations refuted, unknown and undecided; and that an
// edge whose tallied obligations are not exactly its own is unchecked.
func TestDeriveTallies(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	names := []string{"A", "B", "C", "D"}
	pick := []kernel.Verdict{kernel.Proved, kernel.Proved, kernel.Proved, kernel.Trivial, kernel.Refuted, kernel.Unknown}
	for round := range 1000 {
		in := &Input{Automata: autos("TM", names...)}
		var keys []string
		for _, a := range names {
			for k := range r.IntN(3) {
				keys = append(keys, invariant(in, a, fmt.Sprint("p", k)))
			}
		}
		// a few more obligations of the same invariants, some with the
		// same assumptions as the one before
		for range r.IntN(4) {
			if len(in.Obligations) > 0 {
				o := in.Obligations[r.IntN(len(in.Obligations))]
				o.ID += fmt.Sprint(" › ", len(in.Obligations))
				in.Obligations = append(in.Obligations, o)
			}
		}
		for i := range in.Obligations {
			if len(keys) > 0 && r.IntN(2) == 0 {
				in.Obligations[i].Assumes = []string{keys[r.IntN(len(keys))]}
			}
		}
		for i, c := range names {
			for _, a := range names[i+1:] {
				if r.IntN(2) == 0 {
					continue
				}
				e := edge(EdgeKind(r.IntN(4)), c, a)
				e.Obligations = nil
				for k := range 1 + r.IntN(3) {
					id := fmt.Sprint(e.Name, " › step ", k)
					e.Obligations = append(e.Obligations, id)
					in.Obligations = append(in.Obligations, Obligation{ID: id, Edge: e.Name})
				}
				if len(keys) > 0 && r.IntN(2) == 0 {
					e.Assumes = []string{keys[r.IntN(len(keys))]}
				}
				in.Edges = append(in.Edges, e)
			}
		}
		if r.IntN(2) == 0 {
			r.Shuffle(len(in.Obligations), func(i, j int) { in.Obligations[i], in.Obligations[j] = in.Obligations[j], in.Obligations[i] })
		}
		vs := Verdicts{}
		for _, o := range in.Obligations {
			if r.IntN(8) > 0 {
				vs[o.ID] = pick[r.IntN(len(pick))]
			}
		}
		st := stOf(in.Obligations, vs)
		var ts []*Tally
		for lo := 0; lo < len(in.Obligations); {
			hi := min(len(in.Obligations), lo+1+r.IntN(4))
			ts = append(ts, TallyOf(in.Obligations[lo:hi], st[lo:hi]))
			lo = hi
		}
		r.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		want, got := Derive(in, vs), DeriveTallies(in, ts)
		if !reflect.DeepEqual(got.Invariants, want.Invariants) || !reflect.DeepEqual(got.Edges, want.Edges) || names2(got) != names2(want) {
			t.Fatalf("round %d: from tallies\n%v %v\n%s\nfrom verdicts\n%v %v\n%s", round,
				got.Invariants, got.Edges, names2(got), want.Invariants, want.Edges, names2(want))
		}
	}
	in := &Input{Automata: autos("TM", "A", "C")}
	in.Edges = []Edge{edge(Refinement, "C", "A")}
	id := in.Edges[0].Obligations[0]
	for _, c := range []struct {
		name string
		obls []Obligation
	}{
		{"missing", nil},
		{"another's", []Obligation{{ID: "C→A › other", Edge: "C→A"}}},
		{"one more", []Obligation{{ID: id, Edge: "C→A"}, {ID: "C→A › other", Edge: "C→A"}}},
		{"twice", []Obligation{{ID: id, Edge: "C→A"}, {ID: id, Edge: "C→A"}}},
	} {
		st := make(Statuses, len(c.obls))
		for i := range st {
			st[i] = Proved
		}
		if d := DeriveTallies(in, []*Tally{TallyOf(c.obls, st)}); d.Edges["C→A"] != Unchecked {
			t.Errorf("edge with its obligation %s: %s; want not checked", c.name, d.Edges["C→A"])
		}
	}
	st := Statuses{Proved}
	if d := DeriveTallies(in, []*Tally{TallyOf([]Obligation{{ID: id, Edge: "C→A"}}, st)}); d.Edges["C→A"] != Proved {
		t.Errorf("edge with its one obligation proved: %s; want proved", d.Edges["C→A"])
	}
}

func names2(d *Derivation) string {
	var out []string
	for _, t := range d.Theorems {
		out = append(out, t.String())
	}
	return strings.Join(out, "\n")
}

// saturateNaive is Derivation.saturate trying every pair in every round,
// the definition the rounds of fresh pairs must agree with.
func saturateNaive(d *Derivation) {
	for {
		known := append([]*Theorem(nil), d.Theorems...)
		changed := false
		for _, x := range known {
			for _, y := range known {
				if x == y || y.Concrete != x.Abstract {
					continue
				}
				if x.Kind == Implements && y.Kind == Implements && x.Concrete != y.Abstract {
					if t, err := Transitivity(x, y); err == nil {
						changed = d.add(t) || changed
					}
				}
				if x.Kind == Refines && y.Kind == Refines && x.Concrete != y.Abstract {
					if t, err := Composition(x, y); err == nil {
						changed = d.add(t) || changed
					}
				}
				if x.Kind == Refines && y.Kind == InvariantOf && y.Rule == RuleInduction && x.Concrete != y.Concrete {
					if t, err := Transfer(x, y); err == nil {
						changed = d.add(t) || changed
					}
				}
			}
		}
		if !changed {
			return
		}
	}
}

// TestSaturateFreshPairs compares the saturation by fresh pairs with the
// naive one on random hierarchies with chains, cycles and parallel edges
// of every kind: the same theorems, in the same order, from the same
// premises.
func TestSaturateFreshPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	names := []string{"A", "B", "C", "D", "E"}
	for round := range 300 {
		in := &Input{Automata: autos("TM", names...)}
		for _, a := range names {
			for k := range r.IntN(3) {
				invariant(in, a, fmt.Sprint("p", k))
			}
		}
		for range r.IntN(9) {
			c, a := names[r.IntN(len(names))], names[r.IntN(len(names))]
			if c == a || slices.ContainsFunc(in.Edges, func(e Edge) bool { return e.Name == c+"→"+a }) {
				continue
			}
			in.Edges = append(in.Edges, edge(EdgeKind(r.IntN(4)), c, a))
		}
		vs := verdicts(in, nil)
		got := Derive(in, vs)
		d := &Derivation{byName: map[string]*Theorem{}}
		for _, th := range got.Theorems {
			if th.Rule == RuleInduction || th.Rule == RuleRefinementEdge || th.Rule == RuleTraceInclusion {
				d.add(th)
			}
		}
		saturateNaive(d)
		if a, b := provenances(got), provenances(d); a != b {
			t.Fatalf("round %d: by fresh pairs\n%s\nnaive\n%s", round, a, b)
		}
	}
}

func provenances(d *Derivation) string {
	var out []string
	for _, th := range d.Theorems {
		out = append(out, th.String()+" "+th.Provenance())
	}
	return strings.Join(out, "\n")
}
