//! The portable lane type: four `u64` in a plain array. Runs on every target; LLVM vectorises
//! it with whatever the baseline instruction set offers (SSE2 on x86-64, NEON on aarch64). It
//! is the reference the SIMD backends are tested against.

use super::lane::Lane;

/// Four lanes as a plain array.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct PortableLane(pub(crate) [u64; 4]);

#[inline(always)]
fn map2(a: [u64; 4], b: [u64; 4], f: impl Fn(u64, u64) -> u64) -> [u64; 4] {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

impl Lane for PortableLane {
    #[inline(always)]
    fn splat(x: u64) -> Self {
        PortableLane([x; 4])
    }
    #[inline(always)]
    fn from_array(a: [u64; 4]) -> Self {
        PortableLane(a)
    }
    #[inline(always)]
    fn to_array(self) -> [u64; 4] {
        self.0
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        PortableLane(map2(self.0, b.0, u64::wrapping_add))
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        PortableLane(map2(self.0, b.0, u64::wrapping_sub))
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        PortableLane(map2(self.0, b.0, |x, y| x & y))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        PortableLane(self.0.map(|x| x << N))
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        PortableLane(self.0.map(|x| x >> N))
    }
    #[inline(always)]
    fn mont_mul9(a: &[Self; 9], b: &[Self; 9]) -> [Self; 9] {
        super::packed::mont_mul(a, b)
    }
    #[inline(always)]
    fn mont_square9(a: &[Self; 9]) -> [Self; 9] {
        super::packed::mont_square(a)
    }
    #[inline(always)]
    fn mul32(self, b: Self) -> Self {
        PortableLane(map2(self.0, b.0, |x, y| {
            (x as u32 as u64) * (y as u32 as u64)
        }))
    }
    #[inline(always)]
    fn eq_mask(self, b: Self) -> Self {
        PortableLane(map2(self.0, b.0, |x, y| 0u64.wrapping_sub((x == y) as u64)))
    }
}
