//! Planning a commit: from checked [`Changes`] and a snapshot to the write batch, the new
//! roots and the reverse diff. Nothing here writes; `Store` writes the batch in one
//! transaction.
//!
//! # Work plan
//! 1. The records of every touched contract are read.
//! 2. Every storage trie with writes is walked ([`TrieUpdate`], tries in parallel on rayon).
//!    Alongside (`rayon::join`), the class trie: its leaves
//!    `Poseidon("CONTRACT_CLASS_LEAF_V0", compiled_class_hash)` in one batch, its walk, its
//!    ranks hashed with Poseidon.
//! 3. The storage tries' dirty nodes are hashed rank by rank: **each rank of every storage
//!    trie is one Pedersen batch** (`hash_ranks`), so a block's ~20 ranks are ~20 batch calls
//!    whatever the number of contracts.
//! 4. The contract leaves `Ped(Ped(Ped(class_hash, storage_root), nonce), 0)` of every touched
//!    contract: three Pedersen batches.
//! 5. The contract trie: walk, then its ranks hashed.
//! 6. The state root from the contract and class roots under the block's rule.

use super::codec::{self, BlockRoots, ContractRecord, ReverseDiff, TrieId};
use super::diff::{Changes, ContractChange};
use super::error::StoreError;
use super::kv::{Column, StoreReader, WriteBatch};
use super::update::{Change, TrieUpdate};
use crate::Felt;
use crate::hash::{PairHash, Pedersen, Poseidon};
use crate::state::{CONTRACT_CLASS_LEAF_V0, StateRootRule, global_state_root};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// How a commit hashes its nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Hashing {
    /// Every rank of dirty nodes across all tries in one batch call (SIMD lanes, split across
    /// rayon's threads when large). The default.
    #[default]
    Batch,
    /// One scalar hash call per node, as nodes commit today (for comparison; same results).
    Scalar,
}

/// What a commit did, for benchmarks and logs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommitStats {
    /// Pedersen hashes computed (storage and contract trie nodes, contract leaves).
    pub pedersen_hashes: usize,
    /// Poseidon hashes computed (class leaves, class trie nodes, the state root's two
    /// permutations count as one).
    pub poseidon_hashes: usize,
    /// Batch calls made to the hash engine.
    pub batches: usize,
    /// Trie nodes written (new or changed).
    pub nodes_written: usize,
    /// Trie nodes removed.
    pub nodes_deleted: usize,
    /// Trie records (bands of nodes) read from the database.
    pub records_read: usize,
    /// Trie records written or deleted.
    pub records_written: usize,
    /// Storage writes that changed a value.
    pub storage_changed: usize,
    /// Time to walk the storage tries (reading their nodes).
    pub storage_walk_time: Duration,
    /// Time to hash the storage tries' dirty nodes.
    pub storage_hash_time: Duration,
    /// Time to plan the whole commit (everything but the database write).
    pub plan_time: Duration,
    /// Time to write the batch (for a durable write, until it is on disk).
    pub write_time: Duration,
}

impl CommitStats {
    /// Every hash computed.
    ///
    /// ```
    /// use starkbatch::state::StateRootRule;
    /// use starkbatch::store::{parse_state_update, Store};
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// let r = Store::in_memory().commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// assert_eq!(r.stats.hashes(), r.stats.pedersen_hashes + r.stats.poseidon_hashes);
    /// assert!(r.stats.pedersen_hashes > 0);
    /// ```
    pub fn hashes(&self) -> usize {
        self.pedersen_hashes + self.poseidon_hashes
    }
}

/// A batch is split across rayon's threads only into pieces of at least this many pairs: a
/// Pedersen batch of 256 pairs already runs 3-5x faster than scalar calls
/// (`benches/pedersen.rs`, group `pedersen_hash_batch_small`), and a block's ranks are batches
/// of a few hundred to a few thousand pairs, too small for the library's general split
/// (pieces of at least 1,024).
const MIN_PIECE: usize = 256;

/// `out[i] = H(pairs[i])`, batched (split across threads in pieces of at least [`MIN_PIECE`])
/// or one call at a time.
pub(crate) fn hash_pairs<H: PairHash>(mode: Hashing, pairs: &[[Felt; 2]], out: &mut [Felt]) {
    match mode {
        Hashing::Batch => {
            let threads = rayon::current_num_threads();
            if threads < 2 || pairs.len() < 2 * MIN_PIECE {
                H::hash_batch(pairs, out);
            } else {
                let piece = pairs.len().div_ceil(threads).max(MIN_PIECE);
                pairs
                    .par_chunks(piece)
                    .zip(out.par_chunks_mut(piece))
                    .for_each(|(p, o)| H::hash_batch(p, o));
            }
        }
        Hashing::Scalar => {
            for (o, [a, b]) in out.iter_mut().zip(pairs) {
                *o = H::hash(a, b);
            }
        }
    }
}

/// Hashes every dirty node of `tries`, one batch per rank across all of them. Returns the
/// number of hashes and of batches.
fn hash_ranks<H: PairHash>(tries: &mut [TrieUpdate], mode: Hashing) -> (usize, usize) {
    let ranks = tries.iter().map(|t| t.by_rank.len()).max().unwrap_or(0);
    let (mut hashes, mut batches) = (0, 0);
    let mut pairs = Vec::new();
    let mut out = Vec::new();
    for r in 0..ranks {
        pairs.clear();
        for t in tries.iter() {
            if let Some(ids) = t.by_rank.get(r) {
                pairs.extend(ids.iter().map(|&id| t.pair(id)));
            }
        }
        out.clear();
        out.resize(pairs.len(), Felt::ZERO);
        hash_pairs::<H>(mode, &pairs, &mut out);
        let mut k = 0;
        for t in tries.iter_mut() {
            if r < t.by_rank.len() {
                for i in 0..t.by_rank[r].len() {
                    let id = t.by_rank[r][i];
                    t.set_hash(id, out[k]);
                    k += 1;
                }
            }
        }
        hashes += pairs.len();
        batches += 1;
    }
    (hashes, batches)
}

/// Whether a contract record has no leaf in the contract trie: a contract that was never
/// deployed and holds nothing (class hash, nonce and storage root all 0), as cairo-lang's
/// empty leaf.
pub(crate) fn is_empty_contract(r: &ContractRecord) -> bool {
    r.class_hash.is_zero() && r.nonce.is_zero() && r.storage_root.is_zero()
}

/// A planned commit: everything to write, and what it computes.
pub(crate) struct Plan {
    pub batch: WriteBatch,
    pub roots: BlockRoots,
    /// `(address, new storage root)` of every contract whose storage was written, by address.
    pub storage_roots: Vec<(Felt, Felt)>,
    pub reverse: ReverseDiff,
    pub stats: CommitStats,
}

fn contract_record<R: StoreReader>(
    reader: &R,
    address: &Felt,
) -> Result<Option<ContractRecord>, StoreError> {
    reader
        .get(Column::Contracts, &codec::felt_key(address))?
        .map(|v| codec::decode_contract(&v))
        .transpose()
}

/// The class side of a commit: the class trie's update and its reverse entries.
struct ClassSide {
    trie: Option<TrieUpdate>,
    /// `(class hash, old compiled class hash or 0, new or None)`.
    entries: Vec<(Felt, Felt, Option<Felt>)>,
    hashes: usize,
    batches: usize,
}

fn plan_classes<R: StoreReader>(
    reader: &R,
    changes: &Changes,
    root: Felt,
    mode: Hashing,
) -> Result<ClassSide, StoreError> {
    let mut side = ClassSide {
        trie: None,
        entries: Vec::with_capacity(changes.classes.len()),
        hashes: 0,
        batches: 0,
    };
    if changes.classes.is_empty() {
        return Ok(side);
    }
    let mut pairs = Vec::with_capacity(changes.classes.len());
    for (class, new) in changes.classes.values() {
        let old = match reader.get(Column::Classes, &codec::felt_key(class))? {
            Some(v) => codec::decode_felt(&v, "compiled class hash")?,
            None => Felt::ZERO,
        };
        side.entries.push((*class, old, *new));
        if let Some(c) = new {
            pairs.push([CONTRACT_CLASS_LEAF_V0, *c]);
        }
    }
    let mut leaves = vec![Felt::ZERO; pairs.len()];
    hash_pairs::<Poseidon>(mode, &pairs, &mut leaves);
    side.hashes += pairs.len();
    side.batches += 1;
    let mut leaves = leaves.into_iter();
    let mut ch: Vec<Change> = Vec::with_capacity(side.entries.len());
    for (class, _, new) in &side.entries {
        let leaf = match new {
            Some(_) => leaves.next().unwrap_or(Felt::ZERO),
            None => Felt::ZERO,
        };
        ch.push(Change::new(class.to_raw_limbs(), leaf));
    }
    let mut tries = [TrieUpdate::new(reader, TrieId::Classes, root, &mut ch)?];
    let (h, b) = hash_ranks::<Poseidon>(&mut tries, mode);
    side.hashes += h;
    side.batches += b;
    let [t] = tries;
    side.trie = Some(t);
    Ok(side)
}

/// Adds a trie's band records (from [`TrieUpdate::band_records`]) to the batch.
fn put_records(
    batch: &mut WriteBatch,
    (records, puts, deletes, reads): BandOutput,
    stats: &mut CommitStats,
) {
    stats.nodes_written += puts;
    stats.nodes_deleted += deletes;
    stats.records_read += reads;
    stats.records_written += records.len();
    for (key, rec) in records {
        match rec {
            Some(v) => batch.put(Column::Nodes, key, v),
            None => batch.delete(Column::Nodes, key),
        }
    }
}

/// What [`TrieUpdate::band_records`] returns.
type BandOutput = (super::update::BandRecords, usize, usize, usize);

/// Plans the commit of `changes` on the state `reader` shows, whose roots are `prev` (`None`:
/// the empty state). `changes`' storage writes get their old values filled in.
pub(crate) fn plan<R: StoreReader>(
    reader: &R,
    prev: Option<&BlockRoots>,
    changes: &mut Changes,
    rule: StateRootRule,
    mode: Hashing,
) -> Result<Plan, StoreError> {
    let (old_contract_root, old_class_root) = prev.map_or((Felt::ZERO, Felt::ZERO), |p| {
        (p.contract_root, p.class_root)
    });
    let mut stats = CommitStats::default();

    let t0 = Instant::now();
    // 1. Contract records.
    let touched = changes.touched_contracts();
    let old_records: Vec<Option<ContractRecord>> = touched
        .par_iter()
        .map(|a| contract_record(reader, a))
        .collect::<Result<_, _>>()?;

    // 2-3. Storage tries, with the class trie alongside.
    let storage_root_of = |a: &Felt| -> Felt {
        let i = touched
            .binary_search_by(|t| t.to_bytes_be().cmp(&a.to_bytes_be()))
            .unwrap_or_else(|_| unreachable!("every storage address is touched"));
        old_records[i].map_or(Felt::ZERO, |r| r.storage_root)
    };
    let storage = &mut changes.storage;
    let classes = core::mem::take(&mut changes.classes);
    let class_changes = Changes {
        classes,
        ..Default::default()
    };
    let (tries, class_side) = rayon::join(
        || -> Result<(Vec<TrieUpdate>, usize, usize, Duration, Duration), StoreError> {
            let mut tries: Vec<TrieUpdate> = storage
                .par_iter_mut()
                .map(|(addr, ch)| {
                    TrieUpdate::new(reader, TrieId::Storage(*addr), storage_root_of(addr), ch)
                })
                .collect::<Result<_, _>>()?;
            let tw = Instant::now();
            let (h, b) = hash_ranks::<Pedersen>(&mut tries, mode);
            Ok((tries, h, b, tw - t0, tw.elapsed()))
        },
        || plan_classes(reader, &class_changes, old_class_root, mode),
    );
    changes.classes = class_changes.classes;
    let (mut tries, h, b, walk, hash) = tries?;
    stats.storage_walk_time = walk;
    stats.storage_hash_time = hash;
    let mut class_side = class_side?;
    stats.pedersen_hashes += h;
    stats.batches += b + class_side.batches;
    stats.poseidon_hashes += class_side.hashes;

    // 4. New contract records and leaves.
    let mut new_records: Vec<Option<ContractRecord>> = Vec::with_capacity(touched.len());
    let mut storage_roots = Vec::with_capacity(tries.len());
    let mut ti = tries.iter().peekable();
    for (a, old) in touched.iter().zip(&old_records) {
        let new_root = match ti.peek() {
            Some(t) if t.trie == TrieId::Storage(*a) => {
                let r = t.root();
                storage_roots.push((*a, r));
                ti.next();
                Some(r)
            }
            _ => None,
        };
        let change = changes.contracts.get(&a.to_bytes_be()).map(|(_, c)| *c);
        let rec = match change {
            Some(ContractChange::Restore(target)) => {
                let got = new_root.unwrap_or(old.map_or(Felt::ZERO, |r| r.storage_root));
                let want = target.map_or(Felt::ZERO, |r| r.storage_root);
                if got != want {
                    return Err(StoreError::Corrupt(format!(
                        "revert of contract {a}: storage root {got} instead of the recorded {want}"
                    )));
                }
                target
            }
            Some(ContractChange::Update { class_hash, nonce }) => {
                let mut r = old.unwrap_or_default();
                if let Some(c) = class_hash {
                    r.class_hash = c;
                }
                if let Some(n) = nonce {
                    r.nonce = n;
                }
                if let Some(s) = new_root {
                    r.storage_root = s;
                }
                Some(r)
            }
            None => {
                let mut r = old.unwrap_or_default();
                if let Some(s) = new_root {
                    r.storage_root = s;
                }
                Some(r)
            }
        };
        new_records.push(rec);
    }
    let leaf_inputs: Vec<(usize, ContractRecord)> = new_records
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.filter(|r| !is_empty_contract(r)).map(|r| (i, r)))
        .collect();
    let mut pairs: Vec<[Felt; 2]> = leaf_inputs
        .iter()
        .map(|(_, r)| [r.class_hash, r.storage_root])
        .collect();
    let mut out = vec![Felt::ZERO; pairs.len()];
    hash_pairs::<Pedersen>(mode, &pairs, &mut out);
    for ((p, h), (_, r)) in pairs.iter_mut().zip(&out).zip(&leaf_inputs) {
        *p = [*h, r.nonce];
    }
    hash_pairs::<Pedersen>(mode, &pairs, &mut out);
    for (p, h) in pairs.iter_mut().zip(&out) {
        *p = [*h, Felt::ZERO];
    }
    hash_pairs::<Pedersen>(mode, &pairs, &mut out);
    stats.pedersen_hashes += 3 * pairs.len();
    stats.batches += 3;
    let mut leaves = vec![Felt::ZERO; touched.len()];
    for ((i, _), h) in leaf_inputs.iter().zip(&out) {
        leaves[*i] = *h;
    }

    // 5. The contract trie.
    let mut ch: Vec<Change> = touched
        .iter()
        .zip(&leaves)
        .map(|(a, l)| Change::new(a.to_raw_limbs(), *l))
        .collect();
    let mut contract_trie = [TrieUpdate::new(
        reader,
        TrieId::Contracts,
        old_contract_root,
        &mut ch,
    )?];
    let (h, b) = hash_ranks::<Pedersen>(&mut contract_trie, mode);
    stats.pedersen_hashes += h;
    stats.batches += b;
    let [mut contract_trie] = contract_trie;

    // 6. Roots.
    let contract_root = contract_trie.root();
    let class_root = class_side
        .trie
        .as_ref()
        .map_or(old_class_root, TrieUpdate::root);
    let state_root = global_state_root(&contract_root, &class_root, rule);
    stats.poseidon_hashes += 1;

    // The batch and the reverse diff.
    let mut batch = WriteBatch::new();
    let mut reverse = ReverseDiff::default();
    // Every trie's band records, the tries in parallel.
    let outputs: Vec<BandOutput> = tries
        .par_iter_mut()
        .chain(rayon::iter::once(&mut contract_trie))
        .chain(class_side.trie.as_mut())
        .map(|t| t.band_records(reader))
        .collect::<Result<_, _>>()?;
    for o in outputs {
        put_records(&mut batch, o, &mut stats);
    }
    for (addr, ch) in &changes.storage {
        for c in ch.iter().filter(|c| c.value != c.old) {
            let key =
                Felt::from_raw_limbs(c.key).unwrap_or_else(|| unreachable!("keys are below 2^251"));
            reverse.storage.push((*addr, key, c.old));
            stats.storage_changed += 1;
        }
    }
    for ((a, old), new) in touched.iter().zip(&old_records).zip(&new_records) {
        if old == new {
            continue;
        }
        match new {
            Some(r) => batch.put(
                Column::Contracts,
                codec::felt_key(a),
                codec::encode_contract(r),
            ),
            None => batch.delete(Column::Contracts, codec::felt_key(a)),
        }
        reverse.contracts.push((*a, *old));
    }
    for (class, old, new) in &class_side.entries {
        if Some(*old) == *new || (old.is_zero() && new.is_none()) {
            continue;
        }
        match new {
            Some(c) => batch.put(
                Column::Classes,
                codec::felt_key(class),
                codec::encode_felt(c),
            ),
            None => batch.delete(Column::Classes, codec::felt_key(class)),
        }
        reverse.classes.push((*class, *old));
    }
    stats.plan_time = t0.elapsed();
    Ok(Plan {
        batch,
        roots: BlockRoots {
            state_root,
            contract_root,
            class_root,
            rule,
        },
        storage_roots,
        reverse,
        stats,
    })
}
