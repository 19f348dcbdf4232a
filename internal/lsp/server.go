// Package lsp implements ladder's Language Server Protocol server: over one
// connection (ladder lsp: standard input and output) it keeps the YAML
// documents the editor has open and publishes, on open, change and save,
// the errors `ladder check` reports for each of them as diagnostics, at
// their positions. After a save of a document without errors it adds the
// cached status of every invariant and edge the document states (proved,
// refuted with the counterexample's first line, unknown, or not checked
// when the cache holds no verdict for its current text), as ladder graph
// reads it, and proves the document in the background with the cache (only
// the obligations whose text changed reach the solver), then publishes the
// new statuses. One prover per cache lives as long as the session, as
// ladder watch's does: a save restores the units whose files did not
// change from their records instead of generating their obligations.
//
// It uses the protocol types of go.lsp.dev/protocol and the JSON-RPC 2.0
// connection of go.lsp.dev/jsonrpc2, and answers the methods it implements
// itself (initialize, initialized, shutdown, exit and the textDocument
// synchronisation notifications); every other request gets "method not
// found".
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"ladder/internal/driver"
	"ladder/internal/kernel"
	"ladder/internal/report"
	"ladder/internal/sign"
	"ladder/internal/source"
	"ladder/ioa/load"
)

// Options configures a server.
type Options struct {
	// Version is ladder's version, sent in the initialize result.
	Version string
	// Library returns the directories searched for the automata a proof
	// names but the document does not declare (as for ladder check: the
	// repository's specs/ and algorithms/). dir is the document's
	// directory. nil searches nothing.
	Library func(dir string) []string
	// CacheDir returns the cache directory of the document in dir ("" for
	// no statuses and no proving); nil means .ladder at the repository
	// root.
	CacheDir func(dir string) string
	// Proved, when not nil, is called with the report of every background
	// proof that ran to its end, after its diagnostics are published.
	Proved func(doc uri.URI, rep *report.Prove)
	// Workspace, when not "", is the directory the server serves: a
	// document outside it gets diagnostics but no statuses and no
	// proving, and a cache is made only inside it (the repository root
	// of the document when that is inside, the workspace otherwise).
	Workspace string
	// Signing, when not nil, returns the signer and verifier of the
	// records of the repository whose root is root (driver.Config.Signer
	// and Verifier), so that the server's verdicts are those ladder prove
	// signs and trusts; nil leaves records unsigned.
	Signing func(root string) (*sign.Signer, *sign.Verifier)
}

// Serve runs a server on rwc until the client sends exit or closes the
// connection, or ctx is done.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opt Options) error {
	// Every message from the client goes through a frameReader (frame.go).
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(guarded{Reader: newFrameReader(rwc), WriteCloser: rwc}))
	s := &server{opt: opt, conn: conn, docs: map[uri.URI]*document{}, provers: map[string]*sharedProver{}}
	s.client = protocol.ClientDispatcher(conn, zap.NewNop())
	s.bgCtx, s.bgStop = context.WithCancel(ctx)
	conn.Go(ctx, s.handle)
	select {
	case <-conn.Done():
	case <-ctx.Done():
		conn.Close()
		<-conn.Done()
	}
	s.bgStop() // background proofs stop; their verdicts so far are cached
	s.bg.Wait()
	s.closeProvers()
	// the client closing the connection ends the session normally
	if err := conn.Err(); err != nil && (strings.Contains(err.Error(), errFrame.Error()) ||
		!errors.Is(err, io.EOF) && !strings.HasSuffix(err.Error(), io.EOF.Error()) && !strings.Contains(err.Error(), "closed")) {
		return err
	}
	return nil
}

type server struct {
	opt    Options
	conn   jsonrpc2.Conn
	client protocol.Client

	bgCtx  context.Context
	bgStop context.CancelFunc
	bg     sync.WaitGroup

	// parsed keeps the YAML of the files checks read: a file read again
	// with the same bytes (an unedited one) is not parsed again.
	parsed load.Parsed

	mu       sync.Mutex
	docs     map[uri.URI]*document
	shutdown bool

	pmu     sync.Mutex
	provers map[string]*sharedProver // by cache directory
}

// sharedProver is the prover of one cache directory, kept for the whole
// session, as ladder watch keeps its own: every saved document of the
// repository is planned and proved with it, one run at a time, so that
// the unit records it decoded stay in memory and a save restores the
// unchanged units instead of generating their obligations again.
type sharedProver struct {
	mu sync.Mutex // held for a whole plan, status and proof
	p  *driver.Prover

	// A run's core searches (driver.Config.DeferCoreSearch) run after
	// its statuses are published, still holding mu, until the next run
	// asks for the prover: waiting counts the runs waiting for mu, and
	// stop stops the search running, if any.
	smu     sync.Mutex
	waiting int
	stop    context.CancelFunc
}

// lock takes the prover for a run, stopping the core search that holds
// it, if any.
func (sp *sharedProver) lock() {
	sp.smu.Lock()
	sp.waiting++
	if sp.stop != nil {
		sp.stop()
	}
	sp.smu.Unlock()
	sp.mu.Lock()
	sp.smu.Lock()
	sp.waiting--
	sp.smu.Unlock()
}

// findCores looks for the cores the last run left for later
// (driver.Prover.FindCores) until ctx is done or another run asks for the
// prover; the caller holds mu.
func (sp *sharedProver) findCores(ctx context.Context) {
	search, stop := context.WithCancel(ctx)
	defer stop()
	sp.smu.Lock()
	if sp.waiting > 0 {
		sp.smu.Unlock()
		return // the next run drops them
	}
	sp.stop = stop
	sp.smu.Unlock()
	sp.p.FindCores(search)
	sp.smu.Lock()
	sp.stop = nil
	sp.smu.Unlock()
}

// prover returns the shared prover of cfg's cache directory, made on first
// use; nil when it cannot be made (the error is the cache's, and the
// statuses are left out, as without a cache).
func (s *server) prover(cfg driver.Config) *sharedProver {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	if sp := s.provers[cfg.CacheDir]; sp != nil {
		return sp
	}
	p, err := driver.NewProver(cfg)
	if err != nil {
		return nil
	}
	sp := &sharedProver{p: p}
	s.provers[cfg.CacheDir] = sp
	return sp
}

// closeProvers closes every shared prover, once no background proof runs.
func (s *server) closeProvers() {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	for dir, sp := range s.provers {
		sp.p.Close()
		delete(s.provers, dir)
	}
}

// document is an open document: its text as the editor has it.
type document struct {
	version int32
	text    string
	gen     int                // incremented on every update
	stop    context.CancelFunc // of its background proof, if one runs
}

func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case protocol.MethodInitialize:
		return reply(ctx, protocol.InitializeResult{
			Capabilities: protocol.ServerCapabilities{
				TextDocumentSync: protocol.TextDocumentSyncOptions{
					OpenClose: true,
					Change:    protocol.TextDocumentSyncKindFull,
					Save:      &protocol.SaveOptions{IncludeText: true},
				},
			},
			ServerInfo: &protocol.ServerInfo{Name: "ladder", Version: s.opt.Version},
		}, nil)
	case protocol.MethodInitialized:
		return nil
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case protocol.MethodExit:
		go s.conn.Close() // ends the connection, and Serve
		return nil
	case protocol.MethodTextDocumentDidOpen:
		var p protocol.DidOpenTextDocumentParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
		}
		s.update(ctx, p.TextDocument.URI, p.TextDocument.Version, &p.TextDocument.Text, false)
		return nil
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
		}
		if n := len(p.ContentChanges); n > 0 {
			// full synchronisation: the last change is the whole text
			s.update(ctx, p.TextDocument.URI, p.TextDocument.Version, &p.ContentChanges[n-1].Text, false)
		}
		return nil
	case protocol.MethodTextDocumentDidSave:
		var p protocol.DidSaveTextDocumentParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
		}
		var text *string
		if p.Text != "" {
			text = &p.Text
		}
		s.update(ctx, p.TextDocument.URI, -1, text, true)
		return nil
	case protocol.MethodTextDocumentDidClose:
		var p protocol.DidCloseTextDocumentParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
		}
		s.mu.Lock()
		if d := s.docs[p.TextDocument.URI]; d != nil && d.stop != nil {
			d.stop()
		}
		delete(s.docs, p.TextDocument.URI)
		s.mu.Unlock()
		// the file on disk is what the editor shows no more: clear
		return s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
	}
	if _, isCall := req.(*jsonrpc2.Call); isCall {
		return reply(ctx, nil, fmt.Errorf("%q: %w", req.Method(), jsonrpc2.ErrMethodNotFound))
	}
	return nil // an unknown notification is ignored
}

// update records the document's text (when text is not nil; version -1
// keeps the version), checks it, and publishes its diagnostics, with the
// cached statuses when saved is set.
func (s *server) update(ctx context.Context, u uri.URI, version int32, text *string, saved bool) {
	s.mu.Lock()
	d := s.docs[u]
	if d == nil {
		d = &document{}
		s.docs[u] = d
	}
	if text != nil {
		d.text = *text
	}
	if version >= 0 {
		d.version = version
	}
	d.gen++
	if d.stop != nil {
		d.stop() // its text is not the document's any more
		d.stop = nil
	}
	overlay := map[string]string{}
	for du, dd := range s.docs {
		if f, ok := fileOf(du); ok {
			overlay[f] = dd.text
		}
	}
	v, docText, gen := d.version, d.text, d.gen
	s.mu.Unlock()

	path, ok := fileOf(u)
	if !ok {
		// An unsaved buffer (untitled:) or a document that is not a local
		// file: nothing on disk to load it with, so no diagnostics yet.
		s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: u, Version: uint32(max(v, 0)), Diagnostics: []protocol.Diagnostic{}})
		return
	}
	diags, set, sums := s.check(path, docText, overlay)
	cfg, prove := s.proverConfig(path)
	if !saved || set == nil || !prove {
		s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: u, Version: uint32(max(v, 0)), Diagnostics: diags})
		return
	}
	// Saved without errors: in the background, with the repository's
	// shared prover, publish the cached statuses, prove, and publish the
	// new statuses, unless the document changed meanwhile.
	bctx, stop := context.WithCancel(s.bgCtx)
	s.mu.Lock()
	if s.docs[u] != d || d.gen != gen {
		s.mu.Unlock()
		stop()
		return
	}
	d.stop = stop
	s.bg.Add(1)
	s.mu.Unlock()
	current := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.docs[u] == d && d.gen == gen && bctx.Err() == nil
	}
	publish := func(all []protocol.Diagnostic) {
		s.client.PublishDiagnostics(bctx, &protocol.PublishDiagnosticsParams{URI: u, Version: uint32(max(v, 0)), Diagnostics: all})
	}
	go func() {
		defer s.bg.Done()
		defer stop()
		sp := s.prover(cfg)
		if sp == nil {
			publish(diags)
			return
		}
		sp.lock()
		defer sp.mu.Unlock()
		if !current() {
			return // a later change or save has its own run
		}
		in, _ := sp.p.Plan(set, sums)
		if in == nil {
			publish(diags)
			return
		}
		rep, err := sp.p.ProveStaged(bctx, in, func(cached *report.Prove) {
			if current() {
				publish(append(nonStatus(diags), s.status(path, docText, in, cached)...))
			}
		})
		if err != nil || !current() {
			return
		}
		publish(append(nonStatus(diags), s.status(path, docText, in, rep)...))
		if s.opt.Proved != nil {
			s.opt.Proved(u, rep)
		}
		// the cores of the obligations proved again, after the statuses
		if sp.p.Deferred() > 0 {
			sp.findCores(bctx)
		}
	}()
}

// statusSource is the Source of the diagnostics that give statuses.
const statusSource = "ladder prove"

// nonStatus returns the diagnostics of diags that are not statuses.
func nonStatus(diags []protocol.Diagnostic) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range diags {
		if d.Source != statusSource {
			out = append(out, d)
		}
	}
	return out
}

// proverConfig returns the configuration of the statuses and proofs of the
// document at path, and false when it has none: the cache of its
// repository and the limits of ladder prove's defaults (so that the
// verdicts are those ladder prove reuses), one worker.
func (s *server) proverConfig(path string) (driver.Config, bool) {
	dir := filepath.Dir(path)
	root := driver.FindRoot(dir)
	if ws := s.opt.Workspace; ws != "" {
		// Writes stay inside the workspace, whatever URI a client sends.
		if !within(dir, ws) {
			return driver.Config{}, false
		}
		if !within(root, ws) {
			root = ws
		}
	}
	cacheDir := filepath.Join(root, driver.DefaultCacheDir)
	if s.opt.CacheDir != nil {
		cacheDir = s.opt.CacheDir(dir)
	}
	if cacheDir == "" {
		return driver.Config{}, false
	}
	cfg := driver.Config{
		Kernel:   kernel.Config{RLimit: kernel.DefaultRLimit, Timeout: kernel.DefaultTimeout},
		Jobs:     1,
		CacheDir: cacheDir,
		Warn:     func(string) {},
		// the statuses first: the cores of re-proved obligations are
		// looked for after they are published (sharedProver.findCores)
		DeferCoreSearch: true,
	}
	if s.opt.Signing != nil {
		cfg.Signer, cfg.Verifier = s.opt.Signing(root)
	}
	return cfg, true
}

// check loads the document (with the open documents' texts instead of the
// files on disk) as ladder check does and returns the errors in it as
// diagnostics, and the loaded set when there are no errors at all, with
// the SHA-256 of every file it read as read (driver.Inputs.Sums).
func (s *server) check(path, text string, overlay map[string]string) ([]protocol.Diagnostic, *load.Set, map[string]string) {
	abs := func(name string) string {
		if a, err := filepath.Abs(name); err == nil {
			return a
		}
		return name
	}
	var inputs driver.Inputs
	cfg := load.Config{
		ReadFile: inputs.Reader(func(name string) ([]byte, error) {
			if t, ok := overlay[filepath.Clean(abs(name))]; ok {
				return []byte(t), nil
			}
			return load.ReadFile(name)
		}),
		ReadDir: func(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) },
		Parsed:  &s.parsed,
	}
	if s.opt.Library != nil {
		cfg.Library = s.opt.Library(filepath.Dir(path))
	}
	set, errs := cfg.Files(path)
	lines := strings.Split(text, "\n")
	diags := []protocol.Diagnostic{}
	for _, e := range errs {
		if filepath.Clean(abs(e.Pos.File)) != path {
			continue
		}
		diags = append(diags, diagnostic(e, lines))
	}
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Range.Start.Line < diags[j].Range.Start.Line })
	if len(errs) > 0 {
		return diags, nil, nil
	}
	return diags, set, inputs.Sums()
}

// status returns the status of the invariants and edges whose obligations
// the document states (in's, restored units' included), from rep (a
// proof's report, or the cache's statuses): one diagnostic per invariant
// or edge at its first obligation's position, and one per refuted or
// unknown obligation at its own.
func (s *server) status(path, text string, in *driver.Input, rep *report.Prove) []protocol.Diagnostic {
	// where each group's obligations are, in this document
	first := map[string]source.Pos{}
	for _, ob := range in.Obligations {
		if filepath.Clean(ob.Pos.File) != path {
			continue
		}
		if f, ok := first[ob.Group]; !ok || ob.Pos.Line < f.Line || ob.Pos.Line == f.Line && ob.Pos.Col < f.Col {
			first[ob.Group] = ob.Pos
		}
	}
	lines := strings.Split(text, "\n")
	var diags []protocol.Diagnostic
	add := func(pos source.Pos, sev protocol.DiagnosticSeverity, msg string) {
		d := diagnostic(&source.Error{Pos: pos, Msg: msg}, lines)
		d.Severity, d.Source, d.Code = sev, statusSource, nil
		diags = append(diags, d)
	}
	severity := func(status string) protocol.DiagnosticSeverity {
		switch status {
		case report.Proved:
			return protocol.DiagnosticSeverityInformation
		case report.Refuted:
			return protocol.DiagnosticSeverityError
		}
		return protocol.DiagnosticSeverityWarning
	}
	for _, inv := range rep.Invariants {
		if pos, ok := first[inv.Group]; ok {
			add(pos, severity(inv.Status), "invariant "+inv.Name+": "+inv.Status)
		}
	}
	for _, e := range rep.Edges {
		if pos, ok := first[e.Group]; ok {
			add(pos, severity(e.Status), e.Kind+" "+e.Name+": "+e.Status)
		}
	}
	for _, o := range rep.Obligations {
		pos, ok := obligationPos(o.Pos)
		if !ok || filepath.Clean(pos.File) != path || report.Discharged(o.Verdict) {
			continue
		}
		msg := o.ID + ": " + o.Verdict
		if o.Counterexample != nil {
			if l := firstFact(o.Counterexample.Text); l != "" {
				msg += ": " + l
			}
		} else if o.Reason != "" {
			msg += ": " + firstFact(o.Reason)
		}
		add(pos, severity(o.Verdict), msg)
	}
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Range.Start.Line < diags[j].Range.Start.Line })
	return diags
}

// obligationPos parses a report's "file:line:col".
func obligationPos(s string) (source.Pos, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return source.Pos{}, false
	}
	j := strings.LastIndexByte(s[:i], ':')
	if j < 0 {
		return source.Pos{}, false
	}
	line, err1 := strconv.Atoi(s[j+1 : i])
	col, err2 := strconv.Atoi(s[i+1:])
	if err1 != nil || err2 != nil {
		return source.Pos{}, false
	}
	return source.Pos{File: s[:j], Line: line, Col: col}, true
}

// firstFact returns the first informative line of a counterexample or a
// reason: the one after "counterexample to …", trimmed.
func firstFact(text string) string {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "counterexample to ") {
			return l
		}
	}
	return ""
}

// diagnostic turns a load error into a diagnostic: its range runs from
// the error's position to the end of the word there (LSP counts columns in
// UTF-16 code units from 0; ladder in bytes from 1).
func diagnostic(e *source.Error, lines []string) protocol.Diagnostic {
	line := max(e.Pos.Line-1, 0)
	start, end := uint32(0), uint32(0)
	if line < len(lines) {
		l := strings.TrimSuffix(lines[line], "\r")
		col := min(max(e.Pos.Col-1, 0), len(l))
		stop := col
		for stop < len(l) && isWordByte(l[stop]) {
			stop++
		}
		if stop == col && stop < len(l) {
			_, n := utf8.DecodeRuneInString(l[stop:])
			stop += n
		}
		start, end = utf16Len(l[:col]), utf16Len(l[:stop])
	}
	return protocol.Diagnostic{
		Range: protocol.Range{
			Start: protocol.Position{Line: uint32(line), Character: start},
			End:   protocol.Position{Line: uint32(line), Character: end},
		},
		Severity: protocol.DiagnosticSeverityError,
		Source:   "ladder check",
		Code:     e.Code.String(),
		Message:  e.Msg,
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func utf16Len(s string) uint32 {
	n := 0
	for _, r := range s {
		n += len(utf16.Encode([]rune{r}))
	}
	return uint32(n)
}

// fileOf returns the local file a document URI names, cleaned; ok is false
// for any URI that is not a file: URI with a path (untitled:, http:, an
// empty URI), which the uri package would panic on.
func fileOf(u uri.URI) (path string, ok bool) {
	pu, err := url.Parse(string(u))
	if err != nil || pu.Scheme != uri.FileScheme || pu.Path == "" || (pu.Host != "" && pu.Host != "localhost") {
		return "", false
	}
	return filepath.Clean(pu.Path), true
}

// within reports whether path is dir or inside it, both made absolute.
func within(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
