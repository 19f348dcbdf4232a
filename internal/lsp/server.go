// Package lsp implements ladder's Language Server Protocol server: over one
// connection (ladder lsp: standard input and output) it keeps the YAML
// documents the editor has open and publishes, on open, change and save,
// the errors `ladder check` reports for each of them as diagnostics, at
// their positions.
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
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

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
}

// Serve runs a server on rwc until the client sends exit or closes the
// connection, or ctx is done.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opt Options) error {
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	s := &server{opt: opt, conn: conn, docs: map[uri.URI]*document{}}
	s.client = protocol.ClientDispatcher(conn, zap.NewNop())
	conn.Go(ctx, s.handle)
	select {
	case <-conn.Done():
	case <-ctx.Done():
		conn.Close()
		<-conn.Done()
	}
	// the client closing the connection ends the session normally
	if err := conn.Err(); err != nil && !errors.Is(err, io.EOF) && !strings.HasSuffix(err.Error(), io.EOF.Error()) && !strings.Contains(err.Error(), "closed") {
		return err
	}
	return nil
}

type server struct {
	opt    Options
	conn   jsonrpc2.Conn
	client protocol.Client

	mu       sync.Mutex
	docs     map[uri.URI]*document
	shutdown bool
}

// document is an open document: its text as the editor has it.
type document struct {
	version int32
	text    string
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
		s.update(ctx, p.TextDocument.URI, p.TextDocument.Version, &p.TextDocument.Text)
		return nil
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
		}
		if n := len(p.ContentChanges); n > 0 {
			// full synchronisation: the last change is the whole text
			s.update(ctx, p.TextDocument.URI, p.TextDocument.Version, &p.ContentChanges[n-1].Text)
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
		s.update(ctx, p.TextDocument.URI, -1, text)
		return nil
	case protocol.MethodTextDocumentDidClose:
		var p protocol.DidCloseTextDocumentParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
		}
		s.mu.Lock()
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
// keeps the version), checks it, and publishes its diagnostics.
func (s *server) update(ctx context.Context, u uri.URI, version int32, text *string) {
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
	overlay := map[string]string{}
	for du, dd := range s.docs {
		overlay[filepath.Clean(du.Filename())] = dd.text
	}
	v, docText := d.version, d.text
	s.mu.Unlock()

	diags := s.check(filepath.Clean(u.Filename()), docText, overlay)
	s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: u, Version: uint32(max(v, 0)), Diagnostics: diags})
}

// check loads the document (with the open documents' texts instead of the
// files on disk) as ladder check does and returns the errors in it as
// diagnostics.
func (s *server) check(path, text string, overlay map[string]string) []protocol.Diagnostic {
	abs := func(name string) string {
		if a, err := filepath.Abs(name); err == nil {
			return a
		}
		return name
	}
	cfg := load.Config{
		ReadFile: func(name string) ([]byte, error) {
			if t, ok := overlay[filepath.Clean(abs(name))]; ok {
				return []byte(t), nil
			}
			return load.ReadFile(name)
		},
		ReadDir: func(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) },
	}
	if s.opt.Library != nil {
		cfg.Library = s.opt.Library(filepath.Dir(path))
	}
	_, errs := cfg.Files(path)
	lines := strings.Split(text, "\n")
	diags := []protocol.Diagnostic{}
	for _, e := range errs {
		if filepath.Clean(abs(e.Pos.File)) != path {
			continue
		}
		diags = append(diags, diagnostic(e, lines))
	}
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Range.Start.Line < diags[j].Range.Start.Line })
	return diags
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
