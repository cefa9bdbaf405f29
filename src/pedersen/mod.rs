//! The Starknet Pedersen hash.
//!
//! # Definition
//! Source: cairo-lang `src/starkware/crypto/signature/fast_pedersen_hash.py` and
//! `pedersen_params.json`. For x, y < p,
//!
//! H(x, y) = (S + x_low·P0 + x_high·P1 + y_low·P2 + y_high·P3).x
//!
//! where x_low is the low 248 bits of x and x_high its top 4 bits (likewise for y), and
//! S, P0..P3 are the constant points ([`SHIFT_POINT`], [`P0`], [`P1`], [`P2`], [`P3`]). The
//! array hash is cairo-lang's
//! `compute_hash_on_elements` (`hash_state.py`): h = 0; h = H(h, a_i) for each element;
//! result H(h, n).
//!
//! # Method
//! - The two high parts (each 0..=8, as x, y < p) pick a starting point S + x_high·P1 +
//!   y_high·P3 from a table of 81 affine points, so they cost no addition.
//! - Each 248-bit low part is recoded into W = 10-bit signed digits (25 windows, digits in
//!   (−2^(W−1), 2^(W−1)], the top window keeps a spare bit so no carry leaves it). A table holds
//!   d·2^(W·i)·P for every window i and magnitude d = 1..=512; a negative digit uses (x, −y).
//! - So a hash is at most 50 mixed additions and no doubling. The accumulator is in XYZZ
//!   coordinates (X/ZZ, Y/ZZZ), whose mixed addition (EFD madd-2008-s, 8M + 2S,
//!   [`crate::curve::formulas::add_affine_xyzz_unchecked`]) is cheaper than Jacobian
//!   madd-2007-bl (7M + 4S) with this field's costs; the equal-x cases fall back to the exact
//!   Jacobian arithmetic. Then one inversion gives x = X/ZZ, with the variable-time
//!   [`Felt::inverse_vartime`]. All of this is variable time: Pedersen inputs are public.
//! - [`pedersen_hash_batch`](crate::pedersen_hash_batch) runs up to 4096 hashes in lock-step with affine accumulators: each
//!   step adds one table point to every hash, with all the slopes' denominators inverted together
//!   (Montgomery's trick), about 6 multiplications per addition instead of 10 (see `batch.rs`
//!   and `docs/pedersen-batch.md`); on the SIMD backends the same steps run in the lanes of the
//!   backend's packed field (`lanes.rs`). Short batches share only the final inversion.
//!
//! W = 10 was measured against 5, 7, 8, 11 and 12: 11 and 12 save 4 and 8 additions but double
//! and quadruple the table and its build time.
//!
//! # Memory
//! [`TABLE_BYTES`]: 2·25·512 + 81 = 25 681 affine points of 64 bytes (each aligned to one
//! cache line), about 1.57 MiB, built once on the first call and kept for the life of the
//! process. The build advances all 50 windows together in affine coordinates with one batched
//! inversion per step (about 6 field multiplications per entry), roughly 10 ms on an idle core.
//! Batches in AVX-512 IFMA lanes also build, on their first call, a copy of the 50 windows with
//! the coordinates multiplied by 2^4 ([`LANE_TABLE_BYTES`], about 1.56 MiB), which that lane
//! type loads without a conversion product (`lanes.rs`).

pub(crate) mod array_batch;
pub(crate) mod batch;
pub(crate) mod lanes;
mod points;
mod tables;

pub use points::{P0, P1, P2, P3, SHIFT_POINT};

use crate::Felt;
use crate::curve::{AffinePoint, ProjectivePoint, formulas};
use tables::{Entry, HALF, HIGH, W, WINDOWS, tables};

/// Bytes of precomputed tables (allocated on the first hash).
pub const TABLE_BYTES: usize = tables::TABLE_BYTES;

/// Bytes of the second copy of the window tables that batches in AVX-512 IFMA lanes read
/// (coordinates pre-multiplied by 2^4, so that loading them into the lanes needs no product),
/// allocated on the first such batch.
pub const LANE_TABLE_BYTES: usize = tables::PRESCALED_BYTES;

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

/// The accumulator in XYZZ coordinates: (X/ZZ, Y/ZZZ), infinity when ZZ = 0.
#[derive(Clone, Copy)]
struct Acc {
    x: Felt,
    y: Felt,
    zz: Felt,
    zzz: Felt,
}

impl Acc {
    fn from_affine(p: &AffinePoint) -> Acc {
        if p.infinity {
            Acc {
                x: Felt::ONE,
                y: Felt::ONE,
                zz: Felt::ZERO,
                zzz: Felt::ZERO,
            }
        } else {
            Acc {
                x: p.x,
                y: p.y,
                zz: Felt::ONE,
                zzz: Felt::ONE,
            }
        }
    }

    fn to_affine(self) -> AffinePoint {
        if self.zz.is_zero() {
            return AffinePoint::INFINITY;
        }
        // 1/ZZ = ZZZ/(ZZ·ZZZ) and 1/ZZZ = ZZ/(ZZ·ZZZ): one inversion.
        let inv = (self.zz * self.zzz).inverse_vartime().unwrap_or(Felt::ZERO);
        AffinePoint::new_unchecked(self.x * inv * self.zzz, self.y * inv * self.zz)
    }
}

/// Adds `±e` to the accumulator (madd-2008-s), exact in every case: the rare equal-x case
/// (which no input reaches without discrete logarithms between the constant points) goes
/// through affine coordinates and the exact Jacobian addition.
#[inline(always)]
fn add_entry(acc: &mut Acc, e: &Entry, negative: bool) {
    let y2 = if negative { -e.y } else { e.y };
    if acc.zz.is_zero() {
        *acc = Acc::from_affine(&AffinePoint::new_unchecked(e.x, y2));
        return;
    }
    let ((x, y, zz, zzz), p, _r) =
        formulas::add_affine_xyzz_unchecked(acc.x, acc.y, acc.zz, acc.zzz, e.x, y2);
    if p.is_zero() {
        let sum = ProjectivePoint::from_affine(&acc.to_affine())
            .add_affine(&AffinePoint::new_unchecked(e.x, y2))
            .to_affine();
        *acc = Acc::from_affine(&sum);
        return;
    }
    *acc = Acc { x, y, zz, zzz };
}

/// acc += low·P for the 248-bit `low` (given as limbs with bits 248.. clear), with P's table.
#[inline(always)]
fn add_low(acc: &mut Acc, table: &[Entry], low: &[u64; 4]) {
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

/// The x-coordinate of the accumulated point, X/ZZ (0 for the point at infinity, which no
/// input can reach without knowing discrete logarithms between the constant points).
#[inline(always)]
fn x_of(acc: &Acc) -> Felt {
    acc.x * acc.zz.inverse_vartime().unwrap_or(Felt::ZERO)
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
    x_of(&accumulate(x, y))
}

/// The point S + x_low·P0 + x_high·P1 + y_low·P2 + y_high·P3 of [`pedersen_hash`], in XYZZ
/// coordinates (shared by the scalar hash and [`pedersen_hash_batch`], which differ only in how
/// they take x = X/ZZ).
#[inline(always)]
fn accumulate(x: &Felt, y: &Felt) -> Acc {
    let t = tables();
    let xl = x.to_raw_limbs();
    let yl = y.to_raw_limbs();
    const LOW_MASK: u64 = (1u64 << 56) - 1;
    // x, y < p < 2^251 + 2^248, so the high parts are at most 8.
    let xh = (xl[3] >> 56) as usize;
    let yh = (yl[3] >> 56) as usize;
    debug_assert!(xh < HIGH && yh < HIGH);
    let s = &t.start[xh * HIGH + yh];
    let mut acc = Acc {
        x: s.x,
        y: s.y,
        zz: Felt::ONE,
        zzz: Felt::ONE,
    };
    add_low(&mut acc, &t.p0, &[xl[0], xl[1], xl[2], xl[3] & LOW_MASK]);
    add_low(&mut acc, &t.p2, &[yl[0], yl[1], yl[2], yl[3] & LOW_MASK]);
    acc
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::GENERATOR;

    fn entry(p: &AffinePoint) -> Entry {
        Entry { x: p.x, y: p.y }
    }

    /// The XYZZ accumulator against the Jacobian curve arithmetic, including the exceptional
    /// cases that real inputs cannot reach: P + P, P + (−P), and adding to infinity.
    #[test]
    fn accumulator_is_exact() {
        let g = ProjectivePoint::from_affine(&GENERATOR);
        let a = g.mul_vartime(&[12345, 0, 0, 0]).to_affine();
        let b = g.mul_vartime(&[999, 7, 0, 0]).to_affine();
        let mut acc = Acc::from_affine(&a);
        add_entry(&mut acc, &entry(&b), false);
        let ab = ProjectivePoint::from_affine(&a).add_affine(&b);
        assert_eq!(acc.to_affine(), ab.to_affine());
        // Non-normalised accumulator + itself: doubling.
        let ab_aff = ab.to_affine();
        let mut acc2 = acc;
        add_entry(&mut acc2, &entry(&ab_aff), false);
        assert_eq!(acc2.to_affine(), ab.double().to_affine());
        // + its negation: infinity, then adding restarts from the entry.
        let mut acc3 = acc;
        add_entry(&mut acc3, &entry(&ab_aff), true);
        assert!(acc3.zz.is_zero());
        assert_eq!(acc3.to_affine(), AffinePoint::INFINITY);
        assert_eq!(x_of(&acc3), Felt::ZERO);
        add_entry(&mut acc3, &entry(&b), true);
        assert_eq!(acc3.to_affine(), b.neg());
        assert_eq!(x_of(&acc), ab_aff.x);
    }
}
