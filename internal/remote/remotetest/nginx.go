package remotetest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// RequireNginxEnv is the environment variable that turns a missing nginx
// from a skipped test into a failed one ("1").
const RequireNginxEnv = "LADDER_REQUIRE_NGINX"

// NginxOptions configures StartNginx. The zero value is what the tests use.
type NginxOptions struct {
	// MaxBodySize is nginx's client_max_body_size (default "64m").
	MaxBodySize string
	// Binary is the nginx executable; empty means nginx on the PATH, or
	// /usr/sbin/nginx (Debian's, not on a user's PATH).
	Binary string
}

// Nginx is a running nginx serving a remote cache.
type Nginx struct {
	// URL is the base URL of the cache: http://127.0.0.1:PORT.
	URL string
	// Root is the directory the entries are stored in: Root/ac/KEY and
	// Root/cas/KEY, files a test may read, plant or damage.
	Root string
	// Dir is nginx's prefix: nginx.conf, error.log, access.log, the pid
	// file and temporary files.
	Dir string

	cmd      *exec.Cmd
	exited   chan struct{}
	waitErr  error
	stopOnce sync.Once
}

// NginxBinary returns the nginx executable to use and whether it exists.
func NginxBinary() (string, bool) {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p, true
	}
	for _, p := range []string{"/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// StartNginx starts nginx on a free port of 127.0.0.1 with a configuration
// of its own in a temporary directory (NginxConfig), as the current user
// and in the foreground (daemon off, master_process off), waits until it
// answers, and stops it when the test ends. Without nginx it skips the
// test, or fails it when LADDER_REQUIRE_NGINX=1.
func StartNginx(t testing.TB, opts NginxOptions) *Nginx {
	t.Helper()
	bin := opts.Binary
	if bin == "" {
		var ok bool
		if bin, ok = NginxBinary(); !ok {
			if os.Getenv(RequireNginxEnv) == "1" {
				t.Fatalf("nginx is not installed and %s=1 (install it: apt-get install nginx)", RequireNginxEnv)
			}
			t.Skipf("nginx is not installed (apt-get install nginx; %s=1 makes this a failure)", RequireNginxEnv)
		}
	}
	if opts.MaxBodySize == "" {
		opts.MaxBodySize = "64m"
	}
	info, err := nginxInfo(bin)
	if err != nil {
		t.Fatal(err)
	}
	var lastErr error
	for try := 0; try < 5; try++ {
		n, err := startNginx(t, bin, info, opts)
		if err == nil {
			t.Cleanup(n.Stop)
			return n
		}
		lastErr = err
		if !strings.Contains(err.Error(), "Address already in use") {
			break
		}
	}
	t.Fatalf("starting nginx: %v", lastErr)
	return nil
}

// buildInfo is what `nginx -V` says that matters here.
type buildInfo struct {
	version   [3]int
	tempPaths []string // the *_temp_path directives of the modules built in
}

var (
	infoMu    sync.Mutex
	infoCache = map[string]buildInfo{}
)

// nginxInfo runs `nginx -V` once per binary.
func nginxInfo(bin string) (buildInfo, error) {
	infoMu.Lock()
	defer infoMu.Unlock()
	if bi, ok := infoCache[bin]; ok {
		return bi, nil
	}
	out, err := exec.Command(bin, "-V").CombinedOutput()
	if err != nil {
		return buildInfo{}, fmt.Errorf("%s -V: %v\n%s", bin, err, out)
	}
	var bi buildInfo
	if m := regexp.MustCompile(`nginx/(\d+)\.(\d+)\.(\d+)`).FindSubmatch(out); m != nil {
		for i := range bi.version {
			bi.version[i], _ = strconv.Atoi(string(m[i+1]))
		}
	}
	// client_body_temp_path belongs to the core; the others to modules
	// that a build may leave out, whose directives would then be unknown.
	bi.tempPaths = []string{"client_body_temp_path"}
	for _, mod := range []string{"proxy", "fastcgi", "uwsgi", "scgi"} {
		if !bytes.Contains(out, []byte("--without-http_"+mod+"_module")) {
			bi.tempPaths = append(bi.tempPaths, mod+"_temp_path")
		}
	}
	infoCache[bin] = bi
	return bi, nil
}

// NginxConfig returns the configuration StartNginx writes: nginx listening
// on listen ("127.0.0.1:PORT"), serving and storing the files of root with
// WebDAV PUT, every file it writes (pid, logs, temporary files) under dir,
// and a user directive only when running as root (as root's user, so that
// it can write root). tempPaths are the *_temp_path directives to set.
func NginxConfig(listen, root, dir, maxBodySize string, tempPaths []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# A remote cache of Bazel's HTTP protocol for ladder's tests.\n")
	fmt.Fprintf(&b, "daemon off;\nmaster_process off;\nworker_processes 1;\n")
	if os.Geteuid() == 0 {
		if u, err := user.Current(); err == nil {
			group := u.Gid
			if g, err := user.LookupGroupId(u.Gid); err == nil {
				group = g.Name
			}
			fmt.Fprintf(&b, "user %s %s;\n", u.Username, group)
		}
	}
	fmt.Fprintf(&b, "pid %s;\nlock_file %s;\nerror_log %s info;\n",
		filepath.Join(dir, "nginx.pid"), filepath.Join(dir, "nginx.lock"), filepath.Join(dir, "error.log"))
	fmt.Fprintf(&b, "events {\n    worker_connections 64;\n}\n")
	fmt.Fprintf(&b, "http {\n    access_log %s;\n    default_type application/octet-stream;\n", filepath.Join(dir, "access.log"))
	for _, d := range tempPaths {
		fmt.Fprintf(&b, "    %s %s;\n", d, filepath.Join(dir, "tmp", strings.TrimSuffix(d, "_temp_path")))
	}
	fmt.Fprintf(&b, `    server {
        listen %s;
        root %s;
        client_max_body_size %s;
        location / {
            dav_methods PUT;
            create_full_put_path on;
            dav_access user:rw;
        }
    }
}
`, listen, root, maxBodySize)
	return b.String()
}

func startNginx(t testing.TB, bin string, info buildInfo, opts NginxOptions) (*Nginx, error) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	for _, d := range []string{root, filepath.Join(dir, "tmp")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	listen := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(NginxConfig(listen, root, dir, opts.MaxBodySize, info.tempPaths)), 0o600); err != nil {
		return nil, err
	}
	args := []string{"-p", dir + "/", "-c", conf}
	if info.version[0] > 1 || info.version[0] == 1 && (info.version[1] > 19 || info.version[1] == 19 && info.version[2] >= 5) {
		// The log of startup, before the configuration is read (1.19.5+).
		args = append(args, "-e", filepath.Join(dir, "error.log"))
	}
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	n := &Nginx{URL: "http://" + listen, Root: root, Dir: dir, cmd: cmd, exited: make(chan struct{})}
	go func() {
		n.waitErr = cmd.Wait()
		close(n.exited)
	}()
	deadline := time.Now().Add(15 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for {
		select {
		case <-n.exited:
			return nil, fmt.Errorf("nginx exited (%v) before answering:\n%s%s", n.waitErr, out.String(), n.ErrorLog())
		default:
		}
		resp, err := client.Get(n.URL + "/")
		if err == nil {
			resp.Body.Close()
			return n, nil
		}
		if time.Now().After(deadline) {
			n.Stop()
			return nil, fmt.Errorf("nginx did not answer on %s within 15s (%v):\n%s%s", listen, err, out.String(), n.ErrorLog())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// freePort returns a port of 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Stop stops nginx (SIGTERM, its fast shutdown, then SIGKILL after 5 seconds) and waits for it
// to exit; later requests are refused. It may be called more than once and
// is called when the test ends.
func (n *Nginx) Stop() {
	n.stopOnce.Do(func() {
		select {
		case <-n.exited:
			return
		default:
		}
		n.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-n.exited:
		case <-time.After(5 * time.Second):
			n.cmd.Process.Kill()
			<-n.exited
		}
	})
}

// Running reports whether nginx has not exited.
func (n *Nginx) Running() bool {
	select {
	case <-n.exited:
		return false
	default:
		return true
	}
}

// ErrorLog returns nginx's error log, for test failure messages.
func (n *Nginx) ErrorLog() string {
	b, err := os.ReadFile(filepath.Join(n.Dir, "error.log"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err.Error()
	}
	return string(b)
}
