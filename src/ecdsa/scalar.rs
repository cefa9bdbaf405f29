//! [`Scalar`]: integers modulo the STARK curve order
//! n = `0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2f` (prime, 252 bits).
//!
//! # Representation
//! Montgomery form: a value `a` is held as `a·2^256 mod n` in four little-endian `u64` limbs,
//! always canonical (`< n`). Multiplication is a schoolbook 4×4 product followed by a
//! word-by-word Montgomery reduction with `n' = -n^-1 mod 2^64`.
//!
//! # Bounds
//! For `a, b < n` the reduced value `(a·b + M·n)/2^256 < n²/2^256 + n < 2n < 2^253`, so it fits in
//! four limbs and one masked subtraction makes it canonical.
//!
//! # Constant time
//! Every operation here except [`Scalar::inverse_vartime`] runs in time independent of the
//! values: conditional subtractions are masked, and [`Scalar::inverse`] is the constant-time
//! safegcd of `crate::field::safegcd` (a fixed 590 divsteps).
//!
//! # Conversions from [`Felt`]
//! A [`Felt`] is an integer below p, and p > n (p - n ≈ 2^196), so:
//! - [`Scalar::from_felt`] accepts only values `< n` (`None` otherwise),
//! - [`Scalar::from_felt_reduced`] takes the value modulo n (one masked subtraction, as
//!   `p < 2n`); this is what starknet-crypto does with a private key or `k`,
//! - [`Scalar::to_felt`] is exact (every scalar is below n < p).

use crate::Felt;
use crate::field::mont::{adc, mac, sbb};
use crate::field::safegcd;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// n in little-endian 64-bit limbs.
pub(crate) const N: [u64; 4] = [
    0x1e66_a241_adc6_4d2f,
    0xb781_126d_cae7_b232,
    0xffff_ffff_ffff_ffff,
    0x0800_0000_0000_0010,
];

/// `-n^-1 mod 2^64`, by Newton's iteration (each step doubles the correct low bits).
const N_PRIME: u64 = {
    let mut inv = 1u64;
    let mut i = 0;
    while i < 7 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(N[0].wrapping_mul(inv)));
        i += 1;
    }
    inv.wrapping_neg()
};

/// Subtracts n if `a >= n`, without branching. Precondition: `a < 2n`.
#[inline(always)]
const fn reduce_once(a: [u64; 4]) -> [u64; 4] {
    let (d0, b) = sbb(a[0], N[0], 0);
    let (d1, b) = sbb(a[1], N[1], b);
    let (d2, b) = sbb(a[2], N[2], b);
    let (d3, b) = sbb(a[3], N[3], b);
    let keep = 0u64.wrapping_sub(b);
    [
        (a[0] & keep) | (d0 & !keep),
        (a[1] & keep) | (d1 & !keep),
        (a[2] & keep) | (d2 & !keep),
        (a[3] & keep) | (d3 & !keep),
    ]
}

/// `a + b mod n` (inputs canonical; `a + b < 2n < 2^256`).
#[inline(always)]
const fn add(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let (s0, c) = adc(a[0], b[0], 0);
    let (s1, c) = adc(a[1], b[1], c);
    let (s2, c) = adc(a[2], b[2], c);
    let (s3, _) = adc(a[3], b[3], c);
    reduce_once([s0, s1, s2, s3])
}

/// `a - b mod n` (inputs canonical), adding n back under a mask on borrow.
#[inline(always)]
const fn sub(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let (d0, br) = sbb(a[0], b[0], 0);
    let (d1, br) = sbb(a[1], b[1], br);
    let (d2, br) = sbb(a[2], b[2], br);
    let (d3, br) = sbb(a[3], b[3], br);
    let mask = 0u64.wrapping_sub(br);
    let (r0, c) = adc(d0, mask & N[0], 0);
    let (r1, c) = adc(d1, mask & N[1], c);
    let (r2, c) = adc(d2, mask & N[2], c);
    let (r3, _) = adc(d3, mask & N[3], c);
    [r0, r1, r2, r3]
}

/// Montgomery reduction of `t < n·2^256`: `t/2^256 mod n`, canonical.
#[inline(always)]
const fn reduce(mut t: [u64; 8]) -> [u64; 4] {
    let mut hi = 0u64; // carry into limb i + 5 after step i
    let mut i = 0;
    while i < 4 {
        let m = t[i].wrapping_mul(N_PRIME);
        let mut c = 0;
        let mut j = 0;
        while j < 4 {
            (t[i + j], c) = mac(t[i + j], m, N[j], c);
            j += 1;
        }
        (t[i + 4], hi) = adc(t[i + 4], c, hi);
        i += 1;
    }
    // The value (t4..t7, hi) is below 2n < 2^256, so hi is 0 here.
    reduce_once([t[4], t[5], t[6], t[7]])
}

/// Montgomery product `a·b/2^256 mod n` (inputs canonical).
#[inline(always)]
const fn mul(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let mut t = [0u64; 8];
    let mut i = 0;
    while i < 4 {
        let mut c = 0;
        let mut j = 0;
        while j < 4 {
            (t[i + j], c) = mac(t[i + j], a[i], b[j], c);
            j += 1;
        }
        t[i + 4] = c;
        i += 1;
    }
    reduce(t)
}

/// `a < b` as integers, branch-free, as 0 or 1.
#[inline(always)]
const fn lt(a: [u64; 4], b: [u64; 4]) -> u64 {
    let (_, br) = sbb(a[0], b[0], 0);
    let (_, br) = sbb(a[1], b[1], br);
    let (_, br) = sbb(a[2], b[2], br);
    let (_, br) = sbb(a[3], b[3], br);
    br
}

/// `2^512 mod n`, by doubling 1 modulo n 512 times at compile time.
const R2: [u64; 4] = {
    let mut x = [1u64, 0, 0, 0];
    let mut i = 0;
    while i < 512 {
        x = add(x, x);
        i += 1;
    }
    x
};

/// `2^256 mod n`: the Montgomery form of 1.
const R: [u64; 4] = mul(R2, [1, 0, 0, 0]);

/// n - 2, the Fermat exponent, little-endian limbs.
const N_MINUS_2: [u64; 4] = [N[0] - 2, N[1], N[2], N[3]];

/// An integer modulo the STARK curve order n (see the module docs for the representation).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Scalar([u64; 4]);

impl core::fmt::Debug for Scalar {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Scalar({})", self.to_felt())
    }
}

impl Scalar {
    /// 0.
    pub const ZERO: Scalar = Scalar([0; 4]);
    /// 1.
    pub const ONE: Scalar = Scalar(R);
    /// The curve order n as little-endian 64-bit limbs of its integer value.
    pub const MODULUS_LIMBS: [u64; 4] = N;

    /// The scalar with this integer value (little-endian limbs), or `None` if it is not below n.
    pub const fn from_raw_limbs(limbs: [u64; 4]) -> Option<Scalar> {
        if lt(limbs, N) == 1 {
            Some(Scalar(mul(limbs, R2)))
        } else {
            None
        }
    }

    /// The integer value as little-endian limbs (canonical, below n).
    #[inline]
    pub const fn to_raw_limbs(self) -> [u64; 4] {
        reduce([self.0[0], self.0[1], self.0[2], self.0[3], 0, 0, 0, 0])
    }

    /// The scalar equal to this field element's integer value, or `None` if it is `>= n`.
    pub fn from_felt(f: &Felt) -> Option<Scalar> {
        Scalar::from_raw_limbs(f.to_raw_limbs())
    }

    /// The field element's integer value reduced modulo n. Constant-time: since p < 2n, this
    /// is one masked subtraction.
    #[inline]
    pub fn from_felt_reduced(f: &Felt) -> Scalar {
        Scalar(mul(reduce_once(f.to_raw_limbs()), R2))
    }

    /// The integer value as a field element (exact: n < p).
    #[inline]
    pub fn to_felt(&self) -> Felt {
        // Any value below n is below p: no range check (it would branch on secret values).
        Felt(crate::field::mont::to_mont(self.to_raw_limbs()))
    }

    /// Whether this is 0 (constant-time in the value).
    #[inline]
    pub fn is_zero(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// `self²`.
    #[inline]
    pub fn square(&self) -> Scalar {
        Scalar(mul(self.0, self.0))
    }

    /// `2·self`.
    #[inline]
    pub fn double(&self) -> Scalar {
        Scalar(add(self.0, self.0))
    }

    /// Constant-time selection: `a` when `choice` is 0, `b` when it is 1.
    #[inline(always)]
    #[allow(dead_code)]
    pub(crate) fn select(a: &Scalar, b: &Scalar, choice: u64) -> Scalar {
        let mask = 0u64.wrapping_sub(choice & 1);
        Scalar(core::array::from_fn(|i| {
            a.0[i] ^ (mask & (a.0[i] ^ b.0[i]))
        }))
    }

    /// The multiplicative inverse, or zero for zero. Constant-time: Bernstein–Yang safegcd
    /// with a fixed number of divsteps (`crate::field::safegcd`), computing `R²/(a·R) = a⁻¹·R`
    /// so that the result is already in Montgomery form.
    pub fn inverse(&self) -> Scalar {
        Scalar(safegcd::invert_scaled_with(
            &self.0,
            &R2,
            &safegcd::MODULUS_N,
        ))
    }

    /// The multiplicative inverse, or zero for zero, by Fermat's little theorem `self^(n-2)`
    /// with a fixed 4-bit window over the public exponent (constant-time; kept as a
    /// cross-check of [`Scalar::inverse`]).
    pub fn inverse_fermat(&self) -> Scalar {
        let mut table = [Scalar::ONE; 16];
        for i in 1..16 {
            table[i] = table[i - 1] * *self;
        }
        let mut acc = Scalar::ONE;
        for limb in N_MINUS_2.iter().rev() {
            for nib in (0..16).rev() {
                for _ in 0..4 {
                    acc = acc.square();
                }
                // The exponent is public: indexing by its nibble leaks nothing about `self`.
                let d = ((limb >> (4 * nib)) & 15) as usize;
                if d != 0 {
                    acc *= table[d];
                }
            }
        }
        acc
    }

    /// The multiplicative inverse, or zero for zero, in variable time (safegcd that stops as
    /// soon as the input is done). For public values only (verification, key recovery).
    #[inline]
    pub fn inverse_vartime(&self) -> Scalar {
        Scalar(safegcd::invert_scaled_vartime_with(
            &self.0,
            &R2,
            &safegcd::MODULUS_N,
        ))
    }
}

macro_rules! scalar_binop {
    ($Tr:ident, $f:ident, $TrA:ident, $fa:ident, $op:path) => {
        impl $Tr<Scalar> for Scalar {
            type Output = Scalar;
            #[inline(always)]
            fn $f(self, rhs: Scalar) -> Scalar {
                Scalar($op(self.0, rhs.0))
            }
        }
        impl $Tr<&Scalar> for Scalar {
            type Output = Scalar;
            #[inline(always)]
            fn $f(self, rhs: &Scalar) -> Scalar {
                Scalar($op(self.0, rhs.0))
            }
        }
        impl $Tr<&Scalar> for &Scalar {
            type Output = Scalar;
            #[inline(always)]
            fn $f(self, rhs: &Scalar) -> Scalar {
                Scalar($op(self.0, rhs.0))
            }
        }
        impl $TrA<Scalar> for Scalar {
            #[inline(always)]
            fn $fa(&mut self, rhs: Scalar) {
                self.0 = $op(self.0, rhs.0);
            }
        }
    };
}

scalar_binop!(Add, add, AddAssign, add_assign, add);
scalar_binop!(Sub, sub, SubAssign, sub_assign, sub);
scalar_binop!(Mul, mul, MulAssign, mul_assign, mul);

impl Neg for Scalar {
    type Output = Scalar;
    #[inline(always)]
    fn neg(self) -> Scalar {
        Scalar(sub([0; 4], self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants() {
        assert_eq!(N[0].wrapping_mul(N_PRIME), u64::MAX); // n·n' ≡ -1
        assert_eq!(Scalar::ONE.to_raw_limbs(), [1, 0, 0, 0]);
        let two = Scalar::from_raw_limbs([2, 0, 0, 0]).unwrap();
        assert_eq!(two * two.inverse(), Scalar::ONE);
        assert_eq!(two * two.inverse_vartime(), Scalar::ONE);
        assert_eq!(two.inverse_fermat(), two.inverse());
        assert_eq!((-Scalar::ONE).to_raw_limbs(), [N[0] - 1, N[1], N[2], N[3]]);
        assert!(Scalar::from_raw_limbs(N).is_none());
    }
}
