// This file implements the production solver: package smt over one Z3
// context per session.

package kernel

import (
	"context"
	"strings"

	"ladder/internal/logic"
	"ladder/internal/smt"
	"ladder/internal/z3"
)

// New returns a kernel for cfg that checks with the linked libz3 through
// package smt, and dumps unknown queries into unknownDir ("" means
// DefaultUnknownDir). The solver identity carries z3.Version().
func New(cfg Config, unknownDir string) (*Kernel, error) {
	return newKernel(cfg, unknownDir, "z3", z3.Version(), newZ3Solver)
}

// z3Solver checks each problem in a fresh Z3 context of its own. A context
// carries state from one check to the next (its resource counter, the
// numbering of terms, learned caches), and with it the same problem can
// exhaust the resource limit after one obligation and be proved at once
// after another. A fresh context per check makes every verdict a function
// of the problem and the Config alone, as the cache requires; creating one
// costs a few milliseconds.
type z3Solver struct{}

func newZ3Solver() (solver, error) { return z3Solver{}, nil }

func (z3Solver) check(p *logic.Problem, cfg Config) (answer, error) {
	ctx, err := z3.NewContext(nil)
	if err != nil {
		return answer{}, err
	}
	r, err := smt.NewSession(ctx).Check(context.Background(), p, smt.Config{
		RLimit: cfg.RLimit, Seed: cfg.Seed, TimeoutMS: uint(cfg.Timeout.Milliseconds()), Model: true,
	})
	if err != nil {
		ctx.Close()
		return answer{}, err
	}
	a := answer{rlimit: r.RLimitUsed, reason: r.Reason, seconds: r.Seconds, release: ctx.Close}
	switch r.Status {
	case smt.Unsat:
		a.status = statusUnsat
	case smt.Sat:
		a.status = statusSat
		if r.Model != nil {
			a.model = r.Model
			a.release = func() {
				r.Model.Close()
				ctx.Close()
			}
		}
	default:
		a.status = statusUnknown
		// Z3 says "timeout" for the wall-clock limit; "canceled" and
		// "max. resource limit exceeded" both come from the rlimit and
		// are deterministic.
		a.timeout = strings.Contains(r.Reason, "timeout")
	}
	return a, nil
}

func (z3Solver) close() {}
