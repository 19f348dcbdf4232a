package remote

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Kind is the part of the cache an entry lives in.
type Kind string

// The two kinds of entries.
const (
	AC  Kind = "ac"  // action cache: any body under a key the client chooses
	CAS Kind = "cas" // content-addressed storage: the key is the body's SHA-256
)

// The defaults of Config's zero fields.
const (
	DefaultTimeout     = 5 * time.Second
	DefaultMaxSize     = 16 << 20
	DefaultRetries     = 2
	DefaultBackoff     = 100 * time.Millisecond
	DefaultMaxBackoff  = 2 * time.Second
	DefaultMaxFailures = 3
)

// Config configures a Client. Only URL is required; a zero field takes the
// default named after it.
type Config struct {
	// URL is the base URL, http or https, without query or fragment
	// (user:password@ for basic authentication is allowed); entries are
	// URL/ac/KEY and URL/cas/KEY.
	URL string
	// ReadOnly: Put and PutCAS never send a request.
	ReadOnly bool
	// Timeout bounds one request (one attempt), from sending it to the end
	// of the body.
	Timeout time.Duration
	// MaxSize is the largest body read or sent, in bytes.
	MaxSize int64
	// Retries is the number of retries of a transient failure; 0 means
	// DefaultRetries, a negative number none.
	Retries int
	// Backoff is the wait before the first retry; it doubles at each retry
	// up to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// MaxFailures is the number of consecutive failed attempts after which
	// the client disables itself.
	MaxFailures int
	// Header is added to every request (for instance Authorization).
	Header http.Header
	// Transport sends the requests; nil means a transport of the client's
	// own (proxies from the environment, as net/http's default).
	Transport http.RoundTripper
	// Warn receives the warnings, one line each, never concurrently; nil
	// drops them.
	Warn func(msg string)
	// CheckAC, when not nil, checks every ac body a GET returns; an error
	// makes the entry a bad response (a miss and a warning).
	CheckAC func(key string, body []byte) error
}

// Stats counts what a Client did. Hits, Misses and Stored count calls;
// Failures and BadResponses count attempts; Skipped counts calls answered
// without a request (disabled, read-only, invalid arguments, the caller's
// context done).
type Stats struct {
	Hits, Misses, Stored  int64
	Failures, Retries     int64
	BadResponses, Skipped int64
	Disabled              bool // the circuit breaker tripped
	UploadsDisabled       bool // the server refused an upload
}

// Client is a remote-cache client; see the package doc.
type Client struct {
	cfg       Config
	base      string // the URL without a final slash
	name      string // the URL for messages, password removed
	http      *http.Client
	transport *http.Transport // the own transport, closed by Close

	failures  atomic.Int64 // consecutive failed attempts
	disabled  atomic.Bool
	noUploads atomic.Bool

	hits, misses, stored, failed, retried, bad, skipped atomic.Int64

	mu     sync.Mutex // serialises Warn; guards warned
	warned map[string]bool
}

// New returns a client of the cache at cfg.URL. It sends no request.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("remote cache: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Opaque != "" {
		return nil, fmt.Errorf("remote cache: %q is not an http:// or https:// URL", u.Redacted())
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return nil, fmt.Errorf("remote cache: %q has a query or a fragment", u.Redacted())
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxSize <= 0 {
		cfg.MaxSize = DefaultMaxSize
	}
	switch {
	case cfg.Retries == 0:
		cfg.Retries = DefaultRetries
	case cfg.Retries < 0:
		cfg.Retries = 0
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = DefaultMaxBackoff
	}
	if cfg.MaxBackoff < cfg.Backoff {
		cfg.MaxBackoff = cfg.Backoff
	}
	if cfg.MaxFailures <= 0 {
		cfg.MaxFailures = DefaultMaxFailures
	}
	c := &Client{
		cfg:    cfg,
		base:   strings.TrimRight(u.String(), "/"),
		name:   u.Redacted(),
		warned: map[string]bool{},
	}
	rt := cfg.Transport
	if rt == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 16
		t.DialContext = (&net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second}).DialContext
		c.transport = t
		rt = t
	}
	c.http = &http.Client{
		Transport: rt,
		// A cache does not redirect; following one could leave the
		// configured server (and its checks) behind.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return c, nil
}

// Close releases the idle connections of the client's own transport. The
// client may still be used afterwards.
func (c *Client) Close() {
	if c.transport != nil {
		c.transport.CloseIdleConnections()
	}
}

// URL returns the cache's URL as shown in messages (without a password).
func (c *Client) URL() string { return c.name }

// ReadOnly reports whether the client never uploads.
func (c *Client) ReadOnly() bool { return c.cfg.ReadOnly }

// Disabled reports whether the circuit breaker tripped.
func (c *Client) Disabled() bool { return c.disabled.Load() }

// Stats returns the counts so far.
func (c *Client) Stats() Stats {
	return Stats{
		Hits: c.hits.Load(), Misses: c.misses.Load(), Stored: c.stored.Load(),
		Failures: c.failed.Load(), Retries: c.retried.Load(),
		BadResponses: c.bad.Load(), Skipped: c.skipped.Load(),
		Disabled: c.disabled.Load(), UploadsDisabled: c.noUploads.Load(),
	}
}

// ValidKey reports whether key is 64 lowercase hex digits.
func ValidKey(key string) bool {
	if len(key) != 64 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if !('0' <= key[i] && key[i] <= '9' || 'a' <= key[i] && key[i] <= 'f') {
			return false
		}
	}
	return true
}

// KeyOf returns the cas key of body: its SHA-256 in lowercase hex.
func KeyOf(body []byte) string {
	h := sha256.Sum256(body)
	return hex.EncodeToString(h[:])
}

// Get fetches the entry kind/key. ok is true only for a present entry that
// passed the checks (a cas body hashes to its key; an ac body passes
// Config.CheckAC; neither is larger than MaxSize); every other outcome is a
// miss.
func (c *Client) Get(ctx context.Context, kind Kind, key string) (body []byte, ok bool) {
	if !c.usable(kind, key, "GET") {
		return nil, false
	}
	body, out := c.do(ctx, http.MethodGet, kind, key, nil)
	switch out {
	case outHit:
		c.hits.Add(1)
		return body, true
	case outMiss:
		c.misses.Add(1)
	}
	return nil, false
}

// Contains reports whether the entry kind/key is present (HEAD), without
// checking its body.
func (c *Client) Contains(ctx context.Context, kind Kind, key string) bool {
	if !c.usable(kind, key, "HEAD") {
		return false
	}
	_, out := c.do(ctx, http.MethodHead, kind, key, nil)
	return out == outHit
}

// Put stores body as the entry kind/key and reports whether the server
// accepted it. It sends nothing in read-only mode, after the server refused
// an upload, for a body over MaxSize, or for a cas key that is not the
// body's SHA-256 (the last two are the caller's mistakes and warned of).
func (c *Client) Put(ctx context.Context, kind Kind, key string, body []byte) bool {
	if c.cfg.ReadOnly || c.noUploads.Load() {
		c.skipped.Add(1)
		return false
	}
	if !c.usable(kind, key, "PUT") {
		return false
	}
	if int64(len(body)) > c.cfg.MaxSize {
		c.skipped.Add(1)
		c.warnOnce("put-size", "remote cache %s: not uploading %s, %d bytes, over the limit of %d bytes", c.name, entry(kind, key), len(body), c.cfg.MaxSize)
		return false
	}
	if kind == CAS && KeyOf(body) != key {
		c.skipped.Add(1)
		c.warnOnce("put-hash", "remote cache %s: not uploading %s: the key is not the SHA-256 of the body", c.name, entry(kind, key))
		return false
	}
	if body == nil {
		body = []byte{}
	}
	_, out := c.do(ctx, http.MethodPut, kind, key, body)
	if out == outHit {
		c.stored.Add(1)
		return true
	}
	return false
}

// PutCAS stores body in the cas under its SHA-256 and returns that key and
// whether the server accepted it.
func (c *Client) PutCAS(ctx context.Context, body []byte) (key string, ok bool) {
	key = KeyOf(body)
	return key, c.Put(ctx, CAS, key, body)
}

// usable checks the arguments of a call and whether the client is
// disabled; when the call cannot be made it counts it as skipped.
func (c *Client) usable(kind Kind, key, method string) bool {
	if c.disabled.Load() {
		c.skipped.Add(1)
		return false
	}
	if kind != AC && kind != CAS || !ValidKey(key) {
		c.skipped.Add(1)
		c.warnOnce("arguments", "remote cache %s: %s of an invalid entry %s/%s (a bug of the caller)", c.name, method, escape(string(kind)), escape(key))
		return false
	}
	return true
}

// outcome is the result of one attempt.
type outcome int

const (
	outHit       outcome = iota // GET: a good body; HEAD: present; PUT: stored
	outMiss                     // 404
	outBad                      // a response that cannot be used
	outTransient                // worth retrying
	outPermanent                // not worth retrying
	outRefused                  // a PUT the server refuses on principle
	outTooLarge                 // a PUT the server refuses as too large
	outCanceled                 // the caller's context is done
	outSkipped                  // not sent: the client is disabled
)

// do sends one request, with the retries it deserves, and updates the
// breaker.
func (c *Client) do(ctx context.Context, method string, kind Kind, key string, body []byte) ([]byte, outcome) {
	for attempt := 0; ; attempt++ {
		if c.disabled.Load() {
			c.skipped.Add(1)
			return nil, outSkipped
		}
		if ctx.Err() != nil {
			c.skipped.Add(1)
			return nil, outCanceled
		}
		data, out, detail := c.attempt(ctx, method, kind, key, body)
		switch out {
		case outHit, outMiss:
			c.failures.Store(0)
			return data, out
		case outCanceled:
			c.skipped.Add(1)
			return nil, out
		case outTooLarge:
			// The server works; this entry is too large for it.
			c.failures.Store(0)
			return nil, out
		case outRefused:
			if c.noUploads.CompareAndSwap(false, true) {
				c.warn("remote cache %s: the server refuses uploads: %s; continuing without uploading", c.name, detail)
			}
			return nil, out
		case outBad:
			// The server answered; the entry is unusable (and warned of).
			c.bad.Add(1)
			c.failures.Store(0)
			return nil, out
		case outPermanent:
			c.failed.Add(1)
			c.fail(detail)
			c.failedCall(detail)
			return nil, out
		}
		// outTransient
		c.failed.Add(1)
		c.fail(detail)
		if attempt >= c.cfg.Retries || c.disabled.Load() {
			c.failedCall(detail)
			return nil, out
		}
		c.retried.Add(1)
		t := time.NewTimer(c.backoff(method, kind, key, attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			c.skipped.Add(1)
			return nil, outCanceled
		case <-t.C:
		}
	}
}

// fail counts a failed attempt and trips the breaker at MaxFailures.
func (c *Client) fail(detail string) {
	if c.failures.Add(1) < int64(c.cfg.MaxFailures) {
		return
	}
	if c.disabled.CompareAndSwap(false, true) {
		c.warn("remote cache %s: disabled for the rest of this run after %d consecutive failures (last: %s); results are computed locally",
			c.name, c.cfg.MaxFailures, detail)
	}
}

// failedCall warns, once, of a call that failed without tripping the
// breaker (which warns itself).
func (c *Client) failedCall(detail string) {
	if !c.disabled.Load() {
		c.warnOnce("failed", "remote cache %s: %s; treated as a miss (further failures are counted, not reported)", c.name, detail)
	}
}

// backoff returns the wait before retry attempt+1: half of the doubled
// backoff, plus a jitter of up to as much again taken from a hash of the
// request.
func (c *Client) backoff(method string, kind Kind, key string, attempt int) time.Duration {
	d := c.cfg.Backoff
	for i := 0; i < attempt && d < c.cfg.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, c.cfg.MaxBackoff)
	h := fnv.New64a()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(attempt))
	h.Write([]byte(method))
	h.Write([]byte(kind))
	h.Write([]byte(key))
	h.Write(n[:])
	half := d / 2
	return half + time.Duration(h.Sum64()%uint64(half+1))
}

// attempt sends one request and classifies the answer; detail describes a
// failure for messages.
func (c *Client) attempt(ctx context.Context, method string, kind Kind, key string, body []byte) (data []byte, out outcome, detail string) {
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	what := method + " " + entry(kind, key)
	req, err := http.NewRequestWithContext(rctx, method, c.base+"/"+string(kind)+"/"+key, rd)
	if err != nil {
		return nil, outPermanent, what + ": " + err.Error()
	}
	for k, vs := range c.cfg.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/octet-stream")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, outCanceled, ""
		}
		return nil, outTransient, what + ": " + c.describe(err)
	}
	defer func() {
		// Read a little of what is left, so that the connection can be
		// reused, but never wait for a large or endless body.
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
	}()
	status := resp.StatusCode
	switch {
	case method == http.MethodGet && status == http.StatusOK:
		return c.readBody(ctx, resp, kind, key, what)
	case method == http.MethodHead && status == http.StatusOK:
		return nil, outHit, ""
	case method == http.MethodPut && (status == http.StatusOK || status == http.StatusCreated || status == http.StatusNoContent):
		return nil, outHit, ""
	case method != http.MethodPut && status == http.StatusNotFound:
		return nil, outMiss, ""
	case method == http.MethodPut && status == http.StatusRequestEntityTooLarge:
		c.warnOnce("put-too-large", "remote cache %s: the server refuses %s, %d bytes, as too large; entries this large are not shared (raise its body size limit)",
			c.name, entry(kind, key), len(body))
		return nil, outTooLarge, what + ": " + resp.Status
	case method == http.MethodPut && (status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusMethodNotAllowed):
		return nil, outRefused, what + ": " + resp.Status
	case status >= 500 || status == http.StatusRequestTimeout || status == http.StatusTooManyRequests:
		return nil, outTransient, what + ": " + escape(resp.Status)
	}
	return nil, outPermanent, what + ": unexpected status " + escape(resp.Status)
}

// readBody reads and checks the body of a GET that answered 200.
func (c *Client) readBody(ctx context.Context, resp *http.Response, kind Kind, key, what string) ([]byte, outcome, string) {
	max := c.cfg.MaxSize
	if resp.ContentLength > max {
		c.warnOnce("oversized", "remote cache %s: %s is %d bytes, over the limit of %d; treated as a miss (later ones like it are counted, not reported)",
			c.name, entry(kind, key), resp.ContentLength, max)
		return nil, outBad, what + ": oversized body"
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, outCanceled, ""
		}
		return nil, outTransient, what + ": reading the body: " + c.describe(err)
	}
	if int64(len(data)) > max {
		c.warnOnce("oversized", "remote cache %s: %s is over the limit of %d bytes; treated as a miss (later ones like it are counted, not reported)",
			c.name, entry(kind, key), max)
		return nil, outBad, what + ": oversized body"
	}
	switch kind {
	case CAS:
		if got := KeyOf(data); got != key {
			c.warnOnce("hash", "remote cache %s: %s holds a body whose SHA-256 is %s, not its key; treated as a miss (later ones like it are counted, not reported)",
				c.name, entry(kind, key), got[:12]+"…")
			return nil, outBad, what + ": body does not match its key"
		}
	case AC:
		if c.cfg.CheckAC != nil {
			if err := c.cfg.CheckAC(key, data); err != nil {
				c.warnOnce("check", "remote cache %s: %s refused: %s; treated as a miss (later ones like it are counted, not reported)",
					c.name, entry(kind, key), escape(err.Error()))
				return nil, outBad, what + ": refused: " + escape(err.Error())
			}
		}
	}
	return data, outHit, ""
}

// describe returns a transport error without the URL (messages name the
// entry instead), a timeout as such.
func (c *Client) describe(err error) string {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("no answer within %v", c.cfg.Timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return escape(err.Error())
}

// entry names an entry in messages: "ac/0123456789ab…".
func entry(kind Kind, key string) string {
	if len(key) > 12 {
		key = key[:12] + "…"
	}
	return string(kind) + "/" + key
}

// escape makes s printable on one line (a status line or an error may come
// from the server).
func escape(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	q := fmt.Sprintf("%q", s)
	q = q[1 : len(q)-1]
	return strings.ReplaceAll(q, `\"`, `"`)
}

// warnOnce warns once per kind of message.
func (c *Client) warnOnce(kind, format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.warned[kind] {
		return
	}
	c.warned[kind] = true
	if c.cfg.Warn != nil {
		c.cfg.Warn(fmt.Sprintf(format, args...))
	}
}

// warn delivers a warning.
func (c *Client) warn(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cfg.Warn != nil {
		c.cfg.Warn(fmt.Sprintf(format, args...))
	}
}
