//! Reads and proofs from the stored tries: the value at a key, and the nodes from the root to it
//! in the shape of the JSON-RPC `starknet_getStorageProof` node lists.
//!
//! A walk starts at the root (its hash is known: a contract's storage root, the contract-trie
//! or class-trie root) and follows the key's bits through binary nodes and edges. It ends at the
//! leaf (the value is the last child hash) or where the key leaves the trie (an edge whose path
//! differs from the key's bits, or an empty trie): the key is absent, value 0.
//!
//! [`verify`] checks a node list against a root without the store: every node's hash is
//! recomputed from its fields, and the walk must reach the key's leaf or a proof of its absence.

use super::bands::Bands;
use super::codec::{HEIGHT, Pos, StoredNode, TrieId};
use super::error::StoreError;
use super::kv::StoreReader;
use crate::Felt;
use crate::hash::PairHash;
use crate::state::bits::{self, U256};
use std::collections::HashMap;

/// A trie node of a proof, with its hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofNode {
    /// The node's hash.
    pub hash: Felt,
    /// The node.
    pub node: ProofNodeKind,
}

/// The two kinds of inner node (JSON-RPC `BINARY_NODE` and `EDGE_NODE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofNodeKind {
    /// `H(left, right)`.
    Binary {
        /// The left child's hash.
        left: Felt,
        /// The right child's hash.
        right: Felt,
    },
    /// `H(child, path) + length`.
    Edge {
        /// The hash of the node at the bottom of the edge.
        child: Felt,
        /// The edge's path bits, most significant first, as an integer.
        path: Felt,
        /// The number of path bits.
        length: u8,
    },
}

impl ProofNodeKind {
    /// The node's hash under `H`.
    ///
    /// ```
    /// use starkbatch::store::ProofNodeKind;
    /// use starkbatch::{poseidon_hash, Felt, Pedersen, Poseidon};
    /// let (child, path) = (Felt::from(100u64), Felt::from(5u64));
    /// // The root of the storage trie holding only key 5 → 100.
    /// let edge = ProofNodeKind::Edge { child, path, length: 251 };
    /// let want = "0x7f3b8d51706346def299eedb577ebb2a5648cd9efd6b8747678da66c4428ba8";
    /// assert_eq!(edge.hash::<Pedersen>().to_string(), want);
    /// let bin = ProofNodeKind::Binary { left: child, right: path };
    /// assert_eq!(bin.hash::<Poseidon>(), poseidon_hash(child, path));
    /// ```
    pub fn hash<H: PairHash>(&self) -> Felt {
        match *self {
            ProofNodeKind::Binary { left, right } => H::hash(&left, &right),
            ProofNodeKind::Edge {
                child,
                path,
                length,
            } => H::hash(&child, &path) + Felt::from(length as u64),
        }
    }
}

fn felt_of(x: &U256) -> Felt {
    Felt::from_raw_limbs(*x).unwrap_or_else(|| unreachable!("paths are below 2^251"))
}

/// The bits of `key` at depths `depth..depth + len`.
fn key_bits(key: &U256, depth: u32, len: u32) -> U256 {
    bits::low_bits(&bits::shr(key, HEIGHT - depth - len), len)
}

/// Walks `trie` (root hash `root`) towards `key`: the value (0 if absent) and, when `nodes` is
/// given, the nodes passed, root first.
pub(crate) fn walk<R: StoreReader>(
    reader: &R,
    trie: TrieId,
    root: Felt,
    key: &U256,
    mut nodes: Option<&mut Vec<ProofNode>>,
) -> Result<Felt, StoreError> {
    let mut bands = Bands::new(trie, false);
    let mut pos = Pos::ROOT;
    let mut hash = root;
    if root.is_zero() {
        return Ok(Felt::ZERO);
    }
    while pos.depth < HEIGHT {
        let node = bands.get(reader, &pos)?;
        let (kind, next) = match node {
            StoredNode::Binary { left, right } => {
                let bit = bits::shr(key, HEIGHT - 1 - pos.depth)[0] & 1;
                (
                    ProofNodeKind::Binary { left, right },
                    Some((pos.child(bit), if bit == 0 { left } else { right })),
                )
            }
            StoredNode::Edge { child, path, len } => (
                ProofNodeKind::Edge {
                    child,
                    path: felt_of(&path),
                    length: len as u8,
                },
                (key_bits(key, pos.depth, len) == path).then(|| (pos.descend(&path, len), child)),
            ),
        };
        if let Some(n) = nodes.as_deref_mut() {
            n.push(ProofNode { hash, node: kind });
        }
        match next {
            Some((p, h)) => {
                pos = p;
                hash = h;
            }
            None => return Ok(Felt::ZERO),
        }
    }
    Ok(hash)
}

/// Why a proof does not prove.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofError {
    /// A node's hash is not the hash of its fields.
    BadNodeHash(Felt),
    /// The walk from the root needs a node the proof does not hold.
    MissingNode(Felt),
    /// An edge of length 0 or longer than the rest of the trie, or a path wider than its length.
    MalformedNode(Felt),
    /// The key is not below 2^251.
    KeyOutOfRange,
    /// The global roots of a [`StorageProof`](super::StorageProof) do not give the state root.
    RootMismatch,
    /// A contract's leaf data is not the preimage of its proven leaf (or is not all 0 for an
    /// address without a contract).
    LeafMismatch(Felt),
    /// Storage keys are asked of a contract whose leaf the proof does not prove.
    UnprovenContract(Felt),
    /// The proof's lists do not have the request's lengths.
    Shape,
}

impl std::fmt::Display for ProofError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProofError::BadNodeHash(h) => {
                write!(f, "node {h}: its hash is not the hash of its fields")
            }
            ProofError::MissingNode(h) => write!(f, "the proof lacks node {h}"),
            ProofError::MalformedNode(h) => write!(f, "node {h} is malformed"),
            ProofError::KeyOutOfRange => write!(f, "the key is not below 2^251"),
            ProofError::RootMismatch => {
                write!(f, "the proof's trie roots do not give the state root")
            }
            ProofError::LeafMismatch(a) => {
                write!(f, "contract {a}: the leaf data is not its proven leaf")
            }
            ProofError::UnprovenContract(a) => write!(
                f,
                "contract {a}: storage keys asked, but its leaf is not proven"
            ),
            ProofError::Shape => write!(f, "the proof's lists do not match the request"),
        }
    }
}

impl std::error::Error for ProofError {}

/// Checks that `nodes` prove the value at `key` in the trie of root `root` (height 251, node
/// hash `H`) and returns that value (0: the key is absent).
///
/// Nodes may come in any order and may include nodes of other keys' paths (as one JSON-RPC
/// proof lists the nodes of several keys).
///
/// ```
/// use starkbatch::store::{verify, ProofError, ProofNode, ProofNodeKind};
/// use starkbatch::{Felt, Pedersen};
/// // The trie holding only key 5 → 100: its root is one edge node.
/// let (k, v) = (Felt::from(5u64), Felt::from(100u64));
/// let node = ProofNodeKind::Edge { child: v, path: k, length: 251 };
/// let root = node.hash::<Pedersen>();
/// let proof = [ProofNode { hash: root, node }];
/// assert_eq!(verify::<Pedersen>(root, &k, &proof), Ok(v));
/// assert_eq!(verify::<Pedersen>(root, &Felt::from(6u64), &proof), Ok(Felt::ZERO)); // absent
/// let forged = [ProofNode { hash: root, node: ProofNodeKind::Binary { left: v, right: k } }];
/// assert_eq!(verify::<Pedersen>(root, &k, &forged), Err(ProofError::BadNodeHash(root)));
/// ```
///
/// # Errors
/// [`ProofError`] if a node on the path is missing, malformed or has a wrong hash.
pub fn verify<H: PairHash>(
    root: Felt,
    key: &Felt,
    nodes: &[ProofNode],
) -> Result<Felt, ProofError> {
    let key = key.to_raw_limbs();
    if bits::bit_len(&key) > HEIGHT {
        return Err(ProofError::KeyOutOfRange);
    }
    let by_hash: HashMap<[u8; 32], &ProofNodeKind> = nodes
        .iter()
        .map(|n| (n.hash.to_bytes_be(), &n.node))
        .collect();
    let mut depth = 0u32;
    let mut hash = root;
    if root.is_zero() {
        return Ok(Felt::ZERO);
    }
    while depth < HEIGHT {
        let node = by_hash
            .get(&hash.to_bytes_be())
            .ok_or(ProofError::MissingNode(hash))?;
        if node.hash::<H>() != hash {
            return Err(ProofError::BadNodeHash(hash));
        }
        match **node {
            ProofNodeKind::Binary { left, right } => {
                let bit = bits::shr(&key, HEIGHT - 1 - depth)[0] & 1;
                hash = if bit == 0 { left } else { right };
                depth += 1;
            }
            ProofNodeKind::Edge {
                child,
                path,
                length,
            } => {
                let len = length as u32;
                let p = path.to_raw_limbs();
                if len == 0 || depth + len > HEIGHT || bits::bit_len(&p) > len {
                    return Err(ProofError::MalformedNode(hash));
                }
                if key_bits(&key, depth, len) != p {
                    return Ok(Felt::ZERO);
                }
                hash = child;
                depth += len;
            }
        }
    }
    Ok(hash)
}
