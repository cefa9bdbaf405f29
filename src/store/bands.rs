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
use std::collections::HashMap;

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

/// A band's nodes by index.
pub(crate) type Slots = [Option<StoredNode>; SLOTS];

/// A band record: per node its index (1 byte) and its encoding.
pub(crate) fn encode_band(slots: &Slots) -> Vec<u8> {
    let mut v = Vec::new();
    for (i, n) in slots.iter().enumerate() {
        if let Some(n) = n {
            v.push(i as u8);
            v.extend_from_slice(&codec::encode_node(n));
        }
    }
    v
}

pub(crate) fn decode_band(b: &[u8]) -> Result<Slots, StoreError> {
    let bad = |m: &str| StoreError::Corrupt(format!("trie band: {m}"));
    let mut slots: Slots = [None; SLOTS];
    let mut at = 0;
    let mut last = None;
    while at < b.len() {
        let i = b[at] as usize;
        if i >= SLOTS || last.is_some_and(|l| l >= i) {
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
        slots[i] = Some(codec::decode_node(rec)?);
        last = Some(i);
        at += 1 + len;
    }
    if last.is_none() {
        return Err(bad("empty band"));
    }
    Ok(slots)
}

/// The bands of one trie read (and later changed) by an update.
pub(crate) struct Bands {
    trie: TrieId,
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
    pub fn new(trie: TrieId) -> Self {
        Bands {
            trie,
            bands: HashMap::new(),
            reads: 0,
        }
    }

    fn band<R: StoreReader>(&mut self, reader: &R, band: &Pos) -> Result<&mut Band, StoreError> {
        let key = (band.depth, band.path);
        if !self.bands.contains_key(&key) {
            self.reads += 1;
            let slots = match reader.get(Column::Nodes, &codec::node_key(self.trie, band))? {
                Some(v) => decode_band(&v)?,
                None => [None; SLOTS],
            };
            self.bands.insert(
                key,
                Band {
                    slots,
                    dirty: false,
                },
            );
        }
        Ok(self.bands.get_mut(&key).unwrap_or_else(|| unreachable!()))
    }

    /// The stored node at `pos`.
    pub fn get<R: StoreReader>(&mut self, reader: &R, pos: &Pos) -> Result<StoredNode, StoreError> {
        let (band, i) = locate(pos);
        let trie = self.trie;
        self.band(reader, &band)?.slots[i].ok_or_else(|| {
            StoreError::Corrupt(format!(
                "{trie:?}: missing trie node at depth {}",
                pos.depth
            ))
        })
    }

    /// Sets (`Some`) or removes (`None`) the node at `pos`.
    pub fn set<R: StoreReader>(
        &mut self,
        reader: &R,
        pos: &Pos,
        node: Option<StoredNode>,
    ) -> Result<(), StoreError> {
        let (band, i) = locate(pos);
        let b = self.band(reader, &band)?;
        if b.slots[i] != node {
            b.slots[i] = node;
            b.dirty = true;
        }
        Ok(())
    }

    /// Every changed band: its key and its new record (`None`: the band is now empty).
    pub fn records(&self) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
        let mut out: Vec<(Vec<u8>, Option<Vec<u8>>)> = self
            .bands
            .iter()
            .filter(|(_, b)| b.dirty)
            .map(|(&(depth, path), b)| {
                let key = codec::node_key(self.trie, &Pos { depth, path });
                let rec = b
                    .slots
                    .iter()
                    .any(Option::is_some)
                    .then(|| encode_band(&b.slots));
                (key, rec)
            })
            .collect();
        out.sort();
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
    fn band_records_round_trip() {
        let mut s: Slots = [None; SLOTS];
        s[0] = Some(StoredNode::Binary {
            left: Felt::ONE,
            right: Felt::TWO,
        });
        s[9] = Some(StoredNode::Edge {
            child: Felt::THREE,
            path: [0x1f, 0, 0, 0],
            len: 13,
        });
        let b = encode_band(&s);
        assert_eq!(decode_band(&b).unwrap(), s);
        assert!(decode_band(&b[..b.len() - 1]).is_err());
        assert!(decode_band(&[]).is_err());
        let mut unsorted = b.clone();
        unsorted[0] = 14;
        assert!(decode_band(&unsorted).is_err());
    }
}
