//! Conversions between [`Felt`] and the felt types of other crates, one at a time and for
//! whole batches, with no arithmetic.
//!
//! # Representation
//! Every type here holds a field element in Montgomery form `a·R mod p` with `R = 2^256` in four
//! 64-bit limbs, as starkbatch does:
//!
//! | type | feature | limb order | module |
//! | --- | --- | --- | --- |
//! | [`Felt`] | | least significant first | |
//! | `starknet_types_core::felt::Felt` | `starknet-types-core` | most significant first | `types_core` |
//! | lambdaworks' `FieldElement<Stark252PrimeField>` | `lambdaworks` | most significant first | `lambdaworks` |
//! | `starknet_ff::FieldElement` (stwo 2.x's felt) | `starknet-ff` | least significant first | `starknet_ff` |
//!
//! A conversion therefore copies (and for some types reverses) the limbs. A foreign value built
//! from unreduced raw limbs (the foreign `from_raw` / `from_mont` constructors do not check them)
//! is converted through its own canonical bytes instead, so every conversion is total and agrees
//! with `to_bytes_be`. Each type has `From`/`Into` both ways (by value and by reference; lambdaworks'
//! type only by value towards it), and
//! [`from_foreign_vec`], [`to_foreign_vec`], [`from_foreign_slice`], [`to_foreign_slice`] convert
//! whole batches.

use crate::Felt;
use alloc::vec::Vec;

#[cfg(feature = "lambdaworks")]
pub mod lambdaworks;
#[cfg(feature = "starknet-ff")]
pub mod starknet_ff;
#[cfg(feature = "starknet-types-core")]
pub mod types_core;
#[cfg(feature = "starknet-types-core")]
pub use types_core::{from_core_pairs, from_core_slice, from_core_vec, to_core_slice, to_core_vec};

/// Reverses the limb order (least significant first ↔ most significant first).
#[inline(always)]
#[allow(dead_code)] // unused when only `starknet-ff` is enabled
pub(crate) const fn reversed(l: [u64; 4]) -> [u64; 4] {
    [l[3], l[2], l[1], l[0]]
}

/// A foreign felt type that stores Montgomery limbs (`R = 2^256`) as [`Felt`] does.
pub trait ForeignFelt: Sized {
    /// The stored Montgomery limbs, least significant first (possibly unreduced).
    fn montgomery_limbs(&self) -> [u64; 4];
    /// The value with these Montgomery limbs (least significant first, below p).
    fn from_reduced_montgomery_limbs(limbs: [u64; 4]) -> Self;
    /// The value's canonical big-endian bytes, as the foreign crate computes them.
    fn canonical_bytes_be(&self) -> [u8; 32];
}

/// The starkbatch felt equal to `value`.
#[inline]
pub fn from_foreign<T: ForeignFelt>(value: &T) -> Felt {
    match Felt::from_montgomery_limbs(value.montgomery_limbs()) {
        Some(f) => f,
        // Unreduced raw limbs: take the foreign crate's own canonical value.
        None => Felt::from_bytes_be_reduced(&value.canonical_bytes_be()),
    }
}

/// The foreign felt equal to `value`.
#[inline]
pub fn to_foreign<T: ForeignFelt>(value: &Felt) -> T {
    T::from_reduced_montgomery_limbs(value.to_montgomery_limbs())
}

/// The starkbatch felts of `src`, in a new vector.
pub fn from_foreign_vec<T: ForeignFelt>(src: &[T]) -> Vec<Felt> {
    src.iter().map(from_foreign).collect()
}

/// The foreign felts of `src`, in a new vector.
pub fn to_foreign_vec<T: ForeignFelt>(src: &[Felt]) -> Vec<T> {
    src.iter().map(to_foreign).collect()
}

/// `dst[i] = from_foreign(&src[i])`.
///
/// # Panics
/// If `src.len() != dst.len()`.
pub fn from_foreign_slice<T: ForeignFelt>(src: &[T], dst: &mut [Felt]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "from_foreign_slice: src and dst lengths differ"
    );
    for (d, s) in dst.iter_mut().zip(src) {
        *d = from_foreign(s);
    }
}

/// `dst[i] = to_foreign(&src[i])`.
///
/// # Panics
/// If `src.len() != dst.len()`.
pub fn to_foreign_slice<T: ForeignFelt>(src: &[Felt], dst: &mut [T]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "to_foreign_slice: src and dst lengths differ"
    );
    for (d, s) in dst.iter_mut().zip(src) {
        *d = to_foreign(s);
    }
}

/// `From`/`Into` both ways, by value and by reference, through [`ForeignFelt`]; with `by_value`,
/// no `From<&Felt>` for the foreign type (lambdaworks' `From<&F::BaseType>` would overlap it).
macro_rules! foreign_from {
    ($t:ty) => {
        $crate::interop::foreign_from!($t, by_value);
        impl From<&$crate::Felt> for $t {
            #[inline]
            fn from(value: &$crate::Felt) -> $t {
                $crate::interop::to_foreign(value)
            }
        }
    };
    ($t:ty, by_value) => {
        impl From<&$t> for $crate::Felt {
            #[inline]
            fn from(value: &$t) -> $crate::Felt {
                $crate::interop::from_foreign(value)
            }
        }
        impl From<$t> for $crate::Felt {
            #[inline]
            fn from(value: $t) -> $crate::Felt {
                $crate::interop::from_foreign(&value)
            }
        }
        impl From<$crate::Felt> for $t {
            #[inline]
            fn from(value: $crate::Felt) -> $t {
                $crate::interop::to_foreign(&value)
            }
        }
    };
}
pub(crate) use foreign_from;

/// Shared checks for every [`ForeignFelt`]: edge values and a spread of others agree through
/// bytes both ways.
#[cfg(test)]
pub(crate) fn check_round_trips<T: ForeignFelt>(
    to_be: impl Fn(&T) -> [u8; 32],
    of_be: impl Fn(&[u8; 32]) -> T,
) {
    let mut values = alloc::vec![Felt::ZERO, Felt::ONE, Felt::MAX, Felt::MAX - Felt::ONE];
    for i in 0..256u32 {
        values.push(Felt::TWO.pow(u128::from(i)));
        values.push(Felt::TWO.pow(u128::from(i)) - Felt::ONE);
        values.push(Felt::from(u64::from(i) * 0x9e37_79b9_7f4a_7c15).pow(7));
    }
    for f in &values {
        let t: T = to_foreign(f);
        assert_eq!(to_be(&t), f.to_bytes_be(), "{f}");
        assert_eq!(from_foreign(&t), *f);
        assert_eq!(from_foreign(&of_be(&f.to_bytes_be())), *f);
    }
    let back = from_foreign_vec(&to_foreign_vec::<T>(&values));
    assert_eq!(back, values);
    let mut dst = alloc::vec![Felt::ZERO; values.len()];
    from_foreign_slice(&to_foreign_vec::<T>(&values), &mut dst);
    assert_eq!(dst, values);
}

/// Shared check for foreign values built from unreduced Montgomery limbs (given least
/// significant first: p, p + 5, 2^256 − 1): each converts to the value the foreign crate reads
/// from them, reduced mod p.
#[cfg(test)]
pub(crate) fn check_unreduced<T: ForeignFelt>(of_limbs: impl Fn([u64; 4]) -> T) {
    let p = Felt::MODULUS_LIMBS;
    for raw in [p, [p[0] + 5, p[1], p[2], p[3]], [u64::MAX; 4]] {
        let x = of_limbs(raw);
        assert_eq!(
            from_foreign(&x),
            Felt::from_bytes_be_reduced(&x.canonical_bytes_be())
        );
    }
}
