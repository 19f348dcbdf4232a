package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"ladder/internal/remote/remotetest"
)

// warnings records the warnings of a client.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) add(m string) {
	w.mu.Lock()
	w.msgs = append(w.msgs, m)
	w.mu.Unlock()
}

func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.msgs...)
}

// count returns the number of warnings containing s.
func (w *warnings) count(s string) int {
	n := 0
	for _, m := range w.all() {
		if strings.Contains(m, s) {
			n++
		}
	}
	return n
}

// testClient returns a client of url with short timeouts and backoffs,
// modified by mod.
func testClient(t *testing.T, url string, mod func(*Config)) (*Client, *warnings) {
	t.Helper()
	w := &warnings{}
	cfg := Config{
		URL:        url,
		Timeout:    300 * time.Millisecond,
		Backoff:    time.Millisecond,
		MaxBackoff: 4 * time.Millisecond,
		Warn:       w.add,
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, w
}

// key returns a valid key made of s.
func key(s string) string { return KeyOf([]byte(s)) }

func TestHit(t *testing.T) {
	srv := remotetest.NewServer(t)
	c, w := testClient(t, srv.URL, nil)
	ctx := context.Background()
	srv.Set("ac", key("k"), []byte("verdict"))
	body, ok := c.Get(ctx, AC, key("k"))
	if !ok || string(body) != "verdict" {
		t.Errorf("Get(ac) = %q, %v; want verdict, true", body, ok)
	}
	blob := []byte("a blob")
	srv.Set("cas", KeyOf(blob), blob)
	if body, ok := c.Get(ctx, CAS, KeyOf(blob)); !ok || !bytes.Equal(body, blob) {
		t.Errorf("Get(cas) = %q, %v", body, ok)
	}
	if !c.Contains(ctx, CAS, KeyOf(blob)) {
		t.Error("Contains(present) = false")
	}
	if st := c.Stats(); st.Hits != 2 || st.Failures != 0 {
		t.Errorf("stats %+v", st)
	}
	if len(w.all()) != 0 {
		t.Errorf("warnings: %q", w.all())
	}
}

func TestMiss(t *testing.T) {
	srv := remotetest.NewServer(t)
	c, w := testClient(t, srv.URL, nil)
	ctx := context.Background()
	for i := range 10 {
		if body, ok := c.Get(ctx, AC, key(fmt.Sprint(i))); ok || body != nil {
			t.Fatalf("Get(absent) = %q, %v", body, ok)
		}
	}
	if c.Contains(ctx, CAS, key("x")) {
		t.Error("Contains(absent) = true")
	}
	st := c.Stats()
	if st.Misses != 10 || st.Failures != 0 || st.Disabled {
		t.Errorf("stats %+v: 404s must be plain misses", st)
	}
	if len(w.all()) != 0 {
		t.Errorf("warnings: %q", w.all())
	}
}

func TestPut(t *testing.T) {
	srv := remotetest.NewServer(t)
	c, w := testClient(t, srv.URL+"/ladder/", nil)
	ctx := context.Background()
	if !c.Put(ctx, AC, key("k"), []byte("record")) {
		t.Fatal("Put(ac) = false")
	}
	if b, ok := srv.Entry("ac", key("k")); !ok || string(b) != "record" {
		t.Errorf("server holds %q, %v", b, ok)
	}
	k, ok := c.PutCAS(ctx, []byte("blob"))
	if !ok || k != key("blob") {
		t.Errorf("PutCAS = %s, %v", k, ok)
	}
	if body, ok := c.Get(ctx, CAS, k); !ok || string(body) != "blob" {
		t.Errorf("Get after PutCAS = %q, %v", body, ok)
	}
	if !c.Put(ctx, AC, key("empty"), nil) {
		t.Error("Put of an empty body = false")
	}
	// The caller's mistakes: not sent, warned of once.
	if c.Put(ctx, CAS, key("other"), []byte("blob")) {
		t.Error("Put(cas) under a key that is not the body's hash = true")
	}
	if c.Put(ctx, AC, "ABC", []byte("x")) {
		t.Error("Put with an invalid key = true")
	}
	if st := c.Stats(); st.Stored != 3 || st.Skipped != 2 {
		t.Errorf("stats %+v", st)
	}
	if srv.Requests("PUT") != 3 {
		t.Errorf("%d PUTs sent, want 3", srv.Requests("PUT"))
	}
	if w.count("not the SHA-256") != 1 || w.count("invalid entry") != 1 {
		t.Errorf("warnings: %q", w.all())
	}
}

func TestReadOnly(t *testing.T) {
	srv := remotetest.NewServer(t)
	srv.Set("ac", key("k"), []byte("v"))
	c, w := testClient(t, srv.URL, func(c *Config) { c.ReadOnly = true })
	ctx := context.Background()
	if c.Put(ctx, AC, key("new"), []byte("x")) {
		t.Error("Put in read-only mode = true")
	}
	if _, ok := c.PutCAS(ctx, []byte("x")); ok {
		t.Error("PutCAS in read-only mode = true")
	}
	if n := srv.Requests(http.MethodPut); n != 0 {
		t.Errorf("read-only client sent %d PUTs", n)
	}
	if _, ok := c.Get(ctx, AC, key("k")); !ok {
		t.Error("read-only client cannot read")
	}
	if len(w.all()) != 0 || !c.ReadOnly() {
		t.Errorf("warnings: %q", w.all())
	}
}

// deadURL returns the URL of a port nothing listens on.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://user:secret@" + addr + "/cache"
}

func TestServerDown(t *testing.T) {
	c, w := testClient(t, deadURL(t), nil)
	ctx := context.Background()
	start := time.Now()
	for i := range 20 {
		if _, ok := c.Get(ctx, AC, key(fmt.Sprint(i))); ok {
			t.Fatal("hit from a server that is down")
		}
		if c.Put(ctx, AC, key(fmt.Sprint(i)), []byte("x")) {
			t.Fatal("stored on a server that is down")
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("40 calls to a server that is down took %v", d)
	}
	st := c.Stats()
	if !st.Disabled || !c.Disabled() {
		t.Fatalf("not disabled: %+v", st)
	}
	if st.Failures != DefaultMaxFailures {
		t.Errorf("%d failed attempts, want %d: the breaker stops the requests", st.Failures, DefaultMaxFailures)
	}
	msgs := w.all()
	if len(msgs) != 1 || !strings.Contains(msgs[0], "disabled for the rest of this run") {
		t.Errorf("warnings %q, want one saying the cache is disabled", msgs)
	}
	for _, m := range msgs {
		if strings.Contains(m, "secret") {
			t.Errorf("warning shows the password: %q", m)
		}
	}
}

func TestServerDownConcurrent(t *testing.T) {
	c, w := testClient(t, deadURL(t), nil)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				c.Get(context.Background(), CAS, key(fmt.Sprint(g, i)))
			}
		}()
	}
	wg.Wait()
	if n := w.count("disabled"); n != 1 || !c.Disabled() {
		t.Errorf("%d warnings of disabling (all: %q), want 1", n, w.all())
	}
}

// hang returns an interceptor that answers nothing until the request is
// canceled (or the test ends).
func hang(t *testing.T) func(http.ResponseWriter, *http.Request) bool {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	return func(w http.ResponseWriter, r *http.Request) bool {
		select {
		case <-r.Context().Done():
		case <-done:
		}
		return true
	}
}

func TestSlowServer(t *testing.T) {
	srv := remotetest.NewServer(t)
	srv.Intercept(hang(t))
	c, w := testClient(t, srv.URL, func(c *Config) { c.Timeout = 100 * time.Millisecond })
	start := time.Now()
	for i := range 5 {
		if _, ok := c.Get(context.Background(), AC, key(fmt.Sprint(i))); ok {
			t.Fatal("hit from a server that does not answer")
		}
	}
	// Three attempts of 100ms trip the breaker; the rest are not sent.
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if !c.Disabled() || w.count("no answer within 100ms") != 1 || len(w.all()) != 1 {
		t.Errorf("disabled %v, warnings %q", c.Disabled(), w.all())
	}
	if n := srv.Requests(""); n != DefaultMaxFailures {
		t.Errorf("%d requests, want %d", n, DefaultMaxFailures)
	}
}

func TestContextDeadline(t *testing.T) {
	srv := remotetest.NewServer(t)
	srv.Intercept(hang(t))
	c, w := testClient(t, srv.URL, func(c *Config) { c.Timeout = time.Minute })
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, ok := c.Get(ctx, AC, key("k")); ok {
		t.Fatal("hit")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the caller's deadline of 150ms was not kept: %v", d)
	}
	// After the deadline nothing is sent, and the caller's deadline is not
	// the server's failure.
	before := srv.Requests("")
	if _, ok := c.Get(ctx, AC, key("k")); ok || srv.Requests("") != before {
		t.Error("a request was sent after the deadline")
	}
	if st := c.Stats(); st.Failures != 0 || st.Disabled || len(w.all()) != 0 {
		t.Errorf("stats %+v, warnings %q", st, w.all())
	}
}

func TestRetry(t *testing.T) {
	srv := remotetest.NewServer(t)
	srv.Set("ac", key("k"), []byte("v"))
	var mu sync.Mutex
	fails := 2
	srv.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		if fails > 0 {
			fails--
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	c, w := testClient(t, srv.URL, nil)
	if body, ok := c.Get(context.Background(), AC, key("k")); !ok || string(body) != "v" {
		t.Errorf("Get after two 503s = %q, %v", body, ok)
	}
	if st := c.Stats(); st.Retries != 2 || st.Failures != 2 || st.Disabled {
		t.Errorf("stats %+v", st)
	}
	if len(w.all()) != 0 {
		t.Errorf("warnings: %q", w.all())
	}
	// Failures separated by successes do not trip the breaker.
	for range 5 {
		mu.Lock()
		fails = 2
		mu.Unlock()
		c.Get(context.Background(), AC, key("k"))
	}
	if c.Disabled() {
		t.Error("disabled by failures that retries overcame")
	}
}

// rawServer answers every connection with reply and closes it.
func rawServer(t *testing.T, reply string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(5 * time.Second))
				buf := make([]byte, 4096)
				conn.Read(buf)
				conn.Write([]byte(reply))
			}()
		}
	}()
	return "http://" + l.Addr().String()
}

func TestGarbage(t *testing.T) {
	for name, reply := range map[string]string{
		"not http":  "\x00\x01garbage\r\n\r\n",
		"truncated": "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort",
		"bad chunk": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			c, w := testClient(t, rawServer(t, reply), nil)
			for i := range 3 {
				if body, ok := c.Get(context.Background(), AC, key(fmt.Sprint(i))); ok {
					t.Fatalf("garbage accepted: %q", body)
				}
			}
			if !c.Disabled() || len(w.all()) != 1 {
				t.Errorf("disabled %v, warnings %q", c.Disabled(), w.all())
			}
		})
	}
	// An ac body refused by CheckAC: a miss and one warning, and the
	// server, which answers, is not disabled.
	srv := remotetest.NewServer(t)
	for i := range 5 {
		srv.Set("ac", key(fmt.Sprint(i)), []byte("<html>not a record</html>"))
	}
	srv.Set("ac", key("good"), []byte("record"))
	c, w := testClient(t, srv.URL, func(c *Config) {
		c.CheckAC = func(key string, body []byte) error {
			if !bytes.HasPrefix(body, []byte("record")) {
				return errors.New("not a signed record")
			}
			return nil
		}
	})
	for i := range 5 {
		if _, ok := c.Get(context.Background(), AC, key(fmt.Sprint(i))); ok {
			t.Fatal("CheckAC's refusal ignored")
		}
	}
	if _, ok := c.Get(context.Background(), AC, key("good")); !ok {
		t.Error("good record refused")
	}
	if st := c.Stats(); st.BadResponses != 5 || st.Disabled || st.Hits != 1 {
		t.Errorf("stats %+v", st)
	}
	if w.count("refused: not a signed record") != 1 || len(w.all()) != 1 {
		t.Errorf("warnings %q", w.all())
	}
}

func TestOversized(t *testing.T) {
	srv := remotetest.NewServer(t)
	big := bytes.Repeat([]byte("x"), 2000)
	srv.Set("ac", key("big"), big)
	srv.Set("cas", KeyOf(big), big)
	srv.Set("ac", key("ok"), big[:1000])
	c, w := testClient(t, srv.URL, func(c *Config) { c.MaxSize = 1000 })
	ctx := context.Background()
	if _, ok := c.Get(ctx, AC, key("big")); ok {
		t.Error("oversized ac entry accepted")
	}
	if _, ok := c.Get(ctx, CAS, KeyOf(big)); ok {
		t.Error("oversized cas entry accepted")
	}
	if _, ok := c.Get(ctx, AC, key("ok")); !ok {
		t.Error("entry of exactly MaxSize refused")
	}
	if c.Put(ctx, AC, key("big2"), big) {
		t.Error("oversized upload sent")
	}
	// An endless body without a length is cut at the limit.
	var sent int
	var mu sync.Mutex
	srv.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
		chunk := bytes.Repeat([]byte("y"), 512)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				break
			}
			w.(http.Flusher).Flush()
			mu.Lock()
			sent += len(chunk)
			mu.Unlock()
			if sent > 100<<20 {
				break
			}
		}
		return true
	})
	start := time.Now()
	if _, ok := c.Get(ctx, AC, key("endless")); ok {
		t.Error("endless body accepted")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("endless body took %v", d)
	}
	if st := c.Stats(); st.BadResponses != 3 || st.Disabled {
		t.Errorf("stats %+v", st)
	}
	if w.count("is 2000 bytes, over the limit of 1000; treated as a miss") != 1 || w.count("not uploading") != 1 || len(w.all()) != 2 {
		t.Errorf("warnings %q", w.all())
	}
}

func TestWrongCASHash(t *testing.T) {
	srv := remotetest.NewServer(t)
	srv.Set("cas", key("expected"), []byte("something else"))
	srv.Set("cas", key("expected2"), []byte("something else"))
	c, w := testClient(t, srv.URL, nil)
	for _, k := range []string{key("expected"), key("expected2")} {
		if body, ok := c.Get(context.Background(), CAS, k); ok {
			t.Errorf("cas body with another hash accepted: %q", body)
		}
	}
	if st := c.Stats(); st.BadResponses != 2 || st.Hits != 0 || st.Disabled {
		t.Errorf("stats %+v", st)
	}
	if w.count("not its key") != 1 || len(w.all()) != 1 {
		t.Errorf("warnings %q, want one about the hash", w.all())
	}
}

func TestUploadsRefused(t *testing.T) {
	srv := remotetest.NewServer(t)
	srv.Set("ac", key("k"), []byte("v"))
	srv.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodPut {
			http.Error(w, "no", http.StatusForbidden)
			return true
		}
		return false
	})
	c, w := testClient(t, srv.URL, nil)
	ctx := context.Background()
	for i := range 5 {
		if c.Put(ctx, AC, key(fmt.Sprint(i)), []byte("x")) {
			t.Fatal("Put = true on 403")
		}
	}
	if n := srv.Requests("PUT"); n != 1 {
		t.Errorf("%d PUTs after a 403, want 1", n)
	}
	if _, ok := c.Get(ctx, AC, key("k")); !ok {
		t.Error("downloads disabled by a refused upload")
	}
	if st := c.Stats(); !st.UploadsDisabled || st.Disabled {
		t.Errorf("stats %+v", st)
	}
	if w.count("refuses uploads: PUT ac/") != 1 || w.count("403 Forbidden; continuing without uploading") != 1 || len(w.all()) != 1 {
		t.Errorf("warnings %q", w.all())
	}
}

func TestUnexpectedStatus(t *testing.T) {
	srv := remotetest.NewServer(t)
	srv.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
		http.Redirect(w, r, "http://example.invalid/elsewhere", http.StatusFound)
		return true
	})
	c, w := testClient(t, srv.URL, nil)
	if _, ok := c.Get(context.Background(), AC, key("k")); ok {
		t.Fatal("redirect gave a hit")
	}
	if st := c.Stats(); st.Failures != 1 || st.Retries != 0 {
		t.Errorf("stats %+v: a redirect is a failure, not retried", st)
	}
	if w.count("unexpected status 302 Found") != 1 {
		t.Errorf("warnings %q", w.all())
	}
}

func TestInvalidArguments(t *testing.T) {
	srv := remotetest.NewServer(t)
	c, w := testClient(t, srv.URL, nil)
	ctx := context.Background()
	for _, k := range []string{"", "abc", strings.ToUpper(key("k")), key("k") + "0", "../../etc/passwd" + key("k")[16:]} {
		if _, ok := c.Get(ctx, AC, k); ok {
			t.Errorf("Get(%q) = true", k)
		}
	}
	if _, ok := c.Get(ctx, Kind("../x"), key("k")); ok {
		t.Error("Get of an invalid kind = true")
	}
	if srv.Requests("") != 0 {
		t.Errorf("%d requests for invalid keys", srv.Requests(""))
	}
	if len(w.all()) != 1 {
		t.Errorf("warnings %q, want one", w.all())
	}
}

func TestNewErrors(t *testing.T) {
	for _, u := range []string{"", "ftp://h/x", "http://", "http://h/?q=1", "http://h/#f", "::", "h:8080", "mailto:x@y"} {
		if _, err := New(Config{URL: u}); err == nil {
			t.Errorf("New(%q) accepted", u)
		}
	}
	if _, err := New(Config{URL: "http://user:pw@h:8080/base/"}); err != nil {
		t.Error(err)
	}
	_, err := New(Config{URL: "ftp://user:hunter2@h/"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %v shows the password", err)
	}
}

func TestBackoff(t *testing.T) {
	c, err := New(Config{URL: "http://h", Backoff: 100 * time.Millisecond, MaxBackoff: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[time.Duration]bool{}
	for attempt, want := range []time.Duration{100, 200, 400, 800, 1000, 1000, 1000} {
		want *= time.Millisecond
		for i := range 50 {
			k := key(fmt.Sprint(i))
			d := c.backoff("GET", AC, k, attempt)
			if d < want/2 || d > want {
				t.Fatalf("backoff(attempt %d) = %v, want in [%v, %v]", attempt, d, want/2, want)
			}
			if d != c.backoff("GET", AC, k, attempt) {
				t.Fatal("backoff is not deterministic")
			}
			distinct[d] = true
		}
	}
	if len(distinct) < 100 {
		t.Errorf("only %d distinct backoffs: the jitter does not spread", len(distinct))
	}
	// A huge base does not overflow.
	c.cfg.Backoff, c.cfg.MaxBackoff = time.Duration(1<<62), time.Duration(1<<62)
	if d := c.backoff("GET", AC, key("k"), 40); d <= 0 {
		t.Errorf("backoff overflowed: %v", d)
	}
}
