// Command ladder is the command-line front end of the ladder proof
// assistant: it checks, explores, runs and proves I/O automata written in
// YAML (see docs/cli.md).
//
// The command is thin: each subcommand parses its flags and calls into the
// packages that do the work. Subcommands live one per file (check.go,
// explore.go, ...) and register themselves in the command table from an
// init function, so that new ones are added without touching this file.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
)

// version is ladder's version, printed by `ladder version`.
const version = "0.1.0-dev"

// softMemoryLimit is the heap size past which the collector runs as often
// as it must to stay under it (runtime/debug.SetMemoryLimit): a soft limit,
// which a run whose live heap is larger exceeds, collecting more often.
const softMemoryLimit = 2 << 30

// Exit codes.
const (
	exitOK       = 0 // success
	exitFailure  = 1 // errors in the input, or a violated property
	exitUsage    = 2 // bad command line
	exitInternal = 3 // a bug in ladder
)

// command is a subcommand of ladder.
type command struct {
	name  string // as typed: "check"
	args  string // the synopsis after the name: "[PATHS] [--json]"
	short string // one line for `ladder help`
	long  string // more text for `ladder help NAME`, may be empty
	// setup defines the command's flags on fs and returns the function that
	// runs the command, once the flags are parsed, with the positional
	// arguments; it returns the exit code.
	setup func(fs *flag.FlagSet) func(e *env, args []string) int
}

// commands is the table of subcommands by name. It is written only by the
// init functions of the subcommand files, and read-only afterwards.
var commands = map[string]*command{}

// register adds a subcommand to the table; it is called from init functions.
func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("ladder: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// env is what a command runs with: its output streams and environment.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
}

// errorf prints "ladder NAME: message" to stderr.
func (e *env) errorf(cmd, format string, args ...any) {
	fmt.Fprintf(e.stderr, "ladder %s: %s\n", cmd, fmt.Sprintf(format, args...))
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs ladder with the given arguments (without the program name) and
// returns the exit code. No panic escapes it: an internal error prints
// "ladder: internal error: ..." (with a stack trace if LADDER_DEBUG=1) and
// gives exit code 3.
func run(args []string, stdout, stderr io.Writer) (code int) {
	e := &env{stdout: stdout, stderr: stderr, getenv: os.Getenv}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "ladder: internal error: %v\n", r)
			if e.getenv("LADDER_DEBUG") == "1" {
				stderr.Write(debug.Stack())
			} else {
				fmt.Fprintln(stderr, "(set LADDER_DEBUG=1 for a stack trace, and please report the bug)")
			}
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return help(e, rest)
	case "version", "-version", "--version":
		fmt.Fprintf(stdout, "ladder %s (%s %s/%s)\n", version, goVersion(), runtime.GOOS, runtime.GOARCH)
		return exitOK
	}
	if e.getenv("GOGC") == "" {
		// ladder is a batch tool whose heap is mostly short-lived terms and
		// texts: collect less often than Go's default (GOGC overrides).
		debug.SetGCPercent(400)
	}
	if e.getenv("GOMEMLIMIT") == "" {
		// ... but not past a soft limit: at GOGC 400 the heap grows to
		// five times what is live, 6.5 GB for a run that holds about
		// 1.2 GB (a new ladder replanning ten times this repository).
		// Under the limit the collector runs as often as it must to stay
		// there; a lower limit would slow the runs that hold about as much
		// (GOMEMLIMIT overrides; a search's --max-memory sets its own).
		debug.SetMemoryLimit(softMemoryLimit)
	}
	if path := e.getenv("LADDER_CPUPROFILE"); path != "" {
		// A debug hook: profile the whole command.
		if f, err := os.Create(path); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				defer func() { pprof.StopCPUProfile(); f.Close() }()
			}
		}
	}
	if path := e.getenv("LADDER_MEMPROFILE"); path != "" {
		// A debug hook: the live heap when the command ends.
		defer func() {
			if f, err := os.Create(path); err == nil {
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	c := commands[name]
	if c == nil {
		fmt.Fprintf(stderr, "ladder: unknown command %q\n\n", name)
		usage(stderr)
		return exitUsage
	}
	return c.run(e, rest)
}

// run parses the command's flags, which may come before or after the
// positional arguments ("--" ends the flags), and runs it.
func (c *command) run(e *env, args []string) int {
	fs := flag.NewFlagSet("ladder "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	do := c.setup(fs)
	pos, err := parseInterleaved(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		commandUsage(e.stdout, c, fs)
		return exitOK
	case err != nil:
		e.errorf(c.name, "%v", err)
		commandUsage(e.stderr, c, fs)
		return exitUsage
	}
	return do(e, pos)
}

// parseInterleaved parses args with fs, allowing flags after positional
// arguments, and returns the positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// usageError reports a usage error of command c and returns exitUsage.
func (e *env) usageError(c string, format string, args ...any) int {
	e.errorf(c, format, args...)
	fmt.Fprintf(e.stderr, "run \"ladder help %s\" for usage\n", c)
	return exitUsage
}

// goVersion returns the Go version ladder was built with.
func goVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.GoVersion != "" {
		return bi.GoVersion
	}
	return runtime.Version()
}

// usage prints the list of commands.
func usage(w io.Writer) {
	fmt.Fprintln(w, "ladder is a hierarchical refinement proof assistant for I/O automata.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "\tladder <command> [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The commands are:")
	fmt.Fprintln(w)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "\t%-10s %s\n", n, commands[n].short)
	}
	fmt.Fprintf(w, "\t%-10s %s\n", "help", "show help for a command")
	fmt.Fprintf(w, "\t%-10s %s\n", "version", "print ladder's version")
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Use "ladder help <command>" for more about a command; docs/cli.md has the details.`)
}

// help implements `ladder help [COMMAND]`.
func help(e *env, args []string) int {
	switch {
	case len(args) == 0:
		usage(e.stdout)
		return exitOK
	case len(args) > 1:
		fmt.Fprintln(e.stderr, "usage: ladder help [command]")
		return exitUsage
	}
	c := commands[args[0]]
	if c == nil {
		fmt.Fprintf(e.stderr, "ladder help: unknown command %q\n", args[0])
		return exitUsage
	}
	commandUsage(e.stdout, c, nil)
	return exitOK
}

// commandUsage prints a command's synopsis, description and flags.
func commandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: ladder %s %s\n", c.name, c.args)
	if c.long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.long, "\n"))
	}
	if fs == nil {
		fs = flag.NewFlagSet("ladder "+c.name, flag.ContinueOnError)
		c.setup(fs)
	}
	if hasFlags(fs) {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}
