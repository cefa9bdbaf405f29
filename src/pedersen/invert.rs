//! Variable-time inversion by the binary extended Euclidean algorithm, used once per hash
//! (Pedersen inputs are public, so timing may depend on them).
//!
//! # Method
//! The Montgomery limbs of a `Felt` are the integer u = a·R mod p (R = 2^256). The loop keeps
//! x1·u ≡ s and x2·u ≡ t (mod p), starting from (s, x1) = (u, 1) and (t, x2) = (p, 0); it
//! removes factors of two from s or t (dividing the matching x by 2^k modulo p) and subtracts
//! the smaller of the two odd values from the larger, until one of them is 1. Then
//! x = u^(−1) = (a·R)^(−1), and one Montgomery multiplication by R³ gives a^(−1)·R, the
//! Montgomery form of a^(−1).
//!
//! Division by 2^k (k <= 63) modulo p needs no general multiplication because
//! p ≡ 1 (mod 2^192): with m = −x mod 2^k, x + m·p = x + m + m·(2^59 + 17)·2^192 is divisible
//! by 2^k, and (x + m·p)/2^k < 2p.

use crate::field::mont;
use crate::Felt;

/// R³ mod p, so that `mont::mul(v, R3) = v·R² mod p`.
const R3: [u64; 4] = mont::mul(mont::R2, mont::R2);

/// The top limb of p, 2^59 + 17.
const P3: u64 = mont::P[3];

#[inline(always)]
fn is_one(a: &[u64; 4]) -> bool {
    a[0] == 1 && (a[1] | a[2] | a[3]) == 0
}

/// `a > b` as integers.
#[inline(always)]
fn gt(a: &[u64; 4], b: &[u64; 4]) -> bool {
    mont::lt(*b, *a) == 1
}

/// `a − b` as integers (precondition a >= b).
#[inline(always)]
fn sub_int(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (d0, br) = mont::sbb(a[0], b[0], 0);
    let (d1, br) = mont::sbb(a[1], b[1], br);
    let (d2, br) = mont::sbb(a[2], b[2], br);
    let (d3, _) = mont::sbb(a[3], b[3], br);
    [d0, d1, d2, d3]
}

/// `a >> k` for 1 <= k <= 63.
#[inline(always)]
fn shr(a: &[u64; 4], k: u32) -> [u64; 4] {
    [
        (a[0] >> k) | (a[1] << (64 - k)),
        (a[1] >> k) | (a[2] << (64 - k)),
        (a[2] >> k) | (a[3] << (64 - k)),
        a[3] >> k,
    ]
}

/// `x / 2^k mod p` for canonical x and 1 <= k <= 63.
#[inline(always)]
fn div_pow2(x: &[u64; 4], k: u32) -> [u64; 4] {
    let mask = (1u64 << k) - 1;
    let m = x[0].wrapping_neg() & mask;
    // t = x + m·p = x + m + m·P3·2^192 (five limbs).
    let (t0, c) = mont::adc(x[0], m, 0);
    let (t1, c) = mont::adc(x[1], 0, c);
    let (t2, c) = mont::adc(x[2], 0, c);
    let (t3, t4) = mont::mac(x[3], m, P3, c);
    debug_assert_eq!(t0 & mask, 0);
    let r = [
        (t0 >> k) | (t1 << (64 - k)),
        (t1 >> k) | (t2 << (64 - k)),
        (t2 >> k) | (t3 << (64 - k)),
        (t3 >> k) | (t4 << (64 - k)),
    ];
    mont::reduce_once(r)
}

/// Strips the factors of two of `s` (non-zero), dividing `x` by the same power of two mod p.
#[inline(always)]
fn strip_twos(s: &mut [u64; 4], x: &mut [u64; 4]) {
    while s[0] & 1 == 0 {
        let k = if s[0] == 0 { 63 } else { s[0].trailing_zeros() };
        *s = shr(s, k);
        *x = div_pow2(x, k);
    }
}

/// The inverse of `a`, or 0 for 0. Variable time.
pub(crate) fn invert_vartime(a: &Felt) -> Felt {
    let u = a.0;
    if (u[0] | u[1] | u[2] | u[3]) == 0 {
        return Felt::ZERO;
    }
    let (mut s, mut x1) = (u, [1u64, 0, 0, 0]);
    let (mut t, mut x2) = (mont::P, [0u64; 4]);
    strip_twos(&mut s, &mut x1);
    // s and t are odd here and stay odd at the top of every iteration; gcd(s, t) = 1.
    loop {
        if is_one(&s) {
            break Felt(mont::mul(x1, R3));
        }
        if is_one(&t) {
            break Felt(mont::mul(x2, R3));
        }
        if gt(&s, &t) {
            s = sub_int(&s, &t);
            x1 = mont::sub(x1, x2);
            strip_twos(&mut s, &mut x1);
        } else {
            t = sub_int(&t, &s);
            x2 = mont::sub(x2, x1);
            strip_twos(&mut t, &mut x2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_fermat_inverse() {
        let mut v = Felt::from(3u64);
        for _ in 0..300 {
            assert_eq!(Some(invert_vartime(&v)), v.inverse());
            v = v.square() + Felt::from(7u64);
        }
        for v in [
            Felt::ONE,
            Felt::TWO,
            Felt::MAX,
            Felt::MAX - Felt::ONE,
            Felt::from(1u64 << 63),
            Felt::from_raw_limbs([0, 0, 0, 1 << 58]).unwrap(),
            Felt::from_montgomery_limbs([0, 0, 0, 1 << 58]).unwrap(),
            Felt::from_montgomery_limbs([1, 0, 0, 0]).unwrap(),
            Felt::from_montgomery_limbs([0, 1, 0, 0]).unwrap(),
        ] {
            assert_eq!(invert_vartime(&v) * v, Felt::ONE, "{v}");
        }
        assert_eq!(invert_vartime(&Felt::ZERO), Felt::ZERO);
    }
}
