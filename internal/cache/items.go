package cache

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// ItemFingerprints returns the fingerprints recorded for the items of
// owner ("automaton:A", "proof:P"), by item; recorded reports whether
// anything, an owner without items included, was ever recorded for owner.
func (c *Cache) ItemFingerprints(owner string) (items map[string]string, recorded bool) {
	items = map[string]string{}
	if owner == "" || strings.IndexByte(owner, 0) >= 0 {
		return items, false
	}
	raw, err := c.db.Txn(false).First(tableItems, indexID, owner)
	if err != nil || raw == nil {
		return items, false
	}
	r := raw.(*itemsRow)
	for i, item := range r.Items {
		items[item] = r.Fingerprints[i]
	}
	return items, true
}

// RecordItems records fingerprints as the current items of owner, in place
// of those recorded before: an item recorded before that fingerprints
// lacks is no longer an item of owner. Each item must belong to owner (its
// name starts with owner + "/") and each fingerprint must be a lowercase
// hex SHA-256. Recording the same items again leaves the snapshot alone.
func (c *Cache) RecordItems(owner string, fingerprints map[string]string) error {
	if c.closed.Load() {
		return ErrClosed
	}
	row := &itemsRow{Owner: owner, Items: make([]string, 0, len(fingerprints)), Fingerprints: make([]string, 0, len(fingerprints))}
	for item := range fingerprints {
		row.Items = append(row.Items, item)
	}
	sort.Strings(row.Items)
	for _, item := range row.Items {
		row.Fingerprints = append(row.Fingerprints, fingerprints[item])
	}
	if err := validItems(row); err != nil {
		return err
	}
	txn := c.write()
	if raw, err := txn.First(tableItems, indexID, owner); err == nil && raw != nil {
		if old := raw.(*itemsRow); slices.Equal(old.Items, row.Items) && slices.Equal(old.Fingerprints, row.Fingerprints) {
			txn.Abort()
			return nil
		}
	}
	row.Date = time.Now().Round(0)
	if err := txn.Insert(tableItems, row); err != nil {
		txn.Abort()
		return fmt.Errorf("cache: insert into %s: %w", tableItems, err)
	}
	c.commit(txn)
	return nil
}

// validItems checks that r is a well-formed record of an owner's items:
// a valid owner, its items sorted, each once and of that owner, each
// with a lowercase hex SHA-256.
func validItems(r *itemsRow) error {
	if err := validName("owner", r.Owner); err != nil {
		return err
	}
	if len(r.Fingerprints) != len(r.Items) {
		return fmt.Errorf("cache: %d items of %s with %d fingerprints", len(r.Items), r.Owner, len(r.Fingerprints))
	}
	for i, item := range r.Items {
		if err := validItem(r.Owner, item); err != nil {
			return err
		}
		if i > 0 && r.Items[i-1] >= item {
			return fmt.Errorf("cache: items of %s not sorted, or repeated, at %q", r.Owner, item)
		}
		if !validKey(r.Fingerprints[i]) {
			return fmt.Errorf("cache: malformed fingerprint %q of %s", r.Fingerprints[i], item)
		}
	}
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
