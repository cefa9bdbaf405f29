//! The block journal: what makes a commit durable with one small sequential write.
//!
//! A redb commit that must be on disk when it returns costs an fsync of every page the block
//! dirtied (tens of MB for a mainnet-shaped block: each changed record dirties a 4 KiB page).
//! So a store opened from a directory writes each block's batch to redb *deferred* (visible at
//! once, not yet synced) and appends the block's **diff** to this journal, synced: a few hundred
//! KB in one sequential write. Every `checkpoint` blocks one immediate redb commit makes the
//! deferred ones durable and the journal is emptied.
//!
//! After a crash redb opens at its last durable commit (block `C`) and the journal's entries
//! for blocks `C + 1, C + 2, …` are committed again, in order, each checked against the roots
//! it recorded; a torn last entry (a crash during its append) is dropped, since its commit had
//! not returned. So every block whose `commit` returned survives, and none is half-written.
//!
//! # Entry layout
//! `"SBJ1"` · block (8) · payload length (4) · payload · the first 16 bytes of
//! SHA-256(block · length · payload). The payload: the roots before the block (97 bytes, as in
//! `codec`), the roots after it, then the diff: `u32` count of contracts with storage writes,
//! each address · `u32` count · (key · value)…; `u32` count of contract changes, each address ·
//! flags (1: class hash follows, 2: nonce follows) · …; `u32` count of classes, each class hash
//! · compiled class hash.

use super::codec::{self, BlockRoots};
use super::diff::{Changes, ContractChange};
use super::error::StoreError;
use super::update::Change;
use crate::Felt;
use sha2::{Digest, Sha256};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 4] = b"SBJ1";

/// One journaled block.
#[derive(Debug)]
pub(crate) struct Entry {
    pub block: u64,
    pub before: Option<BlockRoots>,
    pub after: BlockRoots,
    pub changes: Changes,
}

/// The journal file (see the module docs).
#[derive(Debug)]
pub(crate) struct Journal {
    file: File,
    path: PathBuf,
    len: u64,
    /// Entries appended since the journal was last emptied.
    pub entries: u64,
}

fn io(path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Database(format!("{}: {e}", path.display()))
}

fn checksum(block: u64, payload: &[u8]) -> [u8; 16] {
    let mut h = Sha256::new();
    h.update(block.to_be_bytes());
    h.update((payload.len() as u32).to_be_bytes());
    h.update(payload);
    let d = h.finalize();
    let mut out = [0u8; 16];
    out.copy_from_slice(&d[..16]);
    out
}

fn push_felt(v: &mut Vec<u8>, f: &Felt) {
    v.extend_from_slice(&f.to_bytes_be());
}

fn encode(before: Option<&BlockRoots>, after: &BlockRoots, c: &Changes) -> Vec<u8> {
    let mut v = Vec::new();
    match before {
        Some(r) => {
            v.push(1);
            v.extend_from_slice(&codec::encode_roots(r));
        }
        None => v.push(0),
    }
    v.extend_from_slice(&codec::encode_roots(after));
    v.extend_from_slice(&(c.storage.len() as u32).to_be_bytes());
    for (a, ch) in &c.storage {
        push_felt(&mut v, a);
        v.extend_from_slice(&(ch.len() as u32).to_be_bytes());
        for w in ch {
            let key = Felt::from_raw_limbs(w.key).unwrap_or_else(|| unreachable!("keys < 2^251"));
            push_felt(&mut v, &key);
            push_felt(&mut v, &w.value);
        }
    }
    let updates: Vec<(&Felt, Option<Felt>, Option<Felt>)> = c
        .contracts
        .values()
        .filter_map(|(a, ch)| match ch {
            ContractChange::Update { class_hash, nonce } => Some((a, *class_hash, *nonce)),
            ContractChange::Restore(_) => None,
        })
        .collect();
    v.extend_from_slice(&(updates.len() as u32).to_be_bytes());
    for (a, class, nonce) in updates {
        push_felt(&mut v, a);
        v.push(class.is_some() as u8 | (nonce.is_some() as u8) << 1);
        for f in class.iter().chain(nonce.iter()) {
            push_felt(&mut v, f);
        }
    }
    v.extend_from_slice(&(c.classes.len() as u32).to_be_bytes());
    for (class, cch) in c.classes.values() {
        push_felt(&mut v, class);
        push_felt(&mut v, &cch.unwrap_or(Felt::ZERO));
    }
    v
}

struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], StoreError> {
        let s = self
            .b
            .get(self.at..self.at + n)
            .ok_or_else(|| StoreError::Corrupt("journal entry too short".into()))?;
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, StoreError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<usize, StoreError> {
        Ok(u32::from_be_bytes(self.take(4)?.try_into().unwrap_or_default()) as usize)
    }
    fn felt(&mut self) -> Result<Felt, StoreError> {
        codec::decode_felt(self.take(32)?, "journal entry")
    }
    fn roots(&mut self) -> Result<BlockRoots, StoreError> {
        codec::decode_roots(self.take(97)?)
    }
}

fn decode(block: u64, payload: &[u8]) -> Result<Entry, StoreError> {
    let mut c = Cursor { b: payload, at: 0 };
    let before = match c.u8()? {
        0 => None,
        _ => Some(c.roots()?),
    };
    let after = c.roots()?;
    let mut changes = Changes::default();
    for _ in 0..c.u32()? {
        let a = c.felt()?;
        let n = c.u32()?;
        let mut ch = Vec::with_capacity(n.min(1 << 20));
        for _ in 0..n {
            let key = c.felt()?;
            let value = c.felt()?;
            ch.push(Change::new(key.to_raw_limbs(), value));
        }
        changes.storage.push((a, ch));
    }
    for _ in 0..c.u32()? {
        let a = c.felt()?;
        let flags = c.u8()?;
        let class_hash = if flags & 1 != 0 {
            Some(c.felt()?)
        } else {
            None
        };
        let nonce = if flags & 2 != 0 {
            Some(c.felt()?)
        } else {
            None
        };
        changes.contracts.insert(
            a.to_bytes_be(),
            (a, ContractChange::Update { class_hash, nonce }),
        );
    }
    for _ in 0..c.u32()? {
        let class = c.felt()?;
        let cch = c.felt()?;
        changes.classes.insert(
            class.to_bytes_be(),
            (class, (!cch.is_zero()).then_some(cch)),
        );
    }
    if c.at != payload.len() {
        return Err(StoreError::Corrupt("journal entry: trailing bytes".into()));
    }
    Ok(Entry {
        block,
        before,
        after,
        changes,
    })
}

impl Journal {
    /// Opens (or creates) the journal at `path` and reads its entries. A torn or damaged tail
    /// (a crash during an append) is cut off.
    pub fn open(path: &Path) -> Result<(Journal, Vec<Entry>), StoreError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| io(path, e))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| io(path, e))?;
        let mut entries = Vec::new();
        let mut at = 0usize;
        while let Some(head) = bytes.get(at..at + 16) {
            if &head[..4] != MAGIC {
                break;
            }
            let block = u64::from_be_bytes(head[4..12].try_into().unwrap_or_default());
            let len = u32::from_be_bytes(head[12..16].try_into().unwrap_or_default()) as usize;
            let Some(payload) = bytes.get(at + 16..at + 16 + len) else {
                break;
            };
            let Some(sum) = bytes.get(at + 16 + len..at + 32 + len) else {
                break;
            };
            if sum != checksum(block, payload) {
                break;
            }
            entries.push(decode(block, payload)?);
            at += 32 + len;
        }
        if at as u64 != bytes.len() as u64 {
            file.set_len(at as u64).map_err(|e| io(path, e))?;
            file.sync_all().map_err(|e| io(path, e))?;
        }
        file.seek(SeekFrom::End(0)).map_err(|e| io(path, e))?;
        let n = entries.len() as u64;
        Ok((
            Journal {
                file,
                path: path.to_path_buf(),
                len: at as u64,
                entries: n,
            },
            entries,
        ))
    }

    /// Appends block `block`'s entry and syncs it to disk.
    pub fn append(
        &mut self,
        block: u64,
        before: Option<&BlockRoots>,
        after: &BlockRoots,
        changes: &Changes,
    ) -> Result<(), StoreError> {
        let payload = encode(before, after, changes);
        let mut rec = Vec::with_capacity(payload.len() + 32);
        rec.extend_from_slice(MAGIC);
        rec.extend_from_slice(&block.to_be_bytes());
        rec.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        rec.extend_from_slice(&payload);
        rec.extend_from_slice(&checksum(block, &payload));
        let r = self
            .file
            .write_all(&rec)
            .and_then(|()| self.file.sync_data());
        if let Err(e) = r {
            // Cut the partial entry so that it is not replayed.
            let _ = self.truncate(self.len);
            return Err(io(&self.path, e));
        }
        self.len += rec.len() as u64;
        self.entries += 1;
        Ok(())
    }

    fn truncate(&mut self, len: u64) -> Result<(), StoreError> {
        self.file.set_len(len).map_err(|e| io(&self.path, e))?;
        self.file
            .seek(SeekFrom::Start(len))
            .map_err(|e| io(&self.path, e))?;
        self.file.sync_all().map_err(|e| io(&self.path, e))?;
        self.len = len;
        Ok(())
    }

    /// Empties the journal (after a durable database commit).
    pub fn clear(&mut self) -> Result<(), StoreError> {
        self.truncate(0)?;
        self.entries = 0;
        Ok(())
    }
}
