package remotetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
)

func TestServer(t *testing.T) {
	s := NewServer(t)
	body := []byte("blob")
	h := sha256.Sum256(body)
	key := hex.EncodeToString(h[:])
	put := func(path string, b []byte) int {
		req, _ := http.NewRequest(http.MethodPut, s.URL+path, bytes.NewReader(b))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := put("/cas/"+key, body); code != http.StatusOK {
		t.Errorf("PUT cas = %d", code)
	}
	if code := put("/cas/"+key, []byte("other")); code != http.StatusBadRequest {
		t.Errorf("PUT cas with another body = %d, want 400", code)
	}
	if code := put("/instance/ac/"+key, []byte("x")); code != http.StatusOK {
		t.Errorf("PUT ac under an instance name = %d", code)
	}
	if code := put("/ac/short", []byte("x")); code != http.StatusNotFound {
		t.Errorf("PUT with an invalid key = %d, want 404", code)
	}
	if b, ok := s.Entry("cas", key); !ok || !bytes.Equal(b, body) {
		t.Errorf("Entry = %q, %v", b, ok)
	}
	if s.Len() != 2 || s.Requests(http.MethodPut) != 4 {
		t.Errorf("%d entries, %d PUTs", s.Len(), s.Requests(http.MethodPut))
	}
}

func TestNginxConfig(t *testing.T) {
	conf := NginxConfig("127.0.0.1:1234", "/r", "/d", "1m", []string{"client_body_temp_path", "proxy_temp_path"})
	for _, want := range []string{
		"daemon off;", "master_process off;", "pid /d/nginx.pid;", "error_log /d/error.log",
		"client_body_temp_path /d/tmp/client_body;", "proxy_temp_path /d/tmp/proxy;",
		"listen 127.0.0.1:1234;", "root /r;", "client_max_body_size 1m;",
		"dav_methods PUT;", "create_full_put_path on;",
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("config lacks %q:\n%s", want, conf)
		}
	}
}
