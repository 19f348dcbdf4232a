// This file implements `ladder graph`: the hierarchy of automata and edges,
// with each edge's status from the cache.

package main

import (
	"context"
	"flag"
	"fmt"

	"ladder/internal/driver"
	"ladder/internal/report"
	"ladder/internal/source"
)

func init() {
	register(&command{
		name:  "graph",
		args:  "[PATHS] [--format dot|svg|text] [--cache-dir DIR] [--no-cache]",
		short: "draw the hierarchy of automata and edges with their proof status",
		long: `Graph loads the YAML files and directories given (by default specs/,
algorithms/ and proofs/, those that exist) and prints the hierarchy: one node
per automaton, one edge per proof file from the concrete to the abstract
automaton, labelled with its kind and status, as in Figure 3 of Lesani,
Luchangco and Moir (CONCUR 2012).

An edge's status comes from the cache (it never runs the solver): proved,
refuted or unknown when the cache holds a verdict for every obligation of
the edge as it is now written (and for the invariants it assumes), "not
checked" otherwise. Run ladder prove to update it.

--format dot (the default) prints Graphviz source, svg renders it with the
dot command, text prints one line per edge.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			o := &proveFlags{}
			o.define(fs)
			format := fs.String("format", "dot", "the output format: dot, svg or text")
			return func(e *env, paths []string) int {
				return graph(e, paths, o, *format)
			}
		},
	})
}

func graph(e *env, paths []string, o *proveFlags, format string) int {
	switch format {
	case "dot", "svg", "text":
	default:
		return e.usageError("graph", "unknown --format %q (want dot, svg or text)", format)
	}
	cfg, err := o.config(e)
	if err != nil {
		return e.usageError("graph", "%v", err)
	}
	if paths = defaultPaths(paths); len(paths) == 0 {
		return e.usageError("graph", "no paths given, and none of specs/, algorithms/, proofs/ exists here")
	}
	in, errs := loadPlanned(paths, cfg)
	if len(errs) > 0 {
		printErrors(e.stderr, errs, false)
		fmt.Fprintf(e.stderr, "%d %s\n", len(errs), plural(len(errs), "error", "errors"))
		return exitUsage
	}
	g, err := hierarchy(in, cfg)
	if err != nil {
		e.errorf("graph", "%v", err)
		return exitFailure
	}
	switch format {
	case "dot":
		err = g.WriteDot(e.stdout)
	case "svg":
		err = g.WriteSVG(e.stdout, "")
	default:
		err = g.WriteText(e.stdout)
	}
	if err != nil {
		e.errorf("graph", "%v", err)
		return exitFailure
	}
	return exitOK
}

// hierarchy builds the graph of in, with edge statuses from the cache.
func hierarchy(in *planned, cfg driver.Config) (*report.Graph, error) {
	g := &report.Graph{}
	for _, a := range in.Automata {
		g.Nodes = append(g.Nodes, a.Name)
	}
	status := map[string]string{}
	if len(in.Obligations) > 0 && !cfg.NoCache {
		p, err := in.prover(cfg)
		if err != nil {
			return nil, err
		}
		rep, err := p.Status(context.Background(), in.Input)
		p.Close()
		if err != nil {
			return nil, err
		}
		for _, e := range rep.Edges {
			status[e.Name] = e.Status
		}
	}
	for _, e := range in.Edges {
		st := status[e.Name]
		if st == "" {
			st = report.NotChecked
		}
		g.Edges = append(g.Edges, report.GraphEdge{Name: e.Name, Concrete: e.Proof.Concrete.Name,
			Abstract: e.Proof.Abstract.Name, Kind: e.Proof.Kind.String(), Status: st})
	}
	return g, nil
}

// planned is an input loaded for the statuses of ladder graph and ladder
// report, with the prover that planned it from the unit records (nil
// without a cache: then the input was generated whole).
type planned struct {
	*driver.Input
	p *driver.Prover
}

// loadPlanned loads paths as ladder prove does and, with a cache, plans
// them with its unit records (driver.Prover.Plan), so that an unchanged
// unit's statuses are read without building its obligations.
func loadPlanned(paths []string, cfg driver.Config) (*planned, source.ErrorList) {
	var inputs driver.Inputs
	lc := inputs.LoadConfig()
	lc.Library = libraryDirs()
	set, errs := lc.Files(paths...)
	if len(errs) > 0 {
		return nil, errs
	}
	if !cfg.NoCache {
		if p, err := driver.NewProver(cfg); err == nil {
			in, errs := p.Plan(set, inputs.Sums())
			if len(errs) > 0 {
				p.Close()
				return nil, errs
			}
			return &planned{Input: in, p: p}, nil
		}
	}
	in, errs := driver.Generate(set)
	if len(errs) > 0 {
		return nil, errs
	}
	return &planned{Input: in}, nil
}

// prover returns the prover that planned in, or a new one for cfg.
func (in *planned) prover(cfg driver.Config) (*driver.Prover, error) {
	if in.p != nil {
		p := in.p
		in.p = nil
		return p, nil
	}
	return driver.NewProver(cfg)
}
