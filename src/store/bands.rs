//! Trie nodes grouped in bands: one database record holds every node of a trie whose top lies
//! in `BAND` consecutive levels under one path.
//!
//! A node at depth `d` belongs to the band rooted at depth `b = d - d % BAND` on the first `b`
//! bits of its path; inside the band it has the heap index `2^(d - b) - 1 + (its last d - b path
//! bits)`, so a band holds at most `2^BAND - 1` nodes. A write path of 20 binary levels touches
//! 5 band records instead of 20 node records, which is what a copy-on-write B-tree (redb)
//! charges for: every record written dirties a 4 KiB page (docs/store.md has the
//! measurements).
//!
//! [`Bands`] is a trie's read-and-write cache during an update: nodes are read band by band
//! through it, and the changed bands are written back whole.

use super::codec::{self, Pos, StoredNode, TrieId};
use super::error::StoreError;
use super::kv::{Column, StoreReader};
use crate::state::bits;
use foldhash::HashMap;

/// Levels per band.
pub(crate) const BAND: u32 = 6;
const SLOTS: usize = (1 << BAND) - 1;

/// The band a node position belongs to, and the node's index in it.
#[inline]
pub(crate) fn locate(pos: &Pos) -> (Pos, usize) {
    let off = pos.depth % BAND;
    let band = Pos {
        depth: pos.depth - off,
        path: bits::shr(&pos.path, off),
    };
    let suffix = (pos.path[0] & ((1u64 << off) - 1)) as usize;
    (band, (1usize << off) - 1 + suffix)
}

/// The node position of index `i` in `band`.
#[cfg(test)]
fn position(band: &Pos, i: usize) -> Pos {
    let off = (i + 1).ilog2();
    let suffix = (i + 1 - (1 << off)) as u64;
    band.descend(&[suffix, 0, 0, 0], off)
}

/// A band's nodes: `(index, node)`, sorted by index, at most [`SLOTS`] (a band near the root
/// is full; most bands deeper down hold one to three nodes, so a sparse list costs a tenth of
/// a full array of slots).
pub(crate) type Slots = Vec<(u8, StoredNode)>;

/// A band record: per node its index (1 byte) and its encoding.
pub(crate) fn encode_band(slots: &[(u8, StoredNode)]) -> Vec<u8> {
    let mut v = Vec::with_capacity(slots.len() * 66);
    for (i, n) in slots {
        v.push(*i);
        codec::encode_node_into(n, &mut v);
    }
    v
}

pub(crate) fn decode_band(b: &[u8]) -> Result<Slots, StoreError> {
    let bad = |m: &str| StoreError::Corrupt(format!("trie band: {m}"));
    let mut slots: Slots = Vec::new();
    let mut at = 0;
    while at < b.len() {
        let i = b[at];
        if i as usize >= SLOTS || slots.last().is_some_and(|l| l.0 >= i) {
            return Err(bad("bad node index"));
        }
        let len = match b.get(at + 1) {
            Some(0) => 65,
            Some(1) => 34 + (*b.get(at + 34).ok_or_else(|| bad("truncated"))? as usize).div_ceil(8),
            _ => return Err(bad("unknown node record")),
        };
        let rec = b
            .get(at + 1..at + 1 + len)
            .ok_or_else(|| bad("truncated"))?;
        slots.push((i, codec::decode_node(rec)?));
        at += 1 + len;
    }
    if slots.is_empty() {
        return Err(bad("empty band"));
    }
    Ok(slots)
}

/// The bands of one trie read (and later changed) by an update.
pub(crate) struct Bands {
    trie: TrieId,
    /// Whether the trie was empty: it has no stored bands to read.
    fresh: bool,
    bands: HashMap<(u32, [u64; 4]), Band>,
    /// Band records read from the database.
    pub reads: usize,
}

struct Band {
    slots: Slots,
    /// Whether the slots differ from the stored record.
    dirty: bool,
}

impl Bands {
    /// The bands of `trie`; `fresh`: the trie is empty (its root is 0), so nothing is read.
    pub fn new(trie: TrieId, fresh: bool) -> Self {
        Bands {
            trie,
            fresh,
            bands: HashMap::default(),
            reads: 0,
        }
    }

    fn band<R: StoreReader>(&mut self, reader: &R, band: &Pos) -> Result<&mut Band, StoreError> {
        let key = (band.depth, band.path);
        match self.bands.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => Ok(e.into_mut()),
            std::collections::hash_map::Entry::Vacant(e) => {
                let slots = if self.fresh {
                    Vec::new()
                } else {
                    self.reads += 1;
                    match reader.get(Column::Nodes, &codec::node_key(self.trie, band))? {
                        Some(v) => decode_band(&v)?,
                        None => Vec::new(),
                    }
                };
                Ok(e.insert(Band {
                    slots,
                    dirty: false,
                }))
            }
        }
    }

    /// The stored node at `pos`.
    pub fn get<R: StoreReader>(&mut self, reader: &R, pos: &Pos) -> Result<StoredNode, StoreError> {
        let (band, i) = locate(pos);
        let trie = self.trie;
        let b = self.band(reader, &band)?;
        match b.slots.binary_search_by_key(&(i as u8), |s| s.0) {
            Ok(j) => Ok(b.slots[j].1),
            Err(_) => Err(StoreError::Corrupt(format!(
                "{trie:?}: missing trie node at depth {}",
                pos.depth
            ))),
        }
    }

    /// Sets (`Some`) or removes (`None`) the node at `pos` (the one-at-a-time form of
    /// [`Bands::apply`], which the tests compare it with).
    #[cfg(test)]
    pub fn set<R: StoreReader>(
        &mut self,
        reader: &R,
        pos: &Pos,
        node: Option<StoredNode>,
    ) -> Result<(), StoreError> {
        let (band, i) = locate(pos);
        let b = self.band(reader, &band)?;
        let i = i as u8;
        match (b.slots.binary_search_by_key(&i, |s| s.0), node) {
            (Ok(j), Some(n)) if b.slots[j].1 != n => {
                b.slots[j].1 = n;
                b.dirty = true;
            }
            (Ok(_), Some(_)) => {}
            (Ok(j), None) => {
                b.slots.remove(j);
                b.dirty = true;
            }
            (Err(j), Some(n)) => {
                b.slots.insert(j, (i, n));
                b.dirty = true;
            }
            (Err(_), None) => {}
        }
        Ok(())
    }

    /// Applies `ops` in order: each sets (`Some`) or removes (`None`) the node at its position,
    /// the last operation on a position winning. The operations are sorted by band and slot and
    /// merged into each band in one pass, so a band is looked up once and its slots rebuilt
    /// once, however many of its nodes change: the result of one [`Bands::set`] per operation.
    /// Returns the number of positions left set and left removed.
    pub fn apply<R: StoreReader>(
        &mut self,
        reader: &R,
        ops: &[(Pos, Option<StoredNode>)],
    ) -> Result<(usize, usize), StoreError> {
        // (band depth, band path, slot, operation), sorted by band, slot and operation.
        let mut order: Vec<(u32, [u64; 4], u8, u32)> = ops
            .iter()
            .enumerate()
            .map(|(k, (pos, _))| {
                let (band, i) = locate(pos);
                (band.depth, band.path, i as u8, k as u32)
            })
            .collect();
        order.sort_unstable();
        let (mut puts, mut deletes) = (0, 0);
        let mut merged: Slots = Vec::new();
        for group in order.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            let band = Pos {
                depth: group[0].0,
                path: group[0].1,
            };
            let b = self.band(reader, &band)?;
            merged.clear();
            let mut changed = false;
            let mut old = b.slots.iter().peekable();
            for (j, &(_, _, i, k)) in group.iter().enumerate() {
                if group.get(j + 1).is_some_and(|next| next.2 == i) {
                    continue; // a later operation on the same slot wins
                }
                while let Some(s) = old.next_if(|s| s.0 < i) {
                    merged.push(*s);
                }
                let existing = old.next_if(|s| s.0 == i).map(|s| s.1);
                let new = ops[k as usize].1;
                changed |= existing != new;
                match new {
                    Some(n) => {
                        merged.push((i, n));
                        puts += 1;
                    }
                    None => deletes += 1,
                }
            }
            merged.extend(old);
            if changed {
                core::mem::swap(&mut b.slots, &mut merged);
                b.dirty = true;
            }
        }
        Ok((puts, deletes))
    }

    /// Every changed band: its key and its new record (`None`: the band is now empty).
    pub fn records(&self) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
        let mut out: Vec<(Vec<u8>, Option<Vec<u8>>)> = self
            .bands
            .iter()
            .filter(|(_, b)| b.dirty)
            .map(|(&(depth, path), b)| {
                let key = codec::node_key(self.trie, &Pos { depth, path });
                let rec = (!b.slots.is_empty()).then(|| encode_band(&b.slots));
                (key, rec)
            })
            .collect();
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Felt;

    #[test]
    fn positions_round_trip() {
        for depth in [0u32, 1, 3, 4, 5, 7, 8, 99, 248, 249, 250] {
            for path in [0u64, 1, 5, 0b1011] {
                let p = Pos {
                    depth,
                    path: bits::low_bits(&[path, 0, 0, 0], depth),
                };
                let (band, i) = locate(&p);
                assert!(i < SLOTS);
                assert_eq!(band.depth % BAND, 0);
                assert_eq!(position(&band, i), p, "depth {depth} path {path}");
            }
        }
    }

    #[test]
    fn apply_equals_one_set_at_a_time() {
        use crate::store::NodeStore;
        use crate::store::memory::MemoryStore;
        let kv = MemoryStore::default();
        let reader = kv.reader().unwrap();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for round in 0..200 {
            let mut a = Bands::new(TrieId::Contracts, true);
            let mut b = Bands::new(TrieId::Contracts, true);
            // Rounds of operations on overlapping positions in a few bands near the root.
            for _ in 0..3 {
                let mut ops: Vec<(Pos, Option<StoredNode>)> = Vec::new();
                for _ in 0..(next() % 40) {
                    let depth = (next() % 14) as u32;
                    let pos = Pos {
                        depth,
                        path: bits::low_bits(&[next(), 0, 0, 0], depth),
                    };
                    let node = (next() % 3 != 0).then(|| StoredNode::Binary {
                        left: Felt::from(next() % 4),
                        right: Felt::from(round as u64),
                    });
                    ops.push((pos, node));
                }
                for (p, n) in &ops {
                    a.set(&reader, p, *n).unwrap();
                }
                b.apply(&reader, &ops).unwrap();
                // The same bands with nodes; a band that one-at-a-time setting filled and
                // emptied again is a (harmless) delete record there, and not touched here.
                let (ra, rb) = (a.records(), b.records());
                let full = |r: &[(Vec<u8>, Option<Vec<u8>>)]| -> Vec<_> {
                    r.iter().filter(|x| x.1.is_some()).cloned().collect()
                };
                assert_eq!(full(&ra), full(&rb), "round {round}");
                for x in rb.iter().filter(|x| x.1.is_none()) {
                    assert!(ra.contains(x), "round {round}");
                }
            }
        }
    }

    #[test]
    fn band_records_round_trip() {
        let s: Slots = vec![
            (
                0,
                StoredNode::Binary {
                    left: Felt::ONE,
                    right: Felt::TWO,
                },
            ),
            (
                9,
                StoredNode::Edge {
                    child: Felt::THREE,
                    path: [0x1f, 0, 0, 0],
                    len: 13,
                },
            ),
        ];
        let b = encode_band(&s);
        assert_eq!(decode_band(&b).unwrap(), s);
        assert!(decode_band(&b[..b.len() - 1]).is_err());
        assert!(decode_band(&[]).is_err());
        let mut unsorted = b.clone();
        unsorted[0] = 14;
        assert!(decode_band(&unsorted).is_err());
    }
}
