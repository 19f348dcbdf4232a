// This file implements Run: one random execution.

package explore

import (
	"math/rand/v2"

	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
)

// Run performs one random execution of a in the instance of cfg: a start
// state and up to steps steps, each chosen uniformly among the transitions
// enabled in the current state, with the pseudo-random generator seeded by
// seed (so a seed reproduces its run). It stops early when a state violates
// an invariant or a Nat condition (Trace.Invariant) or enables no action
// (Trace.Deadlock; Trace.NotFinal when it is not a final state either). cfg.Invariants selects the invariants as for Explore.
func Run(a *ioa.Automaton, cfg Config, steps int, seed uint64) (*Trace, error) {
	x, err := newExplorer(a, cfg)
	if err != nil {
		return nil, err
	}
	m := x.m
	rng := rand.New(rand.NewPCG(seed, 0x6c6164646572))
	inits, err := m.Init()
	if err != nil {
		return nil, err
	}
	if len(inits) == 0 {
		t := &Trace{Automaton: a.Name, Instance: m.Inst.String(), Deadlock: true}
		return t, nil
	}
	cur := inits[rng.IntN(len(inits))]
	t := newTrace(m, cur)
	r := fast.NewRunner(m)
	type choice struct {
		act    int
		params []eval.Value
		post   eval.State
	}
	var choices []choice
	for i := 0; ; i++ {
		name, err := r.Violated(cur, x.invs)
		if err != nil {
			return nil, err
		}
		if name != "" {
			t.Invariant = name
			return t, nil
		}
		if i == steps {
			return t, nil
		}
		choices = choices[:0]
		err = r.Successors(cur, func(act int, params []eval.Value, post eval.State) bool {
			choices = append(choices, choice{act, append([]eval.Value(nil), params...), post})
			return true
		})
		if err != nil {
			return nil, err
		}
		if len(choices) == 0 {
			t.Deadlock = true
			if m.HasFinal() {
				final, err := r.Final(cur)
				if err != nil {
					return nil, err
				}
				t.NotFinal = !final
				t.Final = final
			}
			return t, nil
		}
		c := choices[rng.IntN(len(choices))]
		if err := t.add(m, a.Actions[c.act], c.params, c.post); err != nil {
			return nil, err
		}
		cur = c.post
	}
}
