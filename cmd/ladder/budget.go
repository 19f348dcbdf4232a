// This file implements the resource flags of explore and crosscheck
// (--max-memory, --timeout) and their progress line.

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"ladder/internal/explore"
	"ladder/internal/safeio"
)

// budgetFlags are the resource flags of explore and crosscheck.
type budgetFlags struct {
	maxMemory string
	timeout   time.Duration
}

func (b *budgetFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&b.maxMemory, "max-memory", "", "stop the search (INCOMPLETE, exit 1) when it uses this much memory, e.g. 2GiB (default: half of the physical memory, less when little is available)")
	fs.DurationVar(&b.timeout, "timeout", 0, "stop the search (INCOMPLETE, exit 1) after this long, e.g. 10m (0: no limit)")
}

// budget returns the budget of the flags, and a function to call when the
// search is over. It returns a usage exit code when a flag is bad. The
// budget's context is cancelled by SIGINT or SIGTERM, which stops the search
// as a limit (the result found so far is printed).
func (b *budgetFlags) budget(e *env, cmd string) (explore.Budget, func(), int) {
	var out explore.Budget
	switch {
	case b.maxMemory == "":
		out.MaxMemory = explore.DefaultMaxMemory()
	default:
		n, err := safeio.ParseBytes(b.maxMemory)
		if err != nil {
			return out, nil, e.usageError(cmd, "--max-memory: %v", err)
		}
		if n < 16<<20 {
			return out, nil, e.usageError(cmd, "--max-memory %s: at least 16 MiB", b.maxMemory)
		}
		out.MaxMemory = n
	}
	if b.timeout < 0 {
		return out, nil, e.usageError(cmd, "--timeout must not be negative")
	}
	out.Timeout = b.timeout
	// The collector keeps the heap under the budget while it can: the
	// search then stops at the budget rather than at garbage.
	old := debug.SetMemoryLimit(out.MaxMemory / 10 * 8)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	out.Context = ctx
	return out, func() { stop(); debug.SetMemoryLimit(old) }, exitOK
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressLine returns a function that prints a search's progress on one
// line of stderr, overwritten each time, when stderr is a terminal (nil
// otherwise), and a function that clears the line at the end.
func (e *env) progressLine(what string) (func(explore.Progress), func()) {
	if !isTerminal(e.stderr) {
		return nil, func() {}
	}
	shown := false
	return func(p explore.Progress) {
			rate := 0.0
			if s := p.Elapsed.Seconds(); s > 0 {
				rate = float64(p.States) / s
			}
			phase, unit := "", what
			if p.Phase != "" {
				phase, unit = p.Phase+": ", "states"
			}
			fmt.Fprintf(e.stderr, "\r\033[K%s%d %s, %.0f/s, depth %d, %d queued, memory %s, %s",
				phase, p.States, unit, rate, p.Depth, p.Queued, safeio.FormatBytes(p.Memory), p.Elapsed.Truncate(time.Second))
			shown = true
		}, func() {
			if shown {
				fmt.Fprint(e.stderr, "\r\033[K")
			}
		}
}
