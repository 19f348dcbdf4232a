// This file implements the progress line printed on a terminal while
// obligations are being checked.

package driver

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// IsTerminal reports whether f is a character device (a terminal), using
// only os.File.Stat. The progress line is printed only then.
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progress writes a single self-overwriting line
//
//	[ 12/340] 3.2s  TMS2 › invariant beginIdxBound › DoRead
//
// at most every interval, and erases it on finish. A nil *progress does
// nothing, so callers need not test whether progress is wanted.
type progress struct {
	w        io.Writer
	total    int
	start    time.Time
	interval time.Duration
	now      func() time.Time // for tests

	mu      sync.Mutex
	done    int
	last    time.Time
	current string
	width   int // of the last line written, to erase it
}

// newProgress returns a progress line on w for total items, or nil when w
// is nil.
func newProgress(w io.Writer, total int) *progress {
	if w == nil {
		return nil
	}
	now := time.Now
	return &progress{w: w, total: total, start: now(), interval: 100 * time.Millisecond, now: now}
}

// begin records that the obligation id is being checked.
func (p *progress) begin(id string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = id
	p.draw(false)
}

// end records that one more item is done.
func (p *progress) end() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.draw(p.done == p.total)
}

// finish erases the line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}

// draw writes the line when the interval has passed or force is set.
// Callers hold p.mu.
func (p *progress) draw(force bool) {
	t := p.now()
	if !force && t.Sub(p.last) < p.interval {
		return
	}
	p.last = t
	digits := len(fmt.Sprint(p.total))
	line := fmt.Sprintf("[%*d/%d] %.1fs  %s", digits, p.done, p.total, t.Sub(p.start).Seconds(), p.current)
	if r := []rune(line); len(r) > 100 {
		line = string(r[:99]) + "…"
	}
	n := len([]rune(line))
	pad := ""
	if p.width > n {
		pad = strings.Repeat(" ", p.width-n)
	}
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
	p.width = n
}
