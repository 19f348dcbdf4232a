// This file implements the edge check of --proof: the proof file's
// `assume:` section is replaced by the inferred invariants (concrete) and
// the edge is proved again.

package infer

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"ladder/internal/driver"
	"ladder/internal/theorems"
	"ladder/ioa/load"
)

// EdgeResult is the outcome of the edge check.
type EdgeResult struct {
	Proof string `json:"proof"`
	Edge  string `json:"edge"`
	// Status is the edge's status as the prover derives it: proved only
	// when every obligation of the edge and every invariant it assumes is.
	Status string `json:"status"`
	// Concrete and Abstract are the assumption lists the edge was proved
	// with (the `assume:` section written into the proof file).
	Concrete    []string `json:"concrete"`
	Abstract    []string `json:"abstract"`
	Obligations int      `json:"obligations"`
	Proved      int      `json:"proved"` // discharged: proved by Z3, or trivial
	Refuted     int      `json:"refuted"`
	Unknown     int      `json:"unknown"`
	// Failed lists the edge's obligations that were not proved.
	Failed []string `json:"failed,omitempty"`
	// Assume is the `assume:` section, to paste into the proof file.
	Assume string `json:"assume"`
}

// edge proves the edge of proofPath with the inferred invariants names
// (the automaton's file as text) as its concrete assumptions; abstract,
// when non-nil, replaces its abstract assumptions.
func (s *session) edge(ctx context.Context, proofPath string, text []byte, names, abstract []string) (*EdgeResult, error) {
	proofAbs, err := filepath.Abs(proofPath)
	if err != nil {
		return nil, err
	}
	orig, err := load.ReadFile(proofPath)
	if b, ok := s.overlays[proofAbs]; ok {
		orig, err = b, nil
	}
	if err != nil {
		return nil, err
	}
	// The assume: lists as written name invariants of the automaton as
	// written, which the inferred set replaces: they are read, not
	// resolved. Qualified names (X.P, assumed by transfer) are kept; the
	// abstract list is kept unless abstract replaces it.
	wrote, wroteAbs, present, err := load.AssumeLists(orig)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUsage, proofPath, err)
	}
	var concrete []string
	for _, n := range wrote {
		if strings.Contains(n, ".") {
			concrete = append(concrete, n)
		}
	}
	concrete = append(concrete, names...)
	if abstract == nil {
		abstract = []string{}
		if present[1] {
			abstract = wroteAbs
		}
	}
	assume := fmt.Sprintf("assume:\n  concrete: [%s]\n  abstract: [%s]\n", strings.Join(concrete, ", "), strings.Join(abstract, ", "))
	ptext, _ := replaceSection(orig, "assume", assume)
	over := map[string][]byte{s.path: text, proofAbs: ptext}
	for k, v := range s.overlays {
		if _, ok := over[k]; !ok {
			over[k] = v
		}
	}
	// The automata the proof names are looked up in the library and in
	// the proof's directory.
	lib := append(append([]string(nil), s.library...), filepath.Dir(proofPath))
	set, errs := loadConfig(lib, over).Files(s.path, proofPath)
	if len(errs) > 0 {
		return nil, errs
	}
	ps := set.Proofs
	if len(ps) != 1 {
		return nil, fmt.Errorf("%w: %s: expected one proof, found %d", ErrUsage, proofPath, len(ps))
	}
	p := ps[0]
	if abs, err := filepath.Abs(p.Concrete.File); err != nil || abs != s.path || p.Concrete.Name != s.auto {
		return nil, fmt.Errorf("%w: the concrete automaton of %s is %s (%s), not %s", ErrUsage, proofPath, p.Concrete.Name, p.Concrete.File, s.auto)
	}
	in, errs := driver.Generate(set)
	if len(errs) > 0 {
		return nil, errs
	}
	s.phase = "edge " + p.Name
	if s.progress != nil {
		s.progress(fmt.Sprintf("%s: %d obligations", s.phase, len(in.Obligations)))
	}
	if len(in.Edges) != 1 {
		return nil, fmt.Errorf("internal error: %d edges in %s", len(in.Edges), proofPath)
	}
	e := in.Edges[0]
	verdicts, err := s.prove(ctx, s.prover, in, in.Obligations, true)
	if err != nil {
		return nil, err
	}
	er := &EdgeResult{Proof: proofPath, Concrete: concrete, Abstract: abstract, Assume: assume}
	er.Edge = e.Name
	mine := map[string]bool{}
	for _, id := range e.Obligations {
		mine[id] = true
	}
	for _, id := range e.Obligations {
		er.Obligations++
		switch verdicts.Status(id) {
		case theorems.Proved:
			er.Proved++
			continue
		case theorems.Refuted:
			er.Refuted++
		default:
			er.Unknown++
		}
		er.Failed = append(er.Failed, id)
	}
	if st, ok := derive(in, verdicts).Edges[e.Name]; ok {
		er.Status = st.String()
	}
	return er, nil
}
