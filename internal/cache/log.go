// This file implements the cache's log: the rows changed since the
// snapshot was written, appended to dir/cache.log by Save instead of
// writing the whole snapshot again.
//
// A log is a sequence of frames, each
//
//	ladder-cache-log <format version> <payload length> <base> <solver>\n
//	<payload: compact JSON>\n
//	sha256:<lowercase hex SHA-256 of payload>\n
//
// where base is the checksum of the snapshot payload the frame extends
// (the hex digits of the snapshot's last line), and the payload holds the
// rows inserted or replaced since the frame before, spelled as in a
// snapshot, and the ids of the rows deleted. Open applies, in order, the
// frames that extend the snapshot it read, and stops at the first frame
// that fails validation (a write cut short by a crash): the rows of the
// frames before it are kept, and the next Save writes the whole snapshot
// again, which removes the log. Frames of another base (left by a writer
// that died after writing a snapshot and before removing the log) are
// never applied. A frame is validated like a snapshot: checksum, header,
// strict JSON decoding and every row's invariants.

package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	memdb "github.com/hashicorp/go-memdb"

	"ladder/internal/safeio"
)

const (
	// LogFile is the name of the log of rows changed since the snapshot
	// (ladder uses .ladder/cache.log).
	LogFile = "cache.log"
	// LogMagic is the first word of every frame of a log.
	LogMagic = "ladder-cache-log"
)

// tables lists the tables in the order snapshots and frames spell them.
var tables = []string{tableResults, tableDeps, tableEdges, tableTheorems, tableItems}

// rowID returns the id of a row of table.
func rowID(row any) string {
	switch r := row.(type) {
	case *resultRow:
		return r.Key
	case *depRow:
		return r.Name
	case *edgeRow:
		return r.Name
	case *theoremRow:
		return r.Name
	case *itemsRow:
		return r.Owner
	}
	return ""
}

// pending holds the rows changed since the cache last wrote them (to the
// snapshot or the log): by table, then id, the row as it is now, or nil
// for a deleted row.
type pending map[string]map[string]any

// note records the changes of a write transaction.
func (p pending) note(changes memdb.Changes) {
	for _, ch := range changes {
		row, id := ch.After, rowID(ch.After)
		if row == nil {
			id = rowID(ch.Before)
		}
		if p[ch.Table] == nil {
			p[ch.Table] = map[string]any{}
		}
		p[ch.Table][id] = row
	}
}

// under returns p with the changes of later over it (later wins).
func (p pending) under(later pending) pending {
	for t, rows := range later {
		if p[t] == nil {
			p[t] = map[string]any{}
		}
		for id, row := range rows {
			p[t][id] = row
		}
	}
	return p
}

// write starts a write transaction whose changes commit records.
func (c *Cache) write() *memdb.Txn {
	txn := c.db.Txn(true)
	txn.TrackChanges()
	return txn
}

// commit commits txn, a transaction of write, and records its changes for
// the next Save.
func (c *Cache) commit(txn *memdb.Txn) {
	c.pendMu.Lock()
	if c.pending == nil {
		c.pending = pending{}
	}
	c.pending.note(txn.Changes())
	txn.Commit()
	c.pendMu.Unlock()
	c.dirty.Store(true)
}

// take returns the changes recorded since the last take, and a read
// transaction that holds them all (and possibly later ones).
func (c *Cache) take() (pending, *memdb.Txn) {
	c.pendMu.Lock()
	defer c.pendMu.Unlock()
	p := c.pending
	c.pending = pending{}
	if p == nil {
		p = pending{}
	}
	return p, c.db.Txn(false)
}

// giveBack puts changes taken by take back, under those recorded since,
// after a Save that did not store them.
func (c *Cache) giveBack(p pending) {
	c.pendMu.Lock()
	c.pending = p.under(c.pending)
	c.pendMu.Unlock()
	c.dirty.Store(true)
}

func (c *Cache) logPath() string { return filepath.Join(c.dir, LogFile) }

// wireDelta is the payload of a frame: the rows changed, spelled as in a
// snapshot, the ids of the rows deleted, and the snapshot extended.
type wireDelta struct {
	wirePayload
	Base    string              `json:"base"`
	Deleted map[string][]string `json:"deleted"`
}

// encodeFrame renders the changes p as a frame extending the snapshot
// whose payload checksum is base.
func encodeFrame(p pending, base, solver string) ([]byte, error) {
	rows := &payload{Format: FormatVersion, Solver: solver,
		Results: []*resultRow{}, Deps: []*depRow{}, Edges: []*edgeRow{}, Theorems: []*theoremRow{}, Items: []*itemsRow{}}
	deleted := map[string][]string{}
	for _, t := range tables {
		ids := make([]string, 0, len(p[t]))
		for id := range p[t] {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			if row := p[t][id]; row != nil {
				rows.add(row)
			} else {
				deleted[t] = append(deleted[t], id)
			}
		}
	}
	body, err := json.Marshal(wireDelta{wirePayload: *rows.wire(), Base: base, Deleted: deleted})
	if err != nil {
		return nil, fmt.Errorf("cache: encode log frame: %w", err)
	}
	return seal(fmt.Sprintf("%s %d %d %s %s", LogMagic, FormatVersion, len(body), base, solver), body), nil
}

// frame is a decoded frame: the rows it inserts or replaces and the ids it
// deletes, by table.
type frame struct {
	rows    *payload
	deleted map[string][]string
}

// decodeFrame parses and validates the frame at the start of data, which
// extends the snapshot of checksum base under solver. It returns the
// frame, its length, and whether it extends that snapshot (other is set
// for a valid frame of another base, which is skipped); a problem means
// the frame, and everything after it, is not to be read.
func decodeFrame(data []byte, base, solver string) (f *frame, n int, other bool, prob *problem) {
	nl := bytes.IndexByte(data[:min(len(data), maxHeaderLen)], '\n')
	if nl < 0 || !bytes.HasPrefix(data, []byte(LogMagic+" ")) {
		return nil, 0, false, corrupt("malformed log frame header")
	}
	fields := splitN(string(data[:nl]), ' ', 5)
	if len(fields) != 5 || fields[1] != strconv.Itoa(FormatVersion) || fields[4] != solver {
		return nil, 0, false, corrupt("log frame of another format or solver")
	}
	length, err := strconv.Atoi(fields[2])
	if err != nil || length < 0 || fields[2] != strconv.Itoa(length) {
		return nil, 0, false, corrupt("malformed log frame length")
	}
	rest := data[nl+1:]
	if len(rest) < length+trailerLen {
		return nil, 0, false, corrupt("truncated log frame")
	}
	body, trailer := rest[:length], rest[length:length+trailerLen]
	sum := sha256.Sum256(body)
	if string(trailer) != "\n"+checksumPrefix+hex.EncodeToString(sum[:])+"\n" {
		return nil, 0, false, corrupt("log frame checksum mismatch")
	}
	n = nl + 1 + length + trailerLen
	if fields[3] != base {
		return nil, n, true, nil
	}
	var w wireDelta
	if err := decodeStrict(body, &w); err != nil {
		return nil, 0, false, corrupt("undecodable log frame: %v", err)
	}
	if w.Format != FormatVersion || w.Solver != solver || w.Base != base {
		return nil, 0, false, corrupt("log frame payload disagrees with its header")
	}
	p, prob := w.unwire()
	if prob != nil {
		return nil, 0, false, prob
	}
	if prob := validatePayload(p); prob != nil {
		return nil, 0, false, prob
	}
	for t, ids := range w.Deleted {
		if !slices.Contains(tables, t) {
			return nil, 0, false, corrupt("log frame deletes from unknown table %q", t)
		}
		for _, id := range ids {
			if validName("row", id) != nil || (t == tableResults && !validKey(id)) {
				return nil, 0, false, corrupt("log frame deletes an invalid id")
			}
		}
	}
	return &frame{rows: p, deleted: w.Deleted}, n, false, nil
}

// readLog reads the log on disk and returns the frames that extend the
// snapshot of checksum base, in order, and whether the log may be
// appended to: it exists only of such frames, all valid, or not at all.
// A warning says why reading stopped early.
func (c *Cache) readLog(base string) (frames []*frame, appendable bool, w *Warning) {
	data, err := safeio.ReadFile(c.logPath(), MaxSnapshotSize)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, true, nil
	case err != nil:
		return nil, false, &Warning{Path: c.logPath(), Kind: Unreadable, Reason: err.Error()}
	}
	appendable = true
	for len(data) > 0 {
		f, n, other, prob := decodeFrame(data, base, c.solverStr)
		if prob != nil {
			return frames, false, &Warning{Path: c.logPath(), Kind: prob.kind, Reason: prob.reason}
		}
		if other {
			appendable = false
		} else {
			frames = append(frames, f)
		}
		data = data[n:]
	}
	return frames, appendable, nil
}

// apply inserts and deletes the rows of frames, in order.
func apply(txn *memdb.Txn, frames []*frame) error {
	for _, f := range frames {
		for _, t := range tables {
			for _, id := range f.deleted[t] {
				raw, err := txn.First(t, indexID, id)
				if err != nil {
					return err
				}
				if raw != nil {
					if err := txn.Delete(t, raw); err != nil {
						return err
					}
				}
			}
		}
		if err := insertPayload(txn, f.rows, false); err != nil {
			return err
		}
	}
	return nil
}

// appendLog appends frame to the log, creating it if need be, and syncs it.
func (c *Cache) appendLog(frame []byte) (err error) {
	path := c.logPath()
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err = f.Write(frame); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && statErr != nil {
		err = syncDir(c.dir) // the log is new: make its name durable
	}
	return err
}

// snapshotSum returns the payload checksum of a valid snapshot file: the
// hex digits of its last line.
func snapshotSum(data []byte) string {
	return string(data[len(data)-1-2*sha256.Size : len(data)-1])
}
