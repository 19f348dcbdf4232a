package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ladder/internal/remote/remotetest"
	"ladder/internal/sign"
)

// ladderAt runs ladder (this test binary as ladder) in dir with extra
// environment variables, and returns its exit code and outputs.
func ladderAt(t *testing.T, dir string, env []string, started func(), args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), childEnv+"=1", "LADDER_DEBUG=", sign.KeyFileEnv+"="), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if started != nil {
		started()
	}
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("ladder %s did not finish\n%s", strings.Join(args, " "), stderr.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"goroutine ", "panic:", "internal error"} {
		if strings.Contains(stdout.String()+stderr.String(), bad) {
			t.Errorf("ladder %s printed %q:\n%s", strings.Join(args, " "), bad, stderr.String())
		}
	}
	return code, stdout.String(), stderr.String()
}

// TestRemoteCacheNginx runs a team's set-up against a real nginx with
// WebDAV (Debian's; internal/remote/remotetest): CI, with its key, proves a
// clone and fills the remote cache; a fresh clone that trusts CI's key,
// with an empty local cache and a key of its own, proves everything from
// the remote without building or checking an obligation; a clone that does
// not trust CI's key refuses the remote records and proves everything
// itself; and a clone whose remote goes away as the run starts completes
// with the right verdicts.
func TestRemoteCacheNginx(t *testing.T) {
	ng := remotetest.StartNginx(t, remotetest.NginxOptions{})
	url := ng.URL + "/ladder"
	ciKey, err := sign.NewKeyFile(filepath.Join(t.TempDir(), "ci-key"), sign.Config{Comment: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Obligations, Reused, Rechecked, Built, Trivial int
	}
	prove := func(dir string, env []string, started func(), extra ...string) (int, summary, string) {
		t.Helper()
		args := append([]string{"prove", ".", "--json", "-j", "2"}, extra...)
		code, out, errs := ladderAt(t, dir, env, started, args...)
		var rep struct{ Summary summary }
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("prove in %s: exit %d, %v\n%s", dir, code, err, errs)
		}
		return code, rep.Summary, errs
	}

	ci := driverFixture(t, "kinds")
	code, s, errs := prove(ci, []string{sign.KeyFileEnv + "=" + ciKey.Path()}, nil, "--remote-cache", url)
	if code != 0 || s.Rechecked == 0 {
		t.Fatalf("CI: exit %d, %+v\n%s", code, s, errs)
	}
	entries, _ := filepath.Glob(filepath.Join(ng.Root, "ladder", "ac", "*"))
	if len(entries) == 0 {
		t.Fatalf("CI stored nothing in the remote cache\n%s", errs)
	}

	// A laptop: its own key, CI's key trusted, an empty local cache.
	laptop := driverFixture(t, "kinds")
	if err := os.WriteFile(filepath.Join(laptop, sign.KeysFileName), []byte("# CI\n"+ciKey.PublicKeyLine()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := []string{"XDG_CONFIG_HOME=" + t.TempDir()}
	code, s, errs = prove(laptop, home, nil, "--remote-cache", url, "--remote-cache-read-only")
	if code != 0 || s.Built != 0 || s.Rechecked != 0 || s.Reused+s.Trivial != s.Obligations || !strings.Contains(errs, "taken from the remote cache") {
		t.Fatalf("laptop trusting CI: exit %d, %+v; want every obligation reused from the remote\n%s", code, s, errs)
	}
	if after, _ := filepath.Glob(filepath.Join(ng.Root, "ladder", "ac", "*")); len(after) != len(entries) {
		t.Errorf("a read-only client wrote to the remote cache: %d entries, then %d", len(entries), len(after))
	}

	// A clone that does not trust CI's key proves everything itself.
	stranger := driverFixture(t, "kinds")
	code, s, errs = prove(stranger, []string{"XDG_CONFIG_HOME=" + t.TempDir()}, nil, "--remote-cache", url, "--remote-cache-read-only")
	if code != 0 || s.Rechecked == 0 || !strings.Contains(errs, "not signed by a trusted key") {
		t.Fatalf("clone not trusting CI: exit %d, %+v; want the remote records refused, everything checked\n%s", code, s, errs)
	}

	// A clone whose repository names the remote cache in ladder-remote.txt
	// needs no flag.
	named := driverFixture(t, "kinds")
	for name, text := range map[string]string{sign.KeysFileName: ciKey.PublicKeyLine() + "\n", remoteFileName: "# the team's cache\n" + url + "\n"} {
		if err := os.WriteFile(filepath.Join(named, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, s, errs = prove(named, []string{"XDG_CONFIG_HOME=" + t.TempDir()}, nil)
	if code != 0 || s.Built != 0 || s.Rechecked != 0 || !strings.Contains(errs, "taken from the remote cache") {
		t.Fatalf("remote named by %s: exit %d, %+v\n%s", remoteFileName, code, s, errs)
	}

	// The server goes away as a run starts: the run completes alone.
	late := driverFixture(t, "kinds")
	for name, text := range map[string]string{sign.KeysFileName: ciKey.PublicKeyLine() + "\n", remoteFileName: url + "\n"} {
		if err := os.WriteFile(filepath.Join(late, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, s, errs = prove(late, []string{"XDG_CONFIG_HOME=" + t.TempDir()}, ng.Stop)
	if code != 0 || s.Reused+s.Rechecked+s.Trivial != s.Obligations {
		t.Fatalf("server stopped: exit %d, %+v\n%s", code, s, errs)
	}
	code, s2, errs := prove(late, []string{"XDG_CONFIG_HOME=" + t.TempDir()}, nil)
	if code != 0 || s2.Obligations != s.Obligations {
		t.Fatalf("after the server stopped: exit %d, %+v\n%s", code, s2, errs)
	}
}
