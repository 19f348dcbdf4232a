// This file implements Forget: dropping the rows another record holds.

package cache

// Has reports whether a result is stored under key, without copying it.
func (c *Cache) Has(key string) bool {
	if c.closed.Load() {
		return false
	}
	raw, err := c.db.Txn(false).First(tableResults, indexID, key)
	return err == nil && raw != nil && raw.(*resultRow).Key == key
}

// Forget deletes the results stored under keys and the dependency records
// of the obligations names, those that exist, and returns how many rows it
// deleted. ladder's driver forgets what a unit record holds, so that the
// snapshot keeps only what no such record does and its cost follows that.
// Forgetting only ever costs reuse.
func (c *Cache) Forget(keys, names []string) (int, error) {
	if c.closed.Load() {
		return 0, ErrClosed
	}
	txn := c.db.Txn(true)
	n := 0
	for _, k := range keys {
		raw, err := txn.First(tableResults, indexID, k)
		if err != nil || raw == nil {
			continue
		}
		if err := txn.Delete(tableResults, raw); err != nil {
			txn.Abort()
			return 0, err
		}
		n++
	}
	for _, name := range names {
		raw, err := txn.First(tableDeps, indexID, name)
		if err != nil || raw == nil {
			continue
		}
		if err := txn.Delete(tableDeps, raw); err != nil {
			txn.Abort()
			return 0, err
		}
		n++
	}
	if n == 0 {
		txn.Abort()
		return 0, nil
	}
	txn.Commit()
	c.dirty.Store(true)
	return n, nil
}

// ForgetGroups deletes the records of the edges (and invariant groups)
// and theorems named, those that exist, and returns how many rows it
// deleted. ladder's driver forgets the groups a unit record holds: their
// obligations are in the record's plan.
func (c *Cache) ForgetGroups(edges, theorems []string) (int, error) {
	if c.closed.Load() {
		return 0, ErrClosed
	}
	txn := c.db.Txn(true)
	n := 0
	for _, del := range []struct {
		table string
		names []string
	}{{tableEdges, edges}, {tableTheorems, theorems}} {
		for _, name := range del.names {
			raw, err := txn.First(del.table, indexID, name)
			if err != nil || raw == nil {
				continue
			}
			if err := txn.Delete(del.table, raw); err != nil {
				txn.Abort()
				return 0, err
			}
			n++
		}
	}
	if n == 0 {
		txn.Abort()
		return 0, nil
	}
	txn.Commit()
	c.dirty.Store(true)
	return n, nil
}
