//! [`NodeStore`]: the small key-value interface the state store keeps its data behind.
//!
//! The store needs three things from a database, the ones every embedded database offers:
//! - **columns** (tables) of byte keys to byte values, listed by [`Column`];
//! - **consistent snapshots** ([`NodeStore::reader`]): a reader sees one committed state, however
//!   many writes commit while it reads;
//! - **atomic batches** ([`NodeStore::write`]): every put and delete of a [`WriteBatch`] becomes
//!   visible and durable together, or none does.
//!
//! [`RedbStore`](super::RedbStore) implements it over a redb file (one table per column, one write
//! transaction per batch) and [`MemoryStore`](super::MemoryStore) in memory. A node that keeps its
//! tries in its own database (SQLite, RocksDB, Pebble) implements these three methods over it.
//!
//! The store is the only writer: it serialises its commits, so a batch computed from a snapshot
//! is written before any other batch.

use super::error::StoreError;
use std::collections::BTreeMap;

/// The columns (tables) of the state store. The byte layout of every key and value is in the
/// `store::codec` module docs (`docs/store.md` has the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Column {
    /// The latest block: number, roots, rule and history bounds.
    Meta,
    /// Trie nodes, keyed by trie and path from the root.
    Nodes,
    /// Contract records (class hash, nonce, storage root), keyed by address.
    Contracts,
    /// Compiled class hashes, keyed by class hash.
    Classes,
    /// Per block: its roots and the reverse diff that undoes it.
    History,
}

impl Column {
    /// Every column, in a fixed order.
    pub const ALL: [Column; 5] = [
        Column::Meta,
        Column::Nodes,
        Column::Contracts,
        Column::Classes,
        Column::History,
    ];

    /// A stable name (redb's table names).
    pub const fn name(self) -> &'static str {
        match self {
            Column::Meta => "meta",
            Column::Nodes => "nodes",
            Column::Contracts => "contracts",
            Column::Classes => "classes",
            Column::History => "history",
        }
    }

    /// The position of this column in [`Column::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A set of puts and deletes applied together by [`NodeStore::write`].
///
/// Within a column each key appears once: a later put or delete of the same key replaces the
/// earlier one. [`WriteBatch::columns`] yields the operations sorted by key, which is the
/// order B-trees insert fastest in.
#[derive(Clone, Debug, Default)]
pub struct WriteBatch {
    ops: [BTreeMap<Vec<u8>, Option<Vec<u8>>>; Column::ALL.len()],
}

impl WriteBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `key` to `value` in `column`.
    pub fn put(&mut self, column: Column, key: Vec<u8>, value: Vec<u8>) {
        self.ops[column.index()].insert(key, Some(value));
    }

    /// Removes `key` from `column` (a no-op for a key that is not there).
    pub fn delete(&mut self, column: Column, key: Vec<u8>) {
        self.ops[column.index()].insert(key, None);
    }

    /// The pending operation on `key` in `column`: `Some(Some(v))` a put, `Some(None)` a
    /// delete, `None` untouched by this batch.
    pub fn pending(&self, column: Column, key: &[u8]) -> Option<Option<&[u8]>> {
        self.ops[column.index()]
            .get(key)
            .map(|v| v.as_ref().map(Vec::as_slice))
    }

    /// The number of operations.
    pub fn len(&self) -> usize {
        self.ops.iter().map(BTreeMap::len).sum()
    }

    /// Whether the batch holds no operation.
    pub fn is_empty(&self) -> bool {
        self.ops.iter().all(BTreeMap::is_empty)
    }

    /// Every column with its operations sorted by key (`None`: delete).
    pub fn columns(&self) -> impl Iterator<Item = (Column, &BTreeMap<Vec<u8>, Option<Vec<u8>>>)> {
        Column::ALL.into_iter().map(|c| (c, &self.ops[c.index()]))
    }

    /// Moves every operation of `other` into `self` (`other`'s win on equal keys).
    pub fn append(&mut self, other: WriteBatch) {
        for (mine, theirs) in self.ops.iter_mut().zip(other.ops) {
            mine.extend(theirs);
        }
    }
}

/// A consistent read-only view of a [`NodeStore`] (see the module docs).
pub trait StoreReader: Sync {
    /// The value of `key` in `column`.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the database cannot be read.
    fn get(&self, column: Column, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError>;

    /// Calls `f(key, value)` for every key of `column` that starts with `prefix`, in key order,
    /// until `f` returns `false`.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the database cannot be read.
    fn scan(
        &self,
        column: Column,
        prefix: &[u8],
        f: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StoreError>;
}

/// A database the state store can keep its data in (see the module docs).
pub trait NodeStore: Send + Sync {
    /// A snapshot of the latest committed state.
    type Reader<'a>: StoreReader
    where
        Self: 'a;

    /// A snapshot of the latest committed state; writes committed later are not visible in it.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the database cannot be read.
    fn reader(&self) -> Result<Self::Reader<'_>, StoreError>;

    /// Applies every operation of `batch` atomically: readers see all of it or none of it, and
    /// after a crash the database holds the whole batch or none of it.
    ///
    /// With [`Durability::Immediate`] the batch is on disk when this returns. With
    /// [`Durability::Deferred`] it is visible at once but a crash may lose it (and every
    /// deferred batch after it) until the next [`NodeStore::flush`] or immediate write, which
    /// makes it and every earlier batch durable; the store then keeps its own journal of the
    /// blocks in between.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the batch could not be committed (nothing of it was).
    fn write(&self, batch: &WriteBatch, durability: Durability) -> Result<(), StoreError>;

    /// Makes every deferred write durable.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the database could not be synced.
    fn flush(&self) -> Result<(), StoreError>;
}

/// When a [`WriteBatch`] must be on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Durability {
    /// On disk when [`NodeStore::write`] returns.
    Immediate,
    /// Visible at once, on disk by the next [`NodeStore::flush`] or immediate write.
    Deferred,
}
