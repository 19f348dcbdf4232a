// Package remotetest gives tests remote caches to talk to: Server, an
// in-memory cache of Bazel's HTTP protocol with a hook to inject faults,
// and StartNginx, a real nginx serving the protocol through WebDAV, so that
// any package's tests (the cache's, the driver's, cmd/ladder's) can run a
// shared cache:
//
//	srv := remotetest.NewServer(t)            // in memory, always there
//	ng := remotetest.StartNginx(t, remotetest.NginxOptions{}) // skips without nginx
//	c, _ := remote.New(remote.Config{URL: ng.URL})
//	...
//	ng.Stop() // the server goes away mid-run
//
// Both are stopped when the test ends. StartNginx skips the test when nginx
// is not installed, unless LADDER_REQUIRE_NGINX=1, when it fails it (make
// test sets it, after installing nginx). The package imports nothing of
// ladder, so that package remote's own tests can use it.
package remotetest

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Server is an in-memory remote cache: GET, HEAD and PUT on /ac/KEY and
// /cas/KEY (KEY: 64 lowercase hex digits; a cas PUT whose body does not
// hash to its key is refused with 400, as bazel-remote does). Anything else
// is 404 or 405.
type Server struct {
	// URL is the base URL of the cache.
	URL string

	srv *httptest.Server

	mu        sync.Mutex
	entries   map[string][]byte // "ac/KEY" → body
	requests  map[string]int    // method → count
	intercept func(w http.ResponseWriter, r *http.Request) bool
}

// MaxBody is the largest body Server accepts in a PUT.
const MaxBody = 64 << 20

// NewServer starts a Server, closed when the test ends.
func NewServer(t testing.TB) *Server {
	s := &Server{entries: map[string][]byte{}, requests: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.Close)
	return s
}

// Close stops the server; later requests are refused.
func (s *Server) Close() { s.srv.Close() }

// Intercept installs f, called first for every request: when it returns
// true it has answered (a fault: a slow answer, garbage, a 500) and the
// cache does nothing. nil removes it.
func (s *Server) Intercept(f func(w http.ResponseWriter, r *http.Request) bool) {
	s.mu.Lock()
	s.intercept = f
	s.mu.Unlock()
}

// Set stores body as the entry kind/key ("ac" or "cas") without any check:
// a test plants what it likes.
func (s *Server) Set(kind, key string, body []byte) {
	s.mu.Lock()
	s.entries[kind+"/"+key] = append([]byte(nil), body...)
	s.mu.Unlock()
}

// Entry returns the entry kind/key.
func (s *Server) Entry(kind, key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.entries[kind+"/"+key]
	return append([]byte(nil), b...), ok
}

// Len returns the number of entries.
func (s *Server) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// Requests returns the number of requests with this method received so
// far ("" for all).
func (s *Server) Requests(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if method != "" {
		return s.requests[method]
	}
	n := 0
	for _, c := range s.requests {
		n += c
	}
	return n
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests[r.Method]++
	f := s.intercept
	s.mu.Unlock()
	if f != nil && f(w, r) {
		return
	}
	kind, key, ok := splitPath(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	name := kind + "/" + key
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		s.mu.Lock()
		b, ok := s.entries[name]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(b)
	case http.MethodPut:
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if kind == "cas" {
			if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != key {
				http.Error(w, "cas body does not match its key", http.StatusBadRequest)
				return
			}
		}
		s.Set(kind, key, b)
		w.WriteHeader(http.StatusOK)
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// splitPath splits "…/ac/KEY" or "…/cas/KEY" (any prefix, as an instance
// name of bazel-remote).
func splitPath(p string) (kind, key string, ok bool) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", "", false
	}
	rest, key := p[:i], p[i+1:]
	j := strings.LastIndexByte(rest, '/')
	kind = rest[j+1:]
	if kind != "ac" && kind != "cas" || len(key) != 64 || strings.Trim(key, "0123456789abcdef") != "" {
		return "", "", false
	}
	return kind, key, true
}
