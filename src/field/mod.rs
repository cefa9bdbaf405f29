//! The field element [`Felt`]: an integer modulo p = 2^251 + 17·2^192 + 1.
//!
//! See `docs/field-arithmetic.md` for the representation, the reduction and the bounds.
//! In short: four little-endian `u64` limbs holding `a·2^256 mod p` (Montgomery form), always
//! canonical (`< p`), so equal values have equal bits and `&[Felt]` can be cast with bytemuck.

mod arith;
mod convert;
mod error;
mod inverse;
pub(crate) mod mont;
mod packed;
pub(crate) mod safegcd;
mod sqrt;

pub use error::FeltError;
pub use packed::PackedFelt;
pub(crate) use packed::{MUL_WEIGHT, NORMALIZE_WEIGHT};

use bytemuck::{Pod, Zeroable};

/// An element of Starknet's prime field, p = 2^251 + 17·2^192 + 1.
///
/// Held in Montgomery form (`a·2^256 mod p`) in four little-endian `u64` limbs, always reduced
/// below p. `#[repr(transparent)]` over `[u64; 4]` and [`Pod`], so slices cast to limbs or bytes
/// without copying (the limbs are the Montgomery form, not the integer value: use
/// [`Felt::to_bytes_be`] or [`Felt::to_raw_limbs`] for the value).
///
/// ```
/// use starkbatch::Felt;
/// let a = Felt::from(7u64);
/// assert_eq!(a.double(), a + a);
/// assert_eq!((a * a.inverse().unwrap()), Felt::ONE);
/// assert_eq!(Felt::MAX + Felt::ONE, Felt::ZERO);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Pod, Zeroable)]
#[repr(transparent)]
pub struct Felt(pub(crate) [u64; 4]);

impl Felt {
    /// 0.
    pub const ZERO: Felt = Felt([0; 4]);
    /// 1.
    pub const ONE: Felt = Felt(mont::R);
    /// 2.
    pub const TWO: Felt = Felt(mont::double(mont::R));
    /// 3.
    pub const THREE: Felt = Felt(mont::add(mont::double(mont::R), mont::R));
    /// p - 1, the largest element.
    pub const MAX: Felt = Felt(mont::neg(mont::R));

    /// The modulus p as little-endian 64-bit limbs of its integer value.
    pub const MODULUS_LIMBS: [u64; 4] = mont::P;

    /// The element whose integer value has these little-endian limbs, or `None` if the value
    /// is not below p.
    pub const fn from_raw_limbs(limbs: [u64; 4]) -> Option<Felt> {
        if mont::lt(limbs, mont::P) == 1 {
            Some(Felt(mont::to_mont(limbs)))
        } else {
            None
        }
    }

    /// The integer value as little-endian 64-bit limbs (canonical, below p).
    #[inline]
    pub const fn to_raw_limbs(self) -> [u64; 4] {
        mont::from_mont(self.0)
    }

    /// Builds a Felt from its Montgomery limbs (`a·2^256 mod p`), as stored in memory.
    /// Returns `None` if the limbs are not below p.
    pub const fn from_montgomery_limbs(limbs: [u64; 4]) -> Option<Felt> {
        if mont::lt(limbs, mont::P) == 1 {
            Some(Felt(limbs))
        } else {
            None
        }
    }

    /// The Montgomery limbs (`a·2^256 mod p`), as stored in memory.
    #[inline]
    pub const fn to_montgomery_limbs(self) -> [u64; 4] {
        self.0
    }

    /// A small constant, usable in `const` context.
    pub const fn from_u64_const(v: u64) -> Felt {
        Felt(mont::to_mont([v, 0, 0, 0]))
    }

    /// Parses a hexadecimal constant at compile time. Panics (a compile error in `const`
    /// context) on malformed input; for user data use [`Felt::from_hex`].
    pub const fn from_hex_unchecked(s: &str) -> Felt {
        match convert::parse_hex_limbs(s.as_bytes()) {
            Ok(l) => Felt(mont::to_mont(l)),
            Err(_) => panic!("invalid hex field-element constant"),
        }
    }

    /// Whether this is 0.
    #[inline]
    pub const fn is_zero(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// `self + self`, computed with one addition (a shift and a conditional subtraction),
    /// never a multiplication.
    #[inline(always)]
    pub const fn double(&self) -> Felt {
        Felt(mont::double(self.0))
    }

    /// `self²`, with a dedicated squaring (10 limb products instead of 16).
    #[inline(always)]
    pub const fn square(&self) -> Felt {
        Felt(mont::square(self.0))
    }

    /// `self` raised to the integer exponent given as little-endian `u64` limbs
    /// (square-and-multiply, variable time in the exponent).
    pub fn pow_limbs(&self, exp: &[u64]) -> Felt {
        let mut acc = Felt::ONE;
        for &limb in exp.iter().rev() {
            for bit in (0..64).rev() {
                acc = acc.square();
                if (limb >> bit) & 1 == 1 {
                    acc *= *self;
                }
            }
        }
        acc
    }

    /// `self^exp` (variable time in `exp`).
    pub fn pow(&self, exp: u128) -> Felt {
        self.pow_limbs(&[exp as u64, (exp >> 64) as u64])
    }

    /// `self^exp` for a field-sized exponent (its integer value), variable time in `exp`.
    pub fn pow_felt(&self, exp: &Felt) -> Felt {
        self.pow_limbs(&exp.to_raw_limbs())
    }

    /// Constant-time selection: `a` when `choice` is 0, `b` when it is 1.
    #[inline(always)]
    #[allow(dead_code)]
    pub(crate) fn select(a: &Felt, b: &Felt, choice: u64) -> Felt {
        // black_box: without it LLVM turns a scan of selects (curve/fixed_base.rs) into a branch
        // on `choice` that loads only the chosen entry (found by scripts/ct-check.sh).
        Felt::select_by_mask(a, b, core::hint::black_box(0u64.wrapping_sub(choice & 1)))
    }

    /// `b` where `mask` is all ones, `a` where it is zero. No optimisation barrier here: the
    /// caller makes `mask` opaque to the compiler (as `curve::fixed_base` does once per table
    /// row with `black_box` on the whole mask array); a mask the compiler can prove to be 0 or
    /// all ones lets LLVM turn a scan of selects into a secret-dependent branch.
    #[inline(always)]
    pub(crate) fn select_by_mask(a: &Felt, b: &Felt, mask: u64) -> Felt {
        Felt([
            a.0[0] ^ (mask & (a.0[0] ^ b.0[0])),
            a.0[1] ^ (mask & (a.0[1] ^ b.0[1])),
            a.0[2] ^ (mask & (a.0[2] ^ b.0[2])),
            a.0[3] ^ (mask & (a.0[3] ^ b.0[3])),
        ])
    }

    /// The `i`-th bit (from the least significant) of the integer value.
    pub fn bit(&self, i: usize) -> bool {
        i < 256 && (self.to_raw_limbs()[i / 64] >> (i % 64)) & 1 == 1
    }

    /// Number of significant bits of the integer value (0 for zero).
    pub fn bits(&self) -> usize {
        let l = self.to_raw_limbs();
        for i in (0..4).rev() {
            if l[i] != 0 {
                return i * 64 + 64 - l[i].leading_zeros() as usize;
            }
        }
        0
    }
}

impl PartialOrd for Felt {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Ordered by canonical integer value (not by the Montgomery bits).
impl Ord for Felt {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        let a = self.to_raw_limbs();
        let b = other.to_raw_limbs();
        a.iter().rev().cmp(b.iter().rev())
    }
}
