// This file implements the watcher's notifier on Linux: inotify, through
// the standard library's system calls.

package driver

import (
	"errors"
	"os"
	"syscall"
)

// notifier wakes the watcher when something happens in a watched
// directory, so that a save is seen at once rather than at the next poll.
// It only wakes: what changed is still decided by comparing the files'
// stamps (Watcher.Changed), so a missed or spurious event costs at most
// one polling interval or one scan.
type notifier struct {
	f     *os.File // the inotify instance, non-blocking, in the runtime's poller
	fd    int
	wake  chan struct{} // one pending wake-up, however many events
	dirs  map[string]bool
	done  chan struct{}
	ended chan struct{}
}

// inotifyMask is what wakes the watcher: a file written, closed after
// writing, created, removed, renamed, or given a new modification time.
const inotifyMask = syscall.IN_MODIFY | syscall.IN_CLOSE_WRITE | syscall.IN_CREATE | syscall.IN_DELETE |
	syscall.IN_MOVED_FROM | syscall.IN_MOVED_TO | syscall.IN_ATTRIB | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF

// newNotifier returns a notifier, or nil when the system gives none (the
// watcher then polls).
func newNotifier() *notifier {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil
	}
	n := &notifier{f: os.NewFile(uintptr(fd), "inotify"), fd: fd, wake: make(chan struct{}, 1),
		dirs: map[string]bool{}, done: make(chan struct{}), ended: make(chan struct{})}
	go n.read()
	return n
}

// read turns the events into wake-ups until the notifier is closed.
func (n *notifier) read() {
	defer close(n.ended)
	buf := make([]byte, 64*(syscall.SizeofInotifyEvent+syscall.NAME_MAX+1))
	for {
		_, err := n.f.Read(buf)
		select {
		case <-n.done:
			return
		default:
		}
		if err != nil && !errors.Is(err, syscall.EINTR) {
			return // the watcher polls from now on
		}
		select {
		case n.wake <- struct{}{}:
		default:
		}
	}
}

// watch adds the directories not watched yet. A directory that cannot be
// watched (gone, or over the system's limit of watches) is left to
// polling.
func (n *notifier) watch(dirs map[string]bool) {
	for d := range dirs {
		if n.dirs[d] {
			continue
		}
		if _, err := syscall.InotifyAddWatch(n.fd, d, inotifyMask); err == nil {
			n.dirs[d] = true
		}
	}
}

// close stops the notifier and waits for its reader.
func (n *notifier) close() {
	close(n.done)
	n.f.Close() // wakes the reader's Read
	<-n.ended
}
