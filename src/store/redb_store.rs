//! [`RedbStore`]: the [`NodeStore`] in a redb database file (the store's default).
//!
//! One redb table per [`Column`], byte keys to byte values. A [`WriteBatch`] is one redb write
//! transaction: with [`Durability::Immediate`] committed with redb's `Durability::Immediate`
//! (fsync'ed when `write` returns; a crash at any point leaves the previous durable commit or
//! this one), with [`Durability::Deferred`] with redb's `Durability::None` (visible at once,
//! made durable by the next immediate commit; a crash rolls back to the last durable one).
//! Readers are redb read transactions: they see the last commit made before they began and
//! never wait for a writer (redb's copy-on-write pages).

use super::error::StoreError;
use super::kv::{Column, Durability, NodeStore, StoreReader, WriteBatch};
use redb::{Database, ReadOnlyTable, ReadableDatabase, TableDefinition};
use std::path::Path;

type Table = TableDefinition<'static, &'static [u8], &'static [u8]>;

const fn table(column: Column) -> Table {
    TableDefinition::new(column.name())
}

/// A [`NodeStore`] in a redb file (see the module docs).
#[derive(Debug)]
pub struct RedbStore {
    db: Database,
}

impl RedbStore {
    /// Opens the database file at `path`, creating it (and its tables) if it does not exist.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{RedbStore, StateDiff, Store};
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("state.redb");
    /// let store = Store::with_store(RedbStore::open(&path).unwrap()); // every commit synced
    /// store.commit(0, &StateDiff::default(), StateRootRule::From0_14_0).unwrap();
    /// drop(store);
    /// let reopened = Store::with_store(RedbStore::open(&path).unwrap());
    /// assert_eq!(reopened.latest().unwrap().unwrap().block_number, 0);
    /// assert!(RedbStore::open(dir.path()).is_err()); // a directory, not a database file
    /// ```
    ///
    /// # Errors
    /// [`StoreError::Database`] if the file cannot be opened or created, is not a redb
    /// database, or is open in another process.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let path = path.as_ref();
        let db = Database::builder()
            .create(path)
            .map_err(|e| StoreError::Database(format!("{}: {e}", path.display())))?;
        let txn = db.begin_write()?;
        for column in Column::ALL {
            txn.open_table(table(column))?;
        }
        txn.commit()?;
        Ok(RedbStore { db })
    }
}

/// A snapshot of a [`RedbStore`]: a redb read transaction with every table open.
pub struct RedbReader {
    tables: Vec<ReadOnlyTable<&'static [u8], &'static [u8]>>,
}

impl StoreReader for RedbReader {
    fn get(&self, column: Column, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.tables[column.index()]
            .get(key)?
            .map(|v| v.value().to_vec()))
    }

    fn scan(
        &self,
        column: Column,
        prefix: &[u8],
        f: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StoreError> {
        for item in self.tables[column.index()].range(prefix..)? {
            let (k, v) = item?;
            if !k.value().starts_with(prefix) || !f(k.value(), v.value()) {
                break;
            }
        }
        Ok(())
    }
}

impl NodeStore for RedbStore {
    type Reader<'a> = RedbReader;

    fn reader(&self) -> Result<RedbReader, StoreError> {
        let txn = self.db.begin_read()?;
        let mut tables = Vec::with_capacity(Column::ALL.len());
        for column in Column::ALL {
            tables.push(txn.open_table(table(column))?);
        }
        Ok(RedbReader { tables })
    }

    fn write(&self, batch: &WriteBatch, durability: Durability) -> Result<(), StoreError> {
        let mut txn = self.db.begin_write()?;
        if durability == Durability::Deferred {
            txn.set_durability(redb::Durability::None)
                .map_err(|e| StoreError::Database(e.to_string()))?;
        }
        for (column, ops) in batch.columns() {
            if ops.is_empty() {
                continue;
            }
            let mut t = txn.open_table(table(column))?;
            for (key, op) in ops {
                match op {
                    Some(value) => {
                        t.insert(key.as_slice(), value.as_slice())?;
                    }
                    None => {
                        t.remove(key.as_slice())?;
                    }
                }
            }
        }
        // Dropping an uncommitted transaction (an error above) aborts it: nothing is written.
        txn.commit()?;
        Ok(())
    }

    /// An empty transaction committed with redb's `Durability::Immediate`.
    fn flush(&self) -> Result<(), StoreError> {
        self.db.begin_write()?.commit()?;
        Ok(())
    }
}
