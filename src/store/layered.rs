//! [`LayeredReader`]: a database snapshot with one pending [`WriteBatch`] above it.
//!
//! A store with a block journal writes a block's batch to the database during the next commit
//! (alongside that commit's planning), so for the length of one commit the latest block lives
//! in the journal (durable) and in memory (the batch). Readers and the planner see the
//! database through this layer: a key the batch puts or deletes reads from the batch, any
//! other key from the snapshot. The snapshot and the batch are taken together under one lock
//! (`Store::snapshot`), and the batch is replaced only after it has been written, so the pair
//! always shows one whole block: either the database already holds the batch (the layer then
//! repeats what is below it) or it does not (the layer supplies it).

use super::error::StoreError;
use super::kv::{Column, StoreReader, WriteBatch};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A database snapshot `base` seen through the pending batch `top` (see the module docs).
pub struct LayeredReader<R> {
    pub(crate) base: R,
    pub(crate) top: Option<Arc<WriteBatch>>,
}

impl<R: StoreReader> LayeredReader<R> {
    /// The database snapshot below the pending batch.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Column, Store, StoreReader};
    /// use starkbatch::Felt;
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = Store::open(dir.path()).unwrap(); // with a block journal
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// let (view, key) = (store.view().unwrap(), Felt::from(0x10u64).to_bytes_be());
    /// assert!(view.reader().get(Column::Contracts, &key).unwrap().is_some());
    /// // The block is in the journal; the database gets it at the next commit or checkpoint.
    /// assert!(view.reader().base().get(Column::Contracts, &key).unwrap().is_none());
    /// ```
    pub fn base(&self) -> &R {
        &self.base
    }
}

impl<R: StoreReader> StoreReader for LayeredReader<R> {
    fn get(&self, column: Column, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        if let Some(v) = self.top.as_ref().and_then(|t| t.pending(column, key)) {
            return Ok(v.map(<[u8]>::to_vec));
        }
        self.base.get(column, key)
    }

    fn scan(
        &self,
        column: Column,
        prefix: &[u8],
        f: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StoreError> {
        let Some(top) = &self.top else {
            return self.base.scan(column, prefix, f);
        };
        // Merged in key order: the snapshot's entries, then the batch's puts and deletes.
        let mut merged: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        self.base.scan(column, prefix, &mut |k, v| {
            merged.insert(k.to_vec(), v.to_vec());
            true
        })?;
        for (c, ops) in top.columns() {
            if c != column {
                continue;
            }
            for (k, op) in ops.range(prefix.to_vec()..) {
                if !k.starts_with(prefix) {
                    break;
                }
                match op {
                    Some(v) => merged.insert(k.clone(), v.clone()),
                    None => merged.remove(k),
                };
            }
        }
        for (k, v) in &merged {
            if !f(k, v) {
                break;
            }
        }
        Ok(())
    }
}
