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
    ///
    /// ```
    /// use starkbatch::store::Column;
    /// let names: Vec<&str> = Column::ALL.iter().map(|c| c.name()).collect();
    /// assert_eq!(names, ["meta", "nodes", "contracts", "classes", "history"]);
    /// ```
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
    ///
    /// ```
    /// use starkbatch::store::Column;
    /// assert_eq!(Column::Nodes.index(), 1);
    /// assert!(Column::ALL.iter().enumerate().all(|(i, c)| c.index() == i));
    /// ```
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
    ///
    /// ```
    /// use starkbatch::store::WriteBatch;
    /// let batch = WriteBatch::new();
    /// assert!(batch.is_empty());
    /// assert_eq!(batch.len(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `key` to `value` in `column`.
    ///
    /// ```
    /// use starkbatch::store::{Column, WriteBatch};
    /// let mut batch = WriteBatch::new();
    /// batch.put(Column::Meta, b"k".to_vec(), b"one".to_vec());
    /// batch.put(Column::Meta, b"k".to_vec(), b"two".to_vec()); // replaces the first put
    /// assert_eq!(batch.pending(Column::Meta, b"k"), Some(Some(&b"two"[..])));
    /// assert_eq!(batch.len(), 1);
    /// ```
    pub fn put(&mut self, column: Column, key: Vec<u8>, value: Vec<u8>) {
        self.ops[column.index()].insert(key, Some(value));
    }

    /// Removes `key` from `column` (a no-op for a key that is not there).
    ///
    /// ```
    /// use starkbatch::store::{Column, WriteBatch};
    /// let mut batch = WriteBatch::new();
    /// batch.put(Column::Nodes, vec![7], vec![1]);
    /// batch.delete(Column::Nodes, vec![7]); // replaces the put of the same key
    /// assert_eq!(batch.pending(Column::Nodes, &[7]), Some(None));
    /// assert_eq!(batch.len(), 1);
    /// ```
    pub fn delete(&mut self, column: Column, key: Vec<u8>) {
        self.ops[column.index()].insert(key, None);
    }

    /// The pending operation on `key` in `column`: `Some(Some(v))` a put, `Some(None)` a
    /// delete, `None` untouched by this batch.
    ///
    /// ```
    /// use starkbatch::store::{Column, WriteBatch};
    /// let mut batch = WriteBatch::new();
    /// batch.put(Column::Meta, b"a".to_vec(), b"1".to_vec());
    /// batch.delete(Column::Meta, b"b".to_vec());
    /// assert_eq!(batch.pending(Column::Meta, b"a"), Some(Some(&b"1"[..])));
    /// assert_eq!(batch.pending(Column::Meta, b"b"), Some(None));
    /// assert_eq!(batch.pending(Column::Meta, b"c"), None);
    /// assert_eq!(batch.pending(Column::Nodes, b"a"), None); // another column
    /// ```
    pub fn pending(&self, column: Column, key: &[u8]) -> Option<Option<&[u8]>> {
        self.ops[column.index()]
            .get(key)
            .map(|v| v.as_ref().map(Vec::as_slice))
    }

    /// The number of operations.
    ///
    /// ```
    /// use starkbatch::store::{Column, WriteBatch};
    /// let mut batch = WriteBatch::new();
    /// batch.put(Column::Meta, vec![1], vec![]);
    /// batch.put(Column::Nodes, vec![1], vec![]); // the same key in another column
    /// batch.delete(Column::Meta, vec![1]);
    /// assert_eq!(batch.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.ops.iter().map(BTreeMap::len).sum()
    }

    /// Whether the batch holds no operation.
    ///
    /// ```
    /// use starkbatch::store::{Column, WriteBatch};
    /// let mut batch = WriteBatch::new();
    /// assert!(batch.is_empty());
    /// batch.delete(Column::History, vec![0]); // a delete is an operation too
    /// assert!(!batch.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.ops.iter().all(BTreeMap::is_empty)
    }

    /// Every column with its operations sorted by key (`None`: delete).
    ///
    /// ```
    /// use starkbatch::store::{Column, WriteBatch};
    /// let mut batch = WriteBatch::new();
    /// batch.put(Column::Nodes, vec![9], vec![1]);
    /// batch.delete(Column::Nodes, vec![3]);
    /// let (column, ops) = batch.columns().find(|(_, ops)| !ops.is_empty()).unwrap();
    /// assert_eq!(column, Column::Nodes);
    /// assert!(ops.keys().map(|k| k[0]).eq([3, 9])); // sorted by key
    /// assert_eq!(ops[&vec![3u8]], None); // a delete
    /// assert_eq!(ops[&vec![9u8]], Some(vec![1]));
    /// ```
    pub fn columns(&self) -> impl Iterator<Item = (Column, &BTreeMap<Vec<u8>, Option<Vec<u8>>>)> {
        Column::ALL.into_iter().map(|c| (c, &self.ops[c.index()]))
    }

    /// Moves every operation of `other` into `self` (`other`'s win on equal keys).
    ///
    /// ```
    /// use starkbatch::store::{Column, WriteBatch};
    /// let (mut a, mut b) = (WriteBatch::new(), WriteBatch::new());
    /// a.put(Column::Meta, vec![1], vec![1]);
    /// a.put(Column::Meta, vec![2], vec![1]);
    /// b.delete(Column::Meta, vec![2]); // wins over `a`'s put of key 2
    /// a.append(b);
    /// assert_eq!(a.len(), 2);
    /// assert_eq!(a.pending(Column::Meta, &[2]), Some(None));
    /// ```
    pub fn append(&mut self, other: WriteBatch) {
        for (mine, theirs) in self.ops.iter_mut().zip(other.ops) {
            mine.extend(theirs);
        }
    }
}

/// A consistent read-only view of a [`NodeStore`] (see the module docs).
///
/// ```
/// use starkbatch::store::{Column, Durability, MemoryStore, NodeStore, StoreReader, WriteBatch};
/// let (db, mut batch) = (MemoryStore::new(), WriteBatch::new());
/// for key in ["a1", "b1", "a2"] {
///     batch.put(Column::Nodes, key.as_bytes().to_vec(), vec![]);
/// }
/// db.write(&batch, Durability::Immediate).unwrap();
/// let (reader, mut keys) = (db.reader().unwrap(), Vec::new());
/// reader.scan(Column::Nodes, b"a", &mut |k, _| { keys.push(k.to_vec()); true }).unwrap();
/// assert_eq!(keys, [b"a1", b"a2"]); // the keys starting with "a", in order
/// assert_eq!(reader.get(Column::Nodes, b"b1").unwrap(), Some(vec![]));
/// ```
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
///
/// ```
/// use starkbatch::store::{Column, Durability, MemoryStore, NodeStore, StoreReader, WriteBatch};
/// let db = MemoryStore::new();
/// let mut batch = WriteBatch::new();
/// batch.put(Column::Meta, b"k".to_vec(), b"v".to_vec());
/// db.write(&batch, Durability::Deferred).unwrap();
/// db.flush().unwrap(); // makes the deferred write durable
/// let reader = db.reader().unwrap();
/// assert_eq!(reader.get(Column::Meta, b"k").unwrap(), Some(b"v".to_vec()));
/// assert_eq!(reader.get(Column::Meta, b"other").unwrap(), None);
/// ```
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
