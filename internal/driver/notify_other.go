//go:build !linux

// This file implements the watcher's notifier where ladder has none: the
// watcher polls.

package driver

// notifier is absent here: newNotifier returns nil.
type notifier struct{ wake chan struct{} }

func newNotifier() *notifier              { return nil }
func (n *notifier) watch(map[string]bool) {}
func (n *notifier) close()                {}
