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
//! # Bounds
//! For inputs `a, b < 2p`, the reduced value `(a·b + M·p) / 2^256 < p·(4p/2^256 + 1) < 1.25·p`,
//! so one conditional subtraction gives a canonical result. All conditional steps are
//! branch-free (mask selects).

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
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, ((t >> 64) as u64) & 1)
}

/// `a + b·c + carry`, returning (low, high). Cannot overflow 128 bits.
#[inline(always)]
pub(crate) const fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// Subtracts p if `a >= p`, without branching. Precondition: `a < 2p`.
#[inline(always)]
pub(crate) const fn reduce_once(a: [u64; 4]) -> [u64; 4] {
    let (d0, b) = sbb(a[0], P[0], 0);
    let (d1, b) = sbb(a[1], P[1], b);
    let (d2, b) = sbb(a[2], P[2], b);
    let (d3, b) = sbb(a[3], P[3], b);
    // b == 1 means a < p: keep a.
    let keep = 0u64.wrapping_sub(b);
    [
        (a[0] & keep) | (d0 & !keep),
        (a[1] & keep) | (d1 & !keep),
        (a[2] & keep) | (d2 & !keep),
        (a[3] & keep) | (d3 & !keep),
    ]
}

/// `a + b mod p`. Inputs canonical; output canonical. Branch-free.
///
/// As `a + b < 2p < 2^253`, the sum never leaves four limbs.
#[inline(always)]
pub(crate) const fn add(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let (s0, c) = adc(a[0], b[0], 0);
    let (s1, c) = adc(a[1], b[1], c);
    let (s2, c) = adc(a[2], b[2], c);
    let (s3, _) = adc(a[3], b[3], c);
    reduce_once([s0, s1, s2, s3])
}

/// `2a mod p` with one addition (a shift), never a multiplication. Branch-free.
#[inline(always)]
pub(crate) const fn double(a: [u64; 4]) -> [u64; 4] {
    reduce_once([
        a[0] << 1,
        (a[1] << 1) | (a[0] >> 63),
        (a[2] << 1) | (a[1] >> 63),
        (a[3] << 1) | (a[2] >> 63),
    ])
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

/// Montgomery reduction of an eight-limb value `t < 4p·2^256`: returns `t / 2^256 mod p`,
/// canonical.
#[inline(always)]
const fn reduce(t: [u64; 8]) -> [u64; 4] {
    let [t0, mut t1, mut t2, mut t3, mut t4, mut t5, mut t6, mut t7] = t;
    // Each step clears the lowest live limb; `hi` collects the carry out of limb 7.
    let mut c;
    let mut hi;
    // step 0: m = -t0
    let m = t0.wrapping_neg();
    c = (t0 != 0) as u64;
    (t1, c) = adc(t1, 0, c);
    (t2, c) = adc(t2, 0, c);
    (t3, c) = mac(t3, m, P3, c);
    (t4, c) = adc(t4, 0, c);
    (t5, c) = adc(t5, 0, c);
    (t6, c) = adc(t6, 0, c);
    (t7, hi) = adc(t7, 0, c);
    // step 1
    let m = t1.wrapping_neg();
    c = (t1 != 0) as u64;
    (t2, c) = adc(t2, 0, c);
    (t3, c) = adc(t3, 0, c);
    (t4, c) = mac(t4, m, P3, c);
    (t5, c) = adc(t5, 0, c);
    (t6, c) = adc(t6, 0, c);
    (t7, c) = adc(t7, 0, c);
    hi += c;
    // step 2
    let m = t2.wrapping_neg();
    c = (t2 != 0) as u64;
    (t3, c) = adc(t3, 0, c);
    (t4, c) = adc(t4, 0, c);
    (t5, c) = mac(t5, m, P3, c);
    (t6, c) = adc(t6, 0, c);
    (t7, c) = adc(t7, 0, c);
    hi += c;
    // step 3
    let m = t3.wrapping_neg();
    c = (t3 != 0) as u64;
    (t4, c) = adc(t4, 0, c);
    (t5, c) = adc(t5, 0, c);
    (t6, c) = mac(t6, m, P3, c);
    (t7, c) = adc(t7, 0, c);
    hi += c;
    // The result (t4..t7, hi) < 1.25p < 2^253, so hi is 0 here; it is kept for clarity of the
    // bound argument and folded away by the compiler.
    let _ = hi;
    let _ = t0;
    reduce_once([t4, t5, t6, t7])
}

/// Montgomery product `a·b/2^256 mod p`. Inputs `< 2p`, output canonical.
#[inline(always)]
pub(crate) const fn mul(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    // Schoolbook product, row by row.
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

    reduce([r0, r1, r2, r3, r4, r5, r6, r7])
}

/// Montgomery square `a²/2^256 mod p`: the six cross products are computed once and doubled.
#[inline(always)]
pub(crate) const fn square(a: [u64; 4]) -> [u64; 4] {
    // Cross products a_i·a_j for i < j.
    let (r1, c) = mac(0, a[0], a[1], 0);
    let (r2, c) = mac(0, a[0], a[2], c);
    let (r3, r4) = mac(0, a[0], a[3], c);
    let (r3, c) = mac(r3, a[1], a[2], 0);
    let (r4, r5) = mac(r4, a[1], a[3], c);
    let (r5, r6) = mac(r5, a[2], a[3], 0);
    // Double them.
    let r7 = r6 >> 63;
    let r6 = (r6 << 1) | (r5 >> 63);
    let r5 = (r5 << 1) | (r4 >> 63);
    let r4 = (r4 << 1) | (r3 >> 63);
    let r3 = (r3 << 1) | (r2 >> 63);
    let r2 = (r2 << 1) | (r1 >> 63);
    let r1 = r1 << 1;
    // Add the diagonal a_i².
    let (r0, c) = mac(0, a[0], a[0], 0);
    let (r1, c) = adc(r1, 0, c);
    let (r2, c) = mac(r2, a[1], a[1], c);
    let (r3, c) = adc(r3, 0, c);
    let (r4, c) = mac(r4, a[2], a[2], c);
    let (r5, c) = adc(r5, 0, c);
    let (r6, c) = mac(r6, a[3], a[3], c);
    let (r7, _) = adc(r7, 0, c);
    reduce([r0, r1, r2, r3, r4, r5, r6, r7])
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
