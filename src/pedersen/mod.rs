//! The Starknet Pedersen hash.
//!
//! # Definition
//! Source: cairo-lang `src/starkware/crypto/signature/fast_pedersen_hash.py` and
//! `pedersen_params.json`. For x, y < p,
//!
//! H(x, y) = (S + x_low·P0 + x_high·P1 + y_low·P2 + y_high·P3).x
//!
//! where x_low is the low 248 bits of x and x_high its top 4 bits (likewise for y), and
//! S, P0..P3 are the constant points ([`SHIFT_POINT`], [`P0`], [`P1`], [`P2`], [`P3`]). The array hash is cairo-lang's
//! `compute_hash_on_elements` (`hash_state.py`): h = 0; h = H(h, a_i) for each element;
//! result H(h, n).
//!
//! # Method
//! Each 248-bit low part is recoded into signed base-2^W digits (W = 10 bits, 25 windows,
//! digits in (−2^(W−1), 2^(W−1)]) and each 4-bit high part is one unsigned digit. A
//! precomputed table holds d·2^(W·i)·P for every window i and magnitude d (a negative digit uses
//! (x, −y), free), so the hash is at most 25 + 1 + 25 + 1 = 52 mixed additions
//! (Jacobian madd-2007-bl, 7M + 4S each) starting from S, then one inversion for x = X/Z².
//! No doublings are needed. All of this is variable time: Pedersen inputs are public.
//!
//! # Memory
//! The tables are 2·25·512 + 2·15 = 25 630 affine points of 64 bytes (one cache line each):
//! about 1.6 MiB, built once on the first call (a few milliseconds: one Jacobian addition per
//! entry and a single batched inversion) and kept for the life of the process.

mod points;
mod tables;

pub use points::{P0, P1, P2, P3, SHIFT_POINT};

use crate::curve::{AffinePoint, ProjectivePoint};
use crate::Felt;
use tables::{tables, Entry, HALF, W, WINDOWS};

/// Bytes of precomputed tables (allocated on the first hash).
pub const TABLE_BYTES: usize = tables::TABLE_BYTES;

/// Bits `pos..pos + W` of a 256-bit little-endian integer (`pos + W <= 256`).
#[inline(always)]
fn window(l: &[u64; 4], pos: usize) -> u64 {
    let limb = pos / 64;
    let off = pos % 64;
    let mut v = l[limb] >> off;
    if off + W > 64 && limb + 1 < 4 {
        v |= l[limb + 1] << (64 - off);
    }
    v & ((1u64 << W) - 1)
}

/// Adds `±e` to the accumulator.
#[inline(always)]
fn add_entry(acc: &mut ProjectivePoint, e: &Entry, negative: bool) {
    let y = if negative { -e.y } else { e.y };
    *acc = acc.add_affine(&AffinePoint::new_unchecked(e.x, y));
}

/// acc += low·P for the 248-bit `low` (given as limbs with bits 248.. clear), with P's table.
#[inline(always)]
fn add_low(acc: &mut ProjectivePoint, table: &[Entry], low: &[u64; 4]) {
    // Recode first (cheap), then add: the table addresses are known early.
    let mut digits = [0i32; WINDOWS];
    let mut carry = 0u64;
    for (i, d) in digits.iter_mut().enumerate() {
        let v = window(low, i * W) + carry;
        if v > HALF as u64 {
            *d = v as i32 - (1i32 << W);
            carry = 1;
        } else {
            *d = v as i32;
            carry = 0;
        }
    }
    // W·WINDOWS >= 249: the top window has a spare bit, so there is no carry out of it.
    debug_assert_eq!(carry, 0);
    for (i, &d) in digits.iter().enumerate() {
        if d != 0 {
            let e = &table[i * HALF + d.unsigned_abs() as usize - 1];
            add_entry(acc, e, d < 0);
        }
    }
}

/// The x-coordinate of the accumulated point (0 for the point at infinity, which no input can
/// reach without knowing discrete logarithms between the constant points).
#[inline(always)]
fn x_of(acc: &ProjectivePoint) -> Felt {
    match acc.z.inverse() {
        Some(zinv) => acc.x * zinv.square(),
        None => Felt::ZERO,
    }
}

/// The Starknet Pedersen hash of two field elements (see the module docs).
///
/// ```
/// use starkbatch::{pedersen_hash, Felt};
/// // Published vector (spec: pedersen(1, 2)).
/// assert_eq!(
///     pedersen_hash(&Felt::ONE, &Felt::TWO),
///     Felt::from_hex("0x5bb9440e27889a364bcb678b1f679ecd1347acdedcbf36e83494f857cc58026").unwrap()
/// );
/// ```
pub fn pedersen_hash(x: &Felt, y: &Felt) -> Felt {
    let t = tables();
    let xl = x.to_raw_limbs();
    let yl = y.to_raw_limbs();
    const LOW_MASK: u64 = (1u64 << 56) - 1;
    let mut acc = ProjectivePoint::from_affine(&SHIFT_POINT);
    add_low(&mut acc, &t.p0, &[xl[0], xl[1], xl[2], xl[3] & LOW_MASK]);
    let xh = (xl[3] >> 56) as usize;
    if xh != 0 {
        add_entry(&mut acc, &t.p1[xh - 1], false);
    }
    add_low(&mut acc, &t.p2, &[yl[0], yl[1], yl[2], yl[3] & LOW_MASK]);
    let yh = (yl[3] >> 56) as usize;
    if yh != 0 {
        add_entry(&mut acc, &t.p3[yh - 1], false);
    }
    x_of(&acc)
}

/// The Pedersen hash of a sequence, as cairo-lang's `compute_hash_on_elements`:
/// H(H(…H(H(0, a0), a1)…, a_{n−1}), n).
///
/// ```
/// use starkbatch::{pedersen_hash_array, Felt};
/// // Published vector (spec: array [1, 2, 3, 4]).
/// let a: Vec<Felt> = (1u64..=4).map(Felt::from).collect();
/// assert_eq!(
///     pedersen_hash_array(&a),
///     Felt::from_hex("0x66bd4335902683054d08a0572747ea78ebd9e531536fb43125424ca9f902084").unwrap()
/// );
/// ```
pub fn pedersen_hash_array(elements: &[Felt]) -> Felt {
    let h = elements
        .iter()
        .fold(Felt::ZERO, |h, a| pedersen_hash(&h, a));
    pedersen_hash(&h, &Felt::from(elements.len() as u64))
}

/// A streaming Pedersen array hash with `starknet-crypto`'s `PedersenHasher` interface:
/// [`update`](PedersenHasher::update) absorbs one element, [`finalize`](PedersenHasher::finalize)
/// returns [`pedersen_hash_array`] of everything absorbed so far.
#[derive(Clone, Debug, Default)]
pub struct PedersenHasher {
    hash: Felt,
    len: u64,
}

impl PedersenHasher {
    /// An empty hasher.
    pub fn new() -> PedersenHasher {
        PedersenHasher::default()
    }

    /// Absorbs one element.
    pub fn update(&mut self, msg: Felt) {
        self.hash = pedersen_hash(&self.hash, &msg);
        self.len += 1;
    }

    /// The hash of the elements absorbed so far (the hasher stays usable).
    pub fn finalize(&self) -> Felt {
        pedersen_hash(&self.hash, &Felt::from(self.len))
    }
}
