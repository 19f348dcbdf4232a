package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"ladder/internal/report"
)

// BenchmarkSaveRelationEdit measures a save of a proof document after an
// edit of one relation clause, from the save to the report of the
// background proof: the TML→TMS2 proof of the repository, opened in a
// copy of specs/ and algorithms/ with its cache warmed by a first save.
// Each iteration makes the clause's text new (one more "+ 0"), so that the
// obligations that assume it are checked again and the units the edit
// leaves alone (TML's and TMS2's invariants) are restored.
func BenchmarkSaveRelationEdit(b *testing.B) {
	dir := b.TempDir()
	for _, d := range []string{"specs", "algorithms"} {
		ents, err := os.ReadDir(filepath.Join("../..", d))
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".yaml") {
				benchCopy(b, filepath.Join("../..", d, e.Name()), filepath.Join(dir, d, e.Name()))
			}
		}
	}
	path := filepath.Join(dir, "proofs", "TML-TMS2.yaml")
	benchCopy(b, "../../proofs/TML-TMS2.yaml", path)
	orig, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	const clause = "  len: len(a.mems) = c.glb div 2 + 1\n"
	if !strings.Contains(string(orig), clause) {
		b.Fatalf("%s lacks %q", path, clause)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cache := filepath.Join(dir, "cache")
	proved := make(chan *report.Prove, 1)
	opt := Options{Version: "bench",
		Library:  func(string) []string { return []string{filepath.Join(dir, "specs"), filepath.Join(dir, "algorithms")} },
		CacheDir: func(string) string { return cache },
		Proved:   func(_ uri.URI, rep *report.Prove) { proved <- rep }}
	server, client, served := serveTest(ctx, b, opt, 1024)
	go func() { // drain: the benchmark waits for the reports
		for range client.diags {
		}
	}()
	if _, err := server.Initialize(ctx, &protocol.InitializeParams{}); err != nil {
		b.Fatal(err)
	}
	doc := uri.File(path)
	if err := server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: doc, LanguageID: "yaml", Version: 1, Text: string(orig)}}); err != nil {
		b.Fatal(err)
	}
	save := func(text string) *report.Prove {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: doc}, Text: text}); err != nil {
			b.Fatal(err)
		}
		select {
		case rep := <-proved:
			if !rep.OK() {
				b.Fatalf("not proved: %+v", rep.Summary)
			}
			return rep
		case err := <-served:
			b.Fatalf("the server stopped: %v", err)
		case <-ctx.Done():
			b.Fatal("no proof reported")
		}
		return nil
	}
	save(string(orig)) // cold: warms the cache
	b.ResetTimer()
	var rechecked, obligations int
	for i := range b.N {
		edited := strings.Replace(string(orig), clause, strings.TrimSuffix(clause, "\n")+strings.Repeat(" + 0", i+1)+"\n", 1)
		rep := save(edited)
		rechecked += rep.Summary.Rechecked
		obligations += rep.Summary.Obligations
	}
	b.StopTimer()
	b.ReportMetric(float64(rechecked)/float64(b.N), "rechecked/op")
	b.ReportMetric(float64(obligations)/float64(b.N), "obligations/op")
	if err := server.Shutdown(ctx); err != nil {
		b.Fatal(err)
	}
}

func benchCopy(b *testing.B, from, to string) {
	b.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		b.Fatal(err)
	}
}
