// This file implements the solver configuration and the solver identity
// that takes part in every cache key.

package kernel

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Format is the version of the kernel's certificate format and of the way
// it drives the solver. Bump it whenever either changes: it is part of the
// solver identity, so every cached result becomes a miss. Format 4 added
// the check with Z3's plain SMT solver after the first check; format 5
// makes the first check the plain solver's, with a small limit, followed
// by the default solver's with the full limit and, on unknown, the plain
// solver's again with the retry limit. Format 6 records which of the two
// solvers proved a query (Result.Solver), so that its dump selects it.
// Format 7 adds the check of an obligation's slice, a subset of its
// assertions, after the first check. Format 8 checks slices by default,
// the first one before the whole problem, tries several in order
// (Obligation.Slices), and records which one proved the query
// (Result.Slice), whose own proof is cached under the slice's text.
// Format 9 checks the whole problem in the default solver with
// Config.PreSearchRLimit before the bounded search, and with the full
// limit only after it. Format 10 tracks every assertion in the plain
// solver's checks with the first limit (steps 0, 1a and 1), so that their
// unsat answers also say which assertions the proof used (Result.Used).
// Format 11 adds the short round (step 2s): the slices, then the whole
// problem, in the default solver with Config.ShortRLimit before the
// larger limits of steps 2a and 2b, and skips the slices a check found
// satisfiable.
const Format = 11

// Default limits.
const (
	// DefaultRLimit is the default resource limit per obligation, in Z3's
	// deterministic resource units (rlimit). Of the repository's 1538
	// obligations (November 2026) the median proof uses about 500 units,
	// 99% use under 100000 and the largest 3.04 million.
	DefaultRLimit = 100_000_000
	// DefaultFirstRLimit is the default resource limit of an obligation's
	// first check, in Z3's plain SMT solver (see the package
	// documentation). Of the repository's 9,485 obligations (November
	// 2026) the median proof uses about 4,300 units; the plain solver's
	// cost per unit grows steeply on the hard ones (100 million units took
	// 110 s where the default solver needs 4 s), so the first check is
	// kept short and the default solver does the rest.
	DefaultFirstRLimit = 100_000
	// DefaultRetryRLimit is the default resource limit of the plain
	// solver's second check, after the default solver's unknown (see the
	// package documentation).
	DefaultRetryRLimit = 20_000_000
	// DefaultSliceRLimit is the default resource limit of the default
	// solver's check of each slice of an obligation (see the package
	// documentation). Of the repository's 9,485 obligations (November
	// 2026), the first check leaves 640 open; the driver's narrow slice
	// proves 615 of them, 600 within 5 million units.
	DefaultSliceRLimit = 5_000_000
	// DefaultPreSearchRLimit is the default resource limit of the default
	// solver's check of the whole problem before the bounded search (step
	// 2b of Check). Of the repository's 10,822 obligations (November
	// 2026), 73 reach that check in a cold run, and the largest proof
	// there uses 3.4 million units; a false obligation that Z3 leaves
	// unknown now pays 5 million units there, not 100 million, before the
	// search finds its counterexample (one of TL2Mod's: 110 million units in
	// all to 15 million).
	DefaultPreSearchRLimit = 5_000_000
	// DefaultShortRLimit is the default resource limit of the short round
	// (step 2s of Check): the default solver's checks of the slices and of
	// the whole problem before those with the slice and pre-search
	// limits. Of the repository's 11,075 obligations (November 2026), 295
	// reached the default solver in a cold run under format 10, and the
	// check that proved each of them, run alone by the z3 command line,
	// used at most 1 million units for 288 of them and 2 million for 294;
	// they had spent 99 s in all where that check took 31 s, mostly on
	// slices that fail at 5 million units before a slice or the whole
	// problem that succeeds. A cold run of the repository at -j 2 took
	// 128.2 s under format 10, 100.7 s with a short limit of 1 million and
	// 91.5 s with 2 million (its slowest obligation 4.64, 2.78 and 1.67 s).
	DefaultShortRLimit = 2_000_000
	// DefaultTimeout is the default wall-clock safety net per obligation.
	DefaultTimeout = 120 * time.Second
)

// Defaults of the bounded counterexample search (SearchConfig).
const (
	// DefaultSearchMaxSize is the largest universe tried for a sort.
	DefaultSearchMaxSize = 3
	// DefaultSearchRLimit is the resource limit of one bounded check.
	DefaultSearchRLimit = 5_000_000
	// DefaultSearchBudget is the resource limit of the whole search of one
	// obligation, summed over its bounded checks.
	DefaultSearchBudget = 30_000_000
)

// Config holds every solver setting that can change a verdict. All of it is
// part of the solver identity, and so of every cache key: a result is reused
// only under identical settings, and an Unknown is retried as soon as the
// limits change.
type Config struct {
	// Seed is Z3's random seed (the solver parameter random_seed).
	Seed uint
	// RLimit is Z3's deterministic resource limit per obligation, at most
	// math.MaxUint32. 0 means DefaultRLimit.
	RLimit uint64
	// FirstRLimit is the resource limit of an obligation's first check,
	// in Z3's plain SMT solver; it is lowered to RLimit when larger.
	// 0 means DefaultFirstRLimit.
	FirstRLimit uint64
	// RetryRLimit is the resource limit of the plain solver's check after
	// the default solver answered unknown; no such check when it is not
	// above FirstRLimit. 0 means DefaultRetryRLimit.
	RetryRLimit uint64
	// SliceRLimit is the resource limit of the default solver's check of
	// each of an obligation's slices (step 2a of Check). 0 means
	// DefaultSliceRLimit.
	SliceRLimit uint64
	// PreSearchRLimit is the resource limit of the default solver's check
	// of the whole problem before the bounded search (step 2b of Check);
	// when it is below RLimit and the search is on, the check with RLimit
	// follows the search (step 3b). 0 means DefaultPreSearchRLimit; it is
	// lowered to RLimit when larger.
	PreSearchRLimit uint64
	// ShortRLimit is the resource limit of the short round (step 2s of
	// Check): the default solver's checks of each slice and of the whole
	// problem before those of steps 2a and 2b. There is no short round
	// when it is not above FirstRLimit or not below the limit of step 2b.
	// 0 means DefaultShortRLimit; it is lowered to RLimit when larger.
	ShortRLimit uint64
	// NoSlices turns off the checks of slices (steps 1a and 2a of Check).
	NoSlices bool
	// Timeout is the wall-clock limit per obligation, in whole
	// milliseconds, over all its checks: a safety net, since unlike RLimit
	// it depends on the machine. 0 means DefaultTimeout.
	Timeout time.Duration
	// Search configures the bounded counterexample search; the zero value
	// means the defaults.
	Search SearchConfig

	// plain is set by Check for its first check, with Z3's plain SMT
	// solver (Session.Check, step 1); never by a caller.
	plain bool
	// proofOnly is set by Check for the checks whose sat answer decides
	// nothing (the plain solver's, and a slice's, which is weaker than the
	// problem): no model is asked for and sat is Unknown.
	proofOnly bool
	// track is set by Check for the plain solver's checks with at most the
	// first limit: each assertion is tracked by an assumption literal, and
	// an unsat answer comes with Z3's unsat core (Result.Used).
	track bool
}

// SearchConfig configures the bounded counterexample search (see the
// package documentation). The zero value is the default search.
type SearchConfig struct {
	// Off disables the search: an obligation is checked by Z3 alone.
	Off bool
	// MaxSize is the largest number of elements tried for a sort, at most
	// 8. 0 means DefaultSearchMaxSize.
	MaxSize int
	// RLimit is the resource limit of one bounded check. 0 means
	// DefaultSearchRLimit.
	RLimit uint64
	// Budget is the resource limit of the whole search of one obligation:
	// no bounded check starts once the checks so far used it up. 0 means
	// DefaultSearchBudget.
	Budget uint64
	// NoMinimize keeps the counterexample the solver found: the bounded
	// search does not look for a smaller one (Session.minimize). For
	// callers that only need to know that an obligation is refuted (a
	// Houdini loop through the prover spent a tenth of its time
	// minimizing the counterexamples of the candidates that fail).
	NoMinimize bool
}

// withDefaults returns c with zero limits replaced by the defaults.
func (c Config) withDefaults() Config {
	if c.RLimit == 0 {
		c.RLimit = DefaultRLimit
	}
	if c.FirstRLimit == 0 {
		c.FirstRLimit = DefaultFirstRLimit
	}
	if c.FirstRLimit > c.RLimit {
		c.FirstRLimit = c.RLimit
	}
	if c.RetryRLimit == 0 {
		c.RetryRLimit = DefaultRetryRLimit
	}
	if c.RetryRLimit > c.RLimit {
		c.RetryRLimit = c.RLimit
	}
	if c.SliceRLimit == 0 {
		c.SliceRLimit = DefaultSliceRLimit
	}
	if c.SliceRLimit > c.RLimit {
		c.SliceRLimit = c.RLimit
	}
	if c.PreSearchRLimit == 0 {
		c.PreSearchRLimit = DefaultPreSearchRLimit
	}
	if c.PreSearchRLimit > c.RLimit {
		c.PreSearchRLimit = c.RLimit
	}
	if c.ShortRLimit == 0 {
		c.ShortRLimit = DefaultShortRLimit
	}
	if c.ShortRLimit > c.RLimit {
		c.ShortRLimit = c.RLimit
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Search.Off {
		c.Search = SearchConfig{Off: true}
		return c
	}
	if c.Search.MaxSize == 0 {
		c.Search.MaxSize = DefaultSearchMaxSize
	}
	if c.Search.RLimit == 0 {
		c.Search.RLimit = DefaultSearchRLimit
	}
	if c.Search.Budget == 0 {
		c.Search.Budget = DefaultSearchBudget
	}
	return c
}

// validate reports limits the solver cannot take.
func (c Config) validate() error {
	switch {
	case c.RLimit > math.MaxUint32 || c.RetryRLimit > math.MaxUint32 || c.SliceRLimit > math.MaxUint32 || c.ShortRLimit > math.MaxUint32:
		return fmt.Errorf("rlimit %d exceeds Z3's maximum %d", c.RLimit, uint64(math.MaxUint32))
	case c.Search.RLimit > math.MaxUint32:
		return fmt.Errorf("search rlimit %d exceeds Z3's maximum %d", c.Search.RLimit, uint64(math.MaxUint32))
	case !c.Search.Off && (c.Search.MaxSize < 1 || c.Search.MaxSize > 8):
		return fmt.Errorf("search size %d is not between 1 and 8", c.Search.MaxSize)
	case c.Timeout < 0:
		return fmt.Errorf("negative timeout %v", c.Timeout)
	case c.Timeout%time.Millisecond != 0:
		return fmt.Errorf("timeout %v is not a whole number of milliseconds", c.Timeout)
	case c.Timeout/time.Millisecond > math.MaxUint32:
		return fmt.Errorf("timeout %v is too long", c.Timeout)
	}
	return nil
}

// Params renders the configuration canonically, in the form of
// cache.CanonicalParams: sorted keys, quoted keys and values. It includes
// Format.
func (c Config) Params() string {
	c = c.withDefaults()
	u := func(n uint64) string { return strconv.FormatUint(n, 10) }
	kv := [][2]string{
		{"first_rlimit", u(c.FirstRLimit)},
		{"kernel", strconv.Itoa(Format)},
		{"random_seed", u(uint64(c.Seed))},
		{"retry_rlimit", u(c.RetryRLimit)},
		{"rlimit", u(c.RLimit)},
		{"short_rlimit", u(c.ShortRLimit)},
	}
	if c.Search.NoMinimize && !c.Search.Off {
		kv = append(kv, [2]string{"minimize", "off"})
	}
	if c.Search.Off {
		kv = append(kv, [2]string{"search", "off"})
	} else {
		kv = append(kv,
			[2]string{"presearch_rlimit", u(c.PreSearchRLimit)},
			[2]string{"search_budget", u(c.Search.Budget)},
			[2]string{"search_max_size", strconv.Itoa(c.Search.MaxSize)},
			[2]string{"search_rlimit", u(c.Search.RLimit)})
	}
	if c.NoSlices {
		kv = append(kv, [2]string{"slices", "off"})
	} else {
		kv = append(kv, [2]string{"slice_rlimit", u(c.SliceRLimit)})
	}
	kv = append(kv, [2]string{"timeout_ms", strconv.FormatInt(c.Timeout.Milliseconds(), 10)})
	slices.SortFunc(kv, func(x, y [2]string) int { return strings.Compare(x[0], y[0]) })
	var b strings.Builder
	for i, p := range kv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Quote(p[0]) + "=" + strconv.Quote(p[1]))
	}
	return b.String()
}

// Limits renders the limits for people: "rlimit 100000000, timeout 2m0s, seed 0".
func (c Config) Limits() string {
	c = c.withDefaults()
	return fmt.Sprintf("rlimit %d, timeout %v, seed %d", c.RLimit, c.Timeout, c.Seed)
}

// Identity names the exact solver configuration: the solver, its version
// and the canonical parameters. The driver turns it into a cache.SolverID.
type Identity struct {
	Name    string // "z3"
	Version string // the linked libz3's version, e.g. "4.8.12"
	Params  string // Config.Params
}

// String renders the identity injectively (each field quoted).
func (id Identity) String() string {
	return "name=" + strconv.Quote(id.Name) + " version=" + strconv.Quote(id.Version) + " params=" + strconv.Quote(id.Params)
}
