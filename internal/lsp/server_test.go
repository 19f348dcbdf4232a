package lsp

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"ladder/internal/report"
)

// testClient is an editor: it records the diagnostics the server publishes.
type testClient struct {
	diags chan *protocol.PublishDiagnosticsParams
}

func (c *testClient) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.diags <- p
	return nil
}
func (c *testClient) Progress(context.Context, *protocol.ProgressParams) error { return nil }
func (c *testClient) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return nil
}
func (c *testClient) LogMessage(context.Context, *protocol.LogMessageParams) error   { return nil }
func (c *testClient) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }
func (c *testClient) ShowMessageRequest(context.Context, *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	return nil, nil
}
func (c *testClient) Telemetry(context.Context, interface{}) error { return nil }
func (c *testClient) RegisterCapability(context.Context, *protocol.RegistrationParams) error {
	return nil
}
func (c *testClient) UnregisterCapability(context.Context, *protocol.UnregistrationParams) error {
	return nil
}
func (c *testClient) ApplyEdit(context.Context, *protocol.ApplyWorkspaceEditParams) (bool, error) {
	return false, nil
}
func (c *testClient) Configuration(context.Context, *protocol.ConfigurationParams) ([]interface{}, error) {
	return nil, nil
}
func (c *testClient) WorkspaceFolders(context.Context) ([]protocol.WorkspaceFolder, error) {
	return nil, nil
}

// serveTest starts a server with opt on one end of a pipe, and returns
// the editor's end: the server's methods, the client recording up to n
// published diagnostics, and the channel Serve's result arrives on.
func serveTest(ctx context.Context, tb testing.TB, opt Options, n int) (protocol.Server, *testClient, <-chan error) {
	sconn, cconn := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, sconn, opt) }()
	client := &testClient{diags: make(chan *protocol.PublishDiagnosticsParams, n)}
	_, conn, server := protocol.NewClient(ctx, client, jsonrpc2.NewStream(cconn), zap.NewNop())
	tb.Cleanup(func() { conn.Close() })
	return server, client, served
}

// TestSession drives the server through an editor's session over a pipe:
// initialize, open a clean automaton, break an expression, fix it, save,
// edit an action's effect and save, close, shut down. The broken expression
// gets one diagnostic at its position within the change that broke it; the
// fix clears it. A save publishes the cached statuses at once (not checked,
// with an empty cache), then those of the background proof (proved); a
// save without a change shows them from the unit's record; the
// saved edit of one action re-checks that action's obligation only, and its
// refutation is shown at the invariant with the counterexample's first line.
func TestSession(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"Mutex.yaml", "lock.yaml"} {
		b, err := os.ReadFile(filepath.Join("../../docs/examples/mutex", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "Mutex.yaml")
	clean, _ := os.ReadFile(path)
	doc := uri.File(path)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cache := filepath.Join(t.TempDir(), "cache")
	proved := make(chan *report.Prove, 4)
	opt := Options{Version: "test",
		CacheDir: func(string) string { return cache },
		Proved:   func(_ uri.URI, rep *report.Prove) { proved <- rep }}
	server, client, served := serveTest(ctx, t, opt, 16)

	next := func(what string) *protocol.PublishDiagnosticsParams {
		t.Helper()
		select {
		case p := <-client.diags:
			if p.URI != doc {
				t.Fatalf("%s: diagnostics for %s, want %s", what, p.URI, doc)
			}
			return p
		case <-ctx.Done():
			t.Fatalf("%s: no diagnostics published", what)
			return nil
		}
	}

	res, err := server.Initialize(ctx, &protocol.InitializeParams{})
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo == nil || res.ServerInfo.Name != "ladder" {
		t.Errorf("server info %+v", res.ServerInfo)
	}
	if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}

	// open: clean
	err = server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: doc, LanguageID: "yaml", Version: 1, Text: string(clean)}})
	if err != nil {
		t.Fatal(err)
	}
	if p := next("open"); len(p.Diagnostics) != 0 {
		t.Errorf("open: diagnostics on a clean file: %+v", p.Diagnostics)
	}

	// change: "busy[p]" of Release's precondition becomes "busz[p]"
	const good, bad = "    pre: busy[p]\n", "    pre: busz[p]\n"
	if !strings.Contains(string(clean), good) {
		t.Fatalf("%s lacks %q", path, good)
	}
	broken := strings.Replace(string(clean), good, bad, 1)
	line := strings.Count(broken[:strings.Index(broken, bad)], "\n") // 0-based
	change := func(version int32, text string) {
		t.Helper()
		err := server.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: doc}, Version: version},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	change(2, broken)
	p := next("change")
	if len(p.Diagnostics) != 1 {
		t.Fatalf("change: %d diagnostics, want 1: %+v", len(p.Diagnostics), p.Diagnostics)
	}
	d := p.Diagnostics[0]
	want := protocol.Range{Start: protocol.Position{Line: uint32(line), Character: 9}, End: protocol.Position{Line: uint32(line), Character: 13}}
	if d.Range != want || !strings.Contains(d.Message, `"busz"`) || d.Severity != protocol.DiagnosticSeverityError || p.Version != 2 {
		t.Errorf("change: diagnostic %+v (version %d), want at %+v naming \"busz\", version 2", d, p.Version, want)
	}

	t.Logf("change: %s:%d:%d: %s", d.Source, d.Range.Start.Line+1, d.Range.Start.Character+1, d.Message)

	// fix it: cleared
	change(3, string(clean))
	if p := next("fix"); len(p.Diagnostics) != 0 {
		t.Errorf("fix: diagnostics remain: %+v", p.Diagnostics)
	}
	// save (the text on disk is the clean one): the cache is empty, then
	// the background proof proves the invariant
	save := func(text string) {
		t.Helper()
		if err := server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: doc}, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	invLine := uint32(strings.Count(string(clean)[:strings.Index(string(clean), "  atMostOne:")], "\n"))
	expect := func(what string, p *protocol.PublishDiagnosticsParams, want ...string) {
		t.Helper()
		var got []string
		for _, d := range p.Diagnostics {
			got = append(got, fmt.Sprintf("%d:%s %s", d.Range.Start.Line, d.Severity, d.Message))
		}
		t.Logf("%s: %q", what, got)
		if len(got) != len(want) {
			t.Fatalf("%s: diagnostics %q, want %d matching %q", what, got, len(want), want)
		}
		for i := range want {
			if !regexp.MustCompile(want[i]).MatchString(got[i]) {
				t.Errorf("%s: diagnostic %q does not match %q", what, got[i], want[i])
			}
		}
	}
	save("")
	info, warn, errs := protocol.DiagnosticSeverityInformation, protocol.DiagnosticSeverityWarning, protocol.DiagnosticSeverityError
	expect("save (cached)", next("save"), fmt.Sprintf(`^%d:%s invariant atMostOne: not checked$`, invLine, warn))
	expect("save (proved)", next("save, proved"), fmt.Sprintf(`^%d:%s invariant atMostOne: proved$`, invLine, info))
	rep := <-proved
	if rep.Summary.Rechecked == 0 || rep.Summary.Reused != 0 || !rep.OK() {
		t.Errorf("first proof: %+v", rep.Summary)
	}
	// saved again unchanged: the unit is restored from its record, built
	// nowhere, and its statuses are shown at once
	save("")
	expect("saved again (cached)", next("saved again"), fmt.Sprintf(`^%d:%s invariant atMostOne: proved$`, invLine, info))
	expect("saved again (proved)", next("saved again, proved"), fmt.Sprintf(`^%d:%s invariant atMostOne: proved$`, invLine, info))
	if rep = <-proved; rep.Summary.Rechecked != 0 || rep.Summary.Built != 0 || !rep.OK() {
		t.Errorf("proof of the unchanged document: %+v", rep.Summary)
	}

	// a saved edit of Release's effect: only the invariant's Release
	// obligation is re-checked, and it is refuted
	const eff, badEff = "    eff: busy[p] := false\n", "    eff: busy := const(true)\n"
	edited := strings.Replace(string(clean), eff, badEff, 1)
	change(4, edited)
	expect("edit", next("edit"))
	save(edited)
	expect("edit saved (cached)", next("edit saved"), fmt.Sprintf(`^%d:%s invariant atMostOne: not checked$`, invLine, warn))
	expect("edit saved (proved)", next("edit saved, proved"),
		fmt.Sprintf(`^%d:%s invariant atMostOne: refuted$`, invLine, errs),
		fmt.Sprintf(`^%d:%s Mutex › invariant atMostOne › Release: refuted: fails: `, invLine, errs))
	rep = <-proved
	var rechecked []string
	for _, o := range rep.Obligations {
		if !o.Cached {
			rechecked = append(rechecked, o.ID)
		}
	}
	if len(rechecked) != 1 || !strings.HasSuffix(rechecked[0], "› Release") {
		t.Errorf("re-checked after the edit of Release: %q, want its one obligation", rechecked)
	}
	change(5, string(clean))
	expect("undo", next("undo"))

	if err := server.DidClose(ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: doc}}); err != nil {
		t.Fatal(err)
	}
	if p := next("close"); len(p.Diagnostics) != 0 {
		t.Errorf("close: diagnostics not cleared: %+v", p.Diagnostics)
	}
	// an unknown request is refused, not fatal
	if _, err := server.Hover(ctx, &protocol.HoverParams{}); err == nil {
		t.Errorf("hover: no error from a server without hover")
	}
	if err := server.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := server.Exit(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the server did not exit")
	}
}

// TestNonFileDocuments opens, changes and saves documents whose URIs name
// no local file (an unsaved buffer, a web page, an empty URI): the server
// answers each with empty diagnostics and keeps serving, where it used to
// panic and lose the editor its server.
func TestNonFileDocuments(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cache := filepath.Join(t.TempDir(), "cache")
	server, client, served := serveTest(ctx, t, Options{Version: "test", CacheDir: func(string) string { return cache }}, 16)
	if _, err := server.Initialize(ctx, &protocol.InitializeParams{}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []uri.URI{"untitled:Untitled-1", "http://example.invalid/a.yaml", "", "file://"} {
		if err := server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: "yaml", Version: 1, Text: "automaton: A\n"}}); err != nil {
			t.Fatalf("%q: %v", u, err)
		}
		if err := server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Text: "x"}); err != nil {
			t.Fatalf("%q: %v", u, err)
		}
		for range 2 {
			select {
			case p := <-client.diags:
				if p.URI != u || len(p.Diagnostics) != 0 {
					t.Errorf("%q: diagnostics %+v for %q", u, p.Diagnostics, p.URI)
				}
			case err := <-served:
				t.Fatalf("%q: the server stopped: %v", u, err)
			case <-ctx.Done():
				t.Fatalf("%q: no diagnostics", u)
			}
		}
	}
	// still serving
	if err := server.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}

// TestHostileFraming sends messages whose framing no editor would send: an
// endless header line, a body length of gigabytes, a header without a
// length. The server ends the session with an error that says so, without
// buffering the line or allocating the body.
func TestHostileFraming(t *testing.T) {
	for _, c := range []struct {
		name, send, want string
	}{
		{"endless header line", "Content-Type: " + strings.Repeat("a", 1<<20), "a header line longer than"},
		{"huge length", "Content-Length: 2000000000\r\n\r\n{", "over the limit"},
		{"no length", "Content-Type: x\r\n\r\n{}", "no Content-Length"},
		{"bad length", "Content-Length: -5\r\n\r\n", "Content-Length \"-5\""},
		{"many headers", strings.Repeat("X: y\r\n", 100), "more than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			sconn, cconn := net.Pipe()
			served := make(chan error, 1)
			go func() { served <- Serve(ctx, sconn, Options{Version: "test"}) }()
			go func() {
				cconn.Write([]byte(c.send))
				io.Copy(io.Discard, cconn)
			}()
			select {
			case err := <-served:
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("Serve = %v, want an error containing %q", err, c.want)
				}
			case <-ctx.Done():
				t.Fatal("the server is still reading")
			}
			cconn.Close()
		})
	}
}

// TestSaveOutsideWorkspace saves a document outside the workspace the
// server was started on: it gets its diagnostics, and nothing is written
// beside it (no .ladder cache), where a save used to create one anywhere
// on disk.
func TestSaveOutsideWorkspace(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	for _, f := range []string{"Mutex.yaml", "lock.yaml"} {
		b, err := os.ReadFile(filepath.Join("../../docs/examples/mutex", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(outside, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(outside, "Mutex.yaml")
	text, _ := os.ReadFile(path)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	server, client, served := serveTest(ctx, t, Options{Version: "test", Workspace: ws}, 16)
	if _, err := server.Initialize(ctx, &protocol.InitializeParams{}); err != nil {
		t.Fatal(err)
	}
	doc := uri.File(path)
	if err := server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: doc}, Text: string(text)}); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-client.diags:
		if len(p.Diagnostics) != 0 {
			t.Errorf("diagnostics on a clean file: %+v", p.Diagnostics)
		}
	case <-ctx.Done():
		t.Fatal("no diagnostics")
	}
	if err := server.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	server.Exit(ctx)
	<-served // background proofs, if any, have ended
	entries, _ := os.ReadDir(outside)
	for _, e := range entries {
		if e.Name() == ".ladder" {
			t.Errorf("a cache was created outside the workspace: %s", filepath.Join(outside, e.Name()))
		}
	}
	if !within(filepath.Join(ws, "a", "b.yaml"), ws) || within(path, ws) || within(ws+"x/y.yaml", ws) {
		t.Error("within is wrong")
	}
}
