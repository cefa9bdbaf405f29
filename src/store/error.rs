//! [`StoreError`]: why a store operation did not happen. Every error leaves the store as it was.

use crate::Felt;
use std::fmt;

/// Why a store operation failed. A failed operation changed nothing.
#[derive(Debug)]
pub enum StoreError {
    /// The database could not be opened, read or written.
    Database(String),
    /// The database holds data the store did not write (or a format it does not know).
    Corrupt(String),
    /// The diff is not valid input; `item` names the offending entry
    /// (for example `storage_diffs[3].storage_entries[7].key`).
    InvalidDiff {
        /// The entry at fault.
        item: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `commit` was given a block number other than the next one.
    BlockNumber {
        /// The block number the store expects next (`None` before any commit: any number).
        expected: u64,
        /// The number given.
        got: u64,
    },
    /// `revert_to` was asked for a block the store cannot restore.
    RevertOutOfRange {
        /// The block asked for.
        target: u64,
        /// The latest block, if any.
        latest: Option<u64>,
        /// The oldest block that can still be restored.
        oldest: Option<u64>,
    },
    /// The operation needs a committed block and the store has none.
    Empty,
    /// A revert recomputed roots other than the ones recorded for the target block.
    RootMismatch {
        /// The block reverted to.
        block: u64,
        /// Which root.
        root: &'static str,
        /// The root recorded when the block was committed.
        recorded: Felt,
        /// The root the revert computed.
        computed: Felt,
    },
    /// `import` was asked to fill a store that already holds a state.
    NotEmpty,
}

impl StoreError {
    /// An [`InvalidDiff`](StoreError::InvalidDiff) error.
    ///
    /// ```
    /// use starkbatch::store::StoreError;
    /// let e = StoreError::invalid("storage_diffs[0].address", "not below 2^251");
    /// assert_eq!(e.to_string(), "storage_diffs[0].address: not below 2^251");
    /// assert!(e.is_input_error());
    /// ```
    pub fn invalid(item: impl Into<String>, reason: impl Into<String>) -> Self {
        StoreError::InvalidDiff {
            item: item.into(),
            reason: reason.into(),
        }
    }

    /// Whether the error is the input's fault (a bad diff, a wrong block number or revert
    /// target), as opposed to the database's.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{StateDiff, Store, StoreError};
    /// let store = Store::in_memory();
    /// store.commit(0, &StateDiff::default(), StateRootRule::From0_14_0).unwrap();
    /// let e = store.revert_to(9).unwrap_err(); // a block the store does not hold
    /// assert!(e.is_input_error());
    /// assert!(!StoreError::Database("disk full".into()).is_input_error());
    /// ```
    pub fn is_input_error(&self) -> bool {
        matches!(
            self,
            StoreError::InvalidDiff { .. }
                | StoreError::BlockNumber { .. }
                | StoreError::RevertOutOfRange { .. }
                | StoreError::Empty
                | StoreError::NotEmpty
        )
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Database(m) => write!(f, "database error: {m}"),
            StoreError::Corrupt(m) => write!(f, "corrupt store: {m}"),
            StoreError::InvalidDiff { item, reason } => write!(f, "{item}: {reason}"),
            StoreError::BlockNumber { expected, got } => {
                write!(
                    f,
                    "block {got} cannot be committed: the next block is {expected}"
                )
            }
            StoreError::RevertOutOfRange {
                target,
                latest,
                oldest,
            } => match (latest, oldest) {
                (None, _) => write!(f, "cannot revert to block {target}: the store is empty"),
                (Some(l), Some(o)) => write!(
                    f,
                    "cannot revert to block {target}: the store can restore blocks {o}..={l}"
                ),
                (Some(l), None) => write!(
                    f,
                    "cannot revert to block {target}: the latest block is {l} and no history is kept"
                ),
            },
            StoreError::Empty => write!(f, "the store holds no block yet"),
            StoreError::RootMismatch {
                block,
                root,
                recorded,
                computed,
            } => write!(
                f,
                "revert to block {block} computed {root} {computed}, but {recorded} was recorded"
            ),
            StoreError::NotEmpty => write!(f, "the store already holds a state"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<redb::Error> for StoreError {
    fn from(e: redb::Error) -> Self {
        StoreError::Database(e.to_string())
    }
}

macro_rules! from_redb {
    ($($t:ty),*) => {$(
        impl From<$t> for StoreError {
            fn from(e: $t) -> Self {
                StoreError::from(redb::Error::from(e))
            }
        }
    )*};
}
from_redb!(
    redb::DatabaseError,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError
);
