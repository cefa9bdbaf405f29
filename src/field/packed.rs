//! [`PackedFelt`]: a vector of field elements processed in lock-step.
//!
//! Algorithms (the Hades permutation, point doubling) are written once, generic over this
//! trait, and instantiated for the scalar [`Felt`] (one lane) and for every SIMD lane type in
//! `crate::backend`. Implementations may keep values lazily reduced between operations;
//! [`PackedFelt::store`] always writes canonical [`Felt`]s.

use super::Felt;

/// A vector of `LANES` field elements with lane-wise arithmetic.
pub trait PackedFelt: Copy + Send + Sync + Sized {
    /// How many field elements one value holds.
    const LANES: usize;

    /// A constant prepared once for this representation (for example, converted to the lane
    /// type's own Montgomery radix) and broadcast to every lane on use.
    type Constant: Copy + Send + Sync + 'static;

    /// Prepares a constant (done once, outside hot loops).
    fn prepare(c: Felt) -> Self::Constant;

    /// Every lane equal to the prepared constant.
    fn constant(c: &Self::Constant) -> Self;

    /// Every lane zero.
    fn zero() -> Self;

    /// Loads `LANES` elements. Precondition: `src.len() == LANES`.
    fn load(src: &[Felt]) -> Self;

    /// Stores `LANES` canonical elements. Precondition: `dst.len() == LANES`.
    fn store(self, dst: &mut [Felt]);

    /// Lane-wise `a + b`.
    fn add(self, rhs: Self) -> Self;

    /// Lane-wise `a - b`.
    fn sub(self, rhs: Self) -> Self;

    /// Lane-wise `a · b`.
    fn mul(self, rhs: Self) -> Self;

    /// Lane-wise `a²`.
    fn square(self) -> Self;

    /// Lane-wise `a + a` (an addition, never a multiplication).
    fn double(self) -> Self;

    /// Lane-wise `a + c` for a prepared constant.
    #[inline(always)]
    fn add_constant(self, c: &Self::Constant) -> Self {
        self.add(Self::constant(c))
    }
}

impl PackedFelt for Felt {
    const LANES: usize = 1;
    type Constant = Felt;

    #[inline(always)]
    fn prepare(c: Felt) -> Felt {
        c
    }
    #[inline(always)]
    fn constant(c: &Felt) -> Felt {
        *c
    }
    #[inline(always)]
    fn zero() -> Felt {
        Felt::ZERO
    }
    #[inline(always)]
    fn load(src: &[Felt]) -> Felt {
        src[0]
    }
    #[inline(always)]
    fn store(self, dst: &mut [Felt]) {
        dst[0] = self;
    }
    #[inline(always)]
    fn add(self, rhs: Felt) -> Felt {
        self + rhs
    }
    #[inline(always)]
    fn sub(self, rhs: Felt) -> Felt {
        self - rhs
    }
    #[inline(always)]
    fn mul(self, rhs: Felt) -> Felt {
        self * rhs
    }
    #[inline(always)]
    fn square(self) -> Felt {
        Felt::square(&self)
    }
    #[inline(always)]
    fn double(self) -> Felt {
        Felt::double(&self)
    }
}
