// This file implements the solver configuration and the solver identity
// that takes part in every cache key.

package kernel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Format is the version of the kernel's certificate format and of the way
// it drives the solver. Bump it whenever either changes: it is part of the
// solver identity, so every cached result becomes a miss.
const Format = 1

// Default limits.
const (
	// DefaultRLimit is the default resource limit per obligation, in Z3's
	// deterministic resource units (rlimit). Of the repository's 1510
	// obligations (November 2026) the median proof uses about 500 units
	// and 99% use under 100000; two need 56 and 64 million.
	DefaultRLimit = 100_000_000
	// DefaultTimeout is the default wall-clock safety net per obligation.
	DefaultTimeout = 120 * time.Second
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
	// Timeout is the wall-clock limit per obligation, in whole
	// milliseconds: a safety net, since unlike RLimit it depends on the
	// machine. 0 means DefaultTimeout.
	Timeout time.Duration
}

// withDefaults returns c with zero limits replaced by the defaults.
func (c Config) withDefaults() Config {
	if c.RLimit == 0 {
		c.RLimit = DefaultRLimit
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	return c
}

// validate reports limits the solver cannot take.
func (c Config) validate() error {
	switch {
	case c.RLimit > math.MaxUint32:
		return fmt.Errorf("rlimit %d exceeds Z3's maximum %d", c.RLimit, uint64(math.MaxUint32))
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
	kv := [][2]string{
		{"kernel", strconv.Itoa(Format)},
		{"random_seed", strconv.FormatUint(uint64(c.Seed), 10)},
		{"rlimit", strconv.FormatUint(c.RLimit, 10)},
		{"timeout_ms", strconv.FormatInt(c.Timeout.Milliseconds(), 10)},
	}
	var b strings.Builder
	for i, p := range kv { // already sorted by key
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
