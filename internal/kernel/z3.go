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

// z3Solver checks problems in its own Z3 context.
type z3Solver struct {
	ctx *z3.Context
}

func newZ3Solver() (solver, error) {
	ctx, err := z3.NewContext(nil)
	if err != nil {
		return nil, err
	}
	return &z3Solver{ctx: ctx}, nil
}

func (s *z3Solver) check(p *logic.Problem, cfg Config) (answer, error) {
	r, err := smt.Check(context.Background(), s.ctx, p, smt.Config{
		RLimit: cfg.RLimit, Seed: cfg.Seed, TimeoutMS: uint(cfg.Timeout.Milliseconds()), Model: true,
	})
	if err != nil {
		return answer{}, err
	}
	a := answer{rlimit: r.RLimitUsed, reason: r.Reason}
	switch r.Status {
	case smt.Unsat:
		a.status = statusUnsat
	case smt.Sat:
		a.status = statusSat
		if r.Model != nil {
			a.model = r.Model
			a.release = r.Model.Close
		}
	default:
		a.status = statusUnknown
		a.timeout = strings.Contains(r.Reason, "timeout") || strings.Contains(r.Reason, "canceled")
	}
	return a, nil
}

func (s *z3Solver) close() { s.ctx.Close() }
