package cache

import (
	"path/filepath"
	"testing"
)

// TestForget stores two results and their dependency records, forgets one
// of each, saves, and checks after reopening that exactly the other ones
// are left, and that forgetting what is not stored deletes nothing.
func TestForget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	c, _, err := Open(dir, testSolver)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"a", "b"} {
		if err := c.Put(key(i+1), Result{Verdict: Proved, Name: name}); err != nil {
			t.Fatal(err)
		}
		if err := c.RecordGeneration(name, Generation{Key: key(i + 1), Items: []string{"automaton:A/state"}}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := c.Forget([]string{key(1), key(9)}, []string{"a", "zzz"}); err != nil || n != 2 {
		t.Fatalf("Forget: %d, %v; want 2 rows deleted", n, err)
	}
	if n, _ := c.Forget([]string{key(1)}, []string{"a"}); n != 0 {
		t.Errorf("forgetting again deleted %d rows", n)
	}
	c = saveAndReopen(t, c, dir)
	defer c.Close()
	if c.Has(key(1)) || !c.Has(key(2)) {
		t.Errorf("after reopening: has key 1 %v, key 2 %v; want only key 2", c.Has(key(1)), c.Has(key(2)))
	}
	if _, ok := c.Generated("a"); ok {
		t.Error("the forgotten dependency record of a is back")
	}
	if _, ok := c.Generated("b"); !ok {
		t.Error("the dependency record of b is gone")
	}
}

// TestForgetGroups records two edges and two theorems, forgets one of
// each, saves, and checks after reopening that exactly the other ones are
// left, and that forgetting what is not stored deletes nothing.
func TestForgetGroups(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	c, _, err := Open(dir, testSolver)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"E", "F"} {
		if err := c.RecordEdge(e, []string{e + " › x"}); err != nil {
			t.Fatal(err)
		}
		if err := c.RecordTheorem("T"+e, []string{e}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := c.ForgetGroups([]string{"E", "nope"}, []string{"TE", "nope"}); err != nil || n != 2 {
		t.Fatalf("ForgetGroups: %d, %v; want 2 rows deleted", n, err)
	}
	if n, _ := c.ForgetGroups([]string{"E"}, []string{"TE"}); n != 0 {
		t.Errorf("forgetting again deleted %d rows", n)
	}
	c = saveAndReopen(t, c, dir)
	defer c.Close()
	if got := c.EdgesContaining("E › x"); len(got) != 0 {
		t.Errorf("the forgotten edge E is back: %q", got)
	}
	if got := c.EdgesContaining("F › x"); len(got) != 1 {
		t.Errorf("edge F: %q", got)
	}
	if got, want := c.TheoremsUsing("E"), 0; len(got) != want {
		t.Errorf("the forgotten theorem TE is back: %q", got)
	}
	if got := c.TheoremsUsing("F"); len(got) != 1 {
		t.Errorf("theorem TF: %q", got)
	}
}

// saveAndReopen saves and closes c, and opens the cache of dir again.
func saveAndReopen(t *testing.T, c *Cache, dir string) *Cache {
	t.Helper()
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, _, err := Open(dir, testSolver)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
