//! [`Packed`]: four field elements in 9 limbs of 28 bits, one lane per element, written once
//! over the [`Lane`] primitives and implementing [`PackedFelt`].
//!
//! # Representation
//! Lane `k` of limb vector `i` holds limb `x_i` of element `k`; the element is
//! `x = Σ x_i·2^(28·i)`, congruent modulo p to `a·R` where `a` is the field element and
//! `R = 2^280` (Montgomery form with ten 28-bit reduction steps, see below). Limbs are
//! non-negative 64-bit lane values and may exceed 28 bits (lazy reduction).
//!
//! # Invariant `I` (holds for every value handed out by this module)
//! Every limb is below `B = 2^28 + 16`. Hence `x < 2^253` and any product of two limbs is
//! below 2^56.01.
//!
//! # Multiplication (product scanning, reduction folded in, no multiplication by p)
//! In radix 2^28, p = `[1,0,0,0,0,0,2^24,1,2^27]` and `-p^-1 ≡ -1 (mod 2^28)`. Column `k` of
//! the 9×9 product (`Σ_{i+j=k} a_i·b_j`, nine products below 2^56.01 each) plus the carry and
//! the reduction terms stays below 2^60. For `k = 0..=9`, `m_k = -col_k mod 2^28`; adding `m_k·p`
//! clears the column and adds `m_k·2^24`, `m_k` and `m_k·2^27` to columns `k+6`, `k+7`, `k+8`
//! (shifts, no multiplication). Columns 10..=17 are the result. So the result is
//! `(a·b + M·p)/2^280` with `M < 2^280`, i.e. below `a·b/2^280 + p < 2^226 + p < 2p`: limbs
//! 0..7 below 2^28 and the top limb at most `2^27 + 4`. (Why ten steps and not nine
//! (`R = 2^252`): with `R = 2^252 ≈ 2p` the bound `a·b/R + p` does not close under repeated
//! multiplication, it would need a conditional subtraction after every product; with ten
//! steps it closes with a wide margin at the cost of three shifts and adds.)
//! The carry out of a reduction column is `ceil(col/2^28)`, computed as `(col + 2^28-1) >> 28`
//! from the column alone, which keeps the carry chain at two operations per column.
//!
//! # Addition, subtraction, doubling: one normalisation each
//! The lane-wise sum `s` (for `a - b`: `a + K - b` with `K ≡ 0 mod p`, every limb of `K` at
//! least `2B`, so that no lane goes negative; AVX2 has no 64-bit arithmetic shift) gets the
//! constant `F ≡ p` (a redundant form of p with large limbs 0, 6 and 7) added, and then
//! [`normalize`]: the bits of the top limb above 27, `h`, are folded with
//! `2^251 ≡ -(17·2^192 + 1)` (subtract `h` at limbs 0 and 7 and `h·2^24` at limb 6; `F` makes
//! that non-negative for `h <= 32`), followed by one parallel carry round. Inputs below 2^32
//! per limb give carries below 16, so the output satisfies `I` again.
//!
//! # Lazy operations: weights as limb bounds
//! [`PackedFelt`] states its lazy contract with weights (`crate::field::packed`). Here a value of
//! weight `w` has every limb below `w·B`. The lazy operations are plain lane-wise limb sums:
//! `add_lazy` adds limbs, `double_lazy` shifts them, `add_constant_lazy` adds the canonical
//! limbs of the constant (each below `B`), and `sub_lazy(a, b)` computes `a + K - b` where
//! `K ≡ 0 (mod p)` is a redundant form of `8p` with every limb in `[2B, 4B)`: for `w(b) <= 2`
//! no lane goes negative and the result has weight `w(a) + 4`; `sub_lazy_normal(a, b)` adds
//! `K1`, a redundant form of `4p` with every limb in `[B, 2B)`, instead, which covers a
//! subtrahend of weight 1 and gives weight `w(a) + 2`. `normalize` adds `F` and runs
//! the normalisation above; the ordinary `add`, `sub`, `double`, `add_constant` are their lazy
//! counterparts followed by `normalize`. Checked at compile time below:
//! * normalisation input: for weight 10, `10·B + F_i < 2^32` for every limb (carries at most
//!   15, so the output satisfies `I`) and the top limb stays below `33·2^27` (`h <= 32`);
//! * `sub(a, b)` with `w(a) <= 6`: `6·B + (K + F)_i < 2^32` likewise;
//! * multiplication with both inputs of weight 4 (limbs below `4B < 2^32`, so `vpmuludq`'s
//!   32-bit inputs are exact): a column is below `9·(4B)² + 2^28·(2^27 + 2^24 + 1) + 2^36 <
//!   2^64`, and the inputs are below `2^255`, so the result is below `2^230 + p < 2p`: `I`.
//!
//! # Conversion (no multiplication)
//! `Felt` holds `v = a·2^256 mod p` (canonical, below 2^252); this module wants a value
//! congruent to `a·2^280 = v·2^24`. Loading cuts the 28-bit limbs of `v·2^24` out of `v`'s
//! words with shifts (ten limbs, the tenth `L_9 < 2^24` at `2^252`), folds the tenth with
//! `2^252 ≡ −(2^197 + 2^193 + 2)` into limbs 0, 6 and 7 (plus `F`, so nothing goes negative),
//! and runs [`normalize`]: output `I`. Storing takes a value of weight 1 (`x < 2^253`),
//! divides it by `2^24` modulo p with one Montgomery step that needs no product
//! (`p ≡ 1 mod 2^192`: `m = −x mod 2^24` added at limbs 0, 6 and 8,
//! `(x + m·p)/2^24 < 2^229 + p < 2p`), runs one carry pass, cuts the 64-bit words out of the
//! digits and subtracts p where the value is not below it: `a·2^256`, canonical, all in lanes
//! ([`store_words`]); only the final transposition to one element per lane is scalar.

// Limb code indexes several arrays in step; index loops say that most plainly.
#![allow(clippy::needless_range_loop)]

use super::lane::Lane;
use crate::field::mont;
use crate::field::{Felt, MUL_WEIGHT, NORMALIZE_WEIGHT, PackedFelt};

/// 28-bit limb mask.
pub(crate) const M28: u64 = (1 << 28) - 1;
/// 27-bit mask for the top limb.
pub(crate) const M27: u64 = (1 << 27) - 1;
/// `2^56 − 1`: the offset [`mont_mul`] adds to the even reduction columns (two columns' worth).
pub(crate) const M56: u64 = (1 << 56) - 1;
/// `17·2^24`: `m_k·p` adds `m_k·17·2^24` to column `k + 6` ([`mont_mul`]).
pub(crate) const C17: u64 = 17 << 24;
/// Limb bound of invariant `I` (exclusive).
pub(crate) const LIMB_BOUND: u64 = (1 << 28) + 16;

/// A prepared constant: its limbs (`a·2^280 mod p`, canonical) and the same plus [`F`]
/// (`repr(C)`: the AVX2 full-round kernel reads `plus_f` at a fixed offset).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct PackedConstant {
    pub(crate) limbs: [u64; 9],
    pub(crate) plus_f: [u64; 9],
}

/// Splits a value below 2^256 (four little-endian u64) into nine 28-bit limbs (the top limb
/// takes bits 224..256).
const fn split(x: [u64; 4]) -> [u64; 9] {
    let mut out = [0u64; 9];
    let mut i = 0;
    while i < 9 {
        let bit = 28 * i;
        let w = bit / 64;
        let off = bit % 64;
        let mut v = x[w] >> off;
        if off > 36 && w + 1 < 4 {
            v |= x[w + 1] << (64 - off);
        }
        out[i] = if i == 8 { v } else { v & M28 };
        i += 1;
    }
    out
}

/// Adds two limb vectors (no carries).
const fn add_limbs(a: [u64; 9], b: [u64; 9]) -> [u64; 9] {
    let mut out = [0u64; 9];
    let mut i = 0;
    while i < 9 {
        out[i] = a[i] + b[i];
        i += 1;
    }
    out
}

/// A redundant form of `m·p` in which every limb is at least `bound`: starts from the
/// canonical limbs and moves units of 2^28 down from the limb above where needed.
const fn redundant_multiple_of_p(m: u64, bound: u64) -> [u64; 9] {
    // Canonical 28-bit limbs of p (the top limb holds bits 224..).
    let p = [1i64, 0, 0, 0, 0, 0, 1 << 24, 1, 1 << 27];
    let mut l = [0i64; 9];
    let mut i = 0;
    while i < 9 {
        l[i] = p[i] * m as i64;
        i += 1;
    }
    let mut i = 0;
    while i < 8 {
        if l[i] < bound as i64 {
            let need = (bound as i64 - l[i] + M28 as i64) >> 28;
            l[i] += need << 28;
            l[i + 1] -= need;
        }
        i += 1;
    }
    let mut out = [0u64; 9];
    let mut i = 0;
    while i < 9 {
        assert!(l[i] >= bound as i64);
        out[i] = l[i] as u64;
        i += 1;
    }
    out
}

/// `F ≡ p`: a redundant form of p with limb 0 above 2^28, limb 6 above 2^29 + 2^24 and
/// limb 7 near 2^28, so that folding up to 32·2^251 never makes a limb negative. Its top
/// limb is `2^27 - 1`.
pub(crate) const F: [u64; 9] = [
    (1 << 28) + 1,
    M28,
    M28,
    M28,
    M28,
    M28,
    (1 << 29) + (1 << 24) - 1,
    M28,
    M27,
];

/// `K ≡ 0 (mod p)` (it is `8p`) with every limb at least `2·`[`LIMB_BOUND`] (and below
/// `4·LIMB_BOUND`, checked below): what subtraction adds so that `a + K - b` has no negative
/// limb for a subtrahend of weight 2.
pub(crate) const K: [u64; 9] = redundant_multiple_of_p(8, 2 * LIMB_BOUND);
/// `K1 ≡ 0 (mod p)` (it is `4p`) with every limb in `[LIMB_BOUND, 2·LIMB_BOUND)` (checked
/// below): what `sub_lazy_normal` adds, enough for a subtrahend of weight 1.
pub(crate) const K1: [u64; 9] = redundant_multiple_of_p(4, LIMB_BOUND);
/// [`K`] plus [`F`]: what the normalising subtraction adds.
const K_PLUS_F: [u64; 9] = add_limbs(K, F);

// Checks, at compile time, of the facts the bounds rely on.
const _: () = {
    // F ≡ p: its value is exactly p.
    let mut acc = [0u64; 4];
    let mut i = 0;
    while i < 9 {
        // add F[i]·2^(28 i) to acc (F[i] < 2^30, so two words at most).
        let bit = 28 * i;
        let w = bit / 64;
        let off = bit % 64;
        let lo = F[i] << off;
        let hi = if off == 0 { 0 } else { F[i] >> (64 - off) };
        let (s, c) = mont::adc(acc[w], lo, 0);
        acc[w] = s;
        let mut carry = c + hi;
        let mut j = w + 1;
        while j < 4 {
            let (s, c) = mont::adc(acc[j], carry, 0);
            acc[j] = s;
            carry = c;
            j += 1;
        }
        i += 1;
    }
    assert!(acc[0] == mont::P[0] && acc[1] == mont::P[1]);
    assert!(acc[2] == mont::P[2] && acc[3] == mont::P[3]);
    // Folding h <= 32 units of 2^251 stays non-negative.
    assert!(F[0] >= 32 && F[7] >= 32 && F[6] >= 32 << 24);
    // Loading (`load_felts`): after subtracting the fold of L_9 < 2^24 (2·L_9 at limb 0,
    // (L_9 mod 8)·2^25 at limb 6, 2·L_9 + L_9/8 at limb 7), limbs 0, 6, 7 still cover the
    // normalisation's own fold of h <= 2 (the top limb is below 2^28 + F[8] < 3·2^27).
    assert!(F[8] + (1 << 28) < 3 << 27);
    assert!(F[0] >= 2 * ((1 << 24) - 1) + 2);
    assert!(F[6] >= (7 << 25) + (2 << 24));
    assert!(F[7] >= 2 * ((1 << 24) - 1) + (1 << 21) + 2);
    // The weight bounds of the lazy contract (module docs).
    let b = LIMB_BOUND;
    let nw = NORMALIZE_WEIGHT as u64;
    let mut i = 0;
    while i < 9 {
        // K: subtrahends of weight 2 never make a lane negative; K counts as weight 4.
        assert!(K[i] >= 2 * b && K[i] < 4 * b);
        // K1: subtrahends of weight 1 never make a lane negative; K1 counts as weight 2.
        assert!(K1[i] >= b && K1[i] < 2 * b);
        // normalize: weight nw plus F keeps every limb below 2^32.
        assert!(nw * b + F[i] < 1 << 32);
        // sub: a minuend of weight nw - 4 plus K + F likewise.
        assert!((nw - 4) * b + K_PLUS_F[i] < 1 << 32);
        i += 1;
    }
    // The top limb stays below 33·2^27 (h <= 32) in both cases.
    assert!(nw * b + F[8] < 33 << 27);
    assert!((nw - 4) * b + K_PLUS_F[8] < 33 << 27);
    // Multiplication with inputs of weight MUL_WEIGHT: every column fits in 64 bits.
    let x = MUL_WEIGHT as u128 * b as u128;
    assert!(x < 1 << 32);
    // Products, the offset 2^56 - 1, m·17·2^24 and m·2^27 (m < 2^28), the carry.
    let column =
        9 * x * x + (1u128 << 56) + (1u128 << 28) * ((17 << 24) + (1 << 27)) + (1u128 << 36);
    assert!(column < 1 << 64);
};

/// Prepares a constant at compile time or at run time.
pub(crate) const fn prepare_const(c: Felt) -> PackedConstant {
    // c holds a·2^256; Montgomery-multiplying by 2^280 mod p (= Felt 2^24's limbs) gives
    // a·2^280 mod p, canonical.
    let v = mont::mul(
        c.to_montgomery_limbs(),
        Felt::from_u64_const(1 << 24).to_montgomery_limbs(),
    );
    let limbs = split(v);
    PackedConstant {
        limbs,
        plus_f: add_limbs(limbs, F),
    }
}

/// One sequential carry pass: limbs 0..7 become canonical radix-2^28 digits and the top limb
/// takes what is left. For a value satisfying `I` (limbs below `B`) every carry is at most 1
/// and the top limb stays below 2^29; [`store_words`] also runs it on limbs up to 2^54.
#[inline(always)]
pub(crate) fn canonical_digits<V: Lane>(mut d: [V; 9]) -> [V; 9] {
    let m28 = V::splat(M28);
    for i in 0..8 {
        let c = d[i].shr::<28>();
        d[i] = d[i].and(m28);
        d[i + 1] = d[i + 1].add(c);
    }
    d
}

/// Four field elements, one per lane, as nine limb vectors (see the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Packed<V: Lane>(pub(crate) [V; 9]);

#[inline(always)]
fn splat9<V: Lane>(c: &[u64; 9]) -> [V; 9] {
    [
        V::splat(c[0]),
        V::splat(c[1]),
        V::splat(c[2]),
        V::splat(c[3]),
        V::splat(c[4]),
        V::splat(c[5]),
        V::splat(c[6]),
        V::splat(c[7]),
        V::splat(c[8]),
    ]
}

/// Folds the top limb and runs one carry round (module docs). Precondition: every limb
/// below 2^32, limbs 0, 6, 7 at least `F`'s and the top limb below 33·2^27. Output: `I`.
#[inline(always)]
fn normalize<V: Lane>(mut s: [V; 9]) -> [V; 9] {
    let m28 = V::splat(M28);
    let h = s[8].shr::<27>();
    s[8] = s[8].and(V::splat(M27));
    s[0] = s[0].sub(h);
    s[6] = s[6].sub(h.shl::<24>());
    s[7] = s[7].sub(h);
    let mut c = [V::splat(0); 8];
    for i in 0..8 {
        c[i] = s[i].shr::<28>();
    }
    // Limb 0 is the one limb of the output that ends masked (the others take a carry), and
    // LLVM would know that its top 36 bits are zero. When such a value crosses a loop back
    // edge (the partial rounds of Poseidon), the IR drops the 32-bit input mask of the lane
    // multiplications as redundant, but instruction selection works one basic block at a time
    // and no longer knows the bits: it emitted a 64×32-bit product (two `vpmuludq`, a shift
    // and an add) for each of the nine products with that limb, for `c` and `2c` in every
    // partial round. Masking with an opaque copy of the mask keeps the IR mask in place.
    // (AVX2 partial round: 1249 → 1191 instructions, 144 → 126 `vpmuludq`.)
    s[0] = s[0].and(V::splat(core::hint::black_box(M28)));
    for i in 1..8 {
        s[i] = s[i].and(m28);
    }
    for i in 0..8 {
        s[i + 1] = s[i + 1].add(c[i]);
    }
    s
}

/// The Montgomery product `a·b/2^280` (module docs). Inputs satisfy `I`; output: limbs
/// 0..7 below 2^28, top limb at most 2^27 + 4.
///
/// Generated straight-line code (LLVM does not fully unroll the nested loops, and a rolled
/// loop keeps the limbs in memory), in product-scanning order: column `k` is summed and
/// immediately reduced. Reduction columns `k <= 9` hold an offset of `2^28 - 1`, so that with
/// `col = true + 2^28 - 1`: `m_k = -true mod 2^28 = (2^28 - 1 - col) mod 2^28` and the carry
/// `(true + m_k)/2^28 = ceil(true/2^28) = col >> 28`; `m_k·p` adds `m_k·2^24`, `m_k` and
/// `m_k·2^27` to columns `k+6`, `k+7`, `k+8`. Two rewritings give the same digits, carries
/// and output limbs with fewer operations: the even columns start at
/// [`M56`] `= (2^28 - 1)(2^28 + 1)` and the odd ones at zero (the extra `(2^28 - 1)·2^28`
/// raises the even column's carry by exactly the odd column's offset); and `m_k·2^24` in
/// column `k+6` with `m_k` in column `k+7` is one product `m_k·17·2^24` in column `k+6`
/// (`m_k·2^28` there raises its carry by exactly `m_k`). The bound of a column is checked
/// at compile time (`9·x² + 2^56 + 2^28·(17·2^24 + 2^27) + 2^36 < 2^64`).
#[inline(always)]
pub(crate) fn mont_mul<V: Lane>(a: &[V; 9], b: &[V; 9]) -> [V; 9] {
    let m28 = V::splat(M28);
    let m56 = V::splat(M56);
    let k17 = V::splat(C17);
    let z = V::splat(0);
    let c0 = m56.mul32_add(a[0], b[0]);
    let col = c0;
    let m0 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c1 = z.mul32_add(a[0], b[1]).mul32_add(a[1], b[0]);
    let col = c1.add(carry);
    let m1 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c2 = m56
        .mul32_add(a[0], b[2])
        .mul32_add(a[1], b[1])
        .mul32_add(a[2], b[0]);
    let col = c2.add(carry);
    let m2 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c3 = z
        .mul32_add(a[0], b[3])
        .mul32_add(a[1], b[2])
        .mul32_add(a[2], b[1])
        .mul32_add(a[3], b[0]);
    let col = c3.add(carry);
    let m3 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c4 = m56
        .mul32_add(a[0], b[4])
        .mul32_add(a[1], b[3])
        .mul32_add(a[2], b[2])
        .mul32_add(a[3], b[1])
        .mul32_add(a[4], b[0]);
    let col = c4.add(carry);
    let m4 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c5 = z
        .mul32_add(a[0], b[5])
        .mul32_add(a[1], b[4])
        .mul32_add(a[2], b[3])
        .mul32_add(a[3], b[2])
        .mul32_add(a[4], b[1])
        .mul32_add(a[5], b[0]);
    let col = c5.add(carry);
    let m5 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c6 = m56
        .mul32_add(a[0], b[6])
        .mul32_add(a[1], b[5])
        .mul32_add(a[2], b[4])
        .mul32_add(a[3], b[3])
        .mul32_add(a[4], b[2])
        .mul32_add(a[5], b[1])
        .mul32_add(a[6], b[0]);
    let col = c6.mul32_add(m0, k17).add(carry);
    let m6 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c7 = z
        .mul32_add(a[0], b[7])
        .mul32_add(a[1], b[6])
        .mul32_add(a[2], b[5])
        .mul32_add(a[3], b[4])
        .mul32_add(a[4], b[3])
        .mul32_add(a[5], b[2])
        .mul32_add(a[6], b[1])
        .mul32_add(a[7], b[0]);
    let col = c7.mul32_add(m1, k17).add(carry);
    let m7 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c8 = m56
        .mul32_add(a[0], b[8])
        .mul32_add(a[1], b[7])
        .mul32_add(a[2], b[6])
        .mul32_add(a[3], b[5])
        .mul32_add(a[4], b[4])
        .mul32_add(a[5], b[3])
        .mul32_add(a[6], b[2])
        .mul32_add(a[7], b[1])
        .mul32_add(a[8], b[0]);
    let col = c8.mul32_add(m2, k17).add(m0.shl::<27>()).add(carry);
    let m8 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c9 = z
        .mul32_add(a[1], b[8])
        .mul32_add(a[2], b[7])
        .mul32_add(a[3], b[6])
        .mul32_add(a[4], b[5])
        .mul32_add(a[5], b[4])
        .mul32_add(a[6], b[3])
        .mul32_add(a[7], b[2])
        .mul32_add(a[8], b[1]);
    let col = c9.mul32_add(m3, k17).add(m1.shl::<27>()).add(carry);
    let m9 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let c10 = z
        .mul32_add(a[2], b[8])
        .mul32_add(a[3], b[7])
        .mul32_add(a[4], b[6])
        .mul32_add(a[5], b[5])
        .mul32_add(a[6], b[4])
        .mul32_add(a[7], b[3])
        .mul32_add(a[8], b[2]);
    let col = c10.mul32_add(m4, k17).add(m2.shl::<27>()).add(carry);
    let r0 = col.and(m28);
    let carry = col.shr::<28>();
    let c11 = z
        .mul32_add(a[3], b[8])
        .mul32_add(a[4], b[7])
        .mul32_add(a[5], b[6])
        .mul32_add(a[6], b[5])
        .mul32_add(a[7], b[4])
        .mul32_add(a[8], b[3]);
    let col = c11.mul32_add(m5, k17).add(m3.shl::<27>()).add(carry);
    let r1 = col.and(m28);
    let carry = col.shr::<28>();
    let c12 = z
        .mul32_add(a[4], b[8])
        .mul32_add(a[5], b[7])
        .mul32_add(a[6], b[6])
        .mul32_add(a[7], b[5])
        .mul32_add(a[8], b[4]);
    let col = c12.mul32_add(m6, k17).add(m4.shl::<27>()).add(carry);
    let r2 = col.and(m28);
    let carry = col.shr::<28>();
    let c13 = z
        .mul32_add(a[5], b[8])
        .mul32_add(a[6], b[7])
        .mul32_add(a[7], b[6])
        .mul32_add(a[8], b[5]);
    let col = c13.mul32_add(m7, k17).add(m5.shl::<27>()).add(carry);
    let r3 = col.and(m28);
    let carry = col.shr::<28>();
    let c14 = z
        .mul32_add(a[6], b[8])
        .mul32_add(a[7], b[7])
        .mul32_add(a[8], b[6]);
    let col = c14.mul32_add(m8, k17).add(m6.shl::<27>()).add(carry);
    let r4 = col.and(m28);
    let carry = col.shr::<28>();
    let c15 = z.mul32_add(a[7], b[8]).mul32_add(a[8], b[7]);
    let col = c15.mul32_add(m9, k17).add(m7.shl::<27>()).add(carry);
    let r5 = col.and(m28);
    let carry = col.shr::<28>();
    let c16 = z.mul32_add(a[8], b[8]);
    let col = c16.add(m8.shl::<27>()).add(carry);
    let r6 = col.and(m28);
    let carry = col.shr::<28>();
    let col = m9.shl::<27>().add(carry);
    let r7 = col.and(m28);
    let carry = col.shr::<28>();
    [r0, r1, r2, r3, r4, r5, r6, r7, carry]
}

/// The Montgomery square `a²/2^280`: 36 cross products doubled plus 9 squares, reduced as
/// in [`mont_mul`] (generated).
#[inline(always)]
pub(crate) fn mont_square<V: Lane>(a: &[V; 9]) -> [V; 9] {
    let m28 = V::splat(M28);
    let m56 = V::splat(M56);
    let k17 = V::splat(C17);
    let z = V::splat(0);
    let c0 = z.mul32_add(a[0], a[0]).add(m56);
    let col = c0;
    let m0 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x1 = z.mul32_add(a[0], a[1]);
    let c1 = x1.add(x1);
    let col = c1.add(carry);
    let m1 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x2 = z.mul32_add(a[0], a[2]);
    let c2 = x2.add(x2).mul32_add(a[1], a[1]).add(m56);
    let col = c2.add(carry);
    let m2 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x3 = z.mul32_add(a[0], a[3]).mul32_add(a[1], a[2]);
    let c3 = x3.add(x3);
    let col = c3.add(carry);
    let m3 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x4 = z.mul32_add(a[0], a[4]).mul32_add(a[1], a[3]);
    let c4 = x4.add(x4).mul32_add(a[2], a[2]).add(m56);
    let col = c4.add(carry);
    let m4 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x5 = z
        .mul32_add(a[0], a[5])
        .mul32_add(a[1], a[4])
        .mul32_add(a[2], a[3]);
    let c5 = x5.add(x5);
    let col = c5.add(carry);
    let m5 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x6 = z
        .mul32_add(a[0], a[6])
        .mul32_add(a[1], a[5])
        .mul32_add(a[2], a[4]);
    let c6 = x6.add(x6).mul32_add(a[3], a[3]).add(m56);
    let col = c6.mul32_add(m0, k17).add(carry);
    let m6 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x7 = z
        .mul32_add(a[0], a[7])
        .mul32_add(a[1], a[6])
        .mul32_add(a[2], a[5])
        .mul32_add(a[3], a[4]);
    let c7 = x7.add(x7);
    let col = c7.mul32_add(m1, k17).add(carry);
    let m7 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x8 = z
        .mul32_add(a[0], a[8])
        .mul32_add(a[1], a[7])
        .mul32_add(a[2], a[6])
        .mul32_add(a[3], a[5]);
    let c8 = x8.add(x8).mul32_add(a[4], a[4]).add(m56);
    let col = c8.mul32_add(m2, k17).add(m0.shl::<27>()).add(carry);
    let m8 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x9 = z
        .mul32_add(a[1], a[8])
        .mul32_add(a[2], a[7])
        .mul32_add(a[3], a[6])
        .mul32_add(a[4], a[5]);
    let c9 = x9.add(x9);
    let col = c9.mul32_add(m3, k17).add(m1.shl::<27>()).add(carry);
    let m9 = m28.sub(col).and(m28);
    let carry = col.shr::<28>();
    let x10 = z
        .mul32_add(a[2], a[8])
        .mul32_add(a[3], a[7])
        .mul32_add(a[4], a[6]);
    let c10 = x10.add(x10).mul32_add(a[5], a[5]);
    let col = c10.mul32_add(m4, k17).add(m2.shl::<27>()).add(carry);
    let r0 = col.and(m28);
    let carry = col.shr::<28>();
    let x11 = z
        .mul32_add(a[3], a[8])
        .mul32_add(a[4], a[7])
        .mul32_add(a[5], a[6]);
    let c11 = x11.add(x11);
    let col = c11.mul32_add(m5, k17).add(m3.shl::<27>()).add(carry);
    let r1 = col.and(m28);
    let carry = col.shr::<28>();
    let x12 = z.mul32_add(a[4], a[8]).mul32_add(a[5], a[7]);
    let c12 = x12.add(x12).mul32_add(a[6], a[6]);
    let col = c12.mul32_add(m6, k17).add(m4.shl::<27>()).add(carry);
    let r2 = col.and(m28);
    let carry = col.shr::<28>();
    let x13 = z.mul32_add(a[5], a[8]).mul32_add(a[6], a[7]);
    let c13 = x13.add(x13);
    let col = c13.mul32_add(m7, k17).add(m5.shl::<27>()).add(carry);
    let r3 = col.and(m28);
    let carry = col.shr::<28>();
    let x14 = z.mul32_add(a[6], a[8]);
    let c14 = x14.add(x14).mul32_add(a[7], a[7]);
    let col = c14.mul32_add(m8, k17).add(m6.shl::<27>()).add(carry);
    let r4 = col.and(m28);
    let carry = col.shr::<28>();
    let x15 = z.mul32_add(a[7], a[8]);
    let c15 = x15.add(x15);
    let col = c15.mul32_add(m9, k17).add(m7.shl::<27>()).add(carry);
    let r5 = col.and(m28);
    let carry = col.shr::<28>();
    let c16 = z.mul32_add(a[8], a[8]);
    let col = c16.add(m8.shl::<27>()).add(carry);
    let r6 = col.and(m28);
    let carry = col.shr::<28>();
    let col = m9.shl::<27>().add(carry);
    let r7 = col.and(m28);
    let carry = col.shr::<28>();
    [r0, r1, r2, r3, r4, r5, r6, r7, carry]
}

/// The canonical `Felt` words of `x·2^-24 mod p` for a value `x` of weight 1 (limbs below
/// [`LIMB_BOUND`]), all in lanes: the one Montgomery reduction step by `2^24` that takes this
/// module's form `a·2^280` to `Felt`'s `a·2^256`, with no product and no branch.
///
/// * As `p ≡ 1 (mod 2^192)`, `m = −x mod 2^24` (a function of limb 0 alone: the other limbs
///   are multiples of 2^28) makes `x + m·p` divisible by `2^24`, and in radix 2^28
///   `m·p = m + (17·m)·2^24·2^(28·6) + m·2^27·2^(28·8)`: three shifted additions to limbs 0,
///   6 and 8 (limb 6 below `2^28 + 2^53`, limb 8 below `2^29 + 2^51`).
/// * One sequential carry pass makes limbs 0..7 canonical digits `t_i`; the low 24 bits of
///   `t_0` are zero. The four 64-bit words of `y = (x + m·p)/2^24` are the digits shifted into
///   place (bit `28i − 24` for `t_i`), with `y < 2^229 + p < 2p` (so `t_8·2^200 < 2^253`
///   and the top word stays below 2^61).
/// * `z = y − p` with `p`'s words `[1, 0, 0, P3]`: the borrow out of word 0 is `w_0 = 0`, out
///   of word `i` it is the borrow in and `w_i = 0` (equality masks, no unsigned compare);
///   `|y − p| < 2^252`, so the sign of `z` is bit 63 of its top word, and `y` is kept where it
///   is set.
#[inline(always)]
fn store_words<V: Lane>(x: [V; 9]) -> [V; 4] {
    let m24 = V::splat((1 << 24) - 1);
    let zero = V::splat(0);
    let mut t = x;
    let m = V::splat(1 << 24).sub(t[0].and(m24)).and(m24);
    t[0] = t[0].add(m);
    t[6] = t[6].add(m.shl::<4>().add(m).shl::<24>());
    t[8] = t[8].add(m.shl::<27>());
    let t = canonical_digits(t);
    let w = [
        t[0].shr::<24>()
            .add(t[1].shl::<4>())
            .add(t[2].shl::<32>())
            .add(t[3].shl::<60>()),
        t[3].shr::<4>().add(t[4].shl::<24>()).add(t[5].shl::<52>()),
        t[5].shr::<12>().add(t[6].shl::<16>()).add(t[7].shl::<44>()),
        t[7].shr::<20>().add(t[8].shl::<8>()),
    ];
    // z = y − p; a borrow is an all-ones mask, so adding it subtracts 1.
    let b0 = w[0].eq_mask(zero);
    let b1 = b0.and(w[1].eq_mask(zero));
    let b2 = b1.and(w[2].eq_mask(zero));
    let z = [
        w[0].sub(V::splat(1)),
        w[1].add(b0),
        w[2].add(b1),
        w[3].sub(V::splat(mont::P[3])).add(b2),
    ];
    let negative = zero.sub(z[3].shr::<63>());
    [
        V::select(negative, z[0], w[0]),
        V::select(negative, z[1], w[1]),
        V::select(negative, z[2], w[2]),
        V::select(negative, z[3], w[3]),
    ]
}

impl<V: Lane> Packed<V> {
    /// Loads `LANES` Felts (any values; the caller guarantees `src.len() == 4`).
    ///
    /// No multiplication (module docs, "Conversion"): with `v = a·2^256 mod p < 2^252` the
    /// canonical Felt limbs, the ten 28-bit limbs `L_i` of `v·2^24` (bits `28i − 24 .. 28i + 4`
    /// of `v`; `L_0 < 2^28` holds bits 0..4 of `v` at position 24, `L_9 = v >> 228 < 2^24`) are
    /// cut out with shifts and masks; `L_9·2^252 ≡ −L_9·(2^197 + 2^193 + 2)` is folded into
    /// limbs 0, 6 and 7 (`2·L_9` at limb 0, `(L_9 mod 8)·2^25` at limb 6, `2·L_9 + ⌊L_9/8⌋` at
    /// limb 7) after adding `F ≡ p`, whose limbs 0, 6 and 7 exceed what is subtracted (checked
    /// at compile time); [`normalize`] then restores `I` (every limb below `2^31`, the top
    /// limb below `3·2^27`, so its fold `h <= 2` stays non-negative too).
    #[inline(always)]
    fn load_felts(src: &[Felt]) -> Self {
        let f: [[u64; 4]; 4] = [
            src[0].to_montgomery_limbs(),
            src[1].to_montgomery_limbs(),
            src[2].to_montgomery_limbs(),
            src[3].to_montgomery_limbs(),
        ];
        let w0 = V::from_array([f[0][0], f[1][0], f[2][0], f[3][0]]);
        let w1 = V::from_array([f[0][1], f[1][1], f[2][1], f[3][1]]);
        let w2 = V::from_array([f[0][2], f[1][2], f[2][2], f[3][2]]);
        let w3 = V::from_array([f[0][3], f[1][3], f[2][3], f[3][3]]);
        let m28 = V::splat(M28);
        let l9 = w3.shr::<36>();
        let l9x2 = l9.shl::<1>();
        let s = [
            w0.shl::<24>().and(m28).add(V::splat(F[0])).sub(l9x2),
            w0.shr::<4>().and(m28).add(V::splat(F[1])),
            w0.shr::<32>().and(m28).add(V::splat(F[2])),
            w0.shr::<60>()
                .add(w1.shl::<4>().and(m28))
                .add(V::splat(F[3])),
            w1.shr::<24>().and(m28).add(V::splat(F[4])),
            w1.shr::<52>()
                .add(w2.shl::<12>().and(m28))
                .add(V::splat(F[5])),
            w2.shr::<16>()
                .and(m28)
                .add(V::splat(F[6]))
                .sub(l9.and(V::splat(7)).shl::<25>()),
            w2.shr::<44>()
                .add(w3.shl::<20>().and(m28))
                .add(V::splat(F[7]))
                .sub(l9x2)
                .sub(l9.shr::<3>()),
            w3.shr::<8>().and(m28).add(V::splat(F[8])),
        ];
        Packed(normalize(s))
    }
}

impl<V: Lane> PackedFelt for Packed<V> {
    const LANES: usize = 4;
    const ROLLED_FULL_ROUNDS: bool = true;
    type Constant = PackedConstant;

    #[inline(always)]
    fn prepare(c: Felt) -> PackedConstant {
        prepare_const(c)
    }
    #[inline(always)]
    fn constant(c: &PackedConstant) -> Self {
        Packed(splat9(&c.limbs))
    }
    #[inline(always)]
    fn zero() -> Self {
        Packed([V::splat(0); 9])
    }
    #[inline(always)]
    fn load(src: &[Felt]) -> Self {
        assert!(src.len() == 4);
        Self::load_felts(src)
    }
    #[inline(always)]
    fn store(self, dst: &mut [Felt]) {
        assert!(dst.len() == 4);
        // The canonical words of the value divided by 2^24 modulo p, in lanes (module docs,
        // "Conversion"), then one element per lane.
        let w = store_words(self.0);
        // A loop, not `map`: a closure would not inherit the entry point's target features.
        let mut lanes = [[0u64; 4]; 4];
        for i in 0..4 {
            lanes[i] = w[i].to_array();
        }
        for (k, out) in dst.iter_mut().enumerate() {
            *out = Felt([lanes[0][k], lanes[1][k], lanes[2][k], lanes[3][k]]);
        }
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].add(rhs.0[i]).add(V::splat(F[i]));
        }
        Packed(normalize(s))
    }
    #[inline(always)]
    fn add_lazy(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].add(rhs.0[i]);
        }
        Packed(s)
    }
    #[inline(always)]
    fn double_lazy(self) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].shl::<1>();
        }
        Packed(s)
    }
    #[inline(always)]
    fn add_constant_lazy(self, c: &PackedConstant) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].add(V::splat(c.limbs[i]));
        }
        Packed(s)
    }
    #[inline(always)]
    fn sub_lazy(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].add(V::splat(K[i])).sub(rhs.0[i]);
        }
        Packed(s)
    }
    #[inline(always)]
    fn sub_lazy_normal(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].add(V::splat(K1[i])).sub(rhs.0[i]);
        }
        Packed(s)
    }
    #[inline(always)]
    fn normalize(self) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].add(V::splat(F[i]));
        }
        Packed(normalize(s))
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].add(V::splat(K_PLUS_F[i])).sub(rhs.0[i]);
        }
        Packed(normalize(s))
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Packed(V::mont_mul9(&self.0, &rhs.0))
    }
    #[inline(always)]
    fn square(self) -> Self {
        Packed(V::mont_square9(&self.0))
    }
    #[inline(always)]
    fn double(self) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].shl::<1>().add(V::splat(F[i]));
        }
        Packed(normalize(s))
    }
    #[inline(always)]
    fn add_constant(self, c: &PackedConstant) -> Self {
        let mut s = self.0;
        for i in 0..9 {
            s[i] = s[i].add(V::splat(c.plus_f[i]));
        }
        Packed(normalize(s))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::backend::portable::PortableLane;
    use alloc::vec::Vec;

    /// A small deterministic generator (xorshift64*), enough for test inputs.
    pub(crate) struct Rng(pub(crate) u64);
    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        /// A limb below `bound`: uniform, or at or near the bound, or small (for the kernel
        /// tests of `crate::poseidon::avx2_twin`, which run on x86-64 only).
        #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
        pub(crate) fn limb(&mut self, bound: u64) -> u64 {
            match self.next() % 4 {
                0 => bound - 1 - self.next() % 4,
                1 => self.next() % 4,
                _ => self.next() % bound,
            }
        }
        fn felt(&mut self) -> Felt {
            let choice = self.next() % 4;
            if choice == 0 {
                return edge_values()[(self.next() % edge_values().len() as u64) as usize];
            }
            let mut b = [0u8; 32];
            for c in b.chunks_mut(8) {
                c.copy_from_slice(&self.next().to_le_bytes());
            }
            Felt::from_bytes_le_reduced(&b)
        }
    }

    /// 0, 1, p-1, values near 2^251 and near 28-bit and 64-bit limb boundaries.
    pub(crate) fn edge_values() -> Vec<Felt> {
        let mut v = vec![
            Felt::ZERO,
            Felt::ONE,
            Felt::TWO,
            Felt::MAX,
            Felt::MAX - Felt::ONE,
        ];
        let two = Felt::TWO;
        for e in [27u128, 28, 29, 55, 56, 63, 64, 84, 112, 127] {
            let x = two.pow(e);
            v.extend([x, x - Felt::ONE, x + Felt::ONE, -x]);
        }
        for e in [192u128, 196, 224, 248, 250, 251] {
            let x = Felt::TWO.pow(e);
            v.extend([x, x - Felt::ONE, x + Felt::ONE, -x]);
        }
        v
    }

    fn load<V: Lane>(x: [Felt; 4]) -> Packed<V> {
        Packed::<V>::load(&x)
    }

    fn store<V: Lane>(x: Packed<V>) -> [Felt; 4] {
        let mut o = [Felt::ZERO; 4];
        x.store(&mut o);
        o
    }

    fn check_invariant<V: Lane>(x: &Packed<V>) {
        for limb in x.0.iter() {
            for v in limb.to_array() {
                assert!(v < LIMB_BOUND, "limb {v:#x} breaks the invariant");
            }
        }
    }

    /// Random chains of every operation, compared lane by lane with Felt after every step.
    fn chains<V: Lane>(seed: u64) {
        let mut rng = Rng(seed);
        let consts: Vec<Felt> = (0..8).map(|_| rng.felt()).collect();
        let prepared: Vec<PackedConstant> = consts.iter().map(|c| prepare_const(*c)).collect();
        for _ in 0..40 {
            let mut xs: Vec<[Felt; 4]> = (0..4)
                .map(|_| [rng.felt(), rng.felt(), rng.felt(), rng.felt()])
                .collect();
            let mut ps: Vec<Packed<V>> = xs.iter().map(|x| load::<V>(*x)).collect();
            for p in &ps {
                check_invariant(p);
            }
            for _ in 0..300 {
                let i = (rng.next() % 4) as usize;
                let j = (rng.next() % 4) as usize;
                let d = (rng.next() % 4) as usize;
                let op = rng.next() % 7;
                let (a, b) = (ps[i], ps[j]);
                let (fa, fb) = (xs[i], xs[j]);
                let (r, fr): (Packed<V>, [Felt; 4]) = match op {
                    0 => (a.add(b), core::array::from_fn(|k| fa[k] + fb[k])),
                    1 => (a.sub(b), core::array::from_fn(|k| fa[k] - fb[k])),
                    2 => (a.mul(b), core::array::from_fn(|k| fa[k] * fb[k])),
                    3 => (a.square(), core::array::from_fn(|k| fa[k].square())),
                    4 => (a.double(), core::array::from_fn(|k| fa[k].double())),
                    5 => {
                        let c = (rng.next() % 8) as usize;
                        (
                            a.add_constant(&prepared[c]),
                            core::array::from_fn(|k| fa[k] + consts[c]),
                        )
                    }
                    _ => {
                        let c = (rng.next() % 8) as usize;
                        (
                            a.mul(Packed::constant(&prepared[c])),
                            core::array::from_fn(|k| fa[k] * consts[c]),
                        )
                    }
                };
                check_invariant(&r);
                assert_eq!(store(r), fr, "op {op}");
                ps[d] = r;
                xs[d] = fr;
            }
        }
    }

    /// Long chains of additions only (the worst case for lazy growth).
    fn add_chains<V: Lane>() {
        let mut a = load::<V>([
            Felt::MAX,
            Felt::MAX - Felt::ONE,
            Felt::TWO.pow(251),
            Felt::ONE,
        ]);
        let mut fa = [
            Felt::MAX,
            Felt::MAX - Felt::ONE,
            Felt::TWO.pow(251),
            Felt::ONE,
        ];
        for step in 0..2000 {
            if step % 3 == 0 {
                a = a.double();
                fa = fa.map(|x| x.double());
            } else if step % 3 == 1 {
                a = a.add(a).add(a);
                fa = fa.map(|x| x + x + x);
            } else {
                a = Packed::zero().sub(a).sub(a);
                fa = fa.map(|x| -x - x);
            }
            check_invariant(&a);
            assert_eq!(store(a), fa);
        }
    }

    /// The field elements a value represents, from its limbs (any limb sizes): lane `k` is
    /// `Σ x_i·2^(28 i) / 2^280`.
    fn value<V: Lane>(x: &Packed<V>) -> [Felt; 4] {
        let r_inv = Felt::TWO.pow(280).inverse().unwrap();
        let base = Felt::TWO.pow(28);
        core::array::from_fn(|k| {
            let mut acc = Felt::ZERO;
            for limb in x.0.iter().rev() {
                acc = acc * base + Felt::from(limb.to_array()[k]);
            }
            acc * r_inv
        })
    }

    /// Every limb below `w·B`: the meaning of weight `w` (module docs).
    fn check_weight<V: Lane>(x: &Packed<V>, w: u32) {
        for limb in x.0.iter() {
            for v in limb.to_array() {
                assert!(v < w as u64 * LIMB_BOUND, "limb {v:#x} exceeds weight {w}");
            }
        }
    }

    /// A value whose every limb is `w·B - 1` in every lane (the largest limbs weight `w`
    /// allows), or `w·B - 1 - k` in lane `k` for a little variety.
    fn extreme<V: Lane>(w: u32) -> Packed<V> {
        let top = w as u64 * LIMB_BOUND - 1;
        Packed([V::from_array([top, top - 1, top - 2, top - 3]); 9])
    }

    /// Every lazy and normalising operation at the largest weights the contract allows,
    /// on the largest limbs of those weights: checked against `Felt` and for its output
    /// weight.
    fn lazy_worst_case<V: Lane>() {
        let nw = NORMALIZE_WEIGHT;
        let mw = MUL_WEIGHT;
        let k = prepare_const(Felt::MAX);
        let fk = Felt::MAX;
        let zero = Packed::<V>::zero();
        for wa in 1..=nw {
            let a = extreme::<V>(wa);
            let va = value(&a);
            let n = a.normalize();
            check_weight(&n, 1);
            assert_eq!(store(n), va);
            if wa < nw {
                let r = a.add_constant_lazy(&k);
                check_weight(&r, wa + 1);
                assert_eq!(value(&r), va.map(|x| x + fk));
                let r = a.add_constant(&k);
                check_weight(&r, 1);
                assert_eq!(store(r), va.map(|x| x + fk));
            }
            if 2 * wa <= nw {
                let r = a.double_lazy();
                check_weight(&r, 2 * wa);
                assert_eq!(value(&r), va.map(|x| x.double()));
                let r = a.double();
                check_weight(&r, 1);
                assert_eq!(store(r), va.map(|x| x.double()));
            }
            for wb in 1..=nw - wa {
                let b = extreme::<V>(wb);
                let vb = value(&b);
                let r = a.add_lazy(b);
                check_weight(&r, wa + wb);
                assert_eq!(value(&r), core::array::from_fn(|i| va[i] + vb[i]));
                let r = a.add(b);
                check_weight(&r, 1);
                assert_eq!(store(r), core::array::from_fn(|i| va[i] + vb[i]));
            }
            if wa + 4 <= nw {
                for b in [zero, extreme::<V>(1), extreme::<V>(2)] {
                    let vb = value(&b);
                    let r = a.sub_lazy(b);
                    check_weight(&r, wa + 4);
                    assert_eq!(value(&r), core::array::from_fn(|i| va[i] - vb[i]));
                    let r = a.sub(b);
                    check_weight(&r, 1);
                    assert_eq!(store(r), core::array::from_fn(|i| va[i] - vb[i]));
                }
            }
            if wa + 2 <= nw {
                for b in [zero, extreme::<V>(1)] {
                    let vb = value(&b);
                    let r = a.sub_lazy_normal(b);
                    check_weight(&r, wa + 2);
                    assert_eq!(value(&r), core::array::from_fn(|i| va[i] - vb[i]));
                }
            }
            if wa <= mw {
                for wb in 1..=mw {
                    let b = extreme::<V>(wb);
                    let vb = value(&b);
                    let r = a.mul(b);
                    check_invariant(&r);
                    assert_eq!(store(r), core::array::from_fn(|i| va[i] * vb[i]));
                }
                let r = a.square();
                check_invariant(&r);
                assert_eq!(store(r), va.map(|x| x.square()));
            }
        }
    }

    /// Random chains mixing lazy and normalising operations, keeping the weight of every
    /// value and choosing only operations the contract allows; every result is checked for
    /// its weight and against `Felt`.
    fn lazy_chains<V: Lane>(seed: u64) {
        let nw = NORMALIZE_WEIGHT;
        let mut rng = Rng(seed);
        let consts: Vec<Felt> = (0..4).map(|_| rng.felt()).collect();
        let prepared: Vec<PackedConstant> = consts.iter().map(|c| prepare_const(*c)).collect();
        for _ in 0..20 {
            let mut xs: Vec<[Felt; 4]> = (0..4)
                .map(|_| [rng.felt(), rng.felt(), rng.felt(), rng.felt()])
                .collect();
            let mut ps: Vec<Packed<V>> = xs.iter().map(|x| load::<V>(*x)).collect();
            let mut ws = [1u32; 4];
            for _ in 0..400 {
                let i = (rng.next() % 4) as usize;
                let j = (rng.next() % 4) as usize;
                let d = (rng.next() % 4) as usize;
                let (a, b, fa, fb, wa, wb) = (ps[i], ps[j], xs[i], xs[j], ws[i], ws[j]);
                let c = (rng.next() % 4) as usize;
                let r: Option<(Packed<V>, [Felt; 4], u32)> = match rng.next() % 11 {
                    0 if wa + wb <= nw => Some((
                        a.add_lazy(b),
                        core::array::from_fn(|k| fa[k] + fb[k]),
                        wa + wb,
                    )),
                    1 if 2 * wa <= nw => Some((a.double_lazy(), fa.map(|x| x.double()), 2 * wa)),
                    2 if wa < nw => Some((
                        a.add_constant_lazy(&prepared[c]),
                        fa.map(|x| x + consts[c]),
                        wa + 1,
                    )),
                    3 if wa + 4 <= nw && wb <= 2 => Some((
                        a.sub_lazy(b),
                        core::array::from_fn(|k| fa[k] - fb[k]),
                        wa + 4,
                    )),
                    4 => Some((a.normalize(), fa, 1)),
                    5 if wa <= MUL_WEIGHT
                        && wb <= MUL_WEIGHT
                        && wa * wb <= Packed::<V>::MUL_WEIGHTS =>
                    {
                        Some((a.mul(b), core::array::from_fn(|k| fa[k] * fb[k]), 1))
                    }
                    6 if wa <= MUL_WEIGHT => Some((a.square(), fa.map(|x| x.square()), 1)),
                    7 if wa + 4 <= nw && wb <= 2 => {
                        Some((a.sub(b), core::array::from_fn(|k| fa[k] - fb[k]), 1))
                    }
                    8 if wa + wb <= nw => {
                        Some((a.add(b), core::array::from_fn(|k| fa[k] + fb[k]), 1))
                    }
                    9 if wa + 4 <= nw && wb == 1 => {
                        Some((a.sub_for_mul(b), core::array::from_fn(|k| fa[k] - fb[k]), 2))
                    }
                    10 if wa + 2 <= nw && wb == 1 => Some((
                        a.sub_lazy_normal(b),
                        core::array::from_fn(|k| fa[k] - fb[k]),
                        wa + 2,
                    )),
                    // Not allowed at these weights: normalise the operand instead.
                    _ => Some((a.normalize(), fa, 1)),
                };
                let (r, fr, wr) = r.unwrap();
                check_weight(&r, wr);
                assert_eq!(value(&r), fr);
                if wr == 1 {
                    check_invariant(&r);
                    assert_eq!(store(r), fr);
                }
                ps[d] = r;
                xs[d] = fr;
                ws[d] = wr;
            }
        }
    }

    fn edges<V: Lane>() {
        let e = edge_values();
        for chunk in e.chunks(4) {
            let mut x = [Felt::ZERO; 4];
            x[..chunk.len()].copy_from_slice(chunk);
            let p = load::<V>(x);
            assert_eq!(store(p), x);
            for other in e.chunks(4) {
                let mut y = [Felt::MAX; 4];
                y[..other.len()].copy_from_slice(other);
                let q = load::<V>(y);
                assert_eq!(store(p.mul(q)), core::array::from_fn(|k| x[k] * y[k]));
                assert_eq!(store(p.sub(q)), core::array::from_fn(|k| x[k] - y[k]));
                assert_eq!(store(p.add(q)), core::array::from_fn(|k| x[k] + y[k]));
            }
        }
    }

    fn select<V: Lane>() {
        let a = V::from_array([1, 2, 3, 4]);
        let b = V::from_array([1, 5, 3, 6]);
        let m = a.eq_mask(b);
        assert_eq!(m.to_array(), [u64::MAX, 0, u64::MAX, 0]);
        assert_eq!(
            V::select(m, V::splat(7), V::splat(9)).to_array(),
            [9, 7, 9, 7]
        );
    }

    /// [`store_words`] on every representative it can meet: for Montgomery words `v` near the
    /// 64-bit word boundaries (where the subtraction of p borrows across words) and at the
    /// ends of the range, the lane value `x ≡ v·2^24 (mod p)` both as its canonical residue
    /// and with p added (so that `(x + m·p)/2^24` is `v + p` and the subtraction is taken),
    /// in every lane position.
    fn store_representatives<V: Lane>() {
        let small = [0u64, 1, 2, u64::MAX - 1, u64::MAX];
        let mut vs: Vec<[u64; 4]> = Vec::new();
        for w in 0..4 {
            for lo in small {
                // lo in word w, zeros or ones below it.
                for below in [0, u64::MAX] {
                    let mut v = [below; 4];
                    v[w] = lo;
                    for x in v.iter_mut().skip(w + 1) {
                        *x = 0;
                    }
                    vs.push(v);
                }
            }
        }
        vs.push(mont::P);
        vs.push([0, 0, 0, mont::P[3]]);
        vs.push([u64::MAX, u64::MAX, u64::MAX, mont::P[3] - 1]);
        let mut cases: Vec<([u64; 9], Felt)> = Vec::new();
        for v in vs {
            // v as an integer below p, and the residue of v·2^24.
            let mut b = [0u8; 32];
            for (c, w) in b.chunks_mut(8).zip(v) {
                c.copy_from_slice(&w.to_le_bytes());
            }
            let Ok(int) = Felt::from_bytes_le(&b) else {
                continue;
            };
            let expected = Felt(v);
            let r = (int * Felt::TWO.pow(24)).to_bytes_le();
            let x0: [u64; 4] = core::array::from_fn(|i| {
                u64::from_le_bytes(r[8 * i..8 * i + 8].try_into().unwrap())
            });
            cases.push((split(x0), expected));
            // x0 + p, while the top limb stays below LIMB_BOUND.
            let (a0, c) = mont::adc(x0[0], mont::P[0], 0);
            let (a1, c) = mont::adc(x0[1], mont::P[1], c);
            let (a2, c) = mont::adc(x0[2], mont::P[2], c);
            let (a3, _) = mont::adc(x0[3], mont::P[3], c);
            let limbs = split([a0, a1, a2, a3]);
            if limbs[8] < LIMB_BOUND {
                cases.push((limbs, expected));
            }
        }
        assert!(cases.len() > 50);
        for start in 0..cases.len() {
            let pick: [usize; 4] = core::array::from_fn(|k| (start + 7 * k) % cases.len());
            let limbs: [V; 9] = core::array::from_fn(|i| {
                V::from_array(core::array::from_fn(|k| cases[pick[k]].0[i]))
            });
            let out = store(Packed(limbs));
            for k in 0..4 {
                assert_eq!(out[k], cases[pick[k]].1, "case {} in lane {k}", pick[k]);
            }
        }
    }

    fn all<V: Lane>() {
        store_representatives::<V>();
        select::<V>();
        edges::<V>();
        add_chains::<V>();
        chains::<V>(0x1234_5678_9abc_def1);
        chains::<V>(42);
        lazy_worst_case::<V>();
        lazy_chains::<V>(7);
        lazy_chains::<V>(0xdead_beef);
    }

    #[test]
    fn constants_are_consistent() {
        // F is p (checked at compile time); K + F is a multiple of p: its value mod p is 0.
        let to_felt = |l: [u64; 9]| {
            let mut acc = Felt::ZERO;
            let base = Felt::TWO.pow(28);
            for x in l.iter().rev() {
                acc = acc * base + Felt::from(*x);
            }
            acc
        };
        assert_eq!(to_felt(F), Felt::ZERO);
        assert_eq!(to_felt(K_PLUS_F), Felt::ZERO);
        assert!(
            K_PLUS_F
                .iter()
                .zip(F.iter())
                .all(|(k, f)| k - f >= LIMB_BOUND)
        );
    }

    #[test]
    fn portable_matches_felt() {
        all::<PortableLane>();
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_matches_felt() {
        if std::arch::is_x86_feature_detected!("avx2") {
            // Sound: the CPU has AVX2, which is all Avx2Lane's methods require.
            all::<crate::backend::avx2::Avx2Lane>();
        }
    }

    #[cfg(target_arch = "aarch64")]
    #[test]
    fn neon_matches_felt() {
        if std::arch::is_aarch64_feature_detected!("neon") {
            all::<crate::backend::neon::NeonLane>();
        }
    }
}
