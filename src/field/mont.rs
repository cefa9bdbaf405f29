//! Montgomery arithmetic on four 64-bit limbs for p = 2^251 + 17·2^192 + 1.
//!
//! # Representation
//! A value `a` is held as `a·R mod p` with `R = 2^256`, in four little-endian `u64` limbs.
//! Every function here takes and returns *canonical* limbs (value `< p`) unless its docs say
//! otherwise.
//!
//! # Why the reduction needs no multiplication by p
//! p's limbs are `[1, 0, 0, P3]` with `P3 = 2^59 + 17`, and `-p^-1 mod 2^64 = 2^64 - 1`. One
//! Montgomery step on an accumulator `t` therefore uses `m = -t0 mod 2^64`, and
//! `t + m·p = t + m + m·P3·2^192`: the low limb becomes zero with a carry of exactly
//! `(t0 != 0)`, limbs 1 and 2 only take that carry, and limb 3 takes the one real product
//! `m·P3`. A full multiplication is 16 limb products plus 4 for the reduction; a square is
//! 10 plus 4.
//!
//! # Layout of the products
//! [`mul`] interleaves the product rows with the reduction steps (CIOS: only five limbs live);
//! [`square`] forms the ten distinct limb products, doubles the cross terms and then reduces
//! ([`reduce`]). In both, the last reduction step and the final conditional subtraction are one
//! computation: `X = u − p` is formed directly from the five-limb partial sum (its sign comes
//! out of one borrow chain that waits only on the top limbs) and the result is `X` or `X + p`.
//! [`add`] forms `a + b` and `a + (b − p)` side by side, so a chain `x ← x + y` waits for one
//! carry chain and a select.
//!
//! # Bounds
//! For inputs `a, b < 2p`, the reduced value `(a·b + M·p) / 2^256 < p·(4p/2^256 + 1) < 1.25·p`,
//! so one conditional subtraction gives a canonical result. All conditional steps are
//! branch-free (mask selects; the compiler may emit `cmov`, never a branch on the data).

/// p in little-endian 64-bit limbs.
pub(crate) const P: [u64; 4] = [1, 0, 0, 0x0800_0000_0000_0011];
/// The top limb of p: 2^59 + 17.
const P3: u64 = 0x0800_0000_0000_0011;

/// `a + b + carry`, returning (sum, carry-out).
#[inline(always)]
pub(crate) const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a - b - borrow`, returning (difference, borrow-out as 0 or 1).
#[inline(always)]
pub(crate) const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    // Two overflowing subtractions: LLVM turns a chain of these into `sub`/`sbb`.
    let (d, b1) = a.overflowing_sub(b);
    let (d, b2) = d.overflowing_sub(borrow);
    (d, (b1 | b2) as u64)
}

/// `a + b·c + carry`, returning (low, high). Cannot overflow 128 bits.
#[inline(always)]
pub(crate) const fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `2^256 − p` in little-endian limbs: adding it subtracts p modulo 2^256, with a carry out
/// exactly when the value was `>= p`.
const NEG_P: [u64; 4] = [u64::MAX, u64::MAX, u64::MAX, u64::MAX - P3];

/// `a + NEG_P`: `(a − p mod 2^256, 1 if a >= p else 0)`.
#[inline(always)]
const fn sub_p(a: [u64; 4]) -> ([u64; 4], u64) {
    let (d0, c) = adc(a[0], NEG_P[0], 0);
    let (d1, c) = adc(a[1], NEG_P[1], c);
    let (d2, c) = adc(a[2], NEG_P[2], c);
    let (d3, c) = adc(a[3], NEG_P[3], c);
    ([d0, d1, d2, d3], c)
}

/// `b` when `choice` is 1, `a` when it is 0, with masks (no branch).
#[inline(always)]
const fn select(a: [u64; 4], b: [u64; 4], choice: u64) -> [u64; 4] {
    let m = 0u64.wrapping_sub(choice);
    [
        a[0] ^ (m & (a[0] ^ b[0])),
        a[1] ^ (m & (a[1] ^ b[1])),
        a[2] ^ (m & (a[2] ^ b[2])),
        a[3] ^ (m & (a[3] ^ b[3])),
    ]
}

/// Subtracts p if `a >= p`, without branching. Precondition: `a < 2p`.
///
/// For lazily reduced values (the scalar Poseidon type's store); the field operations here fold
/// their conditional subtraction into their own carry chains.
#[inline(always)]
pub(crate) const fn reduce_once(a: [u64; 4]) -> [u64; 4] {
    let (d0, b) = sbb(a[0], P[0], 0);
    let (d1, b) = sbb(a[1], P[1], b);
    let (d2, b) = sbb(a[2], P[2], b);
    let (d3, b) = sbb(a[3], P[3], b);
    // b == 1 means a < p: keep a.
    select([d0, d1, d2, d3], a, b)
}

/// `a + b mod p`. Inputs canonical; output canonical. Branch-free.
///
/// `a + b` and `a + (b − p)` are formed side by side (the second with `b − p + 2^256`
/// computed from `b` alone), and the carry out of the second tells whether `a + b >= p`. A
/// chain `x ← x + y` thus waits for one carry chain and a select, not two carry chains.
#[inline(always)]
pub(crate) const fn add(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let (s0, c) = adc(a[0], b[0], 0);
    let (s1, c) = adc(a[1], b[1], c);
    let (s2, c) = adc(a[2], b[2], c);
    let (s3, _) = adc(a[3], b[3], c);
    // b < p, so b + NEG_P does not carry: it is b − p + 2^256.
    let (bp, _) = sub_p(b);
    let (t0, c) = adc(a[0], bp[0], 0);
    let (t1, c) = adc(a[1], bp[1], c);
    let (t2, c) = adc(a[2], bp[2], c);
    let (t3, ge) = adc(a[3], bp[3], c);
    select([s0, s1, s2, s3], [t0, t1, t2, t3], ge)
}

/// `2a mod p`: `a + a`, then one conditional subtraction of p. Branch-free. Precondition:
/// `a < 2^253` (canonical inputs are below p < 2^252).
///
/// Two LLVM habits are defeated with an "opaque zero" `z = a3 >> 61`, which is 0 for every
/// input meeting the precondition but unknown to the optimiser: `a + a` would become
/// double-shift instructions (`shld`, slow on some x86 cores), and a borrow chain against the
/// constant limbs `[1, 0, 0, P3]` would be specialised into flag materialisations. Written as
/// `a + (a ^ z)` and `t − (p ^ z)`, both are plain `add/adc` and `sub/sbb` chains; the second
/// follows the first limb by limb, and the borrow selects (a `cmov` or a mask, never a branch).
#[inline(always)]
pub(crate) const fn double(a: [u64; 4]) -> [u64; 4] {
    let z = a[3] >> 61;
    let (t0, c) = adc(a[0], a[0] ^ z, 0);
    let (t1, c) = adc(a[1], a[1] ^ z, c);
    let (t2, c) = adc(a[2], a[2] ^ z, c);
    let (t3, _) = adc(a[3], a[3] ^ z, c);
    let (d0, b) = sbb(t0, P[0] ^ z, 0);
    let (d1, b) = sbb(t1, P[1] ^ z, b);
    let (d2, b) = sbb(t2, P[2] ^ z, b);
    let (d3, b) = sbb(t3, P[3] ^ z, b);
    // b == 1 means 2a < p: keep 2a.
    select([d0, d1, d2, d3], [t0, t1, t2, t3], b)
}

/// `a - b mod p`. Inputs canonical; output canonical. Branch-free: p is added back under a mask
/// when the subtraction borrows.
#[inline(always)]
pub(crate) const fn sub(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let (d0, br) = sbb(a[0], b[0], 0);
    let (d1, br) = sbb(a[1], b[1], br);
    let (d2, br) = sbb(a[2], b[2], br);
    let (d3, br) = sbb(a[3], b[3], br);
    let mask = 0u64.wrapping_sub(br);
    // p = [1, 0, 0, P3]: adding p under the mask.
    let (r0, c) = adc(d0, mask & P[0], 0);
    let (r1, c) = adc(d1, 0, c);
    let (r2, c) = adc(d2, 0, c);
    let (r3, _) = adc(d3, mask & P3, c);
    [r0, r1, r2, r3]
}

/// `-a mod p`, branch-free (0 maps to 0).
#[inline(always)]
pub(crate) const fn neg(a: [u64; 4]) -> [u64; 4] {
    sub([0; 4], a)
}

/// The first three reduction steps shared by [`reduce`] and [`reduce_partial`], done as one:
/// as `p ≡ 1 (mod 2^192)`, `−p⁻¹ ≡ −1 (mod 2^192)`, so the three Montgomery steps add `M·p`
/// with `M = −(t_0 + t_1·2^64 + t_2·2^128) mod 2^192`. `M` is one borrow chain from the low
/// limbs; adding `M` clears them with a carry `z` (1 exactly when they are not all zero), which
/// is the chain's final borrow; what remains is `M·P3·2^192`, three products. Returns
/// `s = [s3, r4, r5, r6, r7] = (t + M·p) / 2^192` (below 2^320 for the callers' inputs).
#[inline(always)]
const fn reduce_three_steps(t: [u64; 8]) -> (u64, [u64; 4]) {
    let [t0, t1, t2, t3, t4, t5, t6, t7] = t;
    let (m0, b) = sbb(0, t0, 0);
    let (m1, b) = sbb(0, t1, b);
    let (m2, z) = sbb(0, t2, b);
    // M·P3 in four limbs (below 2^252).
    let (l0, h0) = mac(0, m0, P3, 0);
    let (l1, h1) = mac(0, m1, P3, 0);
    let (l2, h2) = mac(0, m2, P3, 0);
    let (q1, c) = adc(h0, l1, 0);
    let (q2, c) = adc(h1, l2, c);
    let q3 = h2.wrapping_add(c);
    let (s3, c) = adc(t3, l0, z);
    let (r4, c) = adc(t4, q1, c);
    let (r5, c) = adc(t5, q2, c);
    let (r6, c) = adc(t6, q3, c);
    let (r7, _) = adc(t7, 0, c);
    (s3, [r4, r5, r6, r7])
}

/// Montgomery reduction of an eight-limb value `t < p·2^256` (e.g. a product of two values below
/// 2p, as `4p² < p·2^256`): returns `t / 2^256 mod p`,
/// canonical.
///
/// The four Montgomery steps add `m_i·p·2^(64i)` with `m_i = −(limb i) mod 2^64`. As
/// `p = 1 + P3·2^192`, the first three together add `M·p` with `M = −(t_0..t_2) mod 2^192`
/// ([`reduce_three_steps`]), leaving five limbs `s3, r4..r7`. Step 3 takes `m_3 = −s3` and is
/// fused with the final conditional subtraction (below).
#[inline(always)]
const fn reduce(t: [u64; 8]) -> [u64; 4] {
    let (s3, [r4, r5, r6, r7]) = reduce_three_steps(t);
    // Step 3 and the final subtraction together, as in `cios_last_row`: with w = s3 (or 2^64
    // when s3 = 0), X = u − p = [r4..r7] − [s3 == 0] − w·P3·2^128 ∈ [−p, p).
    let (lo, hi) = mac(P3, s3.wrapping_sub(1), P3, 0);
    let (x0, br) = sbb(r4, 0, (s3 == 0) as u64);
    let (x1, br) = sbb(r5, 0, br);
    let (x2, br) = sbb(r6, lo, br);
    let (x3, negative) = sbb(r7, hi, br);
    let (y0, c) = adc(x0, 1, 0);
    let (y1, c) = adc(x1, 0, c);
    let (y2, c) = adc(x2, 0, c);
    let (y3, _) = adc(x3, P3, c);
    select([x0, x1, x2, x3], [y0, y1, y2, y3], negative)
}

/// Montgomery reduction without the final subtraction, for lazily reduced arithmetic: for an
/// eight-limb `t < 4p·2^256` returns `u = (t + M·p) / 2^256 ≡ t / 2^256 (mod p)` with
/// `u < t/2^256 + p`. For a product of two values below 2p (`t < 4p²`) that is
/// `u < 4p²/2^256 + p < 1.13·p`: below 2p, not necessarily canonical.
///
/// The same steps as [`reduce`] ([`reduce_three_steps`], then `m_3 = −s3`); the fourth step
/// ends with a plain carry chain instead of the fused subtraction. Intermediate values fit:
/// after three steps the value is below `t/2^192 + p·2^64 < 2^320` (five limbs `s3, r4..r7`).
#[inline(always)]
pub(crate) const fn reduce_partial(t: [u64; 8]) -> [u64; 4] {
    let (s3, [r4, r5, r6, r7]) = reduce_three_steps(t);
    // Step 3: m3 = −s3 clears s3 with a carry of [s3 != 0]; m3·P3 lands on limbs 6, 7.
    let (l3, h3) = mac(0, s3.wrapping_neg(), P3, 0);
    let (u0, c) = adc(r4, 0, (s3 != 0) as u64);
    let (u1, c) = adc(r5, 0, c);
    let (u2, c) = adc(r6, l3, c);
    let (u3, _) = adc(r7, h3, c);
    [u0, u1, u2, u3]
}

/// One row of the interleaved (CIOS) Montgomery product: `t ← (t + a_i·b + m·p) / 2^64` with
/// `m = −(t + a_i·b) mod 2^64`. As `p = 1 + P3·2^192`, adding `m·p` clears limb 0 with a carry
/// `[limb 0 != 0]` and adds `m·P3` at limbs 3 and 4. For inputs below 2p, after row `i`
/// `t = (a_0..i · b + M_i·p) / 2^(64(i+1)) < b + p < 3p < 2^254` (four limbs), and the row sum
/// `t + a_i·b + m·p < 3p + 2^64·3p < 2^318` (five limbs).
#[inline(always)]
const fn cios_row(t: [u64; 4], ai: u64, b: [u64; 4]) -> [u64; 4] {
    let (t0, c) = mac(t[0], ai, b[0], 0);
    let (t1, c) = mac(t[1], ai, b[1], c);
    let (t2, c) = mac(t[2], ai, b[2], c);
    let (t3, t4) = mac(t[3], ai, b[3], c);
    let m = t0.wrapping_neg();
    let (l, h) = mac(0, m, P3, 0);
    let (u0, c) = adc(t1, 0, (t0 != 0) as u64);
    let (u1, c) = adc(t2, 0, c);
    let (u2, c) = adc(t3, l, c);
    let (u3, _) = adc(t4, h, c);
    [u0, u1, u2, u3]
}

/// The last CIOS row, fused with the final conditional subtraction.
///
/// With `s = t + a_3·b` (five limbs `s_0..s_4`) the Montgomery result is `u = (s + m·p)/2^64`,
/// `m = −s_0 mod 2^64 = 2^64 − w` where `w = s_0` if `s_0 != 0`, else `2^64`. So
/// `X = u − p = (s − w·p)/2^64 = [s_1..s_4] − [s_0 == 0] − w·P3·2^128`, formed with one borrow
/// chain whose top borrow is the sign of X. As `u < 1.25p` (inputs below 2p), `X ∈ [−p, p/4)`
/// and the canonical result is `X` or `X + p`. The carry chain waits only on the top limbs
/// (`w·P3 = (w − 1)·P3 + P3` is ready early), instead of a second full chain after `u`.
#[inline(always)]
const fn cios_last_row(t: [u64; 4], ai: u64, b: [u64; 4]) -> [u64; 4] {
    let (s0, c) = mac(t[0], ai, b[0], 0);
    let (s1, c) = mac(t[1], ai, b[1], c);
    let (s2, c) = mac(t[2], ai, b[2], c);
    let (s3, s4) = mac(t[3], ai, b[3], c);
    let bz = (s0 == 0) as u64;
    // w·P3 with w − 1 = s0 − 1 mod 2^64.
    let (lo, hi) = mac(P3, s0.wrapping_sub(1), P3, 0);
    let (x0, br) = sbb(s1, 0, bz);
    let (x1, br) = sbb(s2, 0, br);
    let (x2, br) = sbb(s3, lo, br);
    let (x3, negative) = sbb(s4, hi, br);
    // X + p, used when X < 0.
    let (y0, c) = adc(x0, 1, 0);
    let (y1, c) = adc(x1, 0, c);
    let (y2, c) = adc(x2, 0, c);
    let (y3, _) = adc(x3, P3, c);
    select([x0, x1, x2, x3], [y0, y1, y2, y3], negative)
}

/// The eight-limb product `a·b` (operand scanning: row `i` adds `a_i·b` at limb `i`).
#[inline(always)]
pub(crate) const fn mul_wide(a: [u64; 4], b: [u64; 4]) -> [u64; 8] {
    let (r0, c) = mac(0, a[0], b[0], 0);
    let (r1, c) = mac(0, a[0], b[1], c);
    let (r2, c) = mac(0, a[0], b[2], c);
    let (r3, r4) = mac(0, a[0], b[3], c);

    let (r1, c) = mac(r1, a[1], b[0], 0);
    let (r2, c) = mac(r2, a[1], b[1], c);
    let (r3, c) = mac(r3, a[1], b[2], c);
    let (r4, r5) = mac(r4, a[1], b[3], c);

    let (r2, c) = mac(r2, a[2], b[0], 0);
    let (r3, c) = mac(r3, a[2], b[1], c);
    let (r4, c) = mac(r4, a[2], b[2], c);
    let (r5, r6) = mac(r5, a[2], b[3], c);

    let (r3, c) = mac(r3, a[3], b[0], 0);
    let (r4, c) = mac(r4, a[3], b[1], c);
    let (r5, c) = mac(r5, a[3], b[2], c);
    let (r6, r7) = mac(r6, a[3], b[3], c);
    [r0, r1, r2, r3, r4, r5, r6, r7]
}

/// The eight-limb square `a²` of a value below 2^255: the six cross products `a_i·a_j`
/// (`i < j`) once, doubled, plus the four diagonal squares.
///
/// Only the three cross products without `a_3` are doubled by shifting (a four-limb value:
/// LLVM emits `shld`, about two cycles of throughput each on AMD Zen 3); the other three take
/// `2·a_3` as their factor, which fits in a limb because `a < 2^255`. (Shifting all six
/// products measured 1.5 % slower for `poseidon_hash`.)
#[inline(always)]
pub(crate) const fn square_wide(a: [u64; 4]) -> [u64; 8] {
    debug_assert!(a[3] >> 63 == 0, "square_wide: input must be below 2^255");
    // X = a0·a1·2^64 + a0·a2·2^128 + a1·a2·2^192, doubled.
    let (x1, c) = mac(0, a[0], a[1], 0);
    let (x2, x3) = mac(0, a[0], a[2], c);
    let (x3, x4) = mac(x3, a[1], a[2], 0);
    let x5 = x4 >> 63;
    let x4 = (x4 << 1) | (x3 >> 63);
    let x3 = (x3 << 1) | (x2 >> 63);
    let x2 = (x2 << 1) | (x1 >> 63);
    let x1 = x1 << 1;
    // Y = (2·a3)·(a0 + a1·2^64 + a2·2^128)·2^192.
    let d3 = a[3] << 1;
    let (y3, c) = mac(0, a[0], d3, 0);
    let (y4, c) = mac(0, a[1], d3, c);
    let (y5, y6) = mac(0, a[2], d3, c);
    // The diagonal.
    let (r0, h0) = mac(0, a[0], a[0], 0);
    let (l1, h1) = mac(0, a[1], a[1], 0);
    let (l2, h2) = mac(0, a[2], a[2], 0);
    let (l3, h3) = mac(0, a[3], a[3], 0);
    let (r1, c) = adc(h0, x1, 0);
    let (r2, c) = adc(l1, x2, c);
    let (r3, c) = adc(h1, x3, c);
    let (r4, c) = adc(l2, x4, c);
    let (r5, c) = adc(h2, x5, c);
    let (r6, c) = adc(l3, 0, c);
    let r7 = h3.wrapping_add(c);
    let (r3, c) = adc(r3, y3, 0);
    let (r4, c) = adc(r4, y4, c);
    let (r5, c) = adc(r5, y5, c);
    let (r6, c) = adc(r6, y6, c);
    let r7 = r7.wrapping_add(c);
    [r0, r1, r2, r3, r4, r5, r6, r7]
}

/// Montgomery product `a·b/2^256 mod p`. Inputs `< 2p`, output canonical.
///
/// Row-interleaved (CIOS): each row of the product is followed by its reduction step, so only
/// five limbs are live; the last row also performs the final conditional subtraction. 16 limb
/// products plus 4 for the reduction. (The product [`mul_wide`] followed by [`reduce`] has a
/// shorter reduction but measured 3-8 % slower here, as a chain and in throughput.)
#[inline(always)]
pub(crate) const fn mul(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let t = cios_row([0; 4], a[0], b);
    let t = cios_row(t, a[1], b);
    let t = cios_row(t, a[2], b);
    cios_last_row(t, a[3], b)
}

/// Montgomery square `a²/2^256 mod p` ([`square_wide`], then [`reduce`]).
#[inline(always)]
pub(crate) const fn square(a: [u64; 4]) -> [u64; 4] {
    reduce(square_wide(a))
}

/// `a < b` as integers, branch-free, as 0 or 1.
#[inline(always)]
pub(crate) const fn lt(a: [u64; 4], b: [u64; 4]) -> u64 {
    let (_, br) = sbb(a[0], b[0], 0);
    let (_, br) = sbb(a[1], b[1], br);
    let (_, br) = sbb(a[2], b[2], br);
    let (_, br) = sbb(a[3], b[3], br);
    br
}

/// `R² mod p` with `R = 2^256`, computed at compile time by doubling 1 512 times.
pub(crate) const R2: [u64; 4] = {
    let mut x = [1u64, 0, 0, 0];
    let mut i = 0;
    while i < 512 {
        x = double(x);
        i += 1;
    }
    x
};

/// `R mod p`: the Montgomery form of 1.
pub(crate) const R: [u64; 4] = mul(R2, [1, 0, 0, 0]);

/// Canonical integer limbs to Montgomery form. Precondition: `a < p`.
#[inline(always)]
pub(crate) const fn to_mont(a: [u64; 4]) -> [u64; 4] {
    mul(a, R2)
}

/// Montgomery form to canonical integer limbs.
#[inline(always)]
pub(crate) const fn from_mont(a: [u64; 4]) -> [u64; 4] {
    reduce([a[0], a[1], a[2], a[3], 0, 0, 0, 0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use num_bigint::BigUint;
    use proptest::prelude::*;

    fn big(l: &[u64]) -> BigUint {
        let mut bytes = Vec::new();
        for x in l {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        BigUint::from_bytes_le(&bytes)
    }

    fn p_big() -> BigUint {
        big(&P)
    }

    /// R^(−1) mod p.
    fn r_inv() -> BigUint {
        let p = p_big();
        (BigUint::from(1u32) << 256usize).modpow(&(&p - 2u32), &p)
    }

    /// Limbs biased towards carry edge cases: 0, 1, 2^64 − 1, 2^64 − 2, or random.
    fn limb() -> impl Strategy<Value = u64> {
        prop_oneof![
            1 => Just(0u64),
            1 => Just(1u64),
            1 => Just(u64::MAX),
            1 => Just(u64::MAX - 1),
            3 => any::<u64>(),
        ]
    }

    fn below_p() -> impl Strategy<Value = [u64; 4]> {
        proptest::array::uniform4(limb()).prop_map(|mut l| {
            // Clamp the top limb to a 60-bit value, then subtract p if needed.
            l[3] &= (1 << 60) - 1;
            let v = big(&l) % p_big();
            let mut d = v.to_u64_digits();
            d.resize(4, 0);
            [d[0], d[1], d[2], d[3]]
        })
    }

    proptest! {
        #[test]
        fn reduce_matches_bigint(mut t in proptest::array::uniform8(limb())) {
            // Keep t < p·2^256 (t7 < 2^59 suffices).
            t[7] &= (1 << 59) - 1;
            let got = reduce(t);
            let expected = (big(&t) * r_inv()) % p_big();
            prop_assert_eq!(big(&got), expected);
        }

        #[test]
        fn reduce_partial_matches_bigint(mut t in proptest::array::uniform8(limb())) {
            // Keep t < 4p·2^256 (t7 < 2^61 suffices).
            t[7] &= (1 << 61) - 1;
            let got = reduce_partial(t);
            let expected = (big(&t) * r_inv()) % p_big();
            prop_assert!(big(&got) < (big(&t) >> 256usize) + p_big());
            prop_assert_eq!(big(&got) % p_big(), expected);
        }

        #[test]
        fn reduce_partial_of_products_below_2p(a in below_p(), b in below_p(), pa: bool, pb: bool) {
            // Representatives below 2p: x or x + p.
            let lift = |x: [u64; 4], up: bool| if up { big(&x) + p_big() } else { big(&x) };
            let t = lift(a, pa) * lift(b, pb);
            let mut d = t.to_u64_digits();
            d.resize(8, 0);
            let got = reduce_partial([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]]);
            prop_assert!(big(&got) < p_big() * 2u32);
            prop_assert_eq!(big(&got) % p_big(), (t * r_inv()) % p_big());
        }

        /// `square_wide` over its whole domain (below 2^255, limbs biased towards 0, 1 and
        /// all ones, the top bit of the top limb cleared), against the full product.
        #[test]
        fn square_wide_equals_mul_wide(l in proptest::array::uniform4(limb())) {
            let a = [l[0], l[1], l[2], l[3] >> 1];
            prop_assert_eq!(square_wide(a), mul_wide(a, a));
        }

        #[test]
        fn mul_square_match_bigint(a in below_p(), b in below_p()) {
            let p = p_big();
            let expected = (big(&a) * big(&b) * r_inv()) % &p;
            prop_assert_eq!(big(&mul(a, b)), expected);
            prop_assert_eq!(big(&square(a)), (big(&a) * big(&a) * r_inv()) % &p);
            prop_assert_eq!(big(&add(a, b)), (big(&a) + big(&b)) % &p);
            prop_assert_eq!(big(&double(a)), (big(&a) * 2u32) % &p);
            prop_assert_eq!(big(&sub(a, b)), (big(&a) + &p - big(&b)) % &p);
            prop_assert_eq!(reduce_once(a), a);
            let (ap, _) = {
                let (s0, c) = adc(a[0], P[0], 0);
                let (s1, c) = adc(a[1], P[1], c);
                let (s2, c) = adc(a[2], P[2], c);
                let (s3, c) = adc(a[3], P[3], c);
                ([s0, s1, s2, s3], c)
            };
            prop_assert_eq!(reduce_once(ap), a);
        }
    }

    #[test]
    fn reduce_edges() {
        let p = p_big();
        let pm1 = [0, 0, 0, P[3]];
        for a in [
            [0; 4],
            [1, 0, 0, 0],
            pm1,
            [u64::MAX, u64::MAX, u64::MAX, 0x07ff_ffff_ffff_ffff],
        ] {
            for b in [[0; 4], [1, 0, 0, 0], pm1, R, R2] {
                let expected = (big(&a) * big(&b) * r_inv()) % &p;
                assert_eq!(big(&mul(a, b)), expected);
            }
        }
        assert_eq!(from_mont(R), [1, 0, 0, 0]);
        assert_eq!(to_mont([1, 0, 0, 0]), R);
    }
}
