package report

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"testing"
)

// TestWriteJSONSameBytes checks that WriteJSON, which writes the list of
// obligations by hand, writes exactly the bytes encoding/json does, for
// reports with every optional field, strings that need escaping (quotes,
// control characters, U+2028, invalid UTF-8, HTML characters, the
// separators of IDs), floats of every magnitude, counterexamples with
// structured data, empty and nil lists, and a list long enough to be
// written in many pieces.
func TestWriteJSONSameBytes(t *testing.T) {
	odd := []string{"", "plain", "A › invariant p › Step", "q\"uote\\back", "tab\tnew\nline\x01",
		"sep\u2028\u2029", "bad\xffutf8", "<html>&amp;", "DSTM→ReservationTMS2 › forward › W1 › case 2 › relation(pc)"}
	floats := []float64{0, 1, -1, 0.5, 1e-7, 1.5e-9, 123456.789, 1e21, 3e22, math.SmallestNonzeroFloat64, 2.220446049250313e-16, 0.000001, 59.812}
	var obs []Obligation
	for i, s := range odd {
		o := Obligation{ID: s, Group: odd[(i+1)%len(odd)], Pos: odd[(i+2)%len(odd)], Verdict: "proved",
			Seconds: floats[i%len(floats)], SolverSeconds: floats[(i+3)%len(floats)], Z3Seconds: floats[(i+5)%len(floats)], RLimitUsed: uint64(i) * 1e15,
			Cached: i%2 == 0, Slice: i % 3, Reason: odd[(i+4)%len(odd)], Dump: odd[(i+5)%len(odd)]}
		obs = append(obs, o)
	}
	for i, f := range floats {
		obs = append(obs, Obligation{ID: "f", Group: "g", Verdict: "trivial", Seconds: f, SolverSeconds: floats[len(floats)-1-i]})
	}
	obs = append(obs, Obligation{ID: "r", Group: "g", Verdict: "refuted", Counterexample: &Counterexample{
		Text: "pre: x = 1\n<goal>", Data: json.RawMessage(`{"pre":{"x":"1"},"list":[1,2,{"a":"<b>"}]}`)}})
	obs = append(obs, Obligation{ID: "r2", Group: "g", Verdict: "refuted", Counterexample: &Counterexample{Text: "t"}})

	var long []Obligation
	for len(long) < 5000 {
		long = append(long, obs...)
	}
	reports := []*Prove{
		{},
		{Obligations: []Obligation{}, Invariants: []Invariant{}, Edges: []Edge{}, Theorems: []Theorem{}},
		testProve(),
		{Obligations: obs, Errors: []string{"f.yaml:1:2: <bad>"}, Warnings: []string{"w\u2028"},
			Changes: &Changes{Items: []ItemChange{{Item: "automaton:A/action:X", Change: ItemEdited}}}},
		{Obligations: obs[:1], Changes: &Changes{}},
		// long enough to fill the buffer of writeObligationList many times
		{Obligations: long},
	}
	for i, p := range reports {
		var got, want bytes.Buffer
		if err := p.WriteJSON(&got); err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
		if err := p.writeJSONStd(&want); err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			g, w := got.Bytes(), want.Bytes()
			n := 0
			for n < len(g) && n < len(w) && g[n] == w[n] {
				n++
			}
			t.Errorf("report %d: bytes differ at %d:\n got …%q\nwant …%q", i, n, g[max(0, n-80):min(len(g), n+80)], w[max(0, n-80):min(len(w), n+80)])
		}
	}
}

// BenchmarkWriteJSON writes a report of 100,000 obligations, as a run over
// ten copies of this repository prints (compare BenchmarkWriteJSONStd).
func BenchmarkWriteJSON(b *testing.B) { benchmarkJSON(b, (*Prove).WriteJSON) }

// BenchmarkWriteJSONStd writes the same report with encoding/json alone.
func BenchmarkWriteJSONStd(b *testing.B) { benchmarkJSON(b, (*Prove).writeJSONStd) }

func benchmarkJSON(b *testing.B, write func(*Prove, io.Writer) error) {
	p := &Prove{}
	for i := range 100000 {
		p.Obligations = append(p.Obligations, Obligation{ID: "DSTM→ReservationTMS2 › forward › W1 › relation(pc)", Group: "DSTM→ReservationTMS2",
			Pos: "proofs/DSTM-ReservationTMS2.yaml:12:3", Verdict: "proved", RLimitUsed: uint64(i), Cached: true})
	}
	b.ResetTimer()
	for range b.N {
		var buf bytes.Buffer
		if err := write(p, &buf); err != nil {
			b.Fatal(err)
		}
	}
}

// writeJSONStd writes the report with encoding/json alone: the reference
// WriteJSON's bytes are checked against.
func (p *Prove) writeJSONStd(w io.Writer) error {
	q := p.forJSON()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(&q)
}
