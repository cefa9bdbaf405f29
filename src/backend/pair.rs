//! [`Pair`]: two values of any [`PackedFelt`] in lock-step, twice the lanes.
//!
//! Every operation is applied to both halves, so each multiplication is two independent
//! dependency chains that the out-of-order core overlaps. Used where one value's chains leave
//! the multipliers idle: the AVX-512 IFMA backend's Poseidon runs on `Pair<Ifma>`, sixteen
//! hashes per permutation (docs/poseidon-kernels.md). `crate::poseidon::avx2_twin::Twin` is the
//! same idea for the 9×28-bit lanes, with hooks for the AVX2 assembly kernels.

use crate::field::{Felt, PackedFelt};

/// `2·P::LANES` elements: the first `P::LANES` in `.0`, the rest in `.1`.
#[derive(Clone, Copy)]
pub(crate) struct Pair<P: PackedFelt>(P, P);

/// Methods of a two-field lock-step type `$pair` (this one and `crate::poseidon::avx2_twin::Twin`) that
/// apply the same operation to both halves: `unary` ones, ones with a second operand of the
/// same type (`binary`) and ones with a prepared constant of type `$c` (`constant`).
macro_rules! both {
    ($pair:ident, unary $($name:ident)*) => {$(
        #[inline(always)]
        fn $name(self) -> Self {
            $pair(self.0.$name(), self.1.$name())
        }
    )*};
    ($pair:ident, binary $($name:ident)*) => {$(
        #[inline(always)]
        fn $name(self, rhs: Self) -> Self {
            $pair(self.0.$name(rhs.0), self.1.$name(rhs.1))
        }
    )*};
    ($pair:ident, $c:ty, constant $($name:ident)*) => {$(
        #[inline(always)]
        fn $name(self, c: &$c) -> Self {
            $pair(self.0.$name(c), self.1.$name(c))
        }
    )*};
}
// Used by `Twin`, which exists on x86-64 only.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_imports))]
pub(crate) use both;

/// Each half keeps its own weights, so the pair has the contract of `P`.
impl<P: PackedFelt> PackedFelt for Pair<P> {
    const LANES: usize = 2 * P::LANES;
    const MUL_WEIGHTS: u32 = P::MUL_WEIGHTS;
    const ROLLED_FULL_ROUNDS: bool = P::ROLLED_FULL_ROUNDS;
    type Constant = P::Constant;

    #[inline(always)]
    fn prepare(c: Felt) -> P::Constant {
        P::prepare(c)
    }
    #[inline(always)]
    fn constant(c: &P::Constant) -> Self {
        Pair(P::constant(c), P::constant(c))
    }
    #[inline(always)]
    fn zero() -> Self {
        Pair(P::zero(), P::zero())
    }
    #[inline(always)]
    fn load(src: &[Felt]) -> Self {
        let (a, b) = src.split_at(P::LANES);
        Pair(P::load(a), P::load(b))
    }
    #[inline(always)]
    fn store(self, dst: &mut [Felt]) {
        let (a, b) = dst.split_at_mut(P::LANES);
        self.0.store(a);
        self.1.store(b);
    }
    both!(Pair, unary square double double_lazy normalize cube double_cube);
    both!(Pair, binary add sub mul add_lazy sub_lazy sub_lazy_normal sub_for_mul);
    both!(Pair, P::Constant, constant add_constant add_constant_lazy);
}

#[cfg(test)]
mod tests {
    use super::Pair;
    use crate::field::{Felt, PackedFelt};

    /// Every operation of a pair of scalar lanes equals the scalar operation in each half,
    /// and the halves stay in their own lanes.
    #[test]
    fn pair_applies_each_operation_to_both_halves() {
        let a = [Felt::from(3u64), Felt::MAX];
        let b = [Felt::from(5u64), Felt::from(1u64 << 63)];
        let (x, y) = (Pair::<Felt>::load(&a), Pair::<Felt>::load(&b));
        let c = Felt::from(7u64);
        let ops: [(Pair<Felt>, [Felt; 2]); 8] = [
            (x.add(y), [a[0] + b[0], a[1] + b[1]]),
            (x.sub(y), [a[0] - b[0], a[1] - b[1]]),
            (x.mul(y), [a[0] * b[0], a[1] * b[1]]),
            (x.square(), [a[0] * a[0], a[1] * a[1]]),
            (x.double(), [a[0] + a[0], a[1] + a[1]]),
            (x.add_constant(&c), [a[0] + c, a[1] + c]),
            (Pair::<Felt>::constant(&c), [c, c]),
            (Pair::<Felt>::zero(), [Felt::ZERO; 2]),
        ];
        for (i, (got, want)) in ops.into_iter().enumerate() {
            let mut out = [Felt::ONE; 2];
            got.store(&mut out);
            assert_eq!(out, want, "operation {i}");
        }
        assert_eq!(<Pair<Pair<Felt>>>::LANES, 4);
    }
}
