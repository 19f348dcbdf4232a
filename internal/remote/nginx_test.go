package remote_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ladder/internal/remote"
	"ladder/internal/remote/remotetest"
)

// TestNginx runs the client against a real nginx serving the cache with
// WebDAV: entries stored, read back and overwritten, damaged on disk,
// refused as too large, written concurrently, and finally the server
// stopped mid-run. It skips without nginx unless LADDER_REQUIRE_NGINX=1.
func TestNginx(t *testing.T) {
	ng := remotetest.StartNginx(t, remotetest.NginxOptions{MaxBodySize: "64k"})
	var mu sync.Mutex
	var warnings []string
	c, err := remote.New(remote.Config{
		URL:     ng.URL + "/ladder",
		Timeout: 2 * time.Second,
		Backoff: 5 * time.Millisecond,
		Warn: func(m string) {
			mu.Lock()
			warnings = append(warnings, m)
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	takeWarnings := func() []string {
		mu.Lock()
		defer mu.Unlock()
		w := warnings
		warnings = nil
		return w
	}
	defer func() {
		if t.Failed() {
			t.Logf("nginx error log:\n%s", ng.ErrorLog())
		}
	}()
	ctx := context.Background()

	// cas: stored under its hash, on disk where nginx keeps it.
	blob := []byte("(assert false)\n")
	k, ok := c.PutCAS(ctx, blob)
	if !ok {
		t.Fatalf("PutCAS failed: %q", takeWarnings())
	}
	if disk, err := os.ReadFile(filepath.Join(ng.Root, "ladder", "cas", k)); err != nil || !bytes.Equal(disk, blob) {
		t.Errorf("on disk: %q, %v", disk, err)
	}
	if body, ok := c.Get(ctx, remote.CAS, k); !ok || !bytes.Equal(body, blob) {
		t.Errorf("Get(cas) = %q, %v", body, ok)
	}

	// ac: stored, read, overwritten (nginx answers 201, then 204).
	ak := remote.KeyOf([]byte("obligation"))
	for _, rec := range []string{"record 1", "record 2"} {
		if !c.Put(ctx, remote.AC, ak, []byte(rec)) {
			t.Fatalf("Put(ac, %q) failed: %q", rec, takeWarnings())
		}
		if body, ok := c.Get(ctx, remote.AC, ak); !ok || string(body) != rec {
			t.Errorf("Get(ac) = %q, %v; want %q", body, ok, rec)
		}
	}
	if !c.Contains(ctx, remote.AC, ak) || c.Contains(ctx, remote.AC, remote.KeyOf([]byte("absent"))) {
		t.Error("HEAD does not tell present from absent")
	}
	if _, ok := c.Get(ctx, remote.AC, remote.KeyOf([]byte("absent"))); ok {
		t.Error("hit for an absent entry")
	}
	if w := takeWarnings(); len(w) != 0 {
		t.Errorf("warnings: %q", w)
	}

	// A cas file damaged on the server is a miss and a warning.
	dk := remote.KeyOf([]byte("original"))
	if err := os.WriteFile(filepath.Join(ng.Root, "ladder", "cas", dk), []byte("damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(ctx, remote.CAS, dk); ok {
		t.Error("damaged cas entry accepted")
	}
	if w := takeWarnings(); len(w) != 1 || !strings.Contains(w[0], "not its key") {
		t.Errorf("warnings %q, want one about the hash", w)
	}

	// An entry over nginx's client_max_body_size (64k): 413, not stored,
	// one warning, and the cache stays on.
	big := bytes.Repeat([]byte("x"), 100<<10)
	if _, ok := c.PutCAS(ctx, big); ok {
		t.Error("entry over client_max_body_size stored")
	}
	if w := takeWarnings(); len(w) != 1 || !strings.Contains(w[0], "as too large") {
		t.Errorf("warnings %q, want one about the size", w)
	}
	if c.Disabled() {
		t.Fatal("disabled by a 413")
	}

	// Concurrent writers and readers.
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				rec := []byte(fmt.Sprintf("record %d/%d", g, i))
				key := remote.KeyOf(rec)
				if !c.Put(ctx, remote.AC, key, rec) {
					t.Errorf("concurrent Put %d/%d failed", g, i)
					return
				}
				if body, ok := c.Get(ctx, remote.AC, key); !ok || !bytes.Equal(body, rec) {
					t.Errorf("concurrent Get %d/%d = %q, %v", g, i, body, ok)
					return
				}
			}
		}()
	}
	wg.Wait()
	if st := c.Stats(); st.Failures != 0 || st.Disabled {
		t.Errorf("stats %+v", st)
	}

	// The server stops mid-run: misses, one warning, no hang.
	ng.Stop()
	if ng.Running() {
		t.Fatal("nginx still running after Stop")
	}
	start := time.Now()
	for i := range 10 {
		if _, ok := c.Get(ctx, remote.AC, ak); ok {
			t.Fatalf("hit %d from a stopped server", i)
		}
		if c.Put(ctx, remote.AC, ak, []byte("x")) {
			t.Fatalf("Put %d stored on a stopped server", i)
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("20 calls to a stopped server took %v", d)
	}
	if !c.Disabled() {
		t.Error("not disabled after the server stopped")
	}
	if w := takeWarnings(); len(w) != 1 || !strings.Contains(w[0], "disabled for the rest of this run") {
		t.Errorf("warnings %q, want one saying the cache is disabled", w)
	}
}
