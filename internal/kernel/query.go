// This file implements Query, an obligation printed canonically and ready
// to be checked or admitted, and the standalone .smt2 files written for it.

package kernel

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"ladder/internal/logic"
)

// fingerprintDomain separates kernel fingerprints from other SHA-256 uses.
const fingerprintDomain = "ladder-kernel-query/v1"

// Query is an obligation together with its canonical text and the solver
// identity it will be checked under. Kernel.Prepare builds it; its
// fingerprint binds a Result to exactly this text and identity.
type Query struct {
	ob          *Obligation
	problem     *logic.Problem         // a private copy of ob.Problem's lists
	text        string                 // logic.Problem.Text, exactly as checked
	memo        map[*logic.Term]string // the texts of its assertions (logic.Problem.TextMemo), for its slices
	identity    Identity
	cfg         Config
	fingerprint string
	sliceOnce   sync.Once
	slices      [][]int // what Obligation.Slices returned
	sliceMu     sync.Mutex
	sliced      []*Query // the queries of slices, once printed (Slice)
}

// ID returns the obligation's ID.
func (q *Query) ID() string { return q.ob.ID }

// Text returns the canonical SMT-LIB2 text of the obligation's problem,
// exactly what the kernel checks and what the cache key is computed from.
func (q *Query) Text() string { return q.text }

// Fingerprint returns the query's fingerprint: the SHA-256 of its solver
// identity and canonical text, which a Result of it carries.
func (q *Query) Fingerprint() string { return q.fingerprint }

// Identity returns the solver identity the query is checked under.
func (q *Query) Identity() Identity { return q.identity }

// fingerprintOf hashes the identity and the text, each length-prefixed.
func fingerprintOf(id Identity, text string) string {
	h := sha256.New()
	for _, s := range []string{fingerprintDomain, id.String(), text} {
		fmt.Fprintf(h, "%d:", len(s))
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Script returns a standalone SMT-LIB2 script for the query: a comment
// header naming the obligation and the solver configuration, the options
// that set the same random seed, resource limit and timeout, then Text. The
// z3 command line (`z3 FILE`) answers it as the kernel's default solver
// does (step 2 of Check). It is the dump of a query that is not proved.
func (q *Query) Script() string { return q.ScriptFor(Result{}) }

// ScriptFor is Script for the query's result r. When r is proved by Z3's
// plain SMT solver (r.Solver is SolverPlain), the script opens a scope with
// (push 1) before the text: the z3 command line then solves incrementally,
// which it does with its plain SMT solver, without the preprocessing of its
// default solver, so that `z3 FILE` answers unsat as the kernel's solver
// did. (push 1) is standard SMT-LIB 2.6 and changes nothing of the
// problem's meaning; cvc5 reads it with --incremental.
func (q *Query) ScriptFor(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "; ladder obligation: %s\n", oneLine(q.ob.ID))
	if q.ob.Pos.IsValid() {
		fmt.Fprintf(&b, "; blames: %s\n", q.ob.Pos)
	}
	fmt.Fprintf(&b, "; solver: %s %s; %s\n", q.identity.Name, q.identity.Version, q.cfg.Limits())
	text := q.text
	if r.verdict == Proved {
		fmt.Fprintf(&b, "; proved by: the %s solver\n", r.Solver)
	}
	if r.verdict == Proved && r.Slice > 0 {
		if sq, err := q.Slice(r.Slice); err == nil && sq != nil {
			text = sq.text
			fmt.Fprintf(&b, "; on its slice %d: the %d of its %d assertions below (the whole follows by weakening)\n", r.Slice, len(sq.problem.Assertions), len(q.problem.Assertions))
		}
	}
	fmt.Fprintf(&b, "; expected answer: unsat (the obligation holds)\n")
	fmt.Fprintf(&b, "(set-option :random-seed %d)\n", q.cfg.Seed)
	fmt.Fprintf(&b, "(set-option :rlimit %d)\n", q.cfg.RLimit)
	fmt.Fprintf(&b, "(set-option :timeout %d)\n", q.cfg.Timeout.Milliseconds())
	if r.verdict == Proved && r.Solver == SolverPlain {
		b.WriteString("(push 1)\n")
	}
	b.WriteString(text)
	return b.String()
}

// WriteScript writes Script to dir/DumpName(ID), creating dir, and returns
// the file's path.
func (q *Query) WriteScript(dir string) (string, error) {
	return q.WriteScriptFor(dir, Result{})
}

// WriteScriptFor writes ScriptFor(r) to dir/DumpName(ID), creating dir,
// and returns the file's path.
func (q *Query) WriteScriptFor(dir string, r Result) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, DumpName(q.ob.ID))
	if err := os.WriteFile(path, []byte(q.ScriptFor(r)), 0o644); err != nil {
		return "", err
	}
	return path, nil
}

func oneLine(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }

// DumpName returns the file name of obligation id's standalone .smt2 file:
// the ID with every run of characters outside [A-Za-z0-9.-] replaced by one
// '_', cut to 80 bytes, then '-' and the first 8 hex digits of the SHA-256
// of the ID, so that two IDs that sanitize alike still get different files
// and an ID always gets the same one. For example
//
//	"TMS2 › invariant beginIdxBound › DoRead" → "TMS2_invariant_beginIdxBound_DoRead-1a2b3c4d.smt2"
func DumpName(id string) string {
	var b strings.Builder
	under := false
	for _, r := range id {
		ok := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-')
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	s := strings.Trim(b.String(), "_.")
	if len(s) > 80 {
		s = strings.TrimRight(s[:80], "_.")
	}
	if s == "" {
		s = "obligation"
	}
	h := sha256.Sum256([]byte(id))
	return s + "-" + hex.EncodeToString(h[:4]) + ".smt2"
}
