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
// snapshot forgets what unit records hold (forgetCovered). It also indexes
// them by obligation ID, for the check of an edited obligation.
//
// The index of each unit is kept from one run to the next of the same
// prover, and indexed again only when the unit's record changed: a
// watcher's run reads the same records (recordMemo) and indexes only the
// few written since. A result indexed from an earlier run's record is
// still a verdict for exactly its key's text, which the kernel admits
// against the query (lookupUnits), or a hint (priorAttempt).
type unitKeys struct {
	loadMu sync.Mutex // held while the records are read (lookupUnits)
	mu     sync.Mutex
	loaded bool                    // every record of the directory was read
	byKey  map[string]indexed      // cache key → verdict record
	byID   map[string]indexed      // obligation ID → its result in recs
	old    map[string][]unitResult // unit → the results of its stale record (this run's)
	recs   map[string]*unitRecord  // unit → the record indexed
}

// indexed is a result in the index, with the record that holds it.
type indexed struct {
	rec *unitRecord
	r   *unitResult
}

// reset starts a run; planned says whether Plan fills the index.
func (u *unitKeys) reset(planned bool) {
	u.loadMu.Lock()
	defer u.loadMu.Unlock()
	u.mu.Lock()
	defer u.mu.Unlock()
	u.loaded = planned
	u.old = map[string][]unitResult{}
}

// add indexes the results of rec, the record of unit, in place of those
// of the record of unit indexed before, unless it is that record.
func (u *unitKeys) add(unit string, rec *unitRecord) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byKey == nil {
		u.byKey, u.byID, u.recs = map[string]indexed{}, map[string]indexed{}, map[string]*unitRecord{}
	}
	prev := u.recs[unit]
	if prev == rec {
		return
	}
	if prev != nil {
		eachKey(prev, func(key string, _ *unitResult) {
			if u.byKey[key].rec == prev {
				delete(u.byKey, key)
			}
		})
		eachID(prev, func(id string, _ *unitResult) {
			if u.byID[id].rec == prev {
				delete(u.byID, id)
			}
		})
	}
	u.recs[unit] = rec
	eachKey(rec, func(key string, r *unitResult) { u.byKey[key] = indexed{rec, r} })
	eachID(rec, func(id string, r *unitResult) { u.byID[id] = indexed{rec, r} })
}

// eachKey calls f with every result of rec that has a key, its slices'
// and cores' included.
func eachKey(rec *unitRecord, f func(key string, r *unitResult)) {
	for i := range rec.Results {
		r := &rec.Results[i]
		if r.Key != "" {
			f(r.Key, r)
		}
		if r.Slice != nil && r.Slice.Key != "" {
			f(r.Slice.Key, r.Slice)
		}
		if r.Core != nil && r.Core.Key != "" {
			f(r.Core.Key, r.Core)
		}
	}
}

// eachID calls f with the ID and result of every obligation of rec.
func eachID(rec *unitRecord, f func(id string, r *unitResult)) {
	if rec.Plan == nil || len(rec.Plan.Obligations) != len(rec.Results) {
		return
	}
	for i, o := range rec.Plan.Obligations {
		if o.ID >= 0 && o.ID < len(rec.Plan.Strings) {
			f(rec.Plan.Strings[o.ID], &rec.Results[i])
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
	if r := u.byKey[key].r; r != nil {
		return *r
	}
	return unitResult{}
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
	r, ok := u.byID[id]
	if !ok {
		return unitResult{}, false
	}
	return *r.r, true
}

// priorAttempt returns the check that proved the obligation id's text in
// the unit records read (kernel.PriorAttempt), a hint for the check of a
// new text of it; nil when there is none.
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
	if !ok {
		return unitResult{}, false
	}
	return *r.r, true
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
