// This file implements the kernel proper: preparing queries, and checking
// them on a per-worker session.

package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"ladder/internal/logic"
	"ladder/simulation"
)

// DefaultUnknownDir is where unknown queries are dumped unless the kernel
// is given another directory: .ladder/unknown/ under the working directory.
var DefaultUnknownDir = filepath.Join(".ladder", "unknown")

// status is a solver answer.
type status int

const (
	statusUnknown status = iota
	statusSat
	statusUnsat
)

// answer is what the solver says about one problem.
type answer struct {
	status  status
	model   logic.Model // sat: valid until release is called
	reason  string      // unknown: Z3's reason_unknown
	timeout bool        // unknown: stopped by the wall-clock limit or an interrupt
	rlimit  uint64      // resource units used
	seconds float64     // wall-clock time of the solver's check alone
	z3secs  float64     // wall-clock time of every Z3 call for the problem
	release func()      // frees the model; may be nil
}

// solver is one worker's access to the SMT solver: package smt over a fresh
// Z3 context per check in production, a scripted fake in the kernel's tests.
type solver interface {
	check(p *logic.Problem, cfg Config) (answer, error)
	close()
}

// Kernel checks and admits obligations under one Config. It is safe for
// concurrent use; each worker checks through its own Session.
type Kernel struct {
	cfg        Config
	identity   Identity
	unknownDir string
	newSolver  func() (solver, error)
}

// Identity returns the solver identity every query is checked under.
func (k *Kernel) Identity() Identity { return k.identity }

// newKernel validates cfg and returns a kernel using the given solver
// factory and identity.
func newKernel(cfg Config, unknownDir, name, version string, newSolver func() (solver, error)) (*Kernel, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if unknownDir == "" {
		unknownDir = DefaultUnknownDir
	}
	return &Kernel{
		cfg:        cfg,
		identity:   Identity{Name: name, Version: version, Params: cfg.Params()},
		unknownDir: unknownDir,
		newSolver:  newSolver,
	}, nil
}

// Prepare prints ob's problem canonically and returns the query to check or
// admit. The query keeps its own copy of the problem's declaration and
// assertion lists (terms are immutable), so the problem checked is the one
// printed even if ob is modified afterwards. An error means the problem is
// ill-formed, a bug in the generator (report it with Failed).
func (k *Kernel) Prepare(ob *simulation.Obligation) (*Query, error) {
	if ob == nil || ob.Problem == nil {
		return nil, errors.New("obligation without a problem")
	}
	p := &logic.Problem{
		Decls:      append([]*logic.Term(nil), ob.Problem.Decls...),
		Assertions: append([]logic.Named(nil), ob.Problem.Assertions...),
	}
	text, err := p.Text()
	if err != nil {
		return nil, fmt.Errorf("obligation %s: ill-formed problem: %v", ob.ID, err)
	}
	q := &Query{ob: ob, problem: p, text: text, identity: k.identity, cfg: k.cfg}
	q.fingerprint = fingerprintOf(k.identity, text)
	return q, nil
}

// Session is one worker's connection to the solver; in production every
// Check runs in a fresh Z3 context owned by the session while it runs. A
// Session is not safe for concurrent use; close it when done.
type Session struct {
	k *Kernel
	s solver
}

// NewSession returns a new session.
func (k *Kernel) NewSession() (*Session, error) {
	s, err := k.newSolver()
	if err != nil {
		return nil, err
	}
	return &Session{k: k, s: s}, nil
}

// Close releases the session's solver resources.
func (s *Session) Close() {
	if s.s != nil {
		s.s.close()
		s.s = nil
	}
}

// Check decides q (see the package documentation). It never returns Proved
// unless the solver answered unsat for q's problem under q's configuration.
func (s *Session) Check(q *Query) Result {
	if q.identity != s.k.identity {
		return internalResult("", "query prepared under another configuration")
	}
	ans, err := s.s.check(q.problem, s.k.cfg)
	if ans.release != nil {
		defer ans.release()
	}
	var r Result
	switch {
	case err != nil:
		r = internalResult(q.fingerprint, "solver error: %v", err)
	case ans.status == statusUnsat:
		r = Result{verdict: Proved, fingerprint: q.fingerprint}
	case ans.status == statusSat:
		r = replay(q, ans.model)
	default:
		reason := ans.reason
		if reason == "" {
			reason = "no reason given"
		}
		r = Result{verdict: Unknown, fingerprint: q.fingerprint, Timeout: ans.timeout,
			Reason: fmt.Sprintf("z3: %s (%s)", reason, s.k.cfg.Limits())}
	}
	r.RLimitUsed = ans.rlimit
	r.SolverSeconds = seconds(ans.seconds)
	r.Z3Seconds = seconds(ans.z3secs)
	if r.verdict == Unknown {
		r.Dump = s.k.dump(q)
	}
	return r
}

// replay asks the obligation to decode and re-check the model. Only a
// replayed counterexample is a refutation.
func replay(q *Query, m logic.Model) (r Result) {
	const disagree = "solver model does not replay"
	if q.ob.Replay == nil {
		return internalResult(q.fingerprint, "%s: the obligation has no replay", disagree)
	}
	defer func() {
		if p := recover(); p != nil {
			r = internalResult(q.fingerprint, "%s: replay panicked: %v", disagree, p)
		}
	}()
	cex, err := q.ob.Replay(m)
	switch {
	case err != nil:
		return internalResult(q.fingerprint, "%s: %v", disagree, err)
	case cex == nil:
		return internalResult(q.fingerprint, "%s: no counterexample", disagree)
	}
	return Result{verdict: Refuted, fingerprint: q.fingerprint, Counterexample: render(cex)}
}

// render turns a replayed counterexample into its printable form: the text
// of its String method and a JSON object with its fields (states as text).
func render(c *simulation.Counterexample) *Counterexample {
	type state struct {
		Name      string `json:"name"`
		Automaton string `json:"automaton"`
		Text      string `json:"text"`
		Base      string `json:"base,omitempty"` // Text lists only what differs from Base
	}
	data := struct {
		Clause    string   `json:"clause"`
		Action    string   `json:"action,omitempty"`
		Case      string   `json:"case,omitempty"`
		Goal      string   `json:"goal"`
		Step      string   `json:"step,omitempty"`
		Abstract  []string `json:"abstract,omitempty"`
		States    []state  `json:"states"`
		Constants []string `json:"constants,omitempty"`
		Instance  string   `json:"instance,omitempty"`
	}{Clause: c.Clause, Action: c.Action, Case: c.Case, Goal: c.Goal, Step: c.Step,
		Abstract: c.Abstract, Constants: c.Constants, Instance: c.Instance, States: []state{}}
	for _, s := range c.States {
		st := state{Name: s.Name, Automaton: s.Automaton, Text: s.Text}
		if s.Changed {
			st.Base = s.Base
		}
		data.States = append(data.States, st)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		raw = nil // only strings: cannot happen
	}
	return &Counterexample{Text: strings.TrimRight(c.String(), "\n"), Data: raw}
}

// dump writes q's script into the unknown directory and returns its path,
// or a note saying why it could not.
func (k *Kernel) dump(q *Query) string {
	path, err := q.WriteScript(k.unknownDir)
	if err != nil {
		return fmt.Sprintf("(not written: %v)", err)
	}
	return path
}
