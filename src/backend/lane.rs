//! The lane primitives: the small set of operations on a vector of four `u64` lanes that every
//! instruction-set backend provides, and over which `super::packed::Packed` is written once.
//!
//! Every backend type holds four 64-bit lanes. The operations are deliberately few: lane-wise
//! add/sub (wrapping), and, shifts by a constant, the widening multiply of the low 32 bits of
//! each lane (`_mm256_mul_epu32` on AVX2, `vmull_u32` on NEON), broadcast, equality masks,
//! select, and load/store of four lanes.
//!
//! # Safety model
//! A SIMD implementation of this trait may only be *constructed* on a CPU that has its
//! instruction set: the types are crate-private, and values are only created inside the
//! `#[target_feature]` entry points of `crate::batch`, which are reached only through a
//! [`crate::Backend`] that was checked at run time. The trait itself is therefore safe to call.

/// Four 64-bit lanes with the lane-wise operations the 9×28-bit field needs.
pub(crate) trait Lane: Copy + Send + Sync + 'static {
    /// Every lane equal to `x`.
    fn splat(x: u64) -> Self;
    /// Lanes from an array (lane `k` = `a[k]`).
    fn from_array(a: [u64; 4]) -> Self;
    /// Lanes to an array.
    fn to_array(self) -> [u64; 4];
    /// Lane-wise wrapping `a + b`.
    fn add(self, b: Self) -> Self;
    /// Lane-wise wrapping `a - b`.
    fn sub(self, b: Self) -> Self;
    /// Lane-wise bitwise and.
    fn and(self, b: Self) -> Self;
    /// Lane-wise logical shift left by `N` (0 < N < 64).
    fn shl<const N: i32>(self) -> Self;
    /// Lane-wise logical shift right by `N` (0 < N < 64).
    fn shr<const N: i32>(self) -> Self;
    /// Lane-wise `(a mod 2^32) · (b mod 2^32)` as a 64-bit product.
    fn mul32(self, b: Self) -> Self;
    /// Lane-wise `a + (b mod 2^32)·(c mod 2^32)`.
    #[inline(always)]
    fn mul32_add(self, b: Self, c: Self) -> Self {
        self.add(b.mul32(c))
    }
    /// The Montgomery product of two 9×28-bit values: `super::packed::mont_mul`, inlined or
    /// (AVX2) run out of line.
    fn mont_mul9(a: &[Self; 9], b: &[Self; 9]) -> [Self; 9];
    /// The Montgomery square of a 9×28-bit value: `super::packed::mont_square`, as
    /// [`Lane::mont_mul9`].
    fn mont_square9(a: &[Self; 9]) -> [Self; 9];
    /// All-ones in the lanes where `a == b`, zero elsewhere (for masked selects in curve code;
    /// exercised by the tests today).
    #[allow(dead_code)]
    fn eq_mask(self, b: Self) -> Self;
    /// `b` in the lanes where `mask` is all-ones, `a` where it is zero.
    #[allow(dead_code)]
    #[inline(always)]
    fn select(mask: Self, a: Self, b: Self) -> Self {
        // a ^ (mask & (a ^ b)) without a xor primitive: a + (mask & (b - a)).
        a.add(mask.and(b.sub(a)))
    }
}
