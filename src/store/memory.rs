//! [`MemoryStore`]: the [`NodeStore`] in memory, for tests, benchmarks and short-lived tools.

use super::error::StoreError;
use super::kv::{Column, Durability, NodeStore, StoreReader, WriteBatch};
use std::collections::BTreeMap;
use std::sync::{RwLock, RwLockReadGuard};

type Tables = [BTreeMap<Vec<u8>, Vec<u8>>; Column::ALL.len()];

/// A [`NodeStore`] held in memory: one ordered map per column behind a read-write lock.
///
/// A reader holds the lock's read side, so a batch waits for the readers open when it
/// arrives and is applied whole under the write side: readers see the state before a batch or
/// after it. Nothing survives the process.
#[derive(Debug, Default)]
pub struct MemoryStore {
    tables: RwLock<Tables>,
}

impl MemoryStore {
    /// An empty store.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{Column, MemoryStore, StateDiff, Store};
    /// let db = MemoryStore::new();
    /// assert!(Column::ALL.iter().all(|&c| db.len(c) == 0));
    /// let store = Store::with_store(db);
    /// store.commit(0, &StateDiff::default(), StateRootRule::From0_14_0).unwrap();
    /// assert_eq!(store.database().len(Column::Meta), 1); // the latest block
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of keys in `column`.
    ///
    /// ```
    /// use starkbatch::store::{Column, Durability, MemoryStore, NodeStore, WriteBatch};
    /// let db = MemoryStore::new();
    /// let mut batch = WriteBatch::new();
    /// batch.put(Column::Classes, vec![1], vec![2]);
    /// batch.put(Column::Classes, vec![3], vec![4]);
    /// db.write(&batch, Durability::Immediate).unwrap();
    /// assert_eq!((db.len(Column::Classes), db.len(Column::Nodes)), (2, 0));
    /// ```
    pub fn len(&self, column: Column) -> usize {
        self.read().0[column.index()].len()
    }

    fn read(&self) -> MemoryReader<'_> {
        // A panic while holding the lock cannot leave a batch half applied (a batch is applied
        // by infallible map operations), so a poisoned lock still holds a consistent state.
        MemoryReader(self.tables.read().unwrap_or_else(|e| e.into_inner()))
    }
}

/// A snapshot of a [`MemoryStore`] (holds its read lock).
#[derive(Debug)]
pub struct MemoryReader<'a>(RwLockReadGuard<'a, Tables>);

impl StoreReader for MemoryReader<'_> {
    fn get(&self, column: Column, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.0[column.index()].get(key).cloned())
    }

    fn scan(
        &self,
        column: Column,
        prefix: &[u8],
        f: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StoreError> {
        for (k, v) in self.0[column.index()].range(prefix.to_vec()..) {
            if !k.starts_with(prefix) || !f(k, v) {
                break;
            }
        }
        Ok(())
    }
}

impl NodeStore for MemoryStore {
    type Reader<'a> = MemoryReader<'a>;

    fn reader(&self) -> Result<MemoryReader<'_>, StoreError> {
        Ok(self.read())
    }

    fn write(&self, batch: &WriteBatch, _durability: Durability) -> Result<(), StoreError> {
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        for (column, ops) in batch.columns() {
            let table = &mut tables[column.index()];
            for (key, op) in ops {
                match op {
                    Some(value) => {
                        table.insert(key.clone(), value.clone());
                    }
                    None => {
                        table.remove(key);
                    }
                }
            }
        }
        Ok(())
    }

    /// Nothing to do: nothing survives the process anyway.
    fn flush(&self) -> Result<(), StoreError> {
        Ok(())
    }
}
