//! [`Ifma`]: eight field elements in five 52-bit limbs, one `__m512i` per limb, multiplied with
//! AVX-512 IFMA (`vpmadd52luq` / `vpmadd52huq`), implementing [`PackedFelt`] with `LANES = 8`.
//!
//! # Representation
//! Lane `k` of limb vector `i` holds limb `x_i` of element `k`; the element is
//! `x = Σ x_i·2^(52·i)` (five limbs, 260 bits), congruent modulo p to `a·R` where `a` is the
//! field element and `R = 2^260` (Montgomery form, five 52-bit reduction steps). In radix 2^52,
//! `p = 2^251 + 17·2^192 + 1 = [1, 0, 0, 17·2^36, 2^43]` and `-p^-1 ≡ -1 (mod 2^52)`.
//!
//! # Invariant `I` (holds for every value handed out by this module)
//! Limbs 0..=3 are in `[0, 2^52)` and limb 4 is in `[0, 2^45)`; hence `x < 2^253`.
//! IFMA multiplies only the low 52 bits of each lane, so a limb must be below 2^52 whenever
//! it enters a product: unlike the 9×28-bit form there is no headroom in the multiplier
//! inputs, which is why every normalising operation ends with a full carry ripple and `mul`
//! and `square` carry their (possibly lazy) inputs first (see "Lazy operations" below).
//!
//! # Multiplication (product scanning, reduction folded in)
//! The 25 limb products `a_i·b_j < 2^104` are split by IFMA into a low half (bits 0..52, added
//! to column `i+j`) and a high half (bits 52..104, added to column `i+j+1`), each straight into
//! the column's accumulator (one chain per column, at most ten deep; the square adds its cross
//! products, doubles the columns, then adds the five squares). A column holds at most 10
//! halves below 2^52, at most 4 reduction halves, the offset `2^52 - 1` and a carry below 16:
//! below 2^56, far inside a 64-bit lane. For `k = 0..5`, with `col = c_k + carry`:
//! `m_k = -col mod 2^52`, the carry is `ceil(col/2^52) = (col + 2^52 - 1) >> 52` (independent
//! of `m_k`, so the two run in parallel; `mont_mul` starts columns 0..=4 at `2^52 - 1`, so the
//! carry is `col >> 52` and `m_k` the complement of `col`), and `m_k·p` adds `m_k` to column
//! `k` (absorbed in the carry), `m_k·17·2^36` and `m_k·2^43` to columns `k+3`, `k+4` (four
//! IFMA with constant operands; the lane holds `-col` unmasked, since IFMA reads only its low
//! 52 bits, `m_k`). Columns 5..=9 with a carry ripple are the
//! result `(a·b + M·p)/2^260` with `M < 2^260`, so it is below `a·b/2^260 + p`; for inputs
//! satisfying `I` that is `< 2^246 + p < 2^251.1`: limbs 0..=3 below 2^52, limb 4 below 2^43.1
//! (`I` holds). A product is 50 IFMA plus 20 for the reduction, a square 30 plus 20.
//!
//! # Addition, subtraction, doubling: lane-wise, then [`normalize`]
//! AVX-512 has a 64-bit arithmetic shift (`vpsraq`), so limbs may go negative in between:
//! `a - b` is a plain lane-wise difference. [`normalize`] takes limbs 0..=3 in
//! `(-2^53, 2^54)` and limb 4 in `(-2^46, 2^46)` (true for the sum, difference or double of
//! values satisfying `I`), and:
//! 1. folds the top: `h = x_4 >> 43` (arithmetic, so `h ∈ [-8, 8)`), `x_4 = (x_4 mod 2^43)`,
//!    and since `2^251 ≡ -(17·2^192 + 1)` it adds `(1 - h)·(17·2^192 + 1)` and `2^251`, i.e.
//!    the value becomes `x + (1 - h)·p ≡ x`. The extra `+p` keeps it positive:
//!    `|(1 - h)·17·2^36| < 65·17·2^36 < 2^47`, so limb 3 stays in `(-2^57, 2^57)`.
//! 2. ripples the carries from limb 0 to limb 4 with arithmetic shifts (`c = x_i >> 52`,
//!    `x_i &= 2^52 - 1`, `x_{i+1} += c`), which leaves limbs 0..=3 in `[0, 2^52)`; every carry
//!    is in `[-33, 33)`, so limb 4 ends in `[2^43 - 33, 2^44 + 33)`: `I` holds.
//!
//! # Lazy operations and weights ([`PackedFelt`]'s contract)
//! A value of weight `w` has limbs 0..=3 in `[0, w·2^52)` and limb 4 in `[0, w·2^45)`
//! (weight 1 is `I`). The lazy operations are plain lane-wise limb sums with no carries:
//! `add_lazy` adds limbs, `double_lazy` shifts them left by one, `add_constant_lazy` adds the
//! canonical limbs of the constant (weight 1), and `sub_lazy(a, b)` computes `a + K - b`, where
//! `K = 9p` is written redundantly with limbs 0..=3 in `[3·2^52 - 3, 4·2^52)` and limb 4 in
//! `[2^46, 2^47)`: at least the limbs of any subtrahend of weight 2, so no lane goes negative,
//! and below weight 4. [`PackedFelt::normalize`] and the normalising `add`, `double`,
//! `add_constant` are [`normalize`] of the lane-wise sum, whose precondition (limbs 0..=3 in
//! `(-2^56, 2^56)`, limb 4 in `(-2^49, 2^49)`) holds up to weight 10 (`10·2^52 < 2^56`,
//! `10·2^45 < 2^49`); `sub` is the plain difference (limbs above `-2^53`) normalised.
//!
//! IFMA reads only the low 52 bits of a multiplier limb, so a product cannot take lazy limbs
//! directly: `mul` and `square` first run [`ripple`] on their inputs (a four-step carry chain,
//! no top fold, twelve vector operations). For weight at most 4 ([`MUL_WEIGHT`]) it leaves limbs
//! 0..=3 below 2^52 and limb 4 below `4·2^45 + 4 < 2^48`, so `x < 2^256`; the product is then
//! below `2^512/2^260 + p < 2^252.6`, and limb 4 of the result is below 2^45: `I` holds. The
//! fused S-boxes `cube` and `double_cube` carry only their input (the square's output is
//! already a valid multiplier), so a cube costs one ripple instead of one normalisation per
//! linear operation (the Hades partial round normalises once instead of seven times).
//!
//! # Conversion
//! A `Felt` holds `a·2^256` in four 64-bit words; loading splits the words into 52-bit limbs
//! (the top limb is below 2^44 since the value is below p) and multiplies by the constant
//! `2^264 mod p` (`a·2^256·2^264/2^260 = a·2^260`). Storing multiplies by `2^256 mod p`; the
//! product is below `2^245 + p < 2p`, and one conditional subtraction in lanes ([`below_p`])
//! makes it canonical.
//!
//! # Safety
//! Every intrinsic below requires AVX-512F and, for the multiply-accumulates, AVX-512 IFMA.
//! [`Ifma`] is crate-private and its values are only created inside the
//! `#[target_feature(enable = "avx512f,avx512ifma")]` entry points of `crate::batch`, which are
//! only called after [`crate::Backend`] confirmed both features at run time (and in unit tests
//! guarded by the same detection). Whenever a function of this module runs, the CPU has both:
//! that is the invariant each `// SAFETY:` comment refers to.

// Limb code indexes several arrays in step; index loops say that most plainly.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::select::PackedSelect;
use crate::field::mont;
use crate::field::{Felt, MUL_WEIGHT, NORMALIZE_WEIGHT, PackedFelt};

/// 52-bit limb mask.
const M52: u64 = (1 << 52) - 1;
/// 43-bit mask: the top limb's bits below 2^251.
const M43: u64 = (1 << 43) - 1;
/// Limb 3 of p in radix 2^52 (`17·2^192 = 17·2^36·2^156`).
const P3: u64 = 17 << 36;
/// Limb 4 of p in radix 2^52 (`2^251 = 2^43·2^208`).
const P4: u64 = 1 << 43;
/// Bound of limbs 0..=3 under invariant `I` (exclusive).
#[cfg(test)]
const LIMB_BOUND: u64 = 1 << 52;
/// Bound of limb 4 under invariant `I` (exclusive).
#[cfg(test)]
const TOP_BOUND: u64 = 1 << 45;

/// `9p` with limbs redistributed (`K_0 = 9 + 3·2^52`, `K_i = p9_i + 3·2^52 - 3` for
/// `i = 1..=3`, `K_4 = 9·2^43 - 3`): the offset of `sub_lazy` (module docs).
const K: [u64; 5] = [
    9 + (3 << 52),
    (3 << 52) - 3,
    (3 << 52) - 3,
    9 * P3 + (3 << 52) - 3,
    9 * P4 - 3,
];

/// `5p` with limbs redistributed (`K1_0 = 5 + 2^52`, `K1_i = p5_i + 2^52 - 1` for
/// `i = 1..=3`, `K1_4 = 5·2^43 - 1`): the offset of `sub_lazy_normal`, at least every limb of a
/// weight-1 subtrahend (limbs 0..=3 below 2^52, limb 4 below 2^45) and below weight 2.
const K1: [u64; 5] = [
    5 + (1 << 52),
    (1 << 52) - 1,
    (1 << 52) - 1,
    5 * P3 + (1 << 52) - 1,
    5 * P4 - 1,
];

// Compile-time checks of the weight bounds (module docs).
const _: () = {
    let b = 1u64 << 52;
    let bt = 1u64 << 45;
    // K's value is 9p: each limb i > 0 lost 3 units that limb i - 1 gained as 3·2^52.
    assert!(K[0] - 9 == 3 * b);
    assert!(K[1] + 3 == 3 * b && K[2] + 3 == 3 * b && K[3] + 3 - 9 * P3 == 3 * b);
    assert!(K[4] + 3 == 9 * P4);
    // K is at least every limb of a weight-2 subtrahend and below weight 4.
    let mut i = 0;
    while i < 4 {
        assert!(K[i] >= 2 * b && K[i] < 4 * b);
        i += 1;
    }
    assert!(K[4] >= 2 * bt && K[4] < 4 * bt);
    // K1's value is 5p (each limb i > 0 lost one unit that limb i - 1 gained as 2^52); it
    // covers a weight-1 subtrahend and is below weight 2, so `sub_lazy_normal` gives w(a) + 2.
    assert!(K1[0] - 5 == b);
    assert!(K1[1] + 1 == b && K1[2] + 1 == b && K1[3] + 1 - 5 * P3 == b);
    assert!(K1[4] + 1 == 5 * P4);
    let mut i = 0;
    while i < 4 {
        assert!(K1[i] >= b - 1 && K1[i] < 2 * b);
        i += 1;
    }
    assert!(K1[4] >= bt - 1 && K1[4] < 2 * bt);
    // normalize's precondition up to NORMALIZE_WEIGHT, for sums and for `sub`
    // (minuend weight NORMALIZE_WEIGHT - 4, subtrahend weight 2).
    let nw = NORMALIZE_WEIGHT as u64;
    assert!(nw * b <= 1 << 56 && nw * bt <= 1 << 49);
    assert!(2 * b <= 1 << 56 && 2 * bt <= 1 << 49);
    // normalize: |t| = |1 - h| <= 65 for limb 4 in (-2^49, 2^49), and t·17·2^36 < 2^47.
    assert!(65 * P3 < 1 << 47);
    // mul/square after `ripple` at MUL_WEIGHT: limb 4 below 2^48 (x < 2^256), the product
    // below 2^252 + p < 2^253 = 2^45·2^208 (limb 4 of the result below 2^45).
    let mw = MUL_WEIGHT as u64;
    assert!(mw * bt + mw < 1 << 48);
    assert!(mw * b < 1 << 63);
};

/// Splits a value below 2^256 (four little-endian u64) into five 52-bit limbs (the top limb
/// takes bits 208..256).
const fn split(x: [u64; 4]) -> [u64; 5] {
    [
        x[0] & M52,
        ((x[0] >> 52) | (x[1] << 12)) & M52,
        ((x[1] >> 40) | (x[2] << 24)) & M52,
        ((x[2] >> 28) | (x[3] << 36)) & M52,
        x[3] >> 16,
    ]
}

/// `2^264 mod p` as limbs: multiplying a Felt's Montgomery words (`a·2^256`) by it gives
/// `a·2^260`, this module's form.
const TO_LANE: [u64; 5] = split(Felt::from_u64_const(1 << 8).to_montgomery_limbs());
/// `2^256 mod p` as limbs: multiplying `a·2^260` by it gives `a·2^256`, the Felt form.
const FROM_LANE: [u64; 5] = split(mont::R);

// Compile-time checks of the facts the code relies on.
const _: () = {
    // p in radix 2^52 is [1, 0, 0, P3, P4].
    let p = split(mont::P);
    assert!(p[0] == 1 && p[1] == 0 && p[2] == 0 && p[3] == P3 && p[4] == P4);
    // Canonical values have a top limb below 2^44 (so `I` holds right after a split).
    assert!(p[4] < 1 << 44);
};

/// A prepared constant: its limbs `a·2^260 mod p`, canonical (so `I` holds).
#[derive(Clone, Copy, Debug)]
pub struct IfmaConstant {
    limbs: [u64; 5],
}

/// Prepares a constant at compile time or at run time.
pub(crate) const fn prepare_const(c: Felt) -> IfmaConstant {
    // c holds a·2^256; Montgomery-multiplying by 2^260 mod p (= Felt 2^4's words) gives
    // a·2^260 mod p, canonical.
    let v = mont::mul(
        c.to_montgomery_limbs(),
        Felt::from_u64_const(1 << 4).to_montgomery_limbs(),
    );
    IfmaConstant { limbs: split(v) }
}

// ---- thin wrappers over the intrinsics (each `unsafe` block is justified by the module's
// safety invariant: AVX-512F and IFMA are present whenever this code runs) ----

type V = __m512i;

#[inline(always)]
fn splat(x: u64) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_set1_epi64(x as i64) }
}
#[inline(always)]
fn add(a: V, b: V) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_add_epi64(a, b) }
}
#[inline(always)]
fn sub(a: V, b: V) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_sub_epi64(a, b) }
}
#[inline(always)]
fn and(a: V, b: V) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_and_si512(a, b) }
}
#[inline(always)]
fn xor(a: V, b: V) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_xor_si512(a, b) }
}
#[inline(always)]
fn or(a: V, b: V) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_or_si512(a, b) }
}
#[inline(always)]
fn shl<const N: u32>(a: V) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_slli_epi64::<N>(a) }
}
#[inline(always)]
fn shr<const N: u32>(a: V) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_srli_epi64::<N>(a) }
}
/// Arithmetic (sign-extending) shift right.
#[inline(always)]
fn sra<const N: u32>(a: V) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_srai_epi64::<N>(a) }
}
/// `acc + ((b mod 2^52)·(c mod 2^52) mod 2^52)` per lane.
#[inline(always)]
fn madd_lo(acc: V, b: V, c: V) -> V {
    // SAFETY: AVX-512 IFMA present (module docs).
    unsafe { _mm512_madd52lo_epu64(acc, b, c) }
}
/// `acc + floor((b mod 2^52)·(c mod 2^52) / 2^52)` per lane.
#[inline(always)]
fn madd_hi(acc: V, b: V, c: V) -> V {
    // SAFETY: AVX-512 IFMA present (module docs).
    unsafe { _mm512_madd52hi_epu64(acc, b, c) }
}
#[inline(always)]
fn load8(a: &[u64; 8]) -> V {
    // SAFETY: AVX-512F present (module docs); `a` is 64 readable bytes and loadu has no
    // alignment requirement.
    unsafe { _mm512_loadu_si512(a.as_ptr() as *const V) }
}
#[inline(always)]
fn store8(x: V) -> [u64; 8] {
    let mut a = [0u64; 8];
    // SAFETY: AVX-512F present (module docs); `a` is 64 writable bytes and storeu has no
    // alignment requirement.
    unsafe { _mm512_storeu_si512(a.as_mut_ptr() as *mut V, x) };
    a
}

#[inline(always)]
fn splat5(c: &[u64; 5]) -> [V; 5] {
    [
        splat(c[0]),
        splat(c[1]),
        splat(c[2]),
        splat(c[3]),
        splat(c[4]),
    ]
}

/// Montgomery reduction of the ten product columns `c` (module docs): returns
/// `Σ c_k·2^(52 k) / 2^260 + (multiple of p)/2^260` with limbs 0..=3 below 2^52.
///
/// With `OFFSET`, columns 0..=4 already hold `2^52 − 1` on top of their sum (the caller
/// started their accumulators there), which saves one addition per reduction step: the carry
/// `ceil(col/2^52)` is then `col' >> 52`, and `!col' = 2^64 − 2^52 − col ≡ −col (mod 2^52)`
/// gives `m` (IFMA reads only its low 52 bits). Without it the offset is added here.
/// With `DOUBLE`, the result is doubled: the upper columns and the carry into them are
/// doubled (six shifts, each below 2^57 after) before the final ripple, so the limbs 0..=3 of
/// `2·(Σ c_k·2^(52 k) + M·p)/2^260` come out below 2^52 (a valid multiplier as it is).
/// Precondition: every column below 2^56 after the reduction terms and the offset are added.
#[inline(always)]
fn reduce<const OFFSET: bool, const DOUBLE: bool>(mut c: [V; 10]) -> [V; 5] {
    let m52 = splat(M52);
    let p3 = splat(P3);
    let p4 = splat(P4);
    let zero = splat(0);
    let ones = splat(u64::MAX);
    let mut carry = zero;
    for k in 0..5 {
        let col = add(c[k], carry);
        // m = -col mod 2^52; col + m is a multiple of 2^52, and (col + m)/2^52 =
        // ceil(col/2^52) = (col + 2^52 - 1) >> 52. `m` is used only as an IFMA multiplier,
        // which reads the low 52 bits of each lane, so the lane holds `-col` unmasked.
        let m = if OFFSET {
            carry = shr::<52>(col);
            xor(col, ones)
        } else {
            carry = shr::<52>(add(col, m52));
            sub(zero, col)
        };
        c[k + 3] = madd_lo(c[k + 3], m, p3);
        c[k + 4] = madd_hi(c[k + 4], m, p3);
        c[k + 4] = madd_lo(c[k + 4], m, p4);
        c[k + 5] = madd_hi(c[k + 5], m, p4);
    }
    if DOUBLE {
        carry = shl::<1>(carry);
        for col in &mut c[5..] {
            *col = shl::<1>(*col);
        }
    }
    let mut r = [zero; 5];
    for k in 0..4 {
        let col = add(c[k + 5], carry);
        r[k] = and(col, m52);
        carry = shr::<52>(col);
    }
    r[4] = add(c[9], carry);
    r
}

/// The Montgomery product `a·b/2^260` (module docs). Inputs satisfy `I`; so does the output
/// (it is below `2^251.1`).
///
/// Each IFMA adds its half product straight into the column's accumulator (low halves to
/// column `i + j`, high halves to `i + j + 1`): one chain of up to ten per column and no
/// additions to join separate low and high sums (with two sets of lanes in flight, `Pair`,
/// the longer chains cost nothing and the ten additions were 3 % of a round).
/// Columns 0..=4 start at the reduction's offset `2^52 − 1`.
#[inline(always)]
fn mont_mul(a: &[V; 5], b: &[V; 5]) -> [V; 5] {
    let zero = splat(0);
    let m52 = splat(M52);
    let mut c = [m52, m52, m52, m52, m52, zero, zero, zero, zero, zero];
    for i in 0..5 {
        for j in 0..5 {
            c[i + j] = madd_lo(c[i + j], a[i], b[j]);
            c[i + j + 1] = madd_hi(c[i + j + 1], a[i], b[j]);
        }
    }
    reduce::<true, false>(c)
}

/// The Montgomery square `a²/2^260` (with `DOUBLE`, `2a²/2^260`): the ten cross products
/// once into the columns, each column doubled, then the five squares added, reduced as in
/// [`mont_mul`]. Same bounds; the doubled result is below `2^253 + 2p < 2^254` for inputs
/// below 2^256, with limbs 0..=3 below 2^52 and limb 4 below 2^46 (a valid multiplier).
#[inline(always)]
fn mont_square<const DOUBLE: bool>(a: &[V; 5]) -> [V; 5] {
    let zero = splat(0);
    let mut c = [zero; 10];
    for i in 0..5 {
        for j in i + 1..5 {
            c[i + j] = madd_lo(c[i + j], a[i], a[j]);
            c[i + j + 1] = madd_hi(c[i + j + 1], a[i], a[j]);
        }
    }
    // Columns 1..=8 hold cross products (0 and 9 only a square's low or high half).
    for col in &mut c[1..9] {
        *col = add(*col, *col);
    }
    for i in 0..5 {
        c[2 * i] = madd_lo(c[2 * i], a[i], a[i]);
        c[2 * i + 1] = madd_hi(c[2 * i + 1], a[i], a[i]);
    }
    reduce::<false, DOUBLE>(c)
}

/// Folds the top limb and ripples the carries (module docs). Precondition: limbs 0..=3 in
/// `(-2^56, 2^56)`, limb 4 in `(-2^49, 2^49)` (as two's-complement lanes). Output: `I`.
#[inline(always)]
fn normalize(mut s: [V; 5]) -> [V; 5] {
    let m52 = splat(M52);
    let h = sra::<43>(s[4]);
    // x_4 mod 2^43, plus 2^43 (the 2^251 of the added p).
    s[4] = or(and(s[4], splat(M43)), splat(P4));
    let t = sub(splat(1), h);
    s[0] = add(s[0], t);
    // t·17·2^36 = t·2^40 + t·2^36 (wrapping, exact for negative t in two's complement).
    s[3] = add(s[3], add(shl::<40>(t), shl::<36>(t)));
    for i in 0..4 {
        let c = sra::<52>(s[i]);
        s[i] = and(s[i], m52);
        s[i + 1] = add(s[i + 1], c);
    }
    s
}

/// Carries limbs 0..=3 into the next limb without folding the top (module docs), so that every
/// limb enters IFMA whole. Precondition: weight at most [`MUL_WEIGHT`] (non-negative limbs).
/// Output: limbs 0..=3 below 2^52, limb 4 below 2^48, the same value.
#[inline(always)]
fn ripple(mut s: [V; 5]) -> [V; 5] {
    let m52 = splat(M52);
    for i in 0..4 {
        let c = shr::<52>(s[i]);
        s[i] = and(s[i], m52);
        s[i + 1] = add(s[i + 1], c);
    }
    s
}

/// The radix-2^52 limbs of eight canonical `Felt`s' Montgomery words, one element per lane
/// (`src.len() == 8`): a transposition and shifts, no product. Each value is below p, so its top
/// limb is below 2^44 and `I` holds.
#[inline(always)]
fn split_felts(src: &[Felt]) -> [V; 5] {
    assert!(src.len() == 8);
    // Transpose: word j of element k to lane k of vector j.
    let mut w = [[0u64; 8]; 4];
    for k in 0..8 {
        let l = src[k].to_montgomery_limbs();
        for j in 0..4 {
            w[j][k] = l[j];
        }
    }
    let m52 = splat(M52);
    let (w0, w1, w2, w3) = (load8(&w[0]), load8(&w[1]), load8(&w[2]), load8(&w[3]));
    [
        and(w0, m52),
        and(or(shr::<52>(w0), shl::<12>(w1)), m52),
        and(or(shr::<40>(w1), shl::<24>(w2)), m52),
        and(or(shr::<28>(w2), shl::<36>(w3)), m52),
        shr::<16>(w3),
    ]
}

/// Eight field elements, one per 64-bit lane, as five 52-bit limb vectors (module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ifma(pub(crate) [V; 5]);

impl PackedFelt for Ifma {
    const LANES: usize = 8;
    type Constant = IfmaConstant;

    #[inline(always)]
    fn prepare(c: Felt) -> IfmaConstant {
        prepare_const(c)
    }
    #[inline(always)]
    fn constant(c: &IfmaConstant) -> Self {
        Ifma(splat5(&c.limbs))
    }
    #[inline(always)]
    fn zero() -> Self {
        Ifma([splat(0); 5])
    }
    #[inline(always)]
    fn load(src: &[Felt]) -> Self {
        // The limbs of `v = a·2^256`, times 2^264 / 2^260: `a·2^260`.
        Ifma(mont_mul(&split_felts(src), &splat5(&TO_LANE)))
    }
    #[inline(always)]
    fn store(self, dst: &mut [Felt]) {
        assert!(dst.len() == 8);
        // Below 2p, limbs 0..=3 below 2^52 and limb 4 below 2^45; canonical after one
        // subtraction in lanes, so the words are plain shifts and ors.
        let y = below_p(mont_mul(&self.0, &splat5(&FROM_LANE)));
        let w = [
            store8(or(y[0], shl::<52>(y[1]))),
            store8(or(shr::<12>(y[1]), shl::<40>(y[2]))),
            store8(or(shr::<24>(y[2]), shl::<28>(y[3]))),
            store8(or(shr::<36>(y[3]), shl::<16>(y[4]))),
        ];
        for k in 0..8 {
            dst[k] = Felt([w[0][k], w[1][k], w[2][k], w[3][k]]);
        }
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..5 {
            s[i] = add(s[i], rhs.0[i]);
        }
        Ifma(normalize(s))
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..5 {
            s[i] = sub(s[i], rhs.0[i]);
        }
        Ifma(normalize(s))
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Ifma(mont_mul(&ripple(self.0), &ripple(rhs.0)))
    }
    #[inline(always)]
    fn square(self) -> Self {
        Ifma(mont_square::<false>(&ripple(self.0)))
    }
    /// The square's output already has limbs below 2^52: only the input is carried.
    #[inline(always)]
    fn cube(self) -> Self {
        let x = ripple(self.0);
        Ifma(mont_mul(&mont_square::<false>(&x), &x))
    }
    /// `2x²` straight out of the square's reduction ([`reduce`] with `DOUBLE`), a valid
    /// multiplier as it is: 6 operations instead of 17 (doubling, then carrying in `mul`).
    /// The product of inputs below 2^254 and 2^256 is below `2^250 + p`: `I` holds.
    #[inline(always)]
    fn double_cube(self) -> Self {
        let x = ripple(self.0);
        Ifma(mont_mul(&mont_square::<true>(&x), &x))
    }
    #[inline(always)]
    fn double(self) -> Self {
        let mut s = self.0;
        for i in 0..5 {
            s[i] = add(s[i], s[i]);
        }
        Ifma(normalize(s))
    }
    #[inline(always)]
    fn add_constant(self, c: &IfmaConstant) -> Self {
        let mut s = self.0;
        for i in 0..5 {
            s[i] = add(s[i], splat(c.limbs[i]));
        }
        Ifma(normalize(s))
    }
    #[inline(always)]
    fn add_lazy(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..5 {
            s[i] = add(s[i], rhs.0[i]);
        }
        Ifma(s)
    }
    #[inline(always)]
    fn double_lazy(self) -> Self {
        let mut s = self.0;
        for i in 0..5 {
            s[i] = shl::<1>(s[i]);
        }
        Ifma(s)
    }
    #[inline(always)]
    fn add_constant_lazy(self, c: &IfmaConstant) -> Self {
        let mut s = self.0;
        for i in 0..5 {
            s[i] = add(s[i], splat(c.limbs[i]));
        }
        Ifma(s)
    }
    #[inline(always)]
    fn sub_lazy(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..5 {
            s[i] = sub(add(s[i], splat(K[i])), rhs.0[i]);
        }
        Ifma(s)
    }
    /// `a + K1 - b` (`K1 ≡ 0`, [`K1`]): weight `w(a) + 2` for a weight-1 subtrahend, five
    /// additions and five subtractions where the default `sub` also normalises (about 25
    /// more operations per Poseidon partial round, whose `c' = (s + k) - z` this is).
    #[inline(always)]
    fn sub_lazy_normal(self, rhs: Self) -> Self {
        let mut s = self.0;
        for i in 0..5 {
            s[i] = sub(add(s[i], splat(K1[i])), rhs.0[i]);
        }
        Ifma(s)
    }
    #[inline(always)]
    fn normalize(self) -> Self {
        Ifma(normalize(self.0))
    }
}

/// `y − p` where `y >= p`, else `y`, in every lane, for `y < 2p` with limbs 0..=3 in
/// `[0, 2^52)` and limb 4 in `[0, 2^45)`: the limbs of `y − p = [y_0 − 1, y_1, y_2,
/// y_3 − 17·2^36, y_4 − 2^43]` are rippled with arithmetic shifts (every carry is 0 or −1),
/// and the sign of the top limb (`|y − p| < p < 2^251`, so it is the sign of the value) picks
/// `y` back in the lanes where the difference is negative. Branch-free.
#[inline(always)]
fn below_p(y: [V; 5]) -> [V; 5] {
    let m52 = splat(M52);
    let p: [u64; 5] = [1, 0, 0, P3, P4];
    let mut z = [splat(0); 5];
    let mut carry = splat(0);
    for i in 0..5 {
        let d = add(sub(y[i], splat(p[i])), carry);
        if i < 4 {
            carry = sra::<52>(d);
            z[i] = and(d, m52);
        } else {
            z[i] = d;
        }
    }
    // SAFETY: AVX-512F present (module docs).
    let negative = unsafe { _mm512_cmplt_epi64_mask(z[4], splat(0)) };
    let mut out = y;
    for i in 0..5 {
        // SAFETY: AVX-512F present (module docs).
        out[i] = unsafe { _mm512_mask_blend_epi64(negative, z[i], y[i]) };
    }
    out
}

/// `k·p` for k = 0..=3 in radix 2^52 (no carries: `3·17·2^36 < 2^52`, `3·2^43 < 2^45`): the
/// values of `I` congruent to 0, as `x < 2^253 < 4p`.
const P_MULTIPLES: [[u64; 5]; 4] = {
    let mut out = [[0u64; 5]; 4];
    let mut k = 0;
    while k < 4 {
        out[k] = [k as u64, 0, 0, k as u64 * P3, k as u64 * P4];
        k += 1;
    }
    out
};

/// A lane mask (`__mmask8`) as a word: all-ones in the set lanes.
#[inline(always)]
fn mask_to_word(k: __mmask8) -> V {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_maskz_set1_epi64(k, -1) }
}

/// The lanes of a word that are non-zero, as a lane mask.
#[inline(always)]
fn word_to_mask(w: V) -> __mmask8 {
    // SAFETY: AVX-512F present (module docs).
    unsafe { _mm512_test_epi64_mask(w, w) }
}

/// Masks for the curve code (`crate::backend::select`): a word is one `__m512i`, a mask has
/// all-ones or zero lanes; selects are `vpblendmq` under the mask converted to `__mmask8`.
/// Branch-free except [`PackedSelect::any`] (documented as public-data only).
impl PackedSelect for Ifma {
    type Word = V;

    /// A Felt holding `2^4·a` has the Montgomery words `a·2^260`: this type's form of `a`.
    const LOAD_SHIFT: u32 = 4;

    #[inline(always)]
    fn load_prescaled(src: &[Felt]) -> Self {
        Ifma(split_felts(src))
    }

    #[inline(always)]
    fn word_splat(x: u64) -> V {
        splat(x)
    }
    #[inline(always)]
    fn word_load(src: &[u64]) -> V {
        let a: &[u64; 8] = src.try_into().expect("one word per lane");
        load8(a)
    }
    #[inline(always)]
    fn word_eq(a: V, b: V) -> V {
        // SAFETY: AVX-512F present (module docs).
        mask_to_word(unsafe { _mm512_cmpeq_epi64_mask(a, b) })
    }
    #[inline(always)]
    fn word_and(a: V, b: V) -> V {
        and(a, b)
    }
    #[inline(always)]
    fn mask_not(a: V) -> V {
        // SAFETY: AVX-512F present (module docs).
        unsafe { _mm512_xor_si512(a, splat(u64::MAX)) }
    }
    #[inline(always)]
    fn any(m: V) -> bool {
        word_to_mask(m) != 0
    }
    #[inline(always)]
    fn zero_mask(self) -> V {
        // Under `I` the limbs are the canonical radix-2^52 digits of x < 2^253 < 4p, so
        // x ≡ 0 (mod p) iff the digits equal those of 0, p, 2p or 3p.
        let mut hit: __mmask8 = 0;
        for m in P_MULTIPLES.iter() {
            let mut eq: __mmask8 = 0xff;
            for i in 0..5 {
                // SAFETY: AVX-512F present (module docs).
                eq &= unsafe { _mm512_cmpeq_epi64_mask(self.0[i], splat(m[i])) };
            }
            hit |= eq;
        }
        mask_to_word(hit)
    }
    #[inline(always)]
    fn select(mask: V, a: Self, b: Self) -> Self {
        let k = word_to_mask(mask);
        let mut out = a.0;
        for i in 0..5 {
            // SAFETY: AVX-512F present (module docs).
            out[i] = unsafe { _mm512_mask_blend_epi64(k, a.0[i], b.0[i]) };
        }
        Ifma(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// Whether this CPU can run the tests below (they are skipped otherwise).
    fn has_ifma() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512ifma")
    }

    /// A small deterministic generator (xorshift64*), enough for test inputs.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn felt(&mut self) -> Felt {
            let e = edge_values();
            if self.next().is_multiple_of(4) {
                return e[(self.next() % e.len() as u64) as usize];
            }
            let mut b = [0u8; 32];
            for c in b.chunks_mut(8) {
                c.copy_from_slice(&self.next().to_le_bytes());
            }
            Felt::from_bytes_le_reduced(&b)
        }
    }

    /// 0, 1, p-1, values near 2^251 and near the 52-bit and 64-bit limb boundaries.
    fn edge_values() -> Vec<Felt> {
        let mut v = vec![
            Felt::ZERO,
            Felt::ONE,
            Felt::TWO,
            Felt::MAX,
            Felt::MAX - Felt::ONE,
        ];
        for e in [
            43u128, 51, 52, 53, 63, 64, 103, 104, 105, 155, 156, 157, 192, 207, 208, 209, 244, 250,
            251,
        ] {
            let x = Felt::TWO.pow(e);
            v.extend([x, x - Felt::ONE, x + Felt::ONE, -x]);
        }
        v
    }

    fn load(x: [Felt; 8]) -> Ifma {
        Ifma::load(&x)
    }

    fn store(x: Ifma) -> [Felt; 8] {
        let mut o = [Felt::ZERO; 8];
        x.store(&mut o);
        o
    }

    fn check_invariant(x: &Ifma) {
        for (i, limb) in x.0.iter().enumerate() {
            let bound = if i == 4 { TOP_BOUND } else { LIMB_BOUND };
            for v in store8(*limb) {
                assert!(v < bound, "limb {i} = {v:#x} breaks the invariant");
            }
        }
    }

    fn felts8(rng: &mut Rng) -> [Felt; 8] {
        core::array::from_fn(|_| rng.felt())
    }

    /// Random chains of every operation, compared lane by lane with Felt after every step.
    fn chains(seed: u64) {
        let mut rng = Rng(seed);
        let consts: Vec<Felt> = (0..8).map(|_| rng.felt()).collect();
        let prepared: Vec<IfmaConstant> = consts.iter().map(|c| prepare_const(*c)).collect();
        for _ in 0..30 {
            let mut xs: Vec<[Felt; 8]> = (0..4).map(|_| felts8(&mut rng)).collect();
            let mut ps: Vec<Ifma> = xs.iter().map(|x| load(*x)).collect();
            for p in &ps {
                check_invariant(p);
            }
            for _ in 0..300 {
                let i = (rng.next() % 4) as usize;
                let j = (rng.next() % 4) as usize;
                let d = (rng.next() % 4) as usize;
                let op = rng.next() % 9;
                let (a, b) = (ps[i], ps[j]);
                let (fa, fb) = (xs[i], xs[j]);
                let (r, fr): (Ifma, [Felt; 8]) = match op {
                    0 => (a.add(b), core::array::from_fn(|k| fa[k] + fb[k])),
                    1 => (a.sub(b), core::array::from_fn(|k| fa[k] - fb[k])),
                    2 => (a.mul(b), core::array::from_fn(|k| fa[k] * fb[k])),
                    3 => (a.square(), core::array::from_fn(|k| fa[k].square())),
                    4 => (a.double(), core::array::from_fn(|k| fa[k].double())),
                    7 => (a.cube(), core::array::from_fn(|k| fa[k].square() * fa[k])),
                    8 => (
                        a.double_cube(),
                        core::array::from_fn(|k| (fa[k].square() * fa[k]).double()),
                    ),
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
                            a.mul(Ifma::constant(&prepared[c])),
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

    #[test]
    fn random_chains_match_felt() {
        if !has_ifma() {
            return;
        }
        chains(0x1234_5678_9abc_def1);
        chains(42);
    }

    #[test]
    fn long_add_sub_double_chains_match_felt() {
        // Additions, subtractions and doublings only: the worst case for lazy growth.
        if !has_ifma() {
            return;
        }
        let mut fa = [
            Felt::MAX,
            Felt::MAX - Felt::ONE,
            Felt::TWO.pow(251),
            Felt::ONE,
            Felt::ZERO,
            Felt::TWO.pow(208) - Felt::ONE,
            -Felt::TWO.pow(52),
            Felt::TWO.pow(156),
        ];
        let mut a = load(fa);
        for step in 0..3000 {
            match step % 4 {
                0 => {
                    a = a.double();
                    fa = fa.map(|x| x.double());
                }
                1 => {
                    a = a.add(a).add(a);
                    fa = fa.map(|x| x + x + x);
                }
                2 => {
                    a = Ifma::zero().sub(a).sub(a);
                    fa = fa.map(|x| -x - x);
                }
                _ => {
                    a = a.sub(Ifma::constant(&prepare_const(Felt::MAX)));
                    fa = fa.map(|x| x - Felt::MAX);
                }
            }
            check_invariant(&a);
            assert_eq!(store(a), fa, "step {step}");
        }
    }

    #[test]
    fn edge_pairs_match_felt() {
        if !has_ifma() {
            return;
        }
        let e = edge_values();
        for chunk in e.chunks(8) {
            let mut x = [Felt::MAX; 8];
            x[..chunk.len()].copy_from_slice(chunk);
            let p = load(x);
            check_invariant(&p);
            assert_eq!(store(p), x);
            // Every rotation of the other chunk, so every pair meets in some lane.
            for other in e.chunks(8) {
                for rot in 0..8 {
                    let y: [Felt; 8] = core::array::from_fn(|k| other[(k + rot) % other.len()]);
                    let q = load(y);
                    for (r, want) in [
                        (p.mul(q), core::array::from_fn(|k| x[k] * y[k])),
                        (p.sub(q), core::array::from_fn(|k| x[k] - y[k])),
                        (p.add(q), core::array::from_fn(|k| x[k] + y[k])),
                        (q.square(), core::array::from_fn(|k| y[k].square())),
                    ] {
                        check_invariant(&r);
                        assert_eq!(store(r), want);
                    }
                }
            }
        }
    }

    #[test]
    fn below_p_takes_every_representative_below_p() {
        // y = v and y = v + p (while below 2p) for words v near the 64-bit and 52-bit limb
        // boundaries and at the ends of [0, p), in every lane: below_p returns v's limbs.
        if !has_ifma() {
            return;
        }
        let mut vs: Vec<[u64; 4]> = Vec::new();
        for w in 0..4 {
            for lo in [0u64, 1, 2, (1 << 52) - 1, 1 << 52, u64::MAX - 1, u64::MAX] {
                for below in [0, u64::MAX] {
                    let mut v = [0u64; 4];
                    v[..w].fill(below);
                    v[w] = lo;
                    vs.push(v);
                }
            }
        }
        vs.push([0, 0, 0, mont::P[3] - 1]);
        vs.push([mont::P[0] - 1, 0, 0, mont::P[3]]);
        let mut cases: Vec<([u64; 5], [u64; 5])> = Vec::new();
        for v in vs {
            // Keep v < p, then pair it with v and v + p (if below 2p).
            let (_, ge) = {
                let (_, b) = mont::sbb(v[0], mont::P[0], 0);
                let (_, b) = mont::sbb(v[1], mont::P[1], b);
                let (_, b) = mont::sbb(v[2], mont::P[2], b);
                mont::sbb(v[3], mont::P[3], b)
            };
            if ge == 0 {
                continue;
            }
            let limbs = split(v);
            cases.push((limbs, limbs));
            let plus_p: [u64; 5] = core::array::from_fn(|i| limbs[i] + [1, 0, 0, P3, P4][i]);
            // Limbs of v + p without carries: valid when each stays below its bound.
            if plus_p[..4].iter().all(|&l| l < LIMB_BOUND) && plus_p[4] < TOP_BOUND {
                cases.push((plus_p, limbs));
            }
        }
        assert!(cases.len() > 40);
        for start in 0..cases.len() {
            let pick: [usize; 8] = core::array::from_fn(|k| (start + 5 * k) % cases.len());
            let y: [V; 5] =
                core::array::from_fn(|i| load8(&core::array::from_fn(|k| cases[pick[k]].0[i])));
            let out = below_p(y).map(store8);
            for k in 0..8 {
                let got: [u64; 5] = core::array::from_fn(|i| out[i][k]);
                assert_eq!(got, cases[pick[k]].1, "case {} in lane {k}", pick[k]);
            }
        }
    }

    #[test]
    fn extreme_limbs_within_the_invariant() {
        // Values no load produces but `I` allows: every limb at its maximum (x close to
        // 2^253), through every operation.
        if !has_ifma() {
            return;
        }
        let max = Ifma([
            splat(LIMB_BOUND - 1),
            splat(LIMB_BOUND - 1),
            splat(LIMB_BOUND - 1),
            splat(LIMB_BOUND - 1),
            splat(TOP_BOUND - 1),
        ]);
        // The same value as a Felt: Σ limb·2^(52 i), divided by R = 2^260.
        let limb = Felt::from(LIMB_BOUND - 1);
        let mut v = Felt::from(TOP_BOUND - 1);
        for _ in 0..4 {
            v = v * Felt::TWO.pow(52) + limb;
        }
        let fx = v * Felt::TWO.pow(260).inverse().unwrap();
        let y = load(core::array::from_fn(|k| Felt::from(k as u64) - Felt::ONE));
        let fy: [Felt; 8] = core::array::from_fn(|k| Felt::from(k as u64) - Felt::ONE);
        let cases: [(Ifma, [Felt; 8]); 7] = [
            (max.mul(max), [fx * fx; 8]),
            (max.square(), [fx * fx; 8]),
            (max.mul(y), fy.map(|b| fx * b)),
            (max.add(max), [fx + fx; 8]),
            (max.double(), [fx.double(); 8]),
            (Ifma::zero().sub(max), [-fx; 8]),
            (y.sub(max), fy.map(|b| b - fx)),
        ];
        for (r, want) in cases {
            check_invariant(&r);
            assert_eq!(store(r), want);
        }
        assert_eq!(store(max), [fx; 8]);
    }

    /// The lane values as Felts, from limbs of any weight: `Σ x_i·2^(52 i) / 2^260`.
    fn value(x: &Ifma) -> [Felt; 8] {
        let limbs = x.0.map(store8);
        let r_inv = Felt::TWO.pow(260).inverse().unwrap();
        core::array::from_fn(|k| {
            let mut acc = Felt::ZERO;
            for i in (0..5).rev() {
                acc = acc * Felt::TWO.pow(52) + Felt::from(limbs[i][k]);
            }
            acc * r_inv
        })
    }

    /// Asserts weight `w` (module docs): limbs 0..=3 below `w·2^52`, limb 4 below `w·2^45`.
    fn check_weight(x: &Ifma, w: u32) {
        for (i, limb) in x.0.iter().enumerate() {
            let bound = w as u64 * if i == 4 { TOP_BOUND } else { LIMB_BOUND };
            for v in store8(*limb) {
                assert!(v < bound, "limb {i} = {v:#x} exceeds weight {w}");
            }
        }
    }

    /// The largest limbs of weight `w` (a little less in each lane, so lanes differ).
    fn extreme(w: u32) -> Ifma {
        let lanes = |bound: u64| load8(&core::array::from_fn(|k| w as u64 * bound - 1 - k as u64));
        Ifma([
            lanes(LIMB_BOUND),
            lanes(LIMB_BOUND),
            lanes(LIMB_BOUND),
            lanes(LIMB_BOUND),
            lanes(TOP_BOUND),
        ])
    }

    /// Every lazy and normalising operation at the largest weights the contract allows, on the
    /// largest limbs of those weights: checked against `Felt` and for its output weight.
    #[test]
    fn lazy_worst_case() {
        if !has_ifma() {
            return;
        }
        let nw = NORMALIZE_WEIGHT;
        let mw = MUL_WEIGHT;
        let k = prepare_const(Felt::MAX);
        let fk = Felt::MAX;
        for wa in 1..=nw {
            let a = extreme(wa);
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
                let b = extreme(wb);
                let vb = value(&b);
                let r = a.add_lazy(b);
                check_weight(&r, wa + wb);
                assert_eq!(value(&r), core::array::from_fn(|i| va[i] + vb[i]));
                let r = a.add(b);
                check_weight(&r, 1);
                assert_eq!(store(r), core::array::from_fn(|i| va[i] + vb[i]));
            }
            if wa + 4 <= nw {
                for b in [Ifma::zero(), extreme(1), extreme(2)] {
                    let vb = value(&b);
                    let r = a.sub_lazy(b);
                    check_weight(&r, wa + 4);
                    assert_eq!(value(&r), core::array::from_fn(|i| va[i] - vb[i]));
                    let r = a.sub(b);
                    check_weight(&r, 1);
                    assert_eq!(store(r), core::array::from_fn(|i| va[i] - vb[i]));
                }
            }
            if wa <= mw {
                for wb in 1..=mw {
                    let b = extreme(wb);
                    let vb = value(&b);
                    let r = a.mul(b);
                    check_invariant(&r);
                    assert_eq!(store(r), core::array::from_fn(|i| va[i] * vb[i]));
                }
                let r = a.square();
                check_invariant(&r);
                assert_eq!(store(r), va.map(|x| x.square()));
                let r = a.cube();
                check_invariant(&r);
                assert_eq!(store(r), va.map(|x| x.square() * x));
                let r = a.double_cube();
                check_invariant(&r);
                assert_eq!(store(r), va.map(|x| (x.square() * x).double()));
            }
            if wa + 2 <= nw {
                for b in [Ifma::zero(), extreme(1)] {
                    let vb = value(&b);
                    let r = a.sub_lazy_normal(b);
                    check_weight(&r, wa + 2);
                    assert_eq!(value(&r), core::array::from_fn(|i| va[i] - vb[i]));
                }
            }
        }
    }

    /// Random chains mixing lazy and normalising operations, keeping the weight of every value
    /// and choosing only operations the contract allows; every result is checked for its
    /// weight and against `Felt`.
    fn lazy_chains(seed: u64) {
        let nw = NORMALIZE_WEIGHT;
        let mut rng = Rng(seed);
        let consts: Vec<Felt> = (0..4).map(|_| rng.felt()).collect();
        let prepared: Vec<IfmaConstant> = consts.iter().map(|c| prepare_const(*c)).collect();
        for _ in 0..20 {
            let mut xs: Vec<[Felt; 8]> = (0..4).map(|_| felts8(&mut rng)).collect();
            let mut ps: Vec<Ifma> = xs.iter().map(|x| load(*x)).collect();
            let mut ws = [1u32; 4];
            for _ in 0..400 {
                let i = (rng.next() % 4) as usize;
                let j = (rng.next() % 4) as usize;
                let d = (rng.next() % 4) as usize;
                let (a, b, fa, fb, wa, wb) = (ps[i], ps[j], xs[i], xs[j], ws[i], ws[j]);
                let c = (rng.next() % 4) as usize;
                let (r, fr, wr): (Ifma, [Felt; 8], u32) = match rng.next() % 11 {
                    0 if wa + wb <= nw => (
                        a.add_lazy(b),
                        core::array::from_fn(|k| fa[k] + fb[k]),
                        wa + wb,
                    ),
                    1 if 2 * wa <= nw => (a.double_lazy(), fa.map(|x| x.double()), 2 * wa),
                    2 if wa < nw => (
                        a.add_constant_lazy(&prepared[c]),
                        fa.map(|x| x + consts[c]),
                        wa + 1,
                    ),
                    3 if wa + 4 <= nw && wb <= 2 => (
                        a.sub_lazy(b),
                        core::array::from_fn(|k| fa[k] - fb[k]),
                        wa + 4,
                    ),
                    4 => (a.normalize(), fa, 1),
                    5 if wa <= MUL_WEIGHT && wb <= MUL_WEIGHT => {
                        (a.mul(b), core::array::from_fn(|k| fa[k] * fb[k]), 1)
                    }
                    6 if wa <= MUL_WEIGHT => (a.square(), fa.map(|x| x.square()), 1),
                    7 if wa + 4 <= nw && wb <= 2 => {
                        (a.sub(b), core::array::from_fn(|k| fa[k] - fb[k]), 1)
                    }
                    8 if wa + wb <= nw => (a.add(b), core::array::from_fn(|k| fa[k] + fb[k]), 1),
                    9 if wa + 2 <= nw && wb == 1 => (
                        a.sub_lazy_normal(b),
                        core::array::from_fn(|k| fa[k] - fb[k]),
                        wa + 2,
                    ),
                    10 if wa <= MUL_WEIGHT => {
                        (a.double_cube(), fa.map(|x| (x.square() * x).double()), 1)
                    }
                    // Not allowed at these weights: normalise the operand instead.
                    _ => (a.normalize(), fa, 1),
                };
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

    #[test]
    fn lazy_chains_match_felt() {
        if !has_ifma() {
            return;
        }
        lazy_chains(7);
        lazy_chains(0xdead_beef);
    }

    #[test]
    fn constants_are_consistent() {
        // TO_LANE is 2^264 mod p and FROM_LANE is 2^256 mod p, as plain numbers.
        let value = |l: [u64; 5]| {
            let mut acc = Felt::ZERO;
            for x in l.iter().rev() {
                acc = acc * Felt::TWO.pow(52) + Felt::from(*x);
            }
            acc
        };
        assert_eq!(value(TO_LANE), Felt::TWO.pow(264));
        assert_eq!(value(FROM_LANE), Felt::TWO.pow(256));
        let c = Felt::from(12345u64);
        assert_eq!(value(prepare_const(c).limbs), c * Felt::TWO.pow(260));
        // K, the offset of sub_lazy, is exactly 9p: its carried digits are 9p's limbs.
        let mut carry = 0u64;
        let digits: [u64; 5] = core::array::from_fn(|i| {
            let t = K[i] + carry;
            carry = t >> 52;
            if i == 4 { t } else { t & M52 }
        });
        assert_eq!(digits, [9, 0, 0, 9 * P3, 9 * P4]);
        assert_eq!(value(K), Felt::ZERO);
    }
}
