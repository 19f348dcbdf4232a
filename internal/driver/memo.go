// This file implements the run memo: a whole `ladder prove` run that
// changed nothing since the last complete, fully proved run is answered
// from the cache without generating its obligations again.

package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"ladder/internal/cache"
	"ladder/internal/report"
	"ladder/internal/safeio"
	"ladder/ioa/load"
)

// memoFormat is the version of run memo files; bump it when their meaning
// changes.
const memoFormat = 2

// runMemo is the content of a memo file.
type runMemo struct {
	Format      int               `json:"format"`
	Fingerprint string            `json:"fingerprint"`
	Keys        map[string]string `json:"keys"` // obligation ID → cache key
	Report      *report.Prove     `json:"report"`
	// Items and Owners are the run's item fingerprints and the owners
	// they belong to (the automata and proofs it loaded).
	Items  map[string]string `json:"items"`
	Owners []string          `json:"owners"`
}

// Inputs records the bytes of every file a load reads, so that a run's
// fingerprint covers exactly what its obligations were generated from (an
// edit made while a run is under way cannot slip into the fingerprint). The
// zero value is ready to use; it is safe for concurrent use.
type Inputs struct {
	mu   sync.Mutex
	sums map[string][sha256.Size]byte
}

// LoadConfig returns a loader configuration that reads files from disk and
// records them in in.
func (in *Inputs) LoadConfig() load.Config {
	return load.Config{
		ReadFile: func(name string) ([]byte, error) {
			data, err := load.ReadFile(name)
			if err == nil {
				in.mu.Lock()
				if in.sums == nil {
					in.sums = map[string][sha256.Size]byte{}
				}
				in.sums[name] = sha256.Sum256(data)
				in.mu.Unlock()
			}
			return data, err
		},
		ReadDir: os.ReadDir,
	}
}

// Sums returns the hex SHA-256 of every file recorded, by name
// (Input.Sums).
func (in *Inputs) Sums() map[string]string {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make(map[string]string, len(in.sums))
	for name, sum := range in.sums {
		out[name] = hex.EncodeToString(sum[:])
	}
	return out
}

// Fingerprint returns the fingerprint of a run over the files recorded in
// in: the SHA-256 of the running ladder executable (the code that generates
// and prints obligations), the solver identity and configuration, the
// prover's selection, and the name and content hash of every file read.
// Obligation generation is deterministic, so two runs with one fingerprint
// generate the same obligations with the same texts and cache keys. It
// returns "" when the executable cannot be read or no file was recorded
// (the memo is then not used).
func (p *Prover) Fingerprint(in *Inputs) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.sums) == 0 {
		return ""
	}
	exe := p.executableHash()
	if exe == "" {
		return ""
	}
	h := sha256.New()
	field := func(s string) { io.WriteString(h, strconv.Itoa(len(s))+":"+s) }
	field("ladder-run/v" + strconv.Itoa(memoFormat))
	field(exe)
	field(p.solver.String())
	field(p.cfg.Only)
	names := make([]string, 0, len(in.sums))
	for name := range in.sums {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		sum := in.sums[name]
		field(name)
		field(hex.EncodeToString(sum[:]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (p *Prover) memoPath(fp string) string {
	return filepath.Join(p.cfg.CacheDir, "runs", fp+".json")
}

// Replay returns the report of the run with fingerprint fp when a memo of
// it exists, is intact, and the cache still holds a proved verdict under
// every key it lists. Every obligation is then reported as reused. A
// missing, corrupt or stale memo is ignored: the caller proves as usual.
func (p *Prover) Replay(fp string) (*report.Prove, bool) {
	if p.cache == nil || fp == "" || p.cfg.DumpSMT != "" {
		return nil, false
	}
	start := time.Now()
	removeStaleMemoTemps(filepath.Dir(p.memoPath(fp)))
	data, err := safeio.ReadFile(p.memoPath(fp), maxMemoSize)
	if err != nil {
		return nil, false
	}
	payload, ok := p.unsealFile("run "+fp, data)
	if !ok {
		return nil, false
	}
	var m runMemo
	if err := json.Unmarshal(payload, &m); err != nil || m.Format != memoFormat || m.Fingerprint != fp || m.Report == nil || m.Items == nil {
		return nil, false
	}
	rep := m.Report
	if len(m.Keys) != len(rep.Obligations) || !rep.OK() {
		return nil, false
	}
	for i := range rep.Obligations {
		o := &rep.Obligations[i]
		key, ok := m.Keys[o.ID]
		if !ok {
			return nil, false
		}
		r, hit := p.cache.Lookup(key)
		if !hit || r.Verdict != cache.Proved && r.Verdict != cache.Trivial {
			return nil, false
		}
		if _, ok := p.sig.open(key, r.Detail); !ok {
			return nil, false
		}
		o.Cached = true
		o.Seconds, o.SolverSeconds = 0, 0
	}
	rep.Summary.Built = 0
	rep.Summarize()
	// The files are those of the memo's run: compare its items with the
	// last complete run's, and record them as the last complete run's.
	e := p.compareItemsOf(m.Items, m.Owners)
	rep.Changes = e.changes(nil, nil)
	if err := p.recordItemsOf(m.Items, m.Owners); err != nil {
		p.warn("cache: item fingerprints not stored: " + err.Error())
	} else if err := p.cache.Save(); err != nil {
		p.warn(err.Error())
	}
	rep.Summary.SolverSeconds = 0
	rep.Warnings = nil
	rep.Summary.Seconds = time.Since(start).Seconds()
	return rep, true
}

// Remember writes the memo of the run just proved, when it was complete
// (every obligation, no --only), fully proved, and the cache is in use.
// The file is written atomically; failing to write it only costs reuse.
func (p *Prover) Remember(fp string, rep *report.Prove) error {
	if p.cache == nil || fp == "" || p.keys == nil || !rep.OK() || len(p.keys) != len(rep.Obligations) {
		return nil
	}
	payload, err := json.Marshal(runMemo{Format: memoFormat, Fingerprint: fp, Keys: p.keys, Report: rep, Items: p.items, Owners: p.owners})
	if err != nil {
		return fmt.Errorf("run memo: %v", err)
	}
	data := p.sealFile("run "+fp, payload)
	dir := filepath.Dir(p.memoPath(fp))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("run memo: %v", err)
	}
	tmp, err := os.CreateTemp(dir, fp+memoTempMark+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("run memo: %v", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("run memo: %v", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("run memo: %v", err)
	}
	if err := os.Rename(tmp.Name(), p.memoPath(fp)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("run memo: %v", err)
	}
	return nil
}

// maxMemoSize is the largest run memo read; a larger one, or one that is not
// a regular file, is ignored like a corrupt one.
const maxMemoSize = 256 << 20

// memoTempMark is in the name of a memo being written, followed by the
// writer's process id: fp.tmp-PID-random.
const memoTempMark = ".tmp-"

// staleMemoTemp is the age after which a temporary memo whose writer cannot
// be identified is removed.
const staleMemoTemp = time.Hour

// removeStaleMemoTemps deletes the temporary memos in dir left by writers
// that died between create and rename: those whose process is gone, and
// any older than staleMemoTemp.
func removeStaleMemoTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		i := strings.Index(name, memoTempMark)
		if i < 0 || e.IsDir() {
			continue
		}
		rest := name[i+len(memoTempMark):]
		pidText, _, _ := strings.Cut(rest, "-")
		stale := false
		if pid, err := strconv.Atoi(pidText); err == nil && pid > 0 {
			stale = pid != os.Getpid() && !processAlive(pid)
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleMemoTemp {
			stale = true
		}
		if stale {
			os.Remove(filepath.Join(dir, name))
		}
	}
}
