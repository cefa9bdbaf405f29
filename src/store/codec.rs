//! The byte layout of every key and value the store writes.
//!
//! Felts are 32 bytes big-endian (canonical, below p); integers are big-endian.
//!
//! | column | key | value |
//! | --- | --- | --- |
//! | `Nodes` | trie tag (1: contract trie, 2: class trie, 3: storage trie) · the contract address (storage tries only, 32) · the node's path from the root, left-aligned in `⌈depth/8⌉` bytes · depth (1) | binary: `0` · left · right; edge: `1` · child · length (1) · path in `⌈length/8⌉` bytes |
//! | `Contracts` | address | class hash · nonce · storage root |
//! | `Classes` | class hash | compiled class hash |
//! | `Meta` | `"latest"` | block number (8) · state root · contract root · class root · rule (1) · first block (8) · oldest restorable block (8) |
//! | `History` | `"r"` · block (8) | the block's roots: state · contract · class · rule (1) |
//! | `History` | `"d"` · block (8) | the reverse diff of the block (below) |
//!
//! A reverse diff holds what the block overwrote: `u32` count, then per storage write
//! address · key · old value (0: absent); `u32` count, then per contract address · `0` (absent) or
//! `1` · class hash · nonce · storage root; `u32` count, then per class class hash · old
//! compiled class hash (0: absent).
//!
//! Paths: a node at depth `d` (bits from the root) has the path `key >> (251 - d)` for every
//! key below it. Keys of one trie sort by path bits first, so a subtrie's nodes are
//! contiguous. Leaves (depth 251) are not in `Nodes`: a leaf's hash is its value, which its
//! parent holds.

use super::error::StoreError;
use crate::Felt;
use crate::state::StateRootRule;
use crate::state::bits::{self, U256};

/// The height of every trie in the store.
pub(crate) const HEIGHT: u32 = 251;

/// Which trie a node belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum TrieId {
    /// The contract trie (Pedersen), keyed by address.
    Contracts,
    /// The class trie (Poseidon), keyed by class hash.
    Classes,
    /// A contract's storage trie (Pedersen), keyed by storage key.
    Storage(Felt),
}

/// Where a node sits: `depth` bits below the root, on `path` (the top `depth` bits of every
/// key below it, as an integer below `2^depth`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pos {
    pub depth: u32,
    pub path: U256,
}

impl Pos {
    pub const ROOT: Pos = Pos {
        depth: 0,
        path: [0; 4],
    };

    /// The child on side `bit` (0 left, 1 right).
    #[inline]
    pub fn child(&self, bit: u64) -> Pos {
        let mut path = bits::shl(&self.path, 1);
        path[0] |= bit;
        Pos {
            depth: self.depth + 1,
            path,
        }
    }

    /// The node `len` levels down along `bits` (an integer below `2^len`).
    #[inline]
    pub fn descend(&self, bits_: &U256, len: u32) -> Pos {
        Pos {
            depth: self.depth + len,
            path: bits::or(&bits::shl(&self.path, len), bits_),
        }
    }

    /// The position of the node at `depth` above (or at) `key`.
    #[inline]
    pub fn of_key(key: &U256, depth: u32) -> Pos {
        Pos {
            depth,
            path: bits::shr(key, HEIGHT - depth),
        }
    }
}

/// A stored trie node: its children's hashes (the node's own hash is in its parent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StoredNode {
    Binary { left: Felt, right: Felt },
    Edge { child: Felt, path: U256, len: u32 },
}

fn felt_bytes(f: &Felt) -> [u8; 32] {
    f.to_bytes_be()
}

/// A felt from 32 big-endian bytes at `b[at..]`.
pub(crate) fn read_felt(b: &[u8], at: usize, what: &str) -> Result<Felt, StoreError> {
    let bytes: &[u8; 32] = b
        .get(at..at + 32)
        .and_then(|s| s.try_into().ok())
        .ok_or_else(|| StoreError::Corrupt(format!("{what}: record too short")))?;
    Felt::from_bytes_be(bytes).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn read_u64(b: &[u8], at: usize, what: &str) -> Result<u64, StoreError> {
    b.get(at..at + 8)
        .and_then(|s| s.try_into().ok())
        .map(u64::from_be_bytes)
        .ok_or_else(|| StoreError::Corrupt(format!("{what}: record too short")))
}

fn read_u32(b: &[u8], at: usize, what: &str) -> Result<u32, StoreError> {
    b.get(at..at + 4)
        .and_then(|s| s.try_into().ok())
        .map(u32::from_be_bytes)
        .ok_or_else(|| StoreError::Corrupt(format!("{what}: record too short")))
}

/// The big-endian bytes of `x`'s low `nbytes * 8` bits.
fn be_bytes(x: &U256, nbytes: usize) -> impl Iterator<Item = u8> + '_ {
    (0..nbytes)
        .rev()
        .map(move |i| (x[i / 8] >> (8 * (i % 8))) as u8)
}

fn from_be(b: &[u8]) -> U256 {
    let mut x = [0u64; 4];
    for (i, byte) in b.iter().rev().enumerate() {
        x[i / 8] |= (*byte as u64) << (8 * (i % 8));
    }
    x
}

/// The `Nodes` key of the node at `pos` in `trie`.
pub(crate) fn node_key(trie: TrieId, pos: &Pos) -> Vec<u8> {
    let nbytes = pos.depth.div_ceil(8) as usize;
    let mut k = Vec::with_capacity(1 + 32 + nbytes + 1);
    match trie {
        TrieId::Contracts => k.push(1),
        TrieId::Classes => k.push(2),
        TrieId::Storage(a) => {
            k.push(3);
            k.extend_from_slice(&felt_bytes(&a));
        }
    }
    // Left-align the path in nbytes bytes.
    let aligned = bits::shl(&pos.path, 8 * nbytes as u32 - pos.depth);
    k.extend(be_bytes(&aligned, nbytes));
    k.push(pos.depth as u8);
    k
}

#[cfg(test)]
pub(crate) fn encode_node(node: &StoredNode) -> Vec<u8> {
    let mut v = Vec::with_capacity(65);
    encode_node_into(node, &mut v);
    v
}

/// Appends `node`'s encoding to `v`: `0 ‖ left ‖ right` (binary) or `1 ‖ child ‖ length ‖
/// path in length / 8 bytes, rounded up` (edge), felts as 32 big-endian bytes.
pub(crate) fn encode_node_into(node: &StoredNode, v: &mut Vec<u8>) {
    match node {
        StoredNode::Binary { left, right } => {
            v.push(0);
            v.extend_from_slice(&felt_bytes(left));
            v.extend_from_slice(&felt_bytes(right));
        }
        StoredNode::Edge { child, path, len } => {
            let nbytes = len.div_ceil(8) as usize;
            v.push(1);
            v.extend_from_slice(&felt_bytes(child));
            v.push(*len as u8);
            let mut be = [0u8; 32];
            for (i, limb) in path.iter().enumerate() {
                be[24 - 8 * i..32 - 8 * i].copy_from_slice(&limb.to_be_bytes());
            }
            v.extend_from_slice(&be[32 - nbytes..]);
        }
    }
}

pub(crate) fn decode_node(b: &[u8]) -> Result<StoredNode, StoreError> {
    const WHAT: &str = "trie node";
    match b.first() {
        Some(0) if b.len() == 65 => Ok(StoredNode::Binary {
            left: read_felt(b, 1, WHAT)?,
            right: read_felt(b, 33, WHAT)?,
        }),
        Some(1) if b.len() >= 34 => {
            let len = b[33] as u32;
            let nbytes = len.div_ceil(8) as usize;
            if len == 0 || len > HEIGHT || b.len() != 34 + nbytes {
                return Err(StoreError::Corrupt(format!(
                    "{WHAT}: bad edge length {len}"
                )));
            }
            let path = from_be(&b[34..]);
            if bits::bit_len(&path) > len {
                return Err(StoreError::Corrupt(format!(
                    "{WHAT}: edge path wider than {len} bits"
                )));
            }
            Ok(StoredNode::Edge {
                child: read_felt(b, 1, WHAT)?,
                path,
                len,
            })
        }
        _ => Err(StoreError::Corrupt(format!("{WHAT}: unknown record"))),
    }
}

pub(crate) fn felt_key(f: &Felt) -> Vec<u8> {
    felt_bytes(f).to_vec()
}

pub(crate) fn encode_felt(f: &Felt) -> Vec<u8> {
    felt_bytes(f).to_vec()
}

pub(crate) fn decode_felt(b: &[u8], what: &str) -> Result<Felt, StoreError> {
    if b.len() != 32 {
        return Err(StoreError::Corrupt(format!("{what}: expected 32 bytes")));
    }
    read_felt(b, 0, what)
}

/// A contract's record in `Contracts`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ContractRecord {
    pub class_hash: Felt,
    pub nonce: Felt,
    pub storage_root: Felt,
}

pub(crate) fn encode_contract(c: &ContractRecord) -> Vec<u8> {
    let mut v = Vec::with_capacity(96);
    for f in [&c.class_hash, &c.nonce, &c.storage_root] {
        v.extend_from_slice(&felt_bytes(f));
    }
    v
}

pub(crate) fn decode_contract(b: &[u8]) -> Result<ContractRecord, StoreError> {
    const WHAT: &str = "contract record";
    if b.len() != 96 {
        return Err(StoreError::Corrupt(format!("{WHAT}: expected 96 bytes")));
    }
    Ok(ContractRecord {
        class_hash: read_felt(b, 0, WHAT)?,
        nonce: read_felt(b, 32, WHAT)?,
        storage_root: read_felt(b, 64, WHAT)?,
    })
}

/// The roots of one block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockRoots {
    pub state_root: Felt,
    pub contract_root: Felt,
    pub class_root: Felt,
    pub rule: StateRootRule,
}

fn rule_byte(r: StateRootRule) -> u8 {
    match r {
        StateRootRule::Before0_14_0 => 0,
        StateRootRule::From0_14_0 => 1,
    }
}

fn rule_of(b: u8, what: &str) -> Result<StateRootRule, StoreError> {
    match b {
        0 => Ok(StateRootRule::Before0_14_0),
        1 => Ok(StateRootRule::From0_14_0),
        _ => Err(StoreError::Corrupt(format!("{what}: unknown rule {b}"))),
    }
}

fn push_roots(v: &mut Vec<u8>, r: &BlockRoots) {
    for f in [&r.state_root, &r.contract_root, &r.class_root] {
        v.extend_from_slice(&felt_bytes(f));
    }
    v.push(rule_byte(r.rule));
}

fn read_roots(b: &[u8], at: usize, what: &str) -> Result<BlockRoots, StoreError> {
    Ok(BlockRoots {
        state_root: read_felt(b, at, what)?,
        contract_root: read_felt(b, at + 32, what)?,
        class_root: read_felt(b, at + 64, what)?,
        rule: rule_of(
            *b.get(at + 96)
                .ok_or_else(|| StoreError::Corrupt(format!("{what}: record too short")))?,
            what,
        )?,
    })
}

/// The `Meta` record of the latest block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Latest {
    pub block: u64,
    pub roots: BlockRoots,
    /// The first block the store holds (an import's block, or the first commit).
    pub first: u64,
    /// The oldest block `revert_to` can restore.
    pub oldest: u64,
}

pub(crate) const LATEST_KEY: &[u8] = b"latest";

pub(crate) fn encode_latest(l: &Latest) -> Vec<u8> {
    let mut v = Vec::with_capacity(8 + 97 + 16);
    v.extend_from_slice(&l.block.to_be_bytes());
    push_roots(&mut v, &l.roots);
    v.extend_from_slice(&l.first.to_be_bytes());
    v.extend_from_slice(&l.oldest.to_be_bytes());
    v
}

pub(crate) fn decode_latest(b: &[u8]) -> Result<Latest, StoreError> {
    const WHAT: &str = "latest-block record";
    if b.len() != 8 + 97 + 16 {
        return Err(StoreError::Corrupt(format!("{WHAT}: bad length")));
    }
    Ok(Latest {
        block: read_u64(b, 0, WHAT)?,
        roots: read_roots(b, 8, WHAT)?,
        first: read_u64(b, 105, WHAT)?,
        oldest: read_u64(b, 113, WHAT)?,
    })
}

pub(crate) fn roots_key(block: u64) -> Vec<u8> {
    let mut k = vec![b'r'];
    k.extend_from_slice(&block.to_be_bytes());
    k
}

pub(crate) fn reverse_diff_key(block: u64) -> Vec<u8> {
    let mut k = vec![b'd'];
    k.extend_from_slice(&block.to_be_bytes());
    k
}

pub(crate) fn encode_roots(r: &BlockRoots) -> Vec<u8> {
    let mut v = Vec::with_capacity(97);
    push_roots(&mut v, r);
    v
}

pub(crate) fn decode_roots(b: &[u8]) -> Result<BlockRoots, StoreError> {
    if b.len() != 97 {
        return Err(StoreError::Corrupt("block roots record: bad length".into()));
    }
    read_roots(b, 0, "block roots record")
}

/// What one block overwrote (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReverseDiff {
    /// `(address, key, old value)`; 0: the key was absent.
    pub storage: Vec<(Felt, Felt, Felt)>,
    /// `(address, old record)`; `None`: the contract did not exist.
    pub contracts: Vec<(Felt, Option<ContractRecord>)>,
    /// `(class hash, old compiled class hash)`; 0: not declared.
    pub classes: Vec<(Felt, Felt)>,
}

pub(crate) fn encode_reverse_diff(d: &ReverseDiff) -> Vec<u8> {
    let mut v = Vec::with_capacity(
        12 + 96 * d.storage.len() + 97 * d.contracts.len() + 64 * d.classes.len(),
    );
    v.extend_from_slice(&(d.storage.len() as u32).to_be_bytes());
    for (a, k, old) in &d.storage {
        for f in [a, k, old] {
            v.extend_from_slice(&felt_bytes(f));
        }
    }
    v.extend_from_slice(&(d.contracts.len() as u32).to_be_bytes());
    for (a, rec) in &d.contracts {
        v.extend_from_slice(&felt_bytes(a));
        match rec {
            None => v.push(0),
            Some(r) => {
                v.push(1);
                v.extend_from_slice(&encode_contract(r));
            }
        }
    }
    v.extend_from_slice(&(d.classes.len() as u32).to_be_bytes());
    for (c, old) in &d.classes {
        v.extend_from_slice(&felt_bytes(c));
        v.extend_from_slice(&felt_bytes(old));
    }
    v
}

pub(crate) fn decode_reverse_diff(b: &[u8]) -> Result<ReverseDiff, StoreError> {
    const WHAT: &str = "reverse diff";
    let mut d = ReverseDiff::default();
    let mut at = 0;
    let n = read_u32(b, at, WHAT)? as usize;
    at += 4;
    for _ in 0..n {
        d.storage.push((
            read_felt(b, at, WHAT)?,
            read_felt(b, at + 32, WHAT)?,
            read_felt(b, at + 64, WHAT)?,
        ));
        at += 96;
    }
    let n = read_u32(b, at, WHAT)? as usize;
    at += 4;
    for _ in 0..n {
        let a = read_felt(b, at, WHAT)?;
        at += 32;
        match b.get(at) {
            Some(0) => {
                at += 1;
                d.contracts.push((a, None));
            }
            Some(1) => {
                let rec =
                    decode_contract(b.get(at + 1..at + 97).ok_or_else(|| {
                        StoreError::Corrupt(format!("{WHAT}: record too short"))
                    })?)?;
                at += 97;
                d.contracts.push((a, Some(rec)));
            }
            _ => return Err(StoreError::Corrupt(format!("{WHAT}: bad contract entry"))),
        }
    }
    let n = read_u32(b, at, WHAT)? as usize;
    at += 4;
    for _ in 0..n {
        d.classes
            .push((read_felt(b, at, WHAT)?, read_felt(b, at + 32, WHAT)?));
        at += 64;
    }
    if at != b.len() {
        return Err(StoreError::Corrupt(format!("{WHAT}: trailing bytes")));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_records_round_trip() {
        let f = |x: u64| Felt::from(x);
        let nodes = [
            StoredNode::Binary {
                left: f(1),
                right: Felt::MAX,
            },
            StoredNode::Edge {
                child: f(7),
                path: [5, 0, 0, 0],
                len: 3,
            },
            StoredNode::Edge {
                child: f(7),
                path: [u64::MAX, u64::MAX, u64::MAX, (1 << 59) - 1],
                len: 251,
            },
            StoredNode::Edge {
                child: f(9),
                path: [0; 4],
                len: 8,
            },
        ];
        for n in nodes {
            assert_eq!(decode_node(&encode_node(&n)).unwrap(), n);
        }
        // Wider than its length, unknown tags, truncation: errors.
        let mut bad = encode_node(&nodes[1]);
        *bad.last_mut().unwrap() = 0xff;
        assert!(decode_node(&bad).is_err());
        assert!(decode_node(&[7]).is_err());
        assert!(decode_node(&encode_node(&nodes[0])[..40]).is_err());
    }

    #[test]
    fn node_keys_are_distinct_and_grouped_by_path() {
        let key: U256 = [0x1234_5678, 0, 0, 1 << 58];
        let mut keys: Vec<Vec<u8>> = (0..HEIGHT)
            .map(|d| node_key(TrieId::Contracts, &Pos::of_key(&key, d)))
            .collect();
        keys.push(node_key(TrieId::Storage(Felt::ONE), &Pos::ROOT));
        keys.push(node_key(TrieId::Classes, &Pos::ROOT));
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }

    #[test]
    fn records_round_trip() {
        let r = BlockRoots {
            state_root: Felt::from(1u64),
            contract_root: Felt::MAX,
            class_root: Felt::ZERO,
            rule: StateRootRule::Before0_14_0,
        };
        let l = Latest {
            block: 77,
            roots: r,
            first: 3,
            oldest: 9,
        };
        assert_eq!(decode_latest(&encode_latest(&l)).unwrap(), l);
        assert_eq!(decode_roots(&encode_roots(&r)).unwrap(), r);
        let d = ReverseDiff {
            storage: vec![(Felt::ONE, Felt::TWO, Felt::ZERO)],
            contracts: vec![
                (Felt::ONE, None),
                (
                    Felt::TWO,
                    Some(ContractRecord {
                        class_hash: Felt::THREE,
                        nonce: Felt::ONE,
                        storage_root: Felt::MAX,
                    }),
                ),
            ],
            classes: vec![(Felt::THREE, Felt::ONE)],
        };
        let b = encode_reverse_diff(&d);
        assert_eq!(decode_reverse_diff(&b).unwrap(), d);
        assert!(decode_reverse_diff(&b[..b.len() - 1]).is_err());
        assert!(decode_latest(&[0; 10]).is_err());
    }
}
