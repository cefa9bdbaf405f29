//! Applying a sorted set of leaf writes to one stored trie: the nodes that change, found by
//! reading only the paths to the written keys.
//!
//! # Method
//! The trie is walked from the root along the written keys. A stored node that no write goes
//! through is never read; its hash is known from its parent's record. Every node on a written
//! path is read once and replaced by a *dirty* node (an arena entry) whose hash is still to be
//! computed, or found unchanged (a write of the value already there, a delete of an absent key),
//! or removed. The cases, at a node `N` of depth `d` with writes `W` below it:
//!
//! - **leaf** (`d = 251`): the new value; 0 removes it.
//! - **binary**: `W` is split by the key bit at `d` and each side is updated. If one side
//!   becomes empty the node becomes an edge of one bit above the other side, and if that side
//!   is itself an edge the two merge (the lower edge's record is removed): edges stay maximal.
//! - **edge** (path `q` of `m` bits down to child `C`): if every key of `W` follows `q`, `C` is
//!   updated and the edge is re-joined above the result (merging as above). Otherwise the keys
//!   leave `q` after `j < m` bits: a new binary node at depth `d + j` gets on one side the rest
//!   of the old edge (with the writes that follow it) and on the other a subtrie built from the
//!   new keys, and an edge of `j` bits (if `j > 0`) is joined above it. Deletes of keys that are
//!   not there are dropped first, so they never split an edge.
//! - **empty** (a new subtrie): built directly from the keys, splitting where they first
//!   differ.
//!
//! The result is a tree of dirty nodes whose children are either dirty nodes or hashes of
//! unchanged subtries. [`TrieUpdate::finish`] ranks them: a node's rank is one more than its
//! highest-ranked dirty child, so all nodes of one rank can be hashed together once the ranks
//! below are done (`store::commit` hashes each rank of every trie in one batch).
//!
//! # Where the records go
//! Nodes are stored by path ([`Pos`]), so an unchanged subtrie keeps its records when an edge
//! above it splits or merges. Every stored node that was read and did not come out unchanged is
//! a removal candidate; [`TrieUpdate::finish`] keeps as removals the candidates no dirty node
//! now occupies.

use super::bands::Bands;
use super::codec::{HEIGHT, Pos, StoredNode, TrieId};
use super::error::StoreError;
use super::kv::StoreReader;
use crate::Felt;
use crate::state::bits::{self, U256};

/// One leaf write: `key` (below 2^251) gets `value` (0: delete). `old` is filled in with the
/// value the trie held (0: absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    pub key: U256,
    pub value: Felt,
    pub old: Felt,
}

impl Change {
    pub fn new(key: U256, value: Felt) -> Self {
        Change {
            key,
            value,
            old: Felt::ZERO,
        }
    }
}

/// A dirty node's child: a known hash (an unchanged subtrie or a leaf value) or another dirty
/// node.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Child {
    Hash(Felt),
    Node(u32),
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum DirtyKind {
    Binary { left: Child, right: Child },
    Edge { path: U256, len: u32, child: Child },
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct DirtyNode {
    pub pos: Pos,
    pub kind: DirtyKind,
    /// Set by the hashing pass.
    pub hash: Felt,
}

/// A subtrie after the update, as its parent sees it.
#[derive(Clone, Copy, Debug)]
enum Sub {
    /// No leaf left.
    Empty,
    /// Unchanged stored subtrie with this root hash.
    Same(Felt),
    /// A new or changed leaf (depth 251): its hash is the value.
    Leaf(Felt),
    /// A dirty node.
    Dirty(u32),
}

/// The update of one trie (see the module docs).
pub(crate) struct TrieUpdate {
    pub trie: TrieId,
    pub nodes: Vec<DirtyNode>,
    root: Sub,
    removed: Vec<Pos>,
    /// The trie's bands read so far (and, after [`TrieUpdate::band_records`], changed).
    bands: Bands,
    /// After [`TrieUpdate::finish`]: the live dirty nodes grouped by rank (`by_rank[r - 1]`).
    pub by_rank: Vec<Vec<u32>>,
}

struct Walk<'r, R> {
    reader: &'r R,
    u: TrieUpdate,
}

/// The key bit at `depth` (0 = the most significant of the 251).
#[inline]
fn bit_at(key: &U256, depth: u32) -> u64 {
    bits::shr(key, HEIGHT - 1 - depth)[0] & 1
}

/// The `len` key bits at depths `depth..depth + len`, as an integer.
#[inline]
fn bits_at(key: &U256, depth: u32, len: u32) -> U256 {
    bits::low_bits(&bits::shr(key, HEIGHT - depth - len), len)
}

/// The index splitting `ch` (sorted, all equal above `depth`) by the key bit at `depth`.
fn split_point(ch: &[Change], depth: u32) -> usize {
    ch.partition_point(|c| bit_at(&c.key, depth) == 0)
}

impl<R: StoreReader> Walk<'_, R> {
    fn load(&mut self, pos: &Pos) -> Result<StoredNode, StoreError> {
        self.u.bands.get(self.reader, pos)
    }

    fn push(&mut self, pos: Pos, kind: DirtyKind) -> Sub {
        self.u.nodes.push(DirtyNode {
            pos,
            kind,
            hash: Felt::ZERO,
        });
        Sub::Dirty((self.u.nodes.len() - 1) as u32)
    }

    fn child(sub: Sub) -> Child {
        match sub {
            Sub::Same(h) | Sub::Leaf(h) => Child::Hash(h),
            Sub::Dirty(id) => Child::Node(id),
            Sub::Empty => unreachable!("an empty subtrie is never a child"),
        }
    }

    /// The stored node at `pos` (hash `hash`) after the writes `ch` (non-empty, under `pos`).
    fn node(&mut self, pos: Pos, hash: Felt, ch: &mut [Change]) -> Result<Sub, StoreError> {
        if pos.depth == HEIGHT {
            // Keys are distinct, so exactly one write reaches a leaf.
            let c = &mut ch[0];
            c.old = hash;
            return Ok(if c.value == hash {
                Sub::Same(hash)
            } else if c.value.is_zero() {
                Sub::Empty
            } else {
                Sub::Leaf(c.value)
            });
        }
        match self.load(&pos)? {
            StoredNode::Binary { left, right } => {
                let (l, r) = ch.split_at_mut(split_point(ch, pos.depth));
                let ls = if l.is_empty() {
                    Sub::Same(left)
                } else {
                    self.node(pos.child(0), left, l)?
                };
                let rs = if r.is_empty() {
                    Sub::Same(right)
                } else {
                    self.node(pos.child(1), right, r)?
                };
                if let (Sub::Same(_), Sub::Same(_)) = (ls, rs) {
                    return Ok(Sub::Same(hash));
                }
                self.u.removed.push(pos);
                self.binary(pos, ls, rs)
            }
            StoredNode::Edge { child, path, len } => {
                self.edge(pos, Some(hash), path, len, child, ch)
            }
        }
    }

    /// The node at `pos` with children `l` and `r` (either may be empty).
    fn binary(&mut self, pos: Pos, l: Sub, r: Sub) -> Result<Sub, StoreError> {
        match (l, r) {
            (Sub::Empty, Sub::Empty) => Ok(Sub::Empty),
            (Sub::Empty, x) => self.join(pos, [1, 0, 0, 0], 1, x),
            (x, Sub::Empty) => self.join(pos, [0; 4], 1, x),
            (l, r) => Ok(self.push(
                pos,
                DirtyKind::Binary {
                    left: Self::child(l),
                    right: Self::child(r),
                },
            )),
        }
    }

    /// An edge of `len` bits `path` from `top` down to `sub`, merged with `sub` if that is an
    /// edge (edges are maximal).
    fn join(&mut self, top: Pos, path: U256, len: u32, sub: Sub) -> Result<Sub, StoreError> {
        if len == 0 {
            return Ok(sub);
        }
        let edge = |path, len, child| DirtyKind::Edge { path, len, child };
        match sub {
            Sub::Empty => Ok(Sub::Empty),
            Sub::Leaf(v) => Ok(self.push(top, edge(path, len, Child::Hash(v)))),
            Sub::Dirty(id) => {
                if let DirtyKind::Edge {
                    path: p2,
                    len: m2,
                    child,
                } = self.u.nodes[id as usize].kind
                {
                    let node = &mut self.u.nodes[id as usize];
                    node.pos = top;
                    node.kind = edge(bits::or(&bits::shl(&path, m2), &p2), len + m2, child);
                    Ok(Sub::Dirty(id))
                } else {
                    Ok(self.push(top, edge(path, len, Child::Node(id))))
                }
            }
            Sub::Same(h) => {
                let below = top.descend(&path, len);
                if below.depth < HEIGHT
                    && let StoredNode::Edge {
                        child,
                        path: p2,
                        len: m2,
                    } = self.load(&below)?
                {
                    self.u.removed.push(below);
                    return Ok(self.push(
                        top,
                        edge(
                            bits::or(&bits::shl(&path, m2), &p2),
                            len + m2,
                            Child::Hash(child),
                        ),
                    ));
                }
                Ok(self.push(top, edge(path, len, Child::Hash(h))))
            }
        }
    }

    /// An edge left as it was. A stored edge is unchanged; a virtual one (the rest of a split
    /// edge, `stored == None`) becomes a dirty node of its own.
    fn same_edge(
        &mut self,
        pos: Pos,
        stored: Option<Felt>,
        path: U256,
        len: u32,
        child: Felt,
    ) -> Sub {
        match stored {
            _ if len == 0 => Sub::Same(child),
            Some(h) => Sub::Same(h),
            None => self.push(
                pos,
                DirtyKind::Edge {
                    path,
                    len,
                    child: Child::Hash(child),
                },
            ),
        }
    }

    /// The edge at `pos` (`len` bits `path` down to a stored node of hash `child`) after the
    /// writes `ch` (non-empty). `stored` is the edge's hash when it is a stored record, `None`
    /// when it is the rest of an edge split above (`len` may then be 0).
    fn edge(
        &mut self,
        pos: Pos,
        stored: Option<Felt>,
        path: U256,
        len: u32,
        child: Felt,
        ch: &mut [Change],
    ) -> Result<Sub, StoreError> {
        // How many leading bits of the edge every key follows: the keys are sorted, so the
        // shortest match is at the first or the last key.
        let follow = |key: &U256| {
            let x = bits::xor(&bits_at(key, pos.depth, len), &path);
            bits::highest_bit(&x).map_or(len, |b| len - 1 - b)
        };
        let j = follow(&ch[0].key).min(follow(&ch[ch.len() - 1].key));
        let below = pos.descend(&path, len);
        if j == len {
            let sub = self.node(below, child, ch)?;
            if let Sub::Same(_) = sub {
                return Ok(self.same_edge(pos, stored, path, len, child));
            }
            if stored.is_some() {
                self.u.removed.push(pos);
            }
            return self.join(pos, path, len, sub);
        }
        // The keys leave the edge after j bits, at depth s.
        let s = pos.depth + j;
        let edge_bit = (bits::shr(&path, len - 1 - j)[0]) & 1;
        let cut = split_point(ch, s);
        let (along, off) = if edge_bit == 0 {
            let (a, o) = ch.split_at_mut(cut);
            (a, o)
        } else {
            let (o, a) = ch.split_at_mut(cut);
            (a, o)
        };
        // Keys off the edge are absent (old stays 0); only their non-zero writes add leaves.
        let fresh: Vec<(U256, Felt)> = off
            .iter()
            .filter(|c| !c.value.is_zero())
            .map(|c| (c.key, c.value))
            .collect();
        if fresh.is_empty() {
            if along.is_empty() {
                return Ok(self.same_edge(pos, stored, path, len, child));
            }
            return self.edge(pos, stored, path, len, child, along);
        }
        if stored.is_some() {
            self.u.removed.push(pos);
        }
        let split = pos.descend(&bits::shr(&path, len - j), j);
        let rest = len - j - 1;
        let rest_path = bits::low_bits(&path, rest);
        let along_pos = split.child(edge_bit);
        let along_sub = if along.is_empty() {
            self.same_edge(along_pos, None, rest_path, rest, child)
        } else {
            self.edge(along_pos, None, rest_path, rest, child, along)?
        };
        let new_sub = self.build(split.child(1 - edge_bit), &fresh);
        let (l, r) = if edge_bit == 0 {
            (along_sub, new_sub)
        } else {
            (new_sub, along_sub)
        };
        let bin = self.binary(split, l, r)?;
        self.join(pos, bits::shr(&path, len - j), j, bin)
    }

    /// A new subtrie at `pos` holding `kv` (sorted, distinct keys under `pos`, values non-zero).
    fn build(&mut self, pos: Pos, kv: &[(U256, Felt)]) -> Sub {
        match kv {
            [] => Sub::Empty,
            [(key, value)] => {
                if pos.depth == HEIGHT {
                    Sub::Leaf(*value)
                } else {
                    let len = HEIGHT - pos.depth;
                    self.push(
                        pos,
                        DirtyKind::Edge {
                            path: bits::low_bits(key, len),
                            len,
                            child: Child::Hash(*value),
                        },
                    )
                }
            }
            _ => {
                let first = &kv[0].0;
                let x = bits::xor(first, &kv[kv.len() - 1].0);
                let s = HEIGHT - 1 - bits::highest_bit(&x).unwrap_or(0);
                let split = Pos::of_key(first, s);
                let cut = kv.partition_point(|(k, _)| bit_at(k, s) == 0);
                let l = self.build(split.child(0), &kv[..cut]);
                let r = self.build(split.child(1), &kv[cut..]);
                let bin = self.push(
                    split,
                    DirtyKind::Binary {
                        left: Self::child(l),
                        right: Self::child(r),
                    },
                );
                let len = s - pos.depth;
                if len == 0 {
                    bin
                } else {
                    let Sub::Dirty(id) = bin else { unreachable!() };
                    self.push(
                        pos,
                        DirtyKind::Edge {
                            path: bits_at(first, pos.depth, len),
                            len,
                            child: Child::Node(id),
                        },
                    )
                }
            }
        }
    }
}

impl TrieUpdate {
    /// Walks `trie` (root hash `root`, 0 when empty) along `changes` (sorted by key, distinct
    /// keys below 2^251) and fills in each change's old value.
    pub fn new<R: StoreReader>(
        reader: &R,
        trie: TrieId,
        root: Felt,
        changes: &mut [Change],
    ) -> Result<TrieUpdate, StoreError> {
        let mut w = Walk {
            reader,
            u: TrieUpdate {
                trie,
                nodes: Vec::new(),
                root: Sub::Same(root),
                removed: Vec::new(),
                bands: Bands::new(trie, root.is_zero()),
                by_rank: Vec::new(),
            },
        };
        if !changes.is_empty() {
            w.u.root = if root.is_zero() {
                let kv: Vec<(U256, Felt)> = changes
                    .iter()
                    .filter(|c| !c.value.is_zero())
                    .map(|c| (c.key, c.value))
                    .collect();
                w.build(Pos::ROOT, &kv)
            } else {
                w.node(Pos::ROOT, root, changes)?
            };
        }
        let mut u = w.u;
        u.rank();
        Ok(u)
    }

    /// Groups the dirty nodes reachable from the root by rank (see the module docs).
    fn rank(&mut self) {
        let Sub::Dirty(root) = self.root else { return };
        // Iterative post-order: (node, children visited).
        let mut rank = vec![0u32; self.nodes.len()];
        let mut stack = vec![(root, false)];
        while let Some((id, visited)) = stack.pop() {
            let kids = match self.nodes[id as usize].kind {
                DirtyKind::Binary { left, right } => [Some(left), Some(right)],
                DirtyKind::Edge { child, .. } => [Some(child), None],
            };
            if !visited {
                stack.push((id, true));
                for k in kids.into_iter().flatten() {
                    if let Child::Node(c) = k {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let r = 1 + kids
                .into_iter()
                .flatten()
                .map(|k| match k {
                    Child::Node(c) => rank[c as usize],
                    Child::Hash(_) => 0,
                })
                .max()
                .unwrap_or(0);
            rank[id as usize] = r;
            if self.by_rank.len() < r as usize {
                self.by_rank.resize_with(r as usize, Vec::new);
            }
            self.by_rank[r as usize - 1].push(id);
        }
    }

    /// The pair to hash for dirty node `id` (its children must be hashed).
    #[inline]
    pub fn pair(&self, id: u32) -> [Felt; 2] {
        match self.nodes[id as usize].kind {
            DirtyKind::Binary { left, right } => [self.resolve(left), self.resolve(right)],
            DirtyKind::Edge { path, child, .. } => [self.resolve(child), felt_of(&path)],
        }
    }

    /// Records `h` (the pair's hash) as node `id`'s hash (adding the edge length).
    #[inline]
    pub fn set_hash(&mut self, id: u32, h: Felt) {
        let node = &mut self.nodes[id as usize];
        node.hash = match node.kind {
            DirtyKind::Edge { len, .. } => h + Felt::from(len as u64),
            DirtyKind::Binary { .. } => h,
        };
    }

    fn resolve(&self, c: Child) -> Felt {
        match c {
            Child::Hash(h) => h,
            Child::Node(id) => self.nodes[id as usize].hash,
        }
    }

    /// The new root hash (after hashing).
    pub fn root(&self) -> Felt {
        match self.root {
            Sub::Empty => Felt::ZERO,
            Sub::Same(h) | Sub::Leaf(h) => h,
            Sub::Dirty(id) => self.nodes[id as usize].hash,
        }
    }

    /// The number of dirty nodes to hash.
    pub fn dirty(&self) -> usize {
        self.by_rank.iter().map(Vec::len).sum()
    }

    /// The band records to write (`Some`) or delete (`None`), by key, after hashing; also the
    /// number of nodes put and deleted and of band records read.
    pub fn band_records<R: StoreReader>(
        &mut self,
        reader: &R,
    ) -> Result<(BandRecords, usize, usize, usize), StoreError> {
        // Removed positions first, then every dirty node: where a node was removed and a new
        // one took its place, the put (later) wins.
        let mut ops: Vec<(Pos, Option<StoredNode>)> =
            Vec::with_capacity(self.removed.len() + self.dirty());
        ops.extend(self.removed.iter().map(|p| (*p, None)));
        for &id in self.by_rank.iter().flatten() {
            let n = &self.nodes[id as usize];
            let rec = match n.kind {
                DirtyKind::Binary { left, right } => StoredNode::Binary {
                    left: self.resolve(left),
                    right: self.resolve(right),
                },
                DirtyKind::Edge { path, len, child } => StoredNode::Edge {
                    child: self.resolve(child),
                    path,
                    len,
                },
            };
            ops.push((n.pos, Some(rec)));
        }
        let (puts, deletes) = self.bands.apply(reader, &ops)?;
        Ok((self.bands.records(), puts, deletes, self.bands.reads))
    }
}

/// Band records by key: `Some(record)` to write, `None` to delete.
pub(crate) type BandRecords = Vec<(Vec<u8>, Option<Vec<u8>>)>;

/// An edge path (below 2^251) as a field element.
fn felt_of(x: &U256) -> Felt {
    Felt::from_raw_limbs(*x).unwrap_or_else(|| unreachable!("edge paths are below 2^251 < p"))
}
