// Package remote is a client of the HTTP remote-cache protocol of Bazel,
// which bazel-remote and any WebDAV-capable web server (nginx with
// dav_methods PUT) speak, so that a team and its CI share ladder's cache
// entries.
//
// # Protocol
//
// Entries live at BASE/ac/KEY and BASE/cas/KEY, KEY being 64 lowercase hex
// digits:
//
//   - ac, the action cache: KEY is chosen by the client (for ladder, an
//     obligation's cache key) and the body is whatever the client stores
//     (for ladder, a signed record; bazel-remote must then run with
//     --disable_http_ac_validation, since it otherwise accepts only
//     Bazel's ActionResult messages under ac/);
//   - cas, content-addressed storage: KEY is the SHA-256 of the body.
//
// GET returns the body (200) or 404 when absent; PUT stores it (200, 201 or
// 204); HEAD tells whether it is present. Nothing else is used.
//
// # Use
//
//	c, err := remote.New(remote.Config{URL: "http://cache.example:8080/ladder", Warn: warn})
//	if err != nil { ... }  // only a malformed URL
//	defer c.Close()
//	body, ok := c.Get(ctx, remote.AC, key)  // ok: a hit, checked
//	c.Put(ctx, remote.AC, key, body)        // best effort
//	key, ok := c.PutCAS(ctx, blob)
//
// Only New returns an error (a URL that is not http or https). Get,
// Contains, Put and PutCAS never fail: every problem is a miss (or an entry
// not stored), counted in Stats and, when it matters, reported through
// Config.Warn. A remote cache only saves work; the caller computes what it
// misses and never depends on the remote. A Client is safe for concurrent
// use by any number of goroutines.
//
// # Failures
//
// Every request (one attempt) has its own timeout (Config.Timeout) inside
// the caller's context, whose deadline bounds everything, backoffs
// included; a body larger than Config.MaxSize is not read further.
// Transient failures (a connection refused or reset, a timeout, a
// malformed HTTP response, a truncated body, status 5xx, 408 or 429) are
// retried Config.Retries times, after a backoff that doubles from
// Config.Backoff up to Config.MaxBackoff, its second half jittered by a
// hash of the request (no random state, so concurrent workers retrying
// different keys spread out, and a test is reproducible). Other statuses
// (401, 403, 400, a redirect: redirects are not followed) are not retried.
//
// Responses that arrive but cannot be used are bad responses, treated as
// misses, never retried, and reported by one warning per kind (later ones
// are only counted): a body over MaxSize, a cas body whose SHA-256 is not
// its key, an ac body that Config.CheckAC refuses (ladder checks the
// signature there).
//
// A circuit breaker: after Config.MaxFailures consecutive failed attempts
// (no usable HTTP answer: a transport error, a timeout, an unexpected
// status; an answer, a 404 or a bad response too, resets the count) the
// client disables itself for the rest of its life: one warning says so,
// and every later call returns a miss at once without a request. With the
// defaults (2 retries, 3 failures) the first call to a server that is down
// trips it. A call that fails without tripping it is warned of once. A
// server that refuses uploads (401, 403 or 405 to a PUT) disables uploads
// only, with one warning; one that refuses an entry as too large (413)
// costs that entry, with one warning. In read-only mode (Config.ReadOnly)
// Put and PutCAS never send a request.
//
// Warnings are one line each, name the cache by its URL with any password
// removed, and are delivered to Config.Warn one at a time.
//
// The defaults: Timeout 5 s, MaxSize 16 MiB, Retries 2, Backoff 100 ms,
// MaxBackoff 2 s, MaxFailures 3. A server that does not answer at all thus
// costs a run at most three timeouts (15 s) in one goroutine before the
// client disables itself, and less when several goroutines use the client.
//
// # Tests
//
// Package remotetest serves the protocol to tests: remotetest.NewServer, in
// memory, with a hook to inject faults, and remotetest.StartNginx, a real
// nginx with WebDAV on a free port of 127.0.0.1 (nginx_test.go runs this
// client against it; other packages' tests may do the same).
package remote
