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
	"strconv"

	"ladder/internal/cache"
	"ladder/internal/kernel"
	"ladder/internal/refute"
	"ladder/internal/report"
	"ladder/internal/safeio"
	"ladder/ioa/load"
)

// runRecordFormat is the version of run records; bump it when their
// meaning or encoding changes.
const runRecordFormat = 1

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
// for is stored beside it, in a file of its own (runReportExt) named by
// the record's Report SHA-256, so that a run whose reads differ stops
// before reading or decoding the report, which grows with the
// repository.
type runRecord struct {
	Format   int
	Identity string // runIdentity of the run
	Reads    []RunRead
	// Snapshot is the cache snapshot's size and modification time when
	// the record was written (snapshotStamp): a cache saved, cleared or
	// damaged since then is opened and reported by a full run.
	Snapshot string
	// Report is the hex SHA-256 of the report file's content: the report
	// as a run that reuses every verdict prints it (encodeRunReport).
	Report string
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

// ReplayRun returns the report of the last run recorded for key under cfg
// (RecordRun), with the configuration's workers and cache directory, when
// there is one: intact (its seal or signature checks, as a unit record's),
// of this executable, solver, parameters and flags, recorded with the
// cache snapshot as it is now, and for which every read of its load gives
// the same result now. Its Seconds are left for the caller to set. Any
// other case gives false, and the caller runs in full.
func ReplayRun(cfg Config, key RunKey) (*report.Prove, bool) {
	if !runRecordsOn(cfg) {
		return nil, false
	}
	if cfg.CacheDir == "" {
		cfg.CacheDir = DefaultCacheDir
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.NumCPU()
	}
	k, err := kernel.New(cfg.Kernel, "", refute.New())
	if err != nil {
		return nil, false
	}
	exe := executableHash()
	if exe == "" {
		return nil, false
	}
	identity := runIdentity(exe, k.Identity(), cfg, key)
	data, err := safeio.ReadFile(runPath(cfg.CacheDir, key, runRecordExt), maxRunRecordSize)
	if err != nil {
		return nil, false
	}
	sig := signing{signer: cfg.Signer, verifier: cfg.Verifier}
	payload, ok := unseal(&sig, "run "+identity, data)
	if !ok {
		return nil, false
	}
	var rec runRecord
	if gob.NewDecoder(bytes.NewReader(payload)).Decode(&rec) != nil ||
		rec.Format != runRecordFormat || rec.Identity != identity ||
		rec.Snapshot != snapshotStamp(cfg.CacheDir) || !sameReads(rec.Reads) {
		return nil, false
	}
	data, err = safeio.ReadFile(runPath(cfg.CacheDir, key, runReportExt), maxRunRecordSize)
	if err != nil {
		return nil, false
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != rec.Report {
		return nil, false
	}
	rep, ok := decodeRunReport(data)
	if !ok {
		return nil, false
	}
	rep.Solver.Workers = cfg.Jobs
	rep.Solver.Cache = cfg.CacheDir
	return rep, true
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

// RecordRun writes the run record of a run for key whose load made reads
// and whose report is rep, when rep is one a record may hold: every
// obligation discharged and no error, under a configuration with run
// records (runRecordsOn). Call it after Close, so that the record names
// the cache snapshot as the run left it. A record that cannot be written
// costs only the replay: it is a warning.
func (p *Prover) RecordRun(key RunKey, reads []RunRead, rep *report.Prove) {
	if !runRecordsOn(p.cfg) || !rep.OK() || len(reads) == 0 {
		return
	}
	exe := p.executableHash()
	if exe == "" {
		return
	}
	identity := runIdentity(exe, p.kernel.Identity(), p.cfg, key)
	removeStaleTemps(filepath.Join(p.cfg.CacheDir, "runs"))
	data, ok := encodeRunReport(rep)
	if !ok {
		return // an obligation with what a replay must not show
	}
	sum := sha256.Sum256(data)
	rec := runRecord{Format: runRecordFormat, Identity: identity, Reads: reads,
		Snapshot: snapshotStamp(p.cfg.CacheDir), Report: hex.EncodeToString(sum[:])}
	// The report first: a record names only a report written before it.
	err := writeAtomic(runPath(p.cfg.CacheDir, key, runReportExt), data)
	var b bytes.Buffer
	if err == nil {
		err = gob.NewEncoder(&b).Encode(&rec)
	}
	if err == nil {
		err = writeAtomic(runPath(p.cfg.CacheDir, key, runRecordExt), p.sealFile("run "+identity, b.Bytes()))
	}
	if err != nil {
		p.warn("cache: run record not written: " + err.Error())
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
// structures.
type runReport struct {
	Report  *report.Prove // without Obligations
	Strings []string      // the distinct strings of the columns
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
	str := func(s string) int32 {
		i, ok := index[s]
		if !ok {
			i = int32(len(rr.Strings))
			rr.Strings = append(rr.Strings, s)
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
	for _, i := range rr.Text {
		if i < 0 || int(i) >= len(rr.Strings) {
			return nil, false
		}
	}
	rep := rr.Report
	rep.Obligations = make([]report.Obligation, n)
	for i := range rep.Obligations {
		t := rr.Text[obligationText*i:]
		rep.Obligations[i] = report.Obligation{ID: rr.Strings[t[0]], Group: rr.Strings[t[1]],
			Pos: rr.Strings[t[2]], Verdict: rr.Strings[t[3]], Reason: rr.Strings[t[4]],
			RLimitUsed: rr.RLimit[i], Cached: true, Slice: int(rr.Slice[i])}
	}
	return rep, true
}
