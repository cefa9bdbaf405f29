//! 32-bit word lanes for the message-parallel hashes (Blake2s): the primitive operations, and
//! the portable implementation.
//!
//! A [`Words`] value holds one 32-bit word of each of [`Words::LANES`] independent messages.
//! Algorithms over it (`crate::blake2s::lanes`) are written once; each instruction set only
//! supplies these few operations: `avx2_words` (eight lanes in one `__m256i`), `avx512_words`
//! (sixteen lanes in one `__m512i`, rotations in one instruction) and `neon_words` (four lanes
//! in one `uint32x4_t`). [`PortableWords`] is a plain array with eight lanes, which compilers
//! turn into whatever vectors the build target allows.

/// One 32-bit word in each of `LANES` lanes, with wrapping arithmetic.
pub(crate) trait Words: Copy {
    /// The number of lanes (at most [`super::MAX_LANES`]).
    const LANES: usize;
    /// Every lane set to `x`.
    fn splat(x: u32) -> Self;
    /// Lane `i` from `src[i]`. Precondition: `src.len() >= LANES`.
    fn load(src: &[u32]) -> Self;
    /// Lane `i` into `dst[i]`. Precondition: `dst.len() >= LANES`.
    fn store(self, dst: &mut [u32]);
    /// Lane-wise wrapping addition.
    fn add(self, b: Self) -> Self;
    /// Lane-wise exclusive or.
    fn xor(self, b: Self) -> Self;
    /// Lane-wise rotation right by `N` bits (`0 < N < 32`).
    fn rotr<const N: u32>(self) -> Self;
}

/// Eight lanes in a plain array: every host.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PortableWords([u32; 8]);

impl Words for PortableWords {
    const LANES: usize = 8;
    #[inline(always)]
    fn splat(x: u32) -> Self {
        PortableWords([x; 8])
    }
    #[inline(always)]
    fn load(src: &[u32]) -> Self {
        let mut a = [0u32; 8];
        a.copy_from_slice(&src[..8]);
        PortableWords(a)
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32]) {
        dst[..8].copy_from_slice(&self.0);
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        PortableWords(core::array::from_fn(|i| self.0[i].wrapping_add(b.0[i])))
    }
    #[inline(always)]
    fn xor(self, b: Self) -> Self {
        PortableWords(core::array::from_fn(|i| self.0[i] ^ b.0[i]))
    }
    #[inline(always)]
    fn rotr<const N: u32>(self) -> Self {
        PortableWords(core::array::from_fn(|i| self.0[i].rotate_right(N)))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Checks every primitive of `W` against plain `u32` arithmetic on lane-distinct values.
    pub(crate) fn check_words<W: Words>() {
        let n = W::LANES;
        let a: alloc::vec::Vec<u32> = (0..n as u32)
            .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x8000_0001)
            .collect();
        let b: alloc::vec::Vec<u32> = (0..n as u32)
            .map(|i| !i.wrapping_mul(0x85eb_ca6b))
            .collect();
        let (va, vb) = (W::load(&a), W::load(&b));
        let mut out = alloc::vec![0u32; n];
        let mut check = |v: W, f: &dyn Fn(usize) -> u32, what: &str| {
            v.store(&mut out);
            for (i, o) in out.iter().enumerate() {
                assert_eq!(*o, f(i), "{what}, lane {i}");
            }
        };
        check(va, &|i| a[i], "load/store");
        check(W::splat(0xdead_beef), &|_| 0xdead_beef, "splat");
        check(va.add(vb), &|i| a[i].wrapping_add(b[i]), "add");
        check(va.xor(vb), &|i| a[i] ^ b[i], "xor");
        check(va.rotr::<16>(), &|i| a[i].rotate_right(16), "rotr16");
        check(va.rotr::<12>(), &|i| a[i].rotate_right(12), "rotr12");
        check(va.rotr::<8>(), &|i| a[i].rotate_right(8), "rotr8");
        check(va.rotr::<7>(), &|i| a[i].rotate_right(7), "rotr7");
    }

    #[test]
    fn portable_words() {
        check_words::<PortableWords>();
    }
}
