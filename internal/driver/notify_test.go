package driver

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchNotified edits a file under a watcher that polls once an hour:
// the system's report of the change starts the run, which polling alone
// would start only an hour later (the test gives up after 60 s).
func TestWatchNotified(t *testing.T) {
	if n := newNotifier(); n == nil {
		t.Skip("no change notification on this system: the watcher polls")
	} else {
		n.close()
	}
	w, out, dir := counterWatcher(t, time.Hour)
	waitFor, cancel, done := runWatcher(t, w, out)
	waitFor("watching ", 1)
	impl := filepath.Join(dir, "impl.yaml")
	edit(t, impl, "      buf := k\n", "      buf := k + 5\n")
	waitFor("watching ", 2)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	second := out.String()[strings.Index(out.String(), "change detected"):]
	if !strings.Contains(second, "re-checked 1") {
		t.Errorf("the run after the edit did not re-check the edited obligation:\n%s", second)
	}
}
