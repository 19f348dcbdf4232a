package cache

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// ItemFingerprints returns the fingerprints recorded for the items of
// owner ("automaton:A", "proof:P"), by item, without the items recorded as
// removed; recorded reports whether anything, a removal included, was ever
// recorded for owner.
func (c *Cache) ItemFingerprints(owner string) (items map[string]string, recorded bool) {
	items = map[string]string{}
	if owner == "" || strings.IndexByte(owner, 0) >= 0 {
		return items, false
	}
	it, err := c.db.Txn(false).Get(tableItems, indexOwner, owner)
	if err != nil {
		return items, false
	}
	for o := it.Next(); o != nil; o = it.Next() {
		r := o.(*itemRow)
		recorded = true
		if r.Fingerprint != "" {
			items[r.Item] = r.Fingerprint
		}
	}
	return items, recorded
}

// RecordItems records fingerprints as the current items of owner: every
// item of fingerprints gets its fingerprint, and every item recorded for
// owner before that fingerprints lacks is recorded as removed. Each item
// must belong to owner (its name starts with owner + "/") and each
// fingerprint must be a lowercase hex SHA-256. Rows that do not change are
// not rewritten, so recording the same items again leaves the snapshot
// alone.
func (c *Cache) RecordItems(owner string, fingerprints map[string]string) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if err := validName("owner", owner); err != nil {
		return err
	}
	names := make([]string, 0, len(fingerprints))
	for item, fp := range fingerprints {
		if err := validItem(owner, item); err != nil {
			return err
		}
		if !validKey(fp) {
			return fmt.Errorf("cache: malformed fingerprint %q of %s", fp, item)
		}
		names = append(names, item)
	}
	sort.Strings(names)
	now := time.Now().Round(0)
	txn := c.write()
	changed := false
	put := func(item, fp string) error {
		if raw, err := txn.First(tableItems, indexID, item); err == nil && raw != nil {
			if old := raw.(*itemRow); old.Owner == owner && old.Fingerprint == fp {
				return nil
			}
		}
		changed = true
		return txn.Insert(tableItems, &itemRow{Item: item, Owner: owner, Fingerprint: fp, Date: now})
	}
	for _, item := range names {
		if err := put(item, fingerprints[item]); err != nil {
			txn.Abort()
			return fmt.Errorf("cache: insert into %s: %w", tableItems, err)
		}
	}
	it, err := txn.Get(tableItems, indexOwner, owner)
	if err != nil {
		txn.Abort()
		return fmt.Errorf("cache: %s: %w", tableItems, err)
	}
	var gone []string
	for o := it.Next(); o != nil; o = it.Next() {
		r := o.(*itemRow)
		if _, ok := fingerprints[r.Item]; !ok && r.Fingerprint != "" {
			gone = append(gone, r.Item)
		}
	}
	for _, item := range gone {
		if err := put(item, ""); err != nil {
			txn.Abort()
			return fmt.Errorf("cache: insert into %s: %w", tableItems, err)
		}
	}
	if !changed {
		txn.Abort()
		return nil
	}
	c.commit(txn)
	return nil
}

// validItem checks that item is a well-formed name of an item of owner.
func validItem(owner, item string) error {
	if err := validName("item", item); err != nil {
		return err
	}
	if !strings.HasPrefix(item, owner+"/") || len(item) == len(owner)+1 {
		return fmt.Errorf("cache: item %q does not belong to %q", item, owner)
	}
	return nil
}
