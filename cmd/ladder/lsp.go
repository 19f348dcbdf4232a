// This file implements `ladder lsp`: the Language Server Protocol server
// (internal/lsp) on standard input and output.

package main

import (
	"context"
	"flag"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"ladder/internal/driver"
	"ladder/internal/lsp"
	"ladder/internal/sign"
)

func init() {
	register(&command{
		name:  "lsp",
		args:  "",
		short: "run the Language Server Protocol server on stdin and stdout, for editors",
		long: `Lsp runs a Language Server Protocol server on standard input and output:
an editor starts it and sends it the YAML documents it opens and edits.
When a document is opened, changed or saved, the server checks it as
ladder check does (with the texts of the open documents, saved or not, and
the automata a proof names found in specs/ and algorithms/ of the
document's repository) and publishes the errors as diagnostics at their
positions. After a save of a document without errors it shows the status of
its invariants and edges from the cache (.ladder/ at the repository root),
proves the document in the background with the cache, and shows the new
statuses (docs/editor.md). It exits when the editor says exit or closes the
connection.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			return func(e *env, args []string) int {
				if len(args) > 0 {
					return e.usageError("lsp", "lsp takes no arguments")
				}
				ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				// The directory the editor starts the server in is the
				// workspace: no cache is written outside it.
				ws, werr := os.Getwd()
				if werr != nil {
					ws = "."
				}
				err := lsp.Serve(ctx, stdio{}, lsp.Options{Version: version, Library: documentLibrary, Workspace: ws, Signing: lspSigning(e)})
				if err != nil {
					e.errorf("lsp", "%v", err)
					return exitFailure
				}
				return exitOK
			}
		},
	})
}

// documentLibrary returns specs/ and algorithms/ of the repository that
// holds dir, those that exist.
func documentLibrary(dir string) []string {
	root := driver.FindRoot(dir)
	var out []string
	for _, d := range []string{"specs", "algorithms"} {
		p := filepath.Join(root, d)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			out = append(out, p)
		}
	}
	return out
}

// stdio is the connection of ladder lsp: standard input and output.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	err := os.Stdin.Close()
	if err2 := os.Stdout.Close(); err == nil {
		err = err2
	}
	return err
}

var _ io.ReadWriteCloser = stdio{}

// lspSigning returns the language server's signing: the user's key, and
// the keys the repository at root trusts, as ladder prove has them; nil
// (records unsigned) when the user's key cannot be opened.
func lspSigning(e *env) func(root string) (*sign.Signer, *sign.Verifier) {
	signer, err := sign.OpenSigner(sign.Config{Getenv: e.getenv})
	if err != nil {
		return nil
	}
	return func(root string) (*sign.Signer, *sign.Verifier) {
		v, err := sign.LoadVerifier(signer, filepath.Join(root, sign.KeysFileName))
		if err != nil {
			v = sign.NewVerifier(signer.PublicKey())
		}
		return signer, v
	}
}
