// This file implements `ladder watch`: re-prove on every save and print
// what changed.

package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"ladder/internal/report"
	"ladder/internal/source"
	"ladder/ioa/load"
)

// DefaultInterval is how often Watcher polls modification times.
const DefaultInterval = 100 * time.Millisecond

// settle is how long the files must stay unchanged after a change before a
// run starts, when the system reports changes (notify_linux.go): an editor
// that saves in several writes is seen once. Without such reports the
// watcher waits one polling interval instead.
const settle = 20 * time.Millisecond

// Watcher re-runs the pipeline whenever a watched file changes, with one
// Prover whose cache stays in memory (and is saved after every run), so
// that only the obligations whose text changed reach the solver.
type Watcher struct {
	Paths    []string      // files and directories, as given to Load
	Library  []string      // searched for automata no loaded file declares (load.Config.Library)
	Prover   *Prover       // shared by every run
	Out      io.Writer     // reports and diffs
	Interval time.Duration // polling interval; 0 means DefaultInterval

	last   *report.Prove
	parsed load.Parsed // the files' YAML, parsed again only when their bytes change
	stamps map[string]stamp
	// dirs are the directories Step's scan found files in or walked;
	// notify, while Run runs, wakes it when one of them changes (nil:
	// polling alone).
	dirs   map[string]bool
	notify *notifier
	// searched, when set, receives the number of core searches that
	// ended each time idle's FindCores returns (for tests)
	searched chan<- int
}

// stamp is what polling compares: a file's modification time and size.
type stamp struct {
	mod  time.Time
	size int64
}

// Step loads and proves once and returns the report and its difference
// from the previous Step's report (everything is new the first time).
// Loading errors are returned as a source.ErrorList; the previous report
// is kept, so the next successful Step is compared with the last good one.
func (w *Watcher) Step(ctx context.Context) (*report.Prove, *Diff, error) {
	start := time.Now()
	// Loaded through Inputs, so that the run knows the content of every
	// file it reads and builds only the obligations whose sources changed
	// (record.go).
	var inputs Inputs
	lc := inputs.LoadConfig()
	lc.Library = w.Library
	lc.Parsed = &w.parsed
	var in *Input
	set, errs := lc.Files(w.Paths...)
	t := w.Prover.trace("load", start)
	if len(errs) == 0 {
		in, errs = w.Prover.Plan(set, inputs.Sums())
	}
	w.stamps, w.dirs = w.scan(in)
	w.Prover.trace("plan", t)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	rep, err := w.Prover.Prove(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	t = time.Now()
	d := Compare(w.last, rep)
	w.last = rep
	w.Prover.trace("compare", t)
	// The summary's time is the whole step's, loading included.
	rep.Summary.Seconds = time.Since(start).Seconds()
	return rep, d, nil
}

// Changed reports whether a watched file was created, removed or modified
// since the last Step.
func (w *Watcher) Changed() bool {
	now, _ := w.scan(nil)
	if len(now) != len(w.stamps) {
		return true
	}
	for f, s := range now {
		if old, ok := w.stamps[f]; !ok || !old.mod.Equal(s.mod) || old.size != s.size {
			return true
		}
	}
	return false
}

// Run proves once, prints the full report, and then waits for a change:
// the system's reports of changes in the watched directories wake it at
// once where there are such reports (inotify on Linux), and it polls the
// files' modification times and sizes every interval in any case. After
// every change (once the files have stopped changing for a moment) it
// proves again and prints only the differences, the changed source items
// with what they affect (report.Changes), and the summary line. It returns
// nil when ctx is done while it waits, and the ErrInterrupted of the run
// when ctx is done during a proof.
func (w *Watcher) Run(ctx context.Context) error {
	interval := w.Interval
	if interval <= 0 {
		interval = DefaultInterval
	}
	if w.notify = newNotifier(); w.notify != nil {
		defer func() {
			w.notify.close()
			w.notify = nil
		}()
	}
	first := true
	for {
		rep, d, err := w.Step(ctx)
		switch {
		case errors.Is(err, ErrInterrupted):
			// Stopped during a proof: the verdicts decided are saved,
			// and the caller says so and exits with 1.
			return err
		case ctx.Err() != nil:
			return nil
		case err != nil:
			var gerr *GenerationError
			if errs, ok := err.(source.ErrorList); ok {
				errs.Print(w.Out, 10)
			} else if errors.As(err, &gerr) {
				gerr.Errors.Print(w.Out, 10)
			} else {
				fmt.Fprintf(w.Out, "error: %v\n", err)
			}
		case first:
			rep.WriteText(w.Out, report.TextOptions{})
			first = false
		default:
			if d.Empty() {
				fmt.Fprintln(w.Out, "no change in verdicts or theorems")
			} else {
				d.WriteText(w.Out)
			}
			rep.Changes.WriteText(w.Out)
			s := rep.Summary
			fmt.Fprintf(w.Out, "%d obligations: %d proved, %d trivial, %d refuted, %d unknown; reused %d, re-checked %d; %.2f s\n",
				s.Obligations, s.Proved, s.Trivial, s.Refuted, s.Unknown, s.Reused, s.Rechecked, s.Seconds)
		}
		fmt.Fprintf(w.Out, "watching %s (Ctrl-C to stop)\n", strings.Join(w.Paths, " "))
		// The run's garbage is collected while the watcher waits for the
		// next save, so that the next run does not pay for it.
		go runtime.GC()
		if w.notify != nil {
			w.notify.watch(w.dirs)
		}
		if !w.idle(ctx, interval) {
			return nil
		}
		fmt.Fprintf(w.Out, "\n%s: change detected\n", time.Now().Format("15:04:05"))
	}
}

// idle waits for the next change (wait) while the Prover looks for the
// cores the last run left for later (Prover.FindCores, with
// Config.DeferCoreSearch); a change stops that search, which records what
// it found before the next run starts. It returns false when ctx is done.
func (w *Watcher) idle(ctx context.Context, interval time.Duration) bool {
	if w.Prover.Deferred() == 0 {
		return w.wait(ctx, interval)
	}
	search, stop := context.WithCancel(ctx)
	ended := make(chan error, 1)
	go func() {
		n, err := w.Prover.FindCores(search)
		if w.searched != nil {
			w.searched <- n
		}
		ended <- err
	}()
	changed := w.wait(ctx, interval)
	stop()
	if err := <-ended; err != nil && ctx.Err() == nil {
		fmt.Fprintf(w.Out, "warning: cores not recorded: %v\n", err)
	}
	return changed
}

// wait blocks until a watched file changes and the files then stay
// unchanged for a moment: until the system has reported no change for
// settle where it reports changes, else for one interval. It returns false
// when ctx is done. A report only wakes it; whether a file changed is
// always decided by its stamp.
func (w *Watcher) wait(ctx context.Context, interval time.Duration) bool {
	var wake chan struct{}
	quiet := interval
	if w.notify != nil {
		wake, quiet = w.notify.wake, settle
	}
	// sleep waits for d, or less when a change is reported; with
	// settling, until d has passed with no change reported
	sleep := func(d time.Duration, settling bool) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return false
			case <-t.C:
				return true
			case <-wake:
				if !settling {
					return true
				}
				t.Reset(d)
			}
		}
	}
	for !w.Changed() {
		if !sleep(interval, false) {
			return false
		}
	}
	for {
		w.stamps, _ = w.scan(nil)
		if !sleep(quiet, true) {
			return false
		}
		if !w.Changed() {
			return true
		}
	}
}

// scan stamps every YAML file under the watched paths, and the files in
// read (files referenced from elsewhere, such as interfaces), and returns
// the stamps and the directories walked and those of the files.
func (w *Watcher) scan(in *Input) (map[string]stamp, map[string]bool) {
	out := map[string]stamp{}
	dirs := map[string]bool{}
	add := func(path string) {
		if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
			out[filepath.Clean(path)] = stamp{mod: fi.ModTime(), size: fi.Size()}
			dirs[filepath.Dir(filepath.Clean(path))] = true
		}
	}
	for _, p := range w.Paths {
		filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			name := d.Name()
			if d.IsDir() {
				if path != p && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
					return filepath.SkipDir
				}
				dirs[filepath.Clean(path)] = true
				return nil
			}
			if ext := filepath.Ext(name); path == p || ext == ".yaml" || ext == ".yml" {
				add(path)
			}
			return nil
		})
	}
	if in != nil {
		for _, f := range in.Files {
			if _, ok := out[filepath.Clean(f)]; !ok {
				add(f)
			}
		}
	} else {
		// Keep watching the referenced files found by the last Step.
		for f := range w.stamps {
			if _, ok := out[f]; !ok {
				add(f)
			}
		}
	}
	return out, dirs
}
