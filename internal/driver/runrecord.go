// This file implements run records: the report of the last complete,
// successful `ladder prove` over the same paths, with everything its load
// read. A later run with the same identity (executable, solver and its
// parameters, working directory, paths, library, flags) whose load would
// read exactly the same bytes — every file, every directory listing, every
// failed read — prints that report again without loading, planning,
// opening the cache or asking the kernel (docs/prove.md, "Run records").
//
// The trust is that of unit records (units.go), one level up: a unit
// record restores a unit's verdicts without printing its obligations
// because generation is a function of the executable and the files' bytes;
// a run's report is a function of the same, and of the verdicts the kernel
// admitted for it. Only reports in which every obligation is discharged are
// recorded: a refuted or unknown verdict is never replayed, so its
// counterexample or dump always comes from a printed query.

package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"ladder/internal/cache"
	"ladder/internal/kernel"
	"ladder/internal/refute"
	"ladder/internal/report"
	"ladder/internal/safeio"
	"ladder/ioa/load"
)

// runRecordFormat is the version of run records; bump it when their
// meaning or encoding changes.
const runRecordFormat = 3

// maxRunRecordSize is the largest run record read; a larger one is
// ignored like a corrupt one.
const maxRunRecordSize = 1 << 30

// runRecordExt ends the name of every run record file, and runReportExt
// that of the report file beside it.
const (
	runRecordExt = ".run"
	runReportExt = ".report"
)

// RunKey is what identifies a run of `ladder prove` besides the content
// of what its load reads and the driver's configuration.
type RunKey struct {
	Dir     string   // the working directory relative paths are read from
	Paths   []string // the paths given to the loader, in order
	Library []string // the loader's library (load.Config.Library)
}

// RunRead is one read of a run's load (Inputs.Reads).
type RunRead struct {
	Name string
	Dir  bool   // a directory listing; else a file's content
	Sum  string // hex SHA-256 of the content or the listing; "" when the read failed
}

// runRecord is the content of a run record file. The report it vouches
// for is stored in one file per part (runReportExt), named by the part's
// Report SHA-256, so that a run whose reads differ stops before reading
// or decoding the reports, which grow with the repository.
type runRecord struct {
	Format   int
	Identity string    // runIdentity of the run
	Reads    []RunRead // the reads in no part (partition.global)
	Parts    []runPart // runparts.go
	Given    []string  // the files the load was given, in order (load.Set.Given)
	// Snapshot is the cache snapshot's size and modification time when
	// the record was written (snapshotStamp): a cache saved, cleared or
	// damaged since then is opened and reported by a full run.
	Snapshot string
}

// runRecordsOn reports whether runs under cfg read and write run records:
// with the cache, without a remote cache (whose records a full run would
// fetch and store), without --dump-smt (which writes every obligation) and
// without --only (a partial run).
func runRecordsOn(cfg Config) bool {
	return !cfg.NoCache && cfg.Remote == nil && cfg.DumpSMT == "" && cfg.Only == ""
}

// runIdentity returns the hex SHA-256 of everything a run's report
// depends on besides what its load reads: the record format, the
// executable, the solver and its parameters, the flags that change what a
// run records, and key.
func runIdentity(exe string, id kernel.Identity, cfg Config, key RunKey) string {
	h := sha256.New()
	fmt.Fprintf(h, "ladder run record %d\nexe %s\nsolver %q %q %q\n", runRecordFormat, exe, id.Name, id.Version, id.Params)
	fmt.Fprintf(h, "no-slices %t\nno-cores %t\n", cfg.Kernel.NoSlices, cfg.NoCores)
	key.write(h)
	return hex.EncodeToString(h.Sum(nil))
}

// write writes k to h, one field a line.
func (k RunKey) write(h io.Writer) {
	fmt.Fprintf(h, "dir %q\n", k.Dir)
	for _, p := range k.Paths {
		fmt.Fprintf(h, "path %q\n", p)
	}
	for _, l := range k.Library {
		fmt.Fprintf(h, "library %q\n", l)
	}
}

// runPath returns the file of the run record for key, with the extension
// ext (runRecordExt, or runReportExt for its report). The name depends on
// the key alone, so that a run under another executable or configuration
// replaces the record instead of adding one; the record's identity says
// which it is.
func runPath(cacheDir string, key RunKey, ext string) string {
	h := sha256.New()
	key.write(h)
	return filepath.Join(cacheDir, "runs", hex.EncodeToString(h.Sum(nil))[:32]+ext)
}

// snapshotStamp returns the size and modification time of the cache
// snapshot in cacheDir and of its log, or "none" for each that is absent.
func snapshotStamp(cacheDir string) string {
	stamp := func(name string) string {
		fi, err := os.Stat(filepath.Join(cacheDir, name))
		if err != nil {
			return "none"
		}
		return strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	}
	s := stamp(cache.SnapshotFile)
	if l := stamp(cache.LogFile); l != "none" {
		s += " log " + l
	}
	return s
}

// Replay is what the run record of a key gives a run (ReplayRun): the
// recorded report when every read of every part gives the same result, or
// else the files of the parts to load again (Stale) and the recorded
// shares of the others, which Merge adds to the report of a run over the
// stale files whose load Fits beside them.
type Replay struct {
	cacheDir string
	key      RunKey
	global   []RunRead
	given    []string
	kept     []runPart
	stale    []string
	files    map[string]bool // the files of the kept parts
	names    map[string]bool // the names the kept parts declare

	whole  *report.Prove   // every part replayed
	shares []*report.Prove // of kept, once decoded (done closed)
	failed bool            // a kept part's report could not be read
	done   chan struct{}
}

// ReplayRun returns what the last run recorded for key under cfg
// (RecordRun) gives this run, or nil: a record intact (its seal or
// signature checks, as a unit record's), of this executable, solver,
// parameters and flags, recorded with the cache snapshot as it is now,
// whose reads in no part (directory listings, failed reads) give the same
// result now. When every part's reads do too and each part has a report,
// the Replay is whole (Report), with the configuration's workers and cache
// directory; otherwise it names the files of the other parts (Stale) and
// reads the kept parts' reports in the background.
func ReplayRun(cfg Config, key RunKey) *Replay {
	if !runRecordsOn(cfg) {
		return nil
	}
	if cfg.CacheDir == "" {
		cfg.CacheDir = DefaultCacheDir
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.NumCPU()
	}
	k, err := kernel.New(cfg.Kernel, "", refute.New())
	if err != nil {
		return nil
	}
	exe := executableHash()
	if exe == "" {
		return nil
	}
	identity := runIdentity(exe, k.Identity(), cfg, key)
	data, err := safeio.ReadFile(runPath(cfg.CacheDir, key, runRecordExt), maxRunRecordSize)
	if err != nil {
		return nil
	}
	sig := signing{signer: cfg.Signer, verifier: cfg.Verifier}
	payload, ok := unseal(&sig, "run "+identity, data)
	if !ok {
		return nil
	}
	var rec runRecord
	if gob.NewDecoder(bytes.NewReader(payload)).Decode(&rec) != nil ||
		rec.Format != runRecordFormat || rec.Identity != identity ||
		rec.Snapshot != snapshotStamp(cfg.CacheDir) || !sameReads(rec.Reads) {
		return nil
	}
	r := &Replay{cacheDir: cfg.CacheDir, key: key, global: rec.Reads, given: rec.Given, files: map[string]bool{}, names: map[string]bool{}}
	given := map[string]bool{}
	for _, g := range rec.Given {
		given[g] = true
	}
	stale := map[string]bool{}
	same := partsHold(rec.Parts)
	for i, part := range rec.Parts {
		if part.Report == "" || !same[i] {
			// The part's given files are loaded again; they load the
			// others as they refer to them.
			n := len(stale)
			for _, rd := range part.Reads {
				if given[rd.Name] {
					stale[rd.Name] = true
				}
			}
			if len(stale) == n {
				return nil
			}
			continue
		}
		r.kept = append(r.kept, part)
		for _, rd := range part.Reads {
			r.files[rd.Name] = true
		}
		for _, n := range part.Names {
			r.names[n] = true
		}
	}
	if len(r.kept) == 0 {
		return nil
	}
	for _, g := range rec.Given {
		if stale[g] {
			r.stale = append(r.stale, g)
		}
	}
	if len(r.stale) == 0 {
		shares, ok := r.read()
		if !ok {
			return nil
		}
		r.whole = mergeReports(nil, shares)
		r.whole.Solver.Workers = cfg.Jobs
		r.whole.Solver.Cache = cfg.CacheDir
		return r
	}
	r.done = make(chan struct{})
	go func() {
		defer close(r.done)
		shares, ok := r.read()
		r.shares, r.failed = shares, !ok
	}()
	return r
}

// partsHold reports for each part whether its reads give the same result
// now (sameReads), the parts shared out among as many goroutines as there
// are CPUs: most of a record's reads are its parts' files.
func partsHold(parts []runPart) []bool {
	same := make([]bool, len(parts))
	next := make(chan int, len(parts))
	for k := range parts {
		next <- k
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(parts)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				same[k] = sameReads(parts[k].Reads)
			}
		}()
	}
	wg.Wait()
	return same
}

// read reads and decodes the report of every kept part; false when one is
// missing, is not the one recorded (its SHA-256), or does not decode.
func (r *Replay) read() ([]*report.Prove, bool) {
	shares := make([]*report.Prove, len(r.kept))
	for i, part := range r.kept {
		data, err := safeio.ReadFile(partReportPath(r.cacheDir, r.key, part.Report), maxRunRecordSize)
		if err != nil {
			return nil, false
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != part.Report {
			return nil, false
		}
		var ok bool
		if shares[i], ok = decodeRunReport(data); !ok {
			return nil, false
		}
	}
	return shares, true
}

// Report returns the recorded report when every part was replayed; its
// Seconds are left for the caller to set.
func (r *Replay) Report() (*report.Prove, bool) { return r.whole, r.whole != nil }

// Stale returns the given files of the parts whose reads changed or that
// have no report, in the order the run that recorded them was given them:
// the paths a run loads instead of the whole key's.
func (r *Replay) Stale() []string { return r.stale }

// Fits reports whether in, loaded from the stale files with reads, is
// closed beside the kept parts, so that the run over them all would load
// the kept parts as they were and in as it is: the load read no file of a
// kept part, and no directory listing or failed read of it disagrees with
// the record's; no automaton, interface, edge or proof of in has a name a
// kept part declares or resolves from the library; and every theorem a
// proof of in expects is about automata of in.
func (r *Replay) Fits(in *Input, reads []RunRead) bool {
	type read struct {
		name string
		dir  bool
	}
	global := map[read]string{}
	for _, rd := range r.global {
		global[read{rd.Name, rd.Dir}] = rd.Sum
	}
	for _, rd := range reads {
		if r.files[rd.Name] {
			return false
		}
		if sum, ok := global[read{rd.Name, rd.Dir}]; ok && sum != rd.Sum {
			return false
		}
	}
	autos := map[string]bool{}
	for _, d := range decls(in) {
		if r.names[d.name] {
			return false
		}
		if d.kind == declAutomaton {
			autos[d.name] = true
		}
	}
	for _, p := range in.Proofs {
		for _, c := range p.Theorems {
			if !autos[c.Subject] || !autos[c.Object] {
				return false
			}
		}
	}
	return true
}

// Merge returns the report of the whole run: rep, the report of the run
// over the stale files, with the kept parts' shares; false when a kept
// part's report could not be read, and the caller must run in full.
func (r *Replay) Merge(rep *report.Prove) (*report.Prove, bool) {
	<-r.done
	if r.failed {
		return nil, false
	}
	return mergeReports(rep, r.shares), true
}

// sameReads reports whether every read gives the same result now: a file
// read as the loader reads it (load.ReadFile) with the same content, a
// directory listed with the same entries, a failed read failing again.
func sameReads(reads []RunRead) bool {
	for _, r := range reads {
		sum := ""
		if r.Dir {
			if entries, err := os.ReadDir(r.Name); err == nil {
				sum = listingSum(entries)
			}
		} else if data, err := load.ReadFile(r.Name); err == nil {
			s := sha256.Sum256(data)
			sum = hex.EncodeToString(s[:])
		}
		if sum != r.Sum {
			return false
		}
	}
	return true
}

// partReportPath returns the report file of a part of key's run record
// whose report has the hex SHA-256 sum.
func partReportPath(cacheDir string, key RunKey, sum string) string {
	return runPath(cacheDir, key, "."+sum[:32]+runReportExt)
}

// RecordRun writes the run record of a run for key whose load made reads
// into in and whose report is rep, under a configuration with run records
// (runRecordsOn). The reads are split into parts (partitionOf); each part
// whose share of rep is discharged, in a report without errors, gets its
// share written as its report. With r, the run loaded r's stale files
// beside its kept parts (Replay.Fits), which the record keeps as they
// were. Call it after Close, so that the record names the cache snapshot
// as the run left it. A record that cannot be written costs only the
// replay: it is a warning.
func (p *Prover) RecordRun(key RunKey, reads []RunRead, in *Input, rep *report.Prove, r *Replay) {
	if !runRecordsOn(p.cfg) || len(reads) == 0 {
		return
	}
	exe := p.executableHash()
	if exe == "" {
		return
	}
	identity := runIdentity(exe, p.kernel.Identity(), p.cfg, key)
	dir := filepath.Join(p.cfg.CacheDir, "runs")
	removeStaleTemps(dir)
	rec := runRecord{Format: runRecordFormat, Identity: identity}
	var shares []*report.Prove
	pt, ok := partitionOf(in, reads)
	if ok {
		shares, ok = pt.split(rep)
	}
	if !ok {
		// one part: the whole report, when it may be recorded at all;
		// with its names, since parts of r may be kept beside it
		pt = onePart(in, reads)
		shares = []*report.Prove{rep}
		if len(rep.Errors) > 0 {
			shares[0] = nil
		}
	}
	rec.Reads, rec.Given = pt.global, in.Given
	var err error
	for k, files := range pt.parts {
		part := runPart{Reads: files, Names: pt.names[k]}
		// only a share whose every obligation is discharged: a refuted or
		// unknown verdict is never replayed
		if s := shares[k]; s != nil && s.Summary.Proved+s.Summary.Trivial == s.Summary.Obligations {
			data, encoded := encodeRunReport(s)
			if encoded {
				sum := sha256.Sum256(data)
				part.Report = hex.EncodeToString(sum[:])
				if err == nil {
					err = writeAtomic(partReportPath(p.cfg.CacheDir, key, part.Report), data)
				}
			}
		}
		rec.Parts = append(rec.Parts, part)
	}
	if r != nil {
		rec.Reads = mergeReads(r.global, rec.Reads)
		rec.Parts = append(rec.Parts, r.kept...)
		rec.Given = r.given
	}
	rec.Snapshot = snapshotStamp(p.cfg.CacheDir)
	// The reports first: a record names only reports written before it.
	var b bytes.Buffer
	if err == nil {
		err = gob.NewEncoder(&b).Encode(&rec)
	}
	if err == nil {
		err = writeAtomic(runPath(p.cfg.CacheDir, key, runRecordExt), p.sealFile("run "+identity, b.Bytes()))
	}
	if err != nil {
		p.warn("cache: run record not written: " + err.Error())
		return
	}
	removeUnnamedReports(p.cfg.CacheDir, key, rec.Parts)
}

// mergeReads returns the reads of a and b, sorted by name, each once.
func mergeReads(a, b []RunRead) []RunRead {
	seen := map[RunRead]bool{}
	var out []RunRead
	for _, rd := range append(slices.Clone(a), b...) {
		if !seen[rd] {
			seen[rd] = true
			out = append(out, rd)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// removeUnnamedReports deletes the part reports of key's run record that
// none of parts names: those of parts since changed.
func removeUnnamedReports(cacheDir string, key RunKey, parts []runPart) {
	named := map[string]bool{}
	for _, part := range parts {
		if part.Report != "" {
			named[filepath.Base(partReportPath(cacheDir, key, part.Report))] = true
		}
	}
	prefix := filepath.Base(runPath(cacheDir, key, ""))
	files, err := filepath.Glob(filepath.Join(cacheDir, "runs", prefix+"*"+runReportExt))
	if err != nil {
		return
	}
	for _, f := range files { // the whole report of a format 1 record too
		if !named[filepath.Base(f)] {
			os.Remove(f)
		}
	}
}

// writeAtomic writes data to path through a temporary file renamed over
// it, creating path's directory.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+tempMark+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// runReport is the content of a run record's report file: the report
// without its obligations, and the obligations by column, each string
// once (an edge's obligations share their group, file and verdict), which
// encoding/gob writes and reads several times faster than a slice of
// structures. The distinct strings are one string, cut at Ends, so that
// decoding them allocates once, not once per obligation.
type runReport struct {
	Report  *report.Prove // without Obligations
	Strings string        // the distinct strings of the columns, one after the other
	Ends    []int32       // where each distinct string ends in Strings
	// Columns of string fields, as indices into Strings: ID, Group, Pos,
	// Verdict and Reason of each obligation in turn.
	Text   []int32
	RLimit []uint64
	Slice  []int32
}

// obligationText are the string fields of an obligation in runReport.Text,
// per obligation.
const obligationText = 5

// encodeRunReport returns the content of the report file of rep, a
// report in which every obligation is discharged (report.Prove.OK): rep as
// a run that takes every verdict from the cache prints it (every
// obligation cached, with no time spent on it, as decodeRunReport restores
// it; nothing built; nothing changed since the last run; no warnings).
// false when an obligation has what a replayed report never shows (a
// counterexample, a dump), or the encoding fails.
func encodeRunReport(rep *report.Prove) ([]byte, bool) {
	head := *rep
	head.Obligations = nil
	s := &head.Summary
	s.Reused, s.Rechecked = s.Reused+s.Rechecked, 0
	s.Built, s.Seconds, s.SolverSeconds, s.Z3Seconds = 0, 0, 0, 0
	head.Changes = &report.Changes{Items: []report.ItemChange{}, Obligations: []string{},
		Invariants: []string{}, Edges: []string{}, Theorems: []string{}}
	head.Warnings = nil
	rr := runReport{Report: &head,
		Text:   make([]int32, 0, obligationText*len(rep.Obligations)),
		RLimit: make([]uint64, len(rep.Obligations)),
		Slice:  make([]int32, len(rep.Obligations))}
	index := map[string]int32{}
	var all strings.Builder
	str := func(s string) int32 {
		i, ok := index[s]
		if !ok {
			i = int32(len(rr.Ends))
			all.WriteString(s)
			rr.Ends = append(rr.Ends, int32(all.Len()))
			index[s] = i
		}
		return i
	}
	for i, o := range rep.Obligations {
		if o.Counterexample != nil || o.Dump != "" {
			return nil, false
		}
		rr.Text = append(rr.Text, str(o.ID), str(o.Group), str(o.Pos), str(o.Verdict), str(o.Reason))
		rr.RLimit[i], rr.Slice[i] = o.RLimitUsed, int32(o.Slice)
	}
	if all.Len() > maxRunRecordSize {
		return nil, false
	}
	rr.Strings = all.String()
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(&rr); err != nil {
		return nil, false
	}
	return b.Bytes(), true
}

// decodeRunReport decodes the content of a report file
// (encodeRunReport); false when it is not one.
func decodeRunReport(data []byte) (*report.Prove, bool) {
	var rr runReport
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&rr); err != nil || rr.Report == nil {
		return nil, false
	}
	n := len(rr.RLimit)
	if len(rr.Slice) != n || len(rr.Text) != obligationText*n {
		return nil, false
	}
	strs := make([]string, len(rr.Ends))
	start := int32(0)
	for k, end := range rr.Ends {
		if end < start || int(end) > len(rr.Strings) {
			return nil, false
		}
		strs[k], start = rr.Strings[start:end], end
	}
	for _, i := range rr.Text {
		if i < 0 || int(i) >= len(strs) {
			return nil, false
		}
	}
	rep := rr.Report
	rep.Obligations = make([]report.Obligation, n)
	for i := range rep.Obligations {
		t := rr.Text[obligationText*i:]
		rep.Obligations[i] = report.Obligation{ID: strs[t[0]], Group: strs[t[1]],
			Pos: strs[t[2]], Verdict: strs[t[3]], Reason: strs[t[4]],
			RLimitUsed: rr.RLimit[i], Cached: true, Slice: int(rr.Slice[i])}
	}
	return rep, true
}
