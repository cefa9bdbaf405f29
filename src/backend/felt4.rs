//! [`X4`]: four one-lane scalar field values processed in lock-step, the packed type of the
//! portable backend (instantiated with the scalar [`Felt`], 4×64-bit Montgomery). Each operation is four independent scalar Montgomery operations, which a superscalar
//! core overlaps (one hash alone is a chain of dependent products); without SIMD multiplies
//! this is faster than the 9×28-bit lanes, whose 81 limb products per multiplication would
//! become scalar multiplies. The 9×28-bit field over plain arrays (`PortableLane`) remains the
//! reference the SIMD lane types are tested against.

use crate::field::{Felt, PackedFelt};

/// Four one-lane values.
// The Poseidon portable backend now runs the scalar lazily reduced type one lane at a time
// (measured faster: four interleaved 4×64-bit states spill the general registers); X4 stays
// for other batch code and is exercised by `crate::batch::entry` tests.
#[derive(Clone, Copy)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct X4<S>(pub(crate) [S; 4]);

#[cfg_attr(not(test), allow(dead_code))]
impl<S: PackedFelt<Constant = Felt>> X4<S> {
    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(S, S) -> S) -> Self {
        let (a, b) = (self.0, o.0);
        X4([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])])
    }
    #[inline(always)]
    fn map(self, f: impl Fn(S) -> S) -> Self {
        let a = self.0;
        X4([f(a[0]), f(a[1]), f(a[2]), f(a[3])])
    }
}

impl<S: PackedFelt<Constant = Felt>> PackedFelt for X4<S> {
    const LANES: usize = 4;
    const MUL_WEIGHTS: u32 = S::MUL_WEIGHTS;
    type Constant = Felt;

    #[inline(always)]
    fn prepare(c: Felt) -> Felt {
        c
    }
    #[inline(always)]
    fn constant(c: &Felt) -> Self {
        X4([S::constant(c); 4])
    }
    #[inline(always)]
    fn zero() -> Self {
        X4([S::zero(); 4])
    }
    #[inline(always)]
    fn load(src: &[Felt]) -> Self {
        assert!(S::LANES == 1 && src.len() == 4);
        X4([
            S::load(&src[0..1]),
            S::load(&src[1..2]),
            S::load(&src[2..3]),
            S::load(&src[3..4]),
        ])
    }
    #[inline(always)]
    fn store(self, dst: &mut [Felt]) {
        let [a, b, c, d] = self.0;
        a.store(&mut dst[0..1]);
        b.store(&mut dst[1..2]);
        c.store(&mut dst[2..3]);
        d.store(&mut dst[3..4]);
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        self.zip(rhs, S::add)
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        self.zip(rhs, S::sub)
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        self.zip(rhs, S::mul)
    }
    #[inline(always)]
    fn square(self) -> Self {
        self.map(S::square)
    }
    #[inline(always)]
    fn double(self) -> Self {
        self.map(S::double)
    }
    #[inline(always)]
    fn add_constant(self, c: &Felt) -> Self {
        self.map(|x| x.add_constant(c))
    }
    // The lazy operations forward to the lane type's (weights are per lane).
    #[inline(always)]
    fn add_lazy(self, rhs: Self) -> Self {
        self.zip(rhs, S::add_lazy)
    }
    #[inline(always)]
    fn double_lazy(self) -> Self {
        self.map(S::double_lazy)
    }
    #[inline(always)]
    fn add_constant_lazy(self, c: &Felt) -> Self {
        self.map(|x| x.add_constant_lazy(c))
    }
    #[inline(always)]
    fn sub_lazy(self, rhs: Self) -> Self {
        self.zip(rhs, S::sub_lazy)
    }
    #[inline(always)]
    fn sub_lazy_normal(self, rhs: Self) -> Self {
        self.zip(rhs, S::sub_lazy_normal)
    }
    #[inline(always)]
    fn sub_for_mul(self, rhs: Self) -> Self {
        self.zip(rhs, S::sub_for_mul)
    }
    #[inline(always)]
    fn normalize(self) -> Self {
        self.map(S::normalize)
    }
}
