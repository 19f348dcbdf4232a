package driver

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, 12)
	clock := p.start
	p.now = func() time.Time { return clock }
	p.begin("A › invariant x › Inc")
	if got := b.String(); !strings.Contains(got, "[ 0/12] 0.0s  A › invariant x › Inc") {
		t.Errorf("first line = %q", got)
	}
	b.Reset()
	p.end() // within the interval: nothing drawn
	if b.Len() != 0 {
		t.Errorf("drew %q within the interval", b.String())
	}
	clock = clock.Add(2500 * time.Millisecond)
	p.begin("B")
	if got := b.String(); !strings.HasPrefix(got, "\r[ 1/12] 2.5s  B") {
		t.Errorf("second line = %q", got)
	}
	b.Reset()
	p.finish()
	if got := b.String(); !strings.HasPrefix(got, "\r ") || !strings.HasSuffix(got, "\r") || strings.TrimSpace(got) != "" {
		t.Errorf("finish wrote %q; want the line erased", got)
	}
	var nilp *progress
	nilp.begin("x") // must not panic
	nilp.end()
	nilp.finish()
}

func TestIsTerminalOnFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("IsTerminal(regular file) = true")
	}
}
