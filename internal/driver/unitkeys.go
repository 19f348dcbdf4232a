// This file implements the index of the unit records a run read: their
// verdicts by cache key, and the last verdict, core and check of each
// obligation by ID, which the check of an edited obligation starts from.

package driver

import (
	"bytes"
	"path/filepath"
	"sync"

	"ladder/internal/kernel"
	"ladder/internal/safeio"
)

// unitKeys indexes the verdicts of the unit records a run read, current or
// stale, by cache key, so that an obligation whose text a unit record
// holds is decided from it (lookup), as from a cache result: the cache
// snapshot forgets what unit records hold (forgetCovered).
type unitKeys struct {
	loadMu sync.Mutex // held while the records are read (lookupUnits)
	mu     sync.Mutex
	loaded bool                    // every record of the directory was read
	byKey  map[string]unitResult   // cache key → verdict record
	old    map[string][]unitResult // unit → the results of its stale record
	recs   map[string]*unitRecord  // unit → the record read
	prior  map[string]unitResult   // obligation ID → its result in recs; nil until priorResult
}

// reset empties the index; planned says whether Plan fills it.
func (u *unitKeys) reset(planned bool) {
	u.loadMu.Lock()
	defer u.loadMu.Unlock()
	u.mu.Lock()
	defer u.mu.Unlock()
	u.loaded = planned
	u.byKey, u.old, u.recs, u.prior = map[string]unitResult{}, map[string][]unitResult{}, map[string]*unitRecord{}, nil
}

// add indexes the results of rec, the record of unit.
func (u *unitKeys) add(unit string, rec *unitRecord) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byKey == nil {
		u.byKey, u.old, u.recs = map[string]unitResult{}, map[string][]unitResult{}, map[string]*unitRecord{}
	}
	u.recs[unit], u.prior = rec, nil
	for _, r := range rec.Results {
		if r.Key != "" {
			u.byKey[r.Key] = r
		}
		if r.Slice != nil && r.Slice.Key != "" {
			u.byKey[r.Slice.Key] = *r.Slice
		}
		if r.Core != nil && r.Core.Key != "" {
			u.byKey[r.Core.Key] = *r.Core
		}
	}
}

// sliceOf returns the slice proof recorded with the verdict indexed under
// key, nil when none.
func (u *unitKeys) sliceOf(key string) *unitResult { return u.withKey(key).Slice }

// coreOf returns the core recorded with the verdict indexed under key, nil
// when none.
func (u *unitKeys) coreOf(key string) *unitResult { return u.withKey(key).Core }

// withKey returns the result indexed under key; the zero result when none.
func (u *unitKeys) withKey(key string) unitResult {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.byKey[key]
}

// stale records that rec, the record of unit, no longer holds for it.
func (u *unitKeys) stale(unit string, rec *unitRecord) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.old[unit] = rec.Results
}

// priorCore returns the core recorded with the last verdict of the
// obligation id in the unit records read (unitResult.Core), nil when none;
// a core without names records that none was found.
func (u *unitKeys) priorCore(id string) *unitResult {
	r, ok := u.priorResult(id)
	if !ok {
		return nil
	}
	return r.Core
}

// priorResult returns the last verdict of the obligation id in the unit
// records read.
func (u *unitKeys) priorResult(id string) (unitResult, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.prior == nil {
		u.prior = map[string]unitResult{}
		for _, rec := range u.recs {
			if rec.Plan == nil || len(rec.Plan.Obligations) != len(rec.Results) {
				continue
			}
			for i, o := range rec.Plan.Obligations {
				if o.ID >= 0 && o.ID < len(rec.Plan.Strings) {
					u.prior[rec.Plan.Strings[o.ID]] = rec.Results[i]
				}
			}
		}
	}
	r, ok := u.prior[id]
	return r, ok
}

// priorAttempt returns the check that proved the obligation id's text in
// the unit records read (kernel.PriorAttempt), a hint for the check of a
// new text of it; nil when there is none. The records are indexed by
// obligation ID at the first call of a run, which only a run that checks
// an obligation makes.
func (u *unitKeys) priorAttempt(id string) *kernel.Attempt {
	r, ok := u.priorResult(id)
	if !ok {
		return nil
	}
	if a, ok := kernel.PriorAttempt(r.Record); ok {
		return &a
	}
	return nil
}

// get returns the verdict record indexed under key.
func (u *unitKeys) get(key string) (unitResult, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	r, ok := u.byKey[key]
	return r, ok
}

// lookupUnits returns the verdict the unit records hold for key, admitted
// by the kernel against the fresh query q. A run that did not plan (Status)
// reads every unit record once, at its first lookup.
func (p *Prover) lookupUnits(q *kernel.Query, key string) (kernel.Result, bool) {
	// One worker reads the records; the others wait for it.
	p.keys.loadMu.Lock()
	defer p.keys.loadMu.Unlock()
	if !p.keys.loaded {
		p.keys.loaded = true
		files, _ := filepath.Glob(filepath.Join(p.cfg.CacheDir, "units", "*"+unitRecordExt))
		for _, f := range files {
			data, err := safeio.ReadFile(f, maxUnitRecordSize)
			if err != nil {
				continue
			}
			if rec, ok := p.unsealUnit(data); ok {
				p.keys.add(rec.Unit, rec)
			}
		}
	}
	r, ok := p.keys.get(key)
	if !ok || r.Query != q.Fingerprint() {
		return kernel.Result{}, false
	}
	res, err := p.kernel.Admit(q, r.Record)
	if err != nil {
		return kernel.Result{}, false
	}
	return res, true
}

// unsealUnit returns the record of a unit record file whose unit is not
// known beforehand: signed, the name it is bound to is read from the file
// and checked like any other (unsealFile); with a checksum line, which
// binds no name, the payload is decoded only once it matches its checksum.
// Either way the record must name the unit it is bound to.
func (p *Prover) unsealUnit(data []byte) (*unitRecord, bool) {
	name := ""
	if p.sig.on() {
		// header, signature, then "ladder-record-of unit NAME"
		_, rest, _ := bytes.Cut(data, []byte("\n"))
		_, rest, _ = bytes.Cut(rest, []byte("\n"))
		line, _, _ := bytes.Cut(rest, []byte("\n"))
		probe, _ := bytes.CutPrefix(line, []byte("ladder-record-of unit "))
		name = string(probe)
	}
	payload, ok := p.unsealFile("unit "+name, data)
	if !ok {
		return nil, false
	}
	rec, ok := decodeUnitPayload(payload)
	if !ok || p.sig.on() && rec.Unit != name {
		return nil, false
	}
	return rec, true
}
