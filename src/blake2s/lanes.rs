//! Blake2s-256 of many felt messages at once, one message per SIMD lane, generic over the
//! 32-bit word vectors of `crate::backend::words`.
//!
//! # Layout
//! The state of lane `l` is column `l` of eight word rows (`h[i][l]`), and its current message
//! block is column `l` of sixteen rows (`m[j][l]`): one [`Words`] load per row gives the
//! message-parallel form the compression function needs, with no transposition. The felt
//! encoding (`super::felt_words`) writes its words straight into the lane's column, so
//! encoding and gathering are one pass.
//!
//! # Scheduling
//! Messages have any lengths. Each lane takes the next waiting message as soon as its own
//! finishes (its state reset to the initial vector), so every compression works on
//! `LANES` messages until fewer than `LANES` remain; each lane carries its own byte counter
//! (`t`) and final-block flag (`f0`). A felt's eight words may straddle two blocks: the lane
//! keeps the rest for its next block.
//!
//! # Bounds
//! Byte counters are 64-bit (messages up to 2^64 - 1 bytes, as RFC 7693 allows for the
//! low counter words used here); a block holds at most 16 words, so at most 8 words carry.

use super::{digest_felt, felt_words};
use crate::backend::MAX_LANES;
use crate::backend::words::Words;
use crate::field::Felt;

/// The initial chaining value (RFC 7693, section 2.6: the SHA-256 IV).
pub(crate) const IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// Parameter block word 0 for an unkeyed 32-byte digest (digest length 32, key length 0,
/// fanout 1, depth 1; RFC 7693 section 2.5), XORed into `IV[0]`.
const PARAM0: u32 = 0x0101_0020;

/// The message schedule (RFC 7693, section 2.7).
const SIGMA: [[usize; 16]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

type Rows<const N: usize> = [[u32; MAX_LANES]; N];

/// The mixing function G (RFC 7693, section 3.1) on four state rows.
#[inline(always)]
fn g<W: Words>(v: &mut [W; 16], a: usize, b: usize, c: usize, d: usize, x: W, y: W) {
    v[a] = v[a].add(v[b]).add(x);
    v[d] = v[d].xor(v[a]).rotr::<16>();
    v[c] = v[c].add(v[d]);
    v[b] = v[b].xor(v[c]).rotr::<12>();
    v[a] = v[a].add(v[b]).add(y);
    v[d] = v[d].xor(v[a]).rotr::<8>();
    v[c] = v[c].add(v[d]);
    v[b] = v[b].xor(v[c]).rotr::<7>();
}

/// One round: columns, then diagonals, with the words that `s` selects.
#[inline(always)]
fn round<W: Words>(v: &mut [W; 16], m: &[W; 16], s: &[usize; 16]) {
    g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

/// The compression function F (RFC 7693, section 3.2) in every lane: `h` the chaining values,
/// `m` the blocks, `t` the byte counters (low and high words), `f0` the final-block flags.
#[inline(always)]
fn compress<W: Words>(h: &mut Rows<8>, m: &Rows<16>, t: &Rows<2>, f0: &[u32; MAX_LANES]) {
    let mw: [W; 16] = core::array::from_fn(|j| W::load(&m[j]));
    let hw: [W; 8] = core::array::from_fn(|i| W::load(&h[i]));
    let mut v: [W; 16] = core::array::from_fn(|i| if i < 8 { hw[i] } else { W::splat(IV[i - 8]) });
    v[12] = v[12].xor(W::load(&t[0]));
    v[13] = v[13].xor(W::load(&t[1]));
    v[14] = v[14].xor(W::load(f0));
    round(&mut v, &mw, &SIGMA[0]);
    round(&mut v, &mw, &SIGMA[1]);
    round(&mut v, &mw, &SIGMA[2]);
    round(&mut v, &mw, &SIGMA[3]);
    round(&mut v, &mw, &SIGMA[4]);
    round(&mut v, &mw, &SIGMA[5]);
    round(&mut v, &mw, &SIGMA[6]);
    round(&mut v, &mw, &SIGMA[7]);
    round(&mut v, &mw, &SIGMA[8]);
    round(&mut v, &mw, &SIGMA[9]);
    for i in 0..8 {
        hw[i].xor(v[i]).xor(v[i + 8]).store(&mut h[i]);
    }
}

/// A message in a lane: where its encoding stands.
#[derive(Clone, Copy)]
struct Source<'a> {
    felts: &'a [Felt],
    /// Index of the message (and of its output).
    index: usize,
    /// Felts already encoded.
    pos: usize,
    /// Words of the felt that did not fit the previous block, `carry[at..len]`.
    carry: [u32; 8],
    at: usize,
    len: usize,
    /// Bytes compressed so far, this block included once filled.
    bytes: u64,
}

impl<'a> Source<'a> {
    fn new(felts: &'a [Felt], index: usize) -> Self {
        Source {
            felts,
            index,
            pos: 0,
            carry: [0; 8],
            at: 0,
            len: 0,
            bytes: 0,
        }
    }

    /// Writes the next block into column `lane` of `m` (zero-padded) and returns whether it
    /// is the message's last block.
    #[inline(always)]
    fn fill(&mut self, m: &mut Rows<16>, lane: usize) -> bool {
        let mut j = 0;
        while self.at < self.len && j < 16 {
            m[j][lane] = self.carry[self.at];
            self.at += 1;
            j += 1;
        }
        // Whole felts while at least eight words are free: straight-line stores.
        while j <= 8 && self.pos < self.felts.len() {
            let (w, n) = felt_words(&self.felts[self.pos]);
            self.pos += 1;
            let rows = &mut m[j..j + 8];
            if n == 8 {
                for (row, word) in rows.iter_mut().zip(w) {
                    row[lane] = word;
                }
            } else {
                rows[0][lane] = w[0];
                rows[1][lane] = w[1];
            }
            j += n;
        }
        // The rest of the block, where a felt may straddle into the next one.
        while j < 16 && self.pos < self.felts.len() {
            let (w, n) = felt_words(&self.felts[self.pos]);
            self.pos += 1;
            let fit = n.min(16 - j);
            for (k, word) in w[..fit].iter().enumerate() {
                m[j + k][lane] = *word;
            }
            j += fit;
            if fit < n {
                self.carry = w;
                self.at = fit;
                self.len = n;
            }
        }
        self.bytes += 4 * j as u64;
        for row in m.iter_mut().skip(j) {
            row[lane] = 0;
        }
        self.at >= self.len && self.pos == self.felts.len()
    }
}

/// `out[i]` = the Blake2s felt hash of `messages[i]` (`super::blake2s_hash_many`), `W::LANES`
/// messages at a time. Precondition: `messages.len() == out.len()` (checked by the callers).
#[inline(always)]
pub(crate) fn hash_many<W: Words>(messages: &[&[Felt]], out: &mut [Felt]) {
    let lanes = W::LANES;
    let mut h: Rows<8> = [[0; MAX_LANES]; 8];
    let mut m: Rows<16> = [[0; MAX_LANES]; 16];
    let mut t: Rows<2> = [[0; MAX_LANES]; 2];
    let mut f0 = [0u32; MAX_LANES];
    let mut slots: [Option<Source<'_>>; MAX_LANES] = [None; MAX_LANES];
    let mut done = [false; MAX_LANES];
    let mut next = 0;
    loop {
        let mut busy = false;
        for (l, slot) in slots.iter_mut().enumerate().take(lanes) {
            if slot.is_none() && next < messages.len() {
                *slot = Some(Source::new(messages[next], next));
                for (i, row) in h.iter_mut().enumerate() {
                    row[l] = if i == 0 { IV[0] ^ PARAM0 } else { IV[i] };
                }
                next += 1;
            }
            if let Some(s) = slot {
                busy = true;
                let last = s.fill(&mut m, l);
                t[0][l] = s.bytes as u32;
                t[1][l] = (s.bytes >> 32) as u32;
                f0[l] = if last { u32::MAX } else { 0 };
                done[l] = last;
            } else {
                done[l] = false;
            }
        }
        if !busy {
            return;
        }
        compress::<W>(&mut h, &m, &t, &f0);
        for (l, slot) in slots.iter_mut().enumerate().take(lanes) {
            if done[l]
                && let Some(s) = slot.take()
            {
                out[s.index] = digest_felt(core::array::from_fn(|i| h[i][l]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::words::PortableWords;
    use alloc::vec::Vec;

    /// The parameter word and IV give the empty-message digest of RFC 7693 / blake2s_simd.
    #[test]
    fn empty_message_matches_blake2s_simd() {
        let mut out = [Felt::ZERO];
        hash_many::<PortableWords>(&[&[]], &mut out);
        assert_eq!(out[0], super::super::blake2s_hash_many(&[]));
    }

    /// Ragged messages, straddling felts, lanes refilled mid-batch.
    #[test]
    fn ragged_portable_matches_scalar() {
        let felts: Vec<Felt> = (0..300u64)
            .map(|i| {
                if i % 5 < 2 {
                    Felt::from(i * 0x1234_5678_9abc)
                } else {
                    Felt::MAX - Felt::from(i)
                }
            })
            .collect();
        let msgs: Vec<&[Felt]> = (0..40).map(|i| &felts[i..i + (i * 7) % 70]).collect();
        let mut out = alloc::vec![Felt::ZERO; msgs.len()];
        hash_many::<PortableWords>(&msgs, &mut out);
        for (i, m) in msgs.iter().enumerate() {
            assert_eq!(out[i], super::super::blake2s_hash_many(m), "message {i}");
        }
    }
}
