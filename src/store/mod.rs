//! A persistent Starknet state: block commits on stored tries, reverts, reads and proofs.
//!
//! [`Store`] keeps every storage trie, the contract trie and the class trie of one state in a
//! database ([`RedbStore`] by default, [`MemoryStore`] for tests, or any [`NodeStore`]), and
//! applies one block's [`StateDiff`] at a time with [`Store::commit`]:
//!
//! - only the nodes on the paths to written keys are read and recomputed;
//! - every rank of dirty nodes across **all** storage tries is hashed in one batch call, then
//!   the contract leaves (three batches), then the contract trie, with the class trie
//!   (Poseidon) alongside (module `commit` has the plan);
//! - the whole block is one [`WriteBatch`], written atomically: after a crash the store holds
//!   the block before or the block after, never a mix;
//! - the roots equal [`state_commitment`](crate::state::state_commitment) of the accumulated
//!   state (the tests check it block by block).
//!
//! Each block also records its roots and a reverse diff (what it overwrote), so
//! [`Store::revert_to`] restores any of the last [`StoreOptions::history`] blocks (128 by
//! default) exactly: roots, reads and proofs. Older history is pruned as blocks commit.
//!
//! Reads go through a [`View`], a snapshot: readers in other threads see the block before a
//! commit or the block after, never a mix, and never wait for the writer (redb).
//!
//! ```
//! use starkbatch::store::{StateDiff, StorageDiff, StorageEntry, Store, ContractClass};
//! use starkbatch::state::{state_commitment, ContractState, StateRootRule};
//! use starkbatch::Felt;
//!
//! let store = Store::in_memory();
//! let diff = StateDiff {
//!     deployed_contracts: vec![ContractClass { address: Felt::from(0x10u64), class_hash: Felt::from(7u64) }],
//!     storage_diffs: vec![StorageDiff {
//!         address: Felt::from(0x10u64),
//!         storage_entries: vec![StorageEntry { key: Felt::from(5u64), value: Felt::from(100u64) }],
//!     }],
//!     ..Default::default()
//! };
//! let roots = store.commit(0, &diff, StateRootRule::From0_14_0).unwrap();
//! let full = state_commitment(
//!     &[ContractState {
//!         address: Felt::from(0x10u64),
//!         class_hash: Felt::from(7u64),
//!         nonce: Felt::ZERO,
//!         storage: vec![(Felt::from(5u64), Felt::from(100u64))],
//!     }],
//!     &[],
//!     StateRootRule::From0_14_0,
//! )
//! .unwrap();
//! assert_eq!(roots.roots.state_root, full.state_root);
//! assert_eq!(store.view().unwrap().storage(&Felt::from(0x10u64), &Felt::from(5u64)).unwrap(), Felt::from(100u64));
//! ```
//!
//! `docs/store.md` describes the layout (nodes by path), the commit, reverts and their bounds,
//! with measured figures.

mod bands;
mod codec;
mod commit;
mod diff;
mod error;
mod journal;
mod json;
mod kv;
mod layered;
mod memory;
mod proof;
mod redb_store;
mod storage_proof;
mod update;
pub mod workload;

pub use commit::{CommitStats, Hashing};
pub use diff::{ContractClass, NonceUpdate, StateDiff, StorageDiff, StorageEntry};
pub use error::StoreError;
pub use json::{StateUpdate, UpdateParseError, parse_state_update, parse_state_updates};
pub use kv::{Column, Durability, NodeStore, StoreReader, WriteBatch};
pub use layered::LayeredReader;
pub use memory::{MemoryReader, MemoryStore};
pub use proof::{ProofError, ProofNode, ProofNodeKind, verify};
pub use redb_store::{RedbReader, RedbStore};
pub use storage_proof::{
    ContractLeafData, ContractStorageKeys, GlobalRoots, ProofRequest, ProvenValues, StorageProof,
};

use crate::Felt;
use crate::state::{ContractState, DeclaredClass, StateRootRule};
use codec::{BlockRoots, ContractRecord, Latest, ReverseDiff};
use diff::{Changes, ContractChange};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The default number of blocks [`Store::revert_to`] can go back.
pub const DEFAULT_HISTORY: u64 = 128;

/// The name of the database file inside a store directory ([`Store::open`]).
pub const DB_FILE: &str = "state.redb";

/// The name of the block journal inside a store directory (module `journal`).
pub const JOURNAL_FILE: &str = "journal";

/// The default number of journaled blocks between durable database commits.
pub const DEFAULT_CHECKPOINT: u64 = 64;

/// How a [`Store`] commits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreOptions {
    /// How many blocks back [`Store::revert_to`] can go (reverse diffs of older blocks are
    /// pruned as blocks commit). Default [`DEFAULT_HISTORY`].
    pub history: u64,
    /// How nodes are hashed (default [`Hashing::Batch`]).
    pub hashing: Hashing,
    /// For a store opened from a directory ([`Store::open`]): the number of blocks between
    /// durable database commits. Every block is durable when `commit` returns either way: in
    /// between, through the block journal (one synced append of the block's diff), which a
    /// reopen replays after a crash. 0 or 1: every block is a durable database commit and the
    /// journal is not used. Default [`DEFAULT_CHECKPOINT`]. Stores over another
    /// [`NodeStore`] write every block durably.
    pub checkpoint_every: u64,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            history: DEFAULT_HISTORY,
            hashing: Hashing::Batch,
            checkpoint_every: DEFAULT_CHECKPOINT,
        }
    }
}

/// The roots of one block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roots {
    /// The global state root.
    pub state_root: Felt,
    /// The contract-trie root.
    pub contract_root: Felt,
    /// The class-trie root.
    pub class_root: Felt,
}

impl From<BlockRoots> for Roots {
    fn from(r: BlockRoots) -> Self {
        Roots {
            state_root: r.state_root,
            contract_root: r.contract_root,
            class_root: r.class_root,
        }
    }
}

/// The latest block of a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    /// Its number.
    pub block_number: u64,
    /// Its roots.
    pub roots: Roots,
    /// The rule its state root was computed with.
    pub rule: StateRootRule,
    /// The oldest block [`Store::revert_to`] can restore.
    pub oldest_revertible: u64,
}

impl From<Latest> for BlockInfo {
    fn from(l: Latest) -> Self {
        BlockInfo {
            block_number: l.block,
            roots: l.roots.into(),
            rule: l.roots.rule,
            oldest_revertible: l.oldest,
        }
    }
}

/// What [`Store::commit`] computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitResult {
    /// The block committed.
    pub block_number: u64,
    /// Its roots.
    pub roots: Roots,
    /// `(address, storage root)` of every contract whose storage the block wrote, by address.
    pub storage_roots: Vec<(Felt, Felt)>,
    /// What the commit did.
    pub stats: CommitStats,
}

/// A persistent Starknet state (see the module docs). `S` is the database.
#[derive(Debug)]
pub struct Store<S: NodeStore = RedbStore> {
    kv: S,
    options: StoreOptions,
    /// Commits, reverts and imports run one at a time (each plans from a snapshot, then writes).
    writer: Mutex<Writer>,
    /// What readers see above the database: the latest block's batch while it is journaled
    /// but not yet written to the database (see [`Writer::pending`]).
    top: Mutex<Option<Arc<WriteBatch>>>,
}

/// The writer's state.
#[derive(Debug, Default)]
struct Writer {
    /// The block journal of a store opened from a directory.
    journal: Option<journal::Journal>,
    /// With the journal: the latest block's batch, durable in the journal, written to the
    /// database during the next commit (alongside its planning), a checkpoint, a revert or
    /// drop. Readers see it through `top`.
    pending: Option<Arc<WriteBatch>>,
}

impl Store<RedbStore> {
    /// Opens the store in directory `dir` (the database file [`DB_FILE`] inside it), creating
    /// both if needed.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Store};
    /// let dir = tempfile::tempdir().unwrap();
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// let store = Store::open(dir.path()).unwrap();
    /// let r = store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// drop(store); // closes the database
    /// let latest = Store::open(dir.path()).unwrap().latest().unwrap().unwrap();
    /// assert_eq!((latest.block_number, latest.roots), (0, r.roots));
    /// ```
    ///
    /// # Errors
    /// [`StoreError::Database`] if the directory or file cannot be created or opened (another
    /// process holding it open included).
    pub fn open(dir: impl AsRef<Path>) -> Result<Self, StoreError> {
        let dir = dir.as_ref();
        Self::open_with(dir, StoreOptions::default())
    }

    /// As [`Store::open`], with `options`. Blocks the journal holds beyond the database's last
    /// durable commit (a crash) are committed again first, each checked against the roots it
    /// recorded.
    ///
    /// ```
    /// use starkbatch::store::{Store, StoreOptions, DB_FILE};
    /// let dir = tempfile::tempdir().unwrap();
    /// let options = StoreOptions { history: 16, checkpoint_every: 1, ..Default::default() };
    /// let store = Store::open_with(dir.path(), options).unwrap();
    /// assert_eq!(store.options(), options);
    /// assert!(store.latest().unwrap().is_none());
    /// assert!(dir.path().join(DB_FILE).exists());
    /// ```
    ///
    /// # Errors
    /// As [`Store::open`]; [`StoreError::Corrupt`] if the journal does not fit the database.
    pub fn open_with(dir: impl AsRef<Path>, options: StoreOptions) -> Result<Self, StoreError> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::Database(format!("{}: {e}", dir.display())))?;
        let store = Store::with_store(RedbStore::open(dir.join(DB_FILE))?).with_options(options);
        let (journal, entries) = journal::Journal::open(&dir.join(JOURNAL_FILE))?;
        let mut w = store.lock();
        for e in entries {
            let latest = read_latest(&store.kv.reader()?)?;
            match latest {
                Some(l) if e.block <= l.block => continue,
                Some(l) if e.block == l.block + 1 && e.before == Some(l.roots) => {}
                None if e.before.is_none() => {}
                _ => {
                    return Err(StoreError::Corrupt(format!(
                        "the journal's block {} does not follow the database's latest block",
                        e.block
                    )));
                }
            }
            let mut changes = e.changes;
            let r = store.commit_changes(&mut w, e.block, &mut changes, e.after.rule, false)?;
            if r.roots != e.after.into() {
                return Err(StoreError::Corrupt(format!(
                    "replaying journaled block {} gave other roots than it recorded",
                    e.block
                )));
            }
        }
        store.kv.flush()?;
        w.journal = Some(journal);
        if let Some(j) = w.journal.as_mut() {
            j.clear()?;
        }
        drop(w);
        Ok(store)
    }
}

impl Store<MemoryStore> {
    /// An empty store in memory.
    ///
    /// ```
    /// use starkbatch::store::{Store, StoreError};
    /// use starkbatch::Felt;
    /// let store = Store::in_memory();
    /// assert!(store.latest().unwrap().is_none());
    /// assert_eq!(store.view().unwrap().storage(&Felt::ONE, &Felt::ONE).unwrap(), Felt::ZERO);
    /// let e = store.revert_to(0).unwrap_err(); // no block to go back to
    /// assert!(matches!(e, StoreError::RevertOutOfRange { latest: None, .. }));
    /// ```
    pub fn in_memory() -> Self {
        Store::with_store(MemoryStore::new())
    }
}

impl<S: NodeStore> Store<S> {
    /// A store over the database `kv`, with default options.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{Column, MemoryStore, StateDiff, Store};
    /// let store = Store::with_store(MemoryStore::new());
    /// let d = StateDiff::default();
    /// store.commit(0, &d, StateRootRule::From0_14_0).unwrap();
    /// store.commit(1, &d, StateRootRule::From0_14_0).unwrap();
    /// // In the database given: each block's roots, and block 1's reverse diff.
    /// assert_eq!(store.database().len(Column::History), 3);
    /// ```
    pub fn with_store(kv: S) -> Self {
        Store {
            kv,
            options: StoreOptions::default(),
            writer: Mutex::new(Writer::default()),
            top: Mutex::new(None),
        }
    }

    /// Sets the options.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{StateDiff, Store, StoreError, StoreOptions};
    /// let options = StoreOptions { history: 1, ..Default::default() };
    /// let store = Store::in_memory().with_options(options);
    /// for block in 0..3 {
    ///     store.commit(block, &StateDiff::default(), StateRootRule::From0_14_0).unwrap();
    /// }
    /// // One block of history: block 1 can be restored, block 0 no longer.
    /// assert!(matches!(store.revert_to(0), Err(StoreError::RevertOutOfRange { .. })));
    /// assert_eq!(store.revert_to(1).unwrap().block_number, 1);
    /// ```
    pub fn with_options(mut self, options: StoreOptions) -> Self {
        self.options = options;
        self
    }

    /// The options.
    ///
    /// ```
    /// use starkbatch::store::{Hashing, Store, StoreOptions, DEFAULT_HISTORY};
    /// assert_eq!(Store::in_memory().options().history, DEFAULT_HISTORY);
    /// let scalar = StoreOptions { hashing: Hashing::Scalar, ..Default::default() };
    /// assert_eq!(Store::in_memory().with_options(scalar).options().hashing, Hashing::Scalar);
    /// ```
    pub fn options(&self) -> StoreOptions {
        self.options
    }

    /// The database. With the block journal it may lag the latest block by one (the block
    /// whose write is pending) until the next commit or [`Store::checkpoint`]; a [`View`]
    /// always shows the latest block.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Column, Store};
    /// let store = Store::in_memory();
    /// assert_eq!(store.database().len(Column::Contracts), 0);
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// // A store in memory has no journal: the block is in the database at once.
    /// assert_eq!(store.database().len(Column::Contracts), 1);
    /// ```
    pub fn database(&self) -> &S {
        &self.kv
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Writer> {
        // Every write either completes or leaves the database and journal as they were, so a
        // panic elsewhere leaves the state consistent.
        self.writer.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes every committed block durable in the database itself and empties the journal
    /// (done every [`StoreOptions::checkpoint_every`] blocks, before a revert, and on drop).
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Store, JOURNAL_FILE};
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = Store::open(dir.path()).unwrap();
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// let journal = || std::fs::metadata(dir.path().join(JOURNAL_FILE)).unwrap().len();
    /// assert!(journal() > 0); // the block is durable in the journal,
    /// store.checkpoint().unwrap();
    /// assert_eq!(journal(), 0); // now in the database itself
    /// ```
    ///
    /// # Errors
    /// [`StoreError::Database`] if the database or the journal cannot be synced.
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        let mut w = self.lock();
        self.checkpoint_locked(&mut w)
    }

    fn checkpoint_locked(&self, w: &mut Writer) -> Result<(), StoreError> {
        self.write_pending(w)?;
        if let Some(j) = w.journal.as_mut()
            && j.entries > 0
        {
            self.kv.flush()?;
            j.clear()?;
        }
        *self.top_lock() = None;
        Ok(())
    }

    /// Writes the pending block's batch to the database (not synced: the journal holds it).
    fn write_pending(&self, w: &mut Writer) -> Result<(), StoreError> {
        if let Some(p) = w.pending.take()
            && let Err(e) = self.kv.write(&p, Durability::Deferred)
        {
            w.pending = Some(p);
            return Err(e);
        }
        Ok(())
    }

    fn top_lock(&self) -> std::sync::MutexGuard<'_, Option<Arc<WriteBatch>>> {
        self.top.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A snapshot of the database with the pending block above it, taken together.
    fn snapshot(&self) -> Result<LayeredReader<S::Reader<'_>>, StoreError> {
        let top = self.top_lock();
        let base = self.kv.reader()?;
        Ok(LayeredReader {
            base,
            top: top.clone(),
        })
    }

    /// A consistent snapshot of the latest block, for reads and proofs.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Store};
    /// use starkbatch::Felt;
    /// let store = Store::in_memory();
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// let r = store.commit(7, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// let (view, contract, key) = (store.view().unwrap(), Felt::from(0x10u64), Felt::from(5u64));
    /// assert_eq!(view.block().unwrap().roots, r.roots);
    /// assert_eq!(view.storage(&contract, &key).unwrap(), Felt::from(100u64));
    /// ```
    ///
    /// # Errors
    /// [`StoreError::Database`] or [`StoreError::Corrupt`] if the database cannot be read.
    pub fn view(&self) -> Result<View<LayeredReader<S::Reader<'_>>>, StoreError> {
        View::new(self.snapshot()?)
    }

    /// The latest block, or `None` for an empty store.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{StateDiff, Store};
    /// let store = Store::in_memory();
    /// assert_eq!(store.latest().unwrap(), None);
    /// let r = store.commit(5, &StateDiff::default(), StateRootRule::Before0_14_0).unwrap();
    /// let latest = store.latest().unwrap().unwrap();
    /// assert_eq!((latest.block_number, latest.oldest_revertible), (5, 5));
    /// assert_eq!((latest.roots, latest.rule), (r.roots, StateRootRule::Before0_14_0));
    /// ```
    ///
    /// # Errors
    /// As [`Store::view`].
    pub fn latest(&self) -> Result<Option<BlockInfo>, StoreError> {
        Ok(self.view()?.latest.map(BlockInfo::from))
    }

    /// Commits block `block_number`'s `diff` on the latest block (`block_number` must be the
    /// next one; any number for an empty store) and returns the new roots.
    ///
    /// `rule` is the state-root rule of the block's Starknet version (state updates do not say
    /// it). The block is written in one transaction: on any error nothing is written.
    ///
    /// ```
    /// use starkbatch::state::{state_commitment, ContractState, StateRootRule};
    /// use starkbatch::store::{parse_state_update, Store, StoreError};
    /// use starkbatch::Felt;
    /// let (store, rule) = (Store::in_memory(), StateRootRule::From0_14_0);
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// let r = store.commit(0, &u.state_diff, rule).unwrap();
    /// let storage = vec![(Felt::from(5u64), Felt::from(100u64))];
    /// let c = ContractState { address: Felt::from(0x10u64), storage, ..Default::default() };
    /// assert_eq!(r.roots.state_root, state_commitment(&[c], &[], rule).unwrap().state_root);
    /// let e = store.commit(2, &u.state_diff, rule).unwrap_err(); // block 1 must come next
    /// assert!(matches!(e, StoreError::BlockNumber { expected: 1, got: 2 }));
    /// ```
    ///
    /// # Errors
    /// [`StoreError::BlockNumber`] for a block other than the next; [`StoreError::InvalidDiff`]
    /// for a key, address or class hash not below 2^251 or a compiled class hash of 0 (naming
    /// the item); [`StoreError::Database`] / [`StoreError::Corrupt`] from the database.
    pub fn commit(
        &self,
        block_number: u64,
        diff: &StateDiff,
        rule: StateRootRule,
    ) -> Result<CommitResult, StoreError> {
        let mut changes = Changes::from_diff(diff)?;
        let mut w = self.lock();
        self.commit_changes(&mut w, block_number, &mut changes, rule, true)
    }

    fn commit_changes(
        &self,
        w: &mut Writer,
        block_number: u64,
        changes: &mut Changes,
        rule: StateRootRule,
        journal: bool,
    ) -> Result<CommitResult, StoreError> {
        let write_behind = w.journal.is_some() && journal && self.options.checkpoint_every > 1;
        if !write_behind {
            self.write_pending(w)?;
        }
        let reader = self.snapshot()?;
        let latest = read_latest(&reader)?;
        if let Some(l) = &latest {
            let expected = l.block.checked_add(1).ok_or(StoreError::BlockNumber {
                expected: u64::MAX,
                got: block_number,
            })?;
            if block_number != expected {
                return Err(StoreError::BlockNumber {
                    expected,
                    got: block_number,
                });
            }
        }
        // The previous block's write runs alongside this block's planning (both read-only on
        // the snapshot, which already shows the previous block through `top`).
        let pending = w.pending.take();
        let (plan, written) = rayon::join(
            || {
                commit::plan(
                    &reader,
                    latest.as_ref().map(|l| &l.roots),
                    changes,
                    rule,
                    self.options.hashing,
                )
            },
            || match &pending {
                Some(p) => self.kv.write(p, Durability::Deferred),
                None => Ok(()),
            },
        );
        if let Err(e) = written {
            w.pending = pending;
            return Err(e);
        }
        let mut plan = plan?;
        let first = latest.map_or(block_number, |l| l.first);
        let old_oldest = latest.map_or(block_number, |l| l.oldest);
        let oldest = first.max(block_number.saturating_sub(self.options.history));
        let b = &mut plan.batch;
        if block_number > oldest {
            b.put(
                Column::History,
                codec::reverse_diff_key(block_number),
                codec::encode_reverse_diff(&plan.reverse),
            );
        }
        b.put(
            Column::History,
            codec::roots_key(block_number),
            codec::encode_roots(&plan.roots),
        );
        // Prune: the reverse diffs of blocks up to `oldest` and the roots of blocks before it.
        for blk in old_oldest..oldest {
            b.delete(Column::History, codec::roots_key(blk));
            b.delete(Column::History, codec::reverse_diff_key(blk + 1));
        }
        b.put(
            Column::Meta,
            codec::LATEST_KEY.to_vec(),
            codec::encode_latest(&Latest {
                block: block_number,
                roots: plan.roots,
                first,
                oldest,
            }),
        );
        drop(reader);
        let tw = std::time::Instant::now();
        let every = self.options.checkpoint_every;
        let batch = core::mem::take(&mut plan.batch);
        match w.journal.as_mut() {
            Some(j) if write_behind => {
                // Once the journal entry is synced the block survives a crash; its batch is
                // written to the database during the next commit (or a checkpoint).
                j.append(
                    block_number,
                    latest.as_ref().map(|l| &l.roots),
                    &plan.roots,
                    changes,
                )?;
                let batch = Arc::new(batch);
                *self.top_lock() = Some(batch.clone());
                w.pending = Some(batch);
                if j.entries >= every {
                    self.checkpoint_locked(w)?;
                }
            }
            Some(_) if !journal => self.kv.write(&batch, Durability::Deferred)?,
            _ => self.kv.write(&batch, Durability::Immediate)?,
        }
        plan.stats.write_time = tw.elapsed();
        Ok(CommitResult {
            block_number,
            roots: plan.roots.into(),
            storage_roots: plan.storage_roots,
            stats: plan.stats,
        })
    }

    /// Fills an empty store with a whole state as block `block_number` (a snapshot's block):
    /// every trie is built from its leaves with every rank of every trie hashed in one batch
    /// (the from-scratch shape of [`state_commitment`](crate::state::state_commitment), whose
    /// roots it returns), every node written, in one durable transaction. Later blocks commit
    /// on it; [`Store::revert_to`] cannot go below it.
    ///
    /// ```
    /// use starkbatch::state::{state_commitment, ContractState, StateRootRule};
    /// use starkbatch::store::Store;
    /// use starkbatch::Felt;
    /// let contracts = [ContractState {
    ///     address: Felt::from(0x10u64),
    ///     class_hash: Felt::from(7u64),
    ///     nonce: Felt::ONE,
    ///     storage: vec![(Felt::from(5u64), Felt::from(100u64))],
    /// }];
    /// let rule = StateRootRule::From0_14_0;
    /// let store = Store::in_memory();
    /// let r = store.import(1000, &contracts, &[], rule).unwrap();
    /// assert_eq!(r.roots.state_root, state_commitment(&contracts, &[], rule).unwrap().state_root);
    /// assert_eq!(store.latest().unwrap().unwrap().block_number, 1000);
    /// ```
    ///
    /// # Errors
    /// [`StoreError::NotEmpty`] if the store holds a block; otherwise as [`Store::commit`].
    pub fn import(
        &self,
        block_number: u64,
        contracts: &[ContractState],
        classes: &[DeclaredClass],
        rule: StateRootRule,
    ) -> Result<CommitResult, StoreError> {
        let mut changes = Changes::from_diff(&StateDiff::from_state(contracts, classes))?;
        let mut w = self.lock();
        if read_latest(&self.snapshot()?)?.is_some() {
            return Err(StoreError::NotEmpty);
        }
        // Not journaled (the journal would hold the whole state): written, then synced.
        let r = self.commit_changes(&mut w, block_number, &mut changes, rule, false)?;
        self.kv.flush()?;
        Ok(r)
    }

    /// Restores block `target` (one of the last [`StoreOptions::history`] blocks): the state,
    /// roots, reads and proofs it had. The later blocks are forgotten, in one transaction.
    ///
    /// The restored roots are recomputed from the tries and compared with the ones recorded when
    /// `target` was committed; a difference is an error and nothing is written.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Store};
    /// use starkbatch::Felt;
    /// let (store, rule) = (Store::in_memory(), StateRootRule::From0_14_0);
    /// let diff = |v: &str| parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": v}]}}})).unwrap().state_diff;
    /// let r0 = store.commit(0, &diff("0x64"), rule).unwrap();
    /// store.commit(1, &diff("0x0"), rule).unwrap(); // deletes the key
    /// assert_eq!(store.revert_to(0).unwrap().roots, r0.roots);
    /// let (contract, key) = (Felt::from(0x10u64), Felt::from(5u64));
    /// assert_eq!(store.view().unwrap().storage(&contract, &key).unwrap(), Felt::from(100u64));
    /// ```
    ///
    /// # Errors
    /// [`StoreError::RevertOutOfRange`] for a block outside the restorable range;
    /// [`StoreError::RootMismatch`], [`StoreError::Database`] or [`StoreError::Corrupt`].
    pub fn revert_to(&self, target: u64) -> Result<BlockInfo, StoreError> {
        let mut w = self.lock();
        // The journal must not replay the blocks about to be forgotten.
        self.checkpoint_locked(&mut w)?;
        let reader = self.kv.reader()?;
        let latest = read_latest(&reader)?;
        let Some(latest) = latest else {
            return Err(StoreError::RevertOutOfRange {
                target,
                latest: None,
                oldest: None,
            });
        };
        if target < latest.oldest || target > latest.block {
            return Err(StoreError::RevertOutOfRange {
                target,
                latest: Some(latest.block),
                oldest: Some(latest.oldest),
            });
        }
        if target == latest.block {
            return Ok(latest.into());
        }
        let recorded = match reader.get(Column::History, &codec::roots_key(target))? {
            Some(v) => codec::decode_roots(&v)?,
            None => {
                return Err(StoreError::Corrupt(format!(
                    "the roots of block {target} are missing"
                )));
            }
        };
        // Merge the reverse diffs from the latest block down: the oldest write wins.
        let mut storage = diff::StorageWrites::new();
        let mut changes = Changes::default();
        for blk in (target + 1..=latest.block).rev() {
            let rd: ReverseDiff =
                match reader.get(Column::History, &codec::reverse_diff_key(blk))? {
                    Some(v) => codec::decode_reverse_diff(&v)?,
                    None => {
                        return Err(StoreError::Corrupt(format!(
                            "the reverse diff of block {blk} is missing"
                        )));
                    }
                };
            for (a, k, old) in rd.storage {
                storage
                    .entry(a.to_bytes_be())
                    .or_insert_with(|| (a, BTreeMap::new()))
                    .1
                    .insert(k.to_bytes_be(), update::Change::new(k.to_raw_limbs(), old));
            }
            for (a, old) in rd.contracts {
                changes
                    .contracts
                    .insert(a.to_bytes_be(), (a, ContractChange::Restore(old)));
            }
            for (c, old) in rd.classes {
                changes
                    .classes
                    .insert(c.to_bytes_be(), (c, (!old.is_zero()).then_some(old)));
            }
        }
        changes.set_storage(storage);
        let mut plan = commit::plan(
            &reader,
            Some(&latest.roots),
            &mut changes,
            recorded.rule,
            self.options.hashing,
        )?;
        for (root, computed, want) in [
            (
                "contract_root",
                plan.roots.contract_root,
                recorded.contract_root,
            ),
            ("class_root", plan.roots.class_root, recorded.class_root),
            ("state_root", plan.roots.state_root, recorded.state_root),
        ] {
            if computed != want {
                return Err(StoreError::RootMismatch {
                    block: target,
                    root,
                    recorded: want,
                    computed,
                });
            }
        }
        let b = &mut plan.batch;
        for blk in target + 1..=latest.block {
            b.delete(Column::History, codec::roots_key(blk));
            b.delete(Column::History, codec::reverse_diff_key(blk));
        }
        let info = Latest {
            block: target,
            roots: recorded,
            first: latest.first,
            oldest: latest.oldest,
        };
        b.put(
            Column::Meta,
            codec::LATEST_KEY.to_vec(),
            codec::encode_latest(&info),
        );
        drop(reader);
        self.kv.write(&plan.batch, Durability::Immediate)?;
        Ok(info.into())
    }
}

impl<S: NodeStore> Drop for Store<S> {
    /// A last checkpoint, so that a store closed cleanly leaves an empty journal (an error is
    /// not lost: the journal still holds the blocks and the next open replays them).
    fn drop(&mut self) {
        let _ = self.checkpoint();
    }
}

fn read_latest<R: StoreReader>(reader: &R) -> Result<Option<Latest>, StoreError> {
    reader
        .get(Column::Meta, codec::LATEST_KEY)?
        .map(|v| codec::decode_latest(&v))
        .transpose()
}

/// A consistent snapshot of a store's latest block: reads and proofs.
pub struct View<R: StoreReader> {
    reader: R,
    latest: Option<Latest>,
}

impl<R: StoreReader> View<R> {
    fn new(reader: R) -> Result<Self, StoreError> {
        let latest = read_latest(&reader)?;
        Ok(View { reader, latest })
    }

    /// The block this view shows, or `None` for an empty store.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{StateDiff, Store};
    /// let store = Store::in_memory();
    /// assert!(store.view().unwrap().block().is_none());
    /// let r = store.commit(3, &StateDiff::default(), StateRootRule::From0_14_0).unwrap();
    /// let block = store.view().unwrap().block().unwrap();
    /// assert_eq!((block.block_number, block.roots), (3, r.roots));
    /// ```
    pub fn block(&self) -> Option<BlockInfo> {
        self.latest.map(BlockInfo::from)
    }

    /// The value at `key` of `contract`'s storage (0 when unset).
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Store};
    /// use starkbatch::Felt;
    /// let store = Store::in_memory();
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// let (view, contract) = (store.view().unwrap(), Felt::from(0x10u64));
    /// assert_eq!(view.storage(&contract, &Felt::from(5u64)).unwrap(), Felt::from(100u64));
    /// assert_eq!(view.storage(&contract, &Felt::from(6u64)).unwrap(), Felt::ZERO); // unset
    /// assert!(view.storage(&contract, &Felt::MAX).is_err()); // not below 2^251
    /// ```
    ///
    /// # Errors
    /// [`StoreError::Database`] or [`StoreError::Corrupt`].
    pub fn storage(&self, contract: &Felt, key: &Felt) -> Result<Felt, StoreError> {
        let k = diff::trie_key(key, || "key".into())?;
        let root = self.storage_root(contract)?;
        proof::walk(
            &self.reader,
            codec::TrieId::Storage(*contract),
            root,
            &k,
            None,
        )
    }

    fn contract(&self, contract: &Felt) -> Result<Option<ContractRecord>, StoreError> {
        self.reader
            .get(Column::Contracts, &codec::felt_key(contract))?
            .map(|v| codec::decode_contract(&v))
            .transpose()
    }

    /// `contract`'s nonce (0 for an unknown contract).
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Store};
    /// use starkbatch::Felt;
    /// let store = Store::in_memory();
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "nonces": {"0x10": "0x3"}}})).unwrap();
    /// store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// let view = store.view().unwrap();
    /// assert_eq!(view.nonce(&Felt::from(0x10u64)).unwrap(), Felt::from(3u64));
    /// assert_eq!(view.nonce(&Felt::from(0x11u64)).unwrap(), Felt::ZERO); // no such contract
    /// ```
    ///
    /// # Errors
    /// As [`View::storage`].
    pub fn nonce(&self, contract: &Felt) -> Result<Felt, StoreError> {
        Ok(self.contract(contract)?.map_or(Felt::ZERO, |c| c.nonce))
    }

    /// `contract`'s class hash (0 for an unknown contract).
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Store};
    /// use starkbatch::Felt;
    /// let store = Store::in_memory();
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "deployed_contracts": [{"address": "0x10", "class_hash": "0x7"}],
    ///     "replaced_classes": [{"contract_address": "0x10", "class_hash": "0x8"}]}})).unwrap();
    /// store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// let view = store.view().unwrap();
    /// assert_eq!(view.class_hash(&Felt::from(0x10u64)).unwrap(), Felt::from(8u64)); // replaced
    /// assert_eq!(view.class_hash(&Felt::from(0x11u64)).unwrap(), Felt::ZERO);
    /// ```
    ///
    /// # Errors
    /// As [`View::storage`].
    pub fn class_hash(&self, contract: &Felt) -> Result<Felt, StoreError> {
        Ok(self
            .contract(contract)?
            .map_or(Felt::ZERO, |c| c.class_hash))
    }

    /// `contract`'s storage root (0 for an unknown contract or empty storage).
    ///
    /// ```
    /// use starkbatch::state::{trie_root, StateRootRule};
    /// use starkbatch::store::{parse_state_update, Store};
    /// use starkbatch::{Felt, Pedersen};
    /// let store = Store::in_memory();
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// let want = trie_root::<Pedersen>(&[(Felt::from(5u64), Felt::from(100u64))], 251).unwrap();
    /// assert_eq!(store.view().unwrap().storage_root(&Felt::from(0x10u64)).unwrap(), want);
    /// ```
    ///
    /// # Errors
    /// As [`View::storage`].
    pub fn storage_root(&self, contract: &Felt) -> Result<Felt, StoreError> {
        Ok(self
            .contract(contract)?
            .map_or(Felt::ZERO, |c| c.storage_root))
    }

    /// The compiled class hash of `class_hash` (0 if it is not declared).
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Store};
    /// use starkbatch::Felt;
    /// let store = Store::in_memory();
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {"declared_classes": [
    ///     {"class_hash": "0xc1", "compiled_class_hash": "0xcc"}]}})).unwrap();
    /// store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// let view = store.view().unwrap();
    /// assert_eq!(view.compiled_class_hash(&Felt::from(0xc1u64)).unwrap(), Felt::from(0xccu64));
    /// assert_eq!(view.compiled_class_hash(&Felt::from(0xc2u64)).unwrap(), Felt::ZERO);
    /// ```
    ///
    /// # Errors
    /// As [`View::storage`].
    pub fn compiled_class_hash(&self, class_hash: &Felt) -> Result<Felt, StoreError> {
        match self
            .reader
            .get(Column::Classes, &codec::felt_key(class_hash))?
        {
            Some(v) => codec::decode_felt(&v, "compiled class hash"),
            None => Ok(Felt::ZERO),
        }
    }

    /// The proof of `request` at this view's block, shaped as the JSON-RPC
    /// `starknet_getStorageProof` result (module docs of [`StorageProof`]); check it with
    /// [`StorageProof::verify`].
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, ProofRequest, Store};
    /// use starkbatch::Felt;
    /// let (store, rule) = (Store::in_memory(), StateRootRule::From0_14_0);
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "deployed_contracts": [{"address": "0x10", "class_hash": "0x7"}]}})).unwrap();
    /// let r = store.commit(0, &u.state_diff, rule).unwrap();
    /// let req = ProofRequest { contract_addresses: vec![0x10u64.into()], ..Default::default() };
    /// let proof = store.view().unwrap().storage_proof(&req).unwrap();
    /// let proven = proof.verify(&req, &r.roots.state_root, rule).unwrap();
    /// assert_eq!(proven.contracts[0].class_hash, Felt::from(7u64));
    /// assert!(Store::in_memory().view().unwrap().storage_proof(&req).is_err()); // empty store
    /// ```
    ///
    /// # Errors
    /// [`StoreError::InvalidDiff`] naming the request item that is not below 2^251;
    /// [`StoreError::Empty`] for an empty store; [`StoreError::Database`] or
    /// [`StoreError::Corrupt`].
    pub fn storage_proof(&self, request: &ProofRequest) -> Result<StorageProof, StoreError> {
        let l = self.latest.as_ref().ok_or(StoreError::Empty)?;
        let roots = GlobalRoots {
            contracts_tree_root: l.roots.contract_root,
            classes_tree_root: l.roots.class_root,
        };
        storage_proof::prove(&self.reader, roots, request, |a| {
            Ok(self
                .contract(a)?
                .map_or(ContractLeafData::default(), |c| ContractLeafData {
                    nonce: c.nonce,
                    class_hash: c.class_hash,
                    storage_root: c.storage_root,
                }))
        })
    }

    /// The underlying snapshot.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{Column, StateDiff, Store, StoreReader};
    /// let store = Store::in_memory();
    /// store.commit(0, &StateDiff::default(), StateRootRule::From0_14_0).unwrap();
    /// let view = store.view().unwrap();
    /// let mut history = 0;
    /// view.reader().scan(Column::History, &[], &mut |_, _| {
    ///     history += 1;
    ///     true
    /// }).unwrap();
    /// assert_eq!(history, 1); // block 0's roots
    /// ```
    pub fn reader(&self) -> &R {
        &self.reader
    }
}
