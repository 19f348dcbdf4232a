// This file implements the production solver: package smt over one Z3
// context per session.

package kernel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"ladder/internal/logic"
	"ladder/internal/proposal"
	"ladder/internal/smt"
	"ladder/internal/z3"
)

// New returns a kernel for cfg that checks with the linked libz3 through
// package smt (see z3Solver), and dumps unknown queries into unknownDir ("" means
// DefaultUnknownDir). The solver identity carries z3.Version(). r is the
// bounded counterexample search (refute.New()); it may be nil only when
// cfg.Search.Off. It can only propose models, which the kernel replays.
func New(cfg Config, unknownDir string, r proposal.Refuter) (*Kernel, error) {
	return newKernel(cfg, unknownDir, "z3", z3.Version(), newZ3Solver, r)
}

// z3Solver checks each problem from its canonical text, through Z3's
// SMT-LIB2 parser (smt.CheckScript), in a fresh Z3 context. The text is the
// one the cache key and the kernel's fingerprint are computed from, and the
// one --dump-smt writes, so a verdict is a function of exactly what is
// hashed and `z3 FILE` answers a dump as the kernel did. A fresh context
// matters as much: a context carries state from one check to the next (its
// resource counter, the numbering of terms), and with it the same problem
// can exhaust the resource limit after one obligation and be proved at once
// after another. Creating and deleting a context costs a few milliseconds.
//
// The text gives no model. On sat, the problem is checked once more through
// the API (smt.Session.Check), again in a fresh context, for a model to
// replay; if that check does not say sat too, the kernel reports an
// internal error.
//
// A session's solver stops a check when the context of the running
// Session.CheckContext is done (Z3 answers unknown, "canceled").
type z3Solver struct {
	ctx context.Context // the context of the running check; nil: none
}

func newZ3Solver() (solver, error) { return &z3Solver{}, nil }

// setContext sets the context of the checks that follow.
func (z *z3Solver) setContext(ctx context.Context) { z.ctx = ctx }

func (z *z3Solver) context() context.Context {
	if z.ctx == nil {
		return context.Background()
	}
	return z.ctx
}

func (z *z3Solver) check(p *logic.Problem, text string, cfg Config) (answer, error) {
	sc := smt.Config{RLimit: cfg.RLimit, Seed: cfg.Seed, TimeoutMS: uint(cfg.Timeout.Milliseconds()), Simple: cfg.plain}
	start := time.Now()
	r, err := smt.CheckScript(z.context(), text, sc)
	if err != nil {
		return answer{}, err
	}
	a := answer{rlimit: r.RLimitUsed, reason: r.Reason, seconds: r.Seconds}
	switch r.Status {
	case smt.Unsat:
		a.status = statusUnsat
	case smt.Sat:
		a.status = statusSat
		if cfg.proofOnly {
			break // Check replays no model of the plain solver or of a slice
		}
		a.model, a.release, err = apiModel(z.context(), p, sc)
		if errors.Is(err, errNoModel) {
			// No model to replay: nothing is refuted, and the bounded
			// search may still find a counterexample.
			a.status, a.reason = statusUnknown, err.Error()
			break
		}
		if err != nil {
			return answer{}, err
		}
	default:
		a.status = statusUnknown
		// Z3 says "timeout" for the wall-clock limit; "canceled" and
		// "max. resource limit exceeded" both come from the rlimit and
		// are deterministic.
		a.timeout = strings.Contains(r.Reason, "timeout")
	}
	a.z3secs = time.Since(start).Seconds()
	return a, nil
}

// core checks p's text as check does, with every assertion tracked, and
// returns the indices of the assertions in Z3's unsat core on unsat
// (smt.CoreScript). The unsat answer proves p as check's does: the
// assumptions only name the assertions. The core is a hint: Session.Core
// checks the subset on its own. A sat answer comes without a model.
func (z *z3Solver) core(p *logic.Problem, text string, cfg Config) (answer, []int, error) {
	sc := smt.Config{RLimit: cfg.RLimit, Seed: cfg.Seed, TimeoutMS: uint(cfg.Timeout.Milliseconds()), Simple: cfg.plain}
	start := time.Now()
	r, core, err := smt.CoreScript(z.context(), text, len(p.Assertions), sc)
	if err != nil {
		return answer{}, nil, err
	}
	a := answer{rlimit: r.RLimitUsed, reason: r.Reason, seconds: r.Seconds, z3secs: time.Since(start).Seconds()}
	switch r.Status {
	case smt.Unsat:
		a.status = statusUnsat
	case smt.Sat:
		a.status = statusSat // no model: only proof-only checks are tracked
	default:
		a.status = statusUnknown
		a.timeout = strings.Contains(r.Reason, "timeout") // as in check
	}
	return a, core, nil
}

// errNoModel is the error of apiModel when the API gives no model for a
// problem whose text is sat (Z3 4.8.12 can answer unknown there).
var errNoModel = errors.New("no model")

// apiModel checks p through the Z3 API in a fresh context and returns the
// model of a sat answer and the function that frees it.
func apiModel(goctx context.Context, p *logic.Problem, sc smt.Config) (logic.Model, func(), error) {
	ctx, err := z3.NewContext(nil)
	if err != nil {
		return nil, nil, err
	}
	sc.Model = true
	r, err := smt.NewSession(ctx).Check(goctx, p, sc)
	switch {
	case err != nil:
		ctx.Close()
		return nil, nil, err
	case r.Status != smt.Sat || r.Model == nil:
		ctx.Close()
		return nil, nil, fmt.Errorf("%w: the problem's text is sat but the problem built through the API is %s", errNoModel, r.Status)
	}
	return r.Model, func() {
		r.Model.Close()
		ctx.Close()
	}, nil
}

// model checks p through the Z3 API in a fresh context and keeps the
// model of a sat answer.
func (z *z3Solver) model(p *logic.Problem, cfg Config) (answer, error) {
	sc := smt.Config{RLimit: cfg.RLimit, Seed: cfg.Seed, TimeoutMS: uint(cfg.Timeout.Milliseconds()), Model: true}
	start := time.Now()
	ctx, err := z3.NewContext(nil)
	if err != nil {
		return answer{}, err
	}
	r, err := smt.NewSession(ctx).Check(z.context(), p, sc)
	if err != nil {
		ctx.Close()
		return answer{}, err
	}
	a := answer{rlimit: r.RLimitUsed, reason: r.Reason, seconds: r.Seconds}
	switch r.Status {
	case smt.Unsat:
		a.status = statusUnsat
	case smt.Sat:
		if r.Model == nil {
			ctx.Close()
			return answer{}, fmt.Errorf("sat without a model")
		}
		a.status = statusSat
		a.model = r.Model
		a.release = func() {
			r.Model.Close()
			ctx.Close()
		}
	default:
		a.status = statusUnknown
		a.timeout = strings.Contains(r.Reason, "timeout")
	}
	if a.release == nil {
		ctx.Close()
	}
	a.z3secs = time.Since(start).Seconds()
	return a, nil
}

func (*z3Solver) close() {}
