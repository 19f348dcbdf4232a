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
	return c.forget(tableRows{tableResults, keys}, tableRows{tableDeps, names})
}

// ForgetGroups deletes the records of the edges (and invariant groups)
// and theorems named, those that exist, and returns how many rows it
// deleted. ladder's driver forgets the groups a unit record holds: their
// obligations are in the record's plan.
func (c *Cache) ForgetGroups(edges, theorems []string) (int, error) {
	return c.forget(tableRows{tableEdges, edges}, tableRows{tableTheorems, theorems})
}

// tableRows names rows of a table by their id.
type tableRows struct {
	table string
	ids   []string
}

// forget deletes the rows named, those that exist, in one transaction,
// and returns how many it deleted.
func (c *Cache) forget(rows ...tableRows) (int, error) {
	if c.closed.Load() {
		return 0, ErrClosed
	}
	txn := c.write()
	n := 0
	for _, r := range rows {
		for _, id := range r.ids {
			raw, err := txn.First(r.table, indexID, id)
			if err != nil || raw == nil {
				continue
			}
			if err := txn.Delete(r.table, raw); err != nil {
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
	c.commit(txn)
	return n, nil
}
