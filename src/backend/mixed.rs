//! [`Mixed`]: a SIMD lane type and a scalar type side by side in one packed value.
//!
//! Every operation is applied to both halves. The two halves use different execution
//! resources (vector multiplies and adds on the SIMD pipes; `mul`/`mulx` and `adc` on the integer
//! pipes) and different register files, so an out-of-order core runs the scalar lanes in the
//! gaps of the vector dependency chains.

use crate::field::{Felt, PackedFelt};

/// `V::LANES + S::LANES` elements: the first `V::LANES` in `v`, the rest in `s`.
#[derive(Clone, Copy)]
pub(crate) struct Mixed<V, S> {
    v: V,
    s: S,
}

impl<V: PackedFelt, S: PackedFelt> PackedFelt for Mixed<V, S> {
    const LANES: usize = V::LANES + S::LANES;
    const MUL_WEIGHTS: u32 = if V::MUL_WEIGHTS < S::MUL_WEIGHTS {
        V::MUL_WEIGHTS
    } else {
        S::MUL_WEIGHTS
    };
    const ROLLED_FULL_ROUNDS: bool = V::ROLLED_FULL_ROUNDS || S::ROLLED_FULL_ROUNDS;
    type Constant = (V::Constant, S::Constant);

    #[inline(always)]
    fn prepare(c: Felt) -> Self::Constant {
        (V::prepare(c), S::prepare(c))
    }
    #[inline(always)]
    fn constant(c: &Self::Constant) -> Self {
        Mixed {
            v: V::constant(&c.0),
            s: S::constant(&c.1),
        }
    }
    #[inline(always)]
    fn zero() -> Self {
        Mixed {
            v: V::zero(),
            s: S::zero(),
        }
    }
    #[inline(always)]
    fn load(src: &[Felt]) -> Self {
        let (a, b) = src.split_at(V::LANES);
        Mixed {
            v: V::load(a),
            s: S::load(b),
        }
    }
    #[inline(always)]
    fn store(self, dst: &mut [Felt]) {
        let (a, b) = dst.split_at_mut(V::LANES);
        self.v.store(a);
        self.s.store(b);
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Mixed {
            v: self.v.add(rhs.v),
            s: self.s.add(rhs.s),
        }
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Mixed {
            v: self.v.sub(rhs.v),
            s: self.s.sub(rhs.s),
        }
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Mixed {
            v: self.v.mul(rhs.v),
            s: self.s.mul(rhs.s),
        }
    }
    #[inline(always)]
    fn square(self) -> Self {
        Mixed {
            v: self.v.square(),
            s: self.s.square(),
        }
    }
    #[inline(always)]
    fn double(self) -> Self {
        Mixed {
            v: self.v.double(),
            s: self.s.double(),
        }
    }
    #[inline(always)]
    fn add_constant(self, c: &Self::Constant) -> Self {
        Mixed {
            v: self.v.add_constant(&c.0),
            s: self.s.add_constant(&c.1),
        }
    }
    #[inline(always)]
    fn add_lazy(self, rhs: Self) -> Self {
        Mixed {
            v: self.v.add_lazy(rhs.v),
            s: self.s.add_lazy(rhs.s),
        }
    }
    #[inline(always)]
    fn double_lazy(self) -> Self {
        Mixed {
            v: self.v.double_lazy(),
            s: self.s.double_lazy(),
        }
    }
    #[inline(always)]
    fn add_constant_lazy(self, c: &Self::Constant) -> Self {
        Mixed {
            v: self.v.add_constant_lazy(&c.0),
            s: self.s.add_constant_lazy(&c.1),
        }
    }
    #[inline(always)]
    fn sub_lazy(self, rhs: Self) -> Self {
        Mixed {
            v: self.v.sub_lazy(rhs.v),
            s: self.s.sub_lazy(rhs.s),
        }
    }
    #[inline(always)]
    fn sub_lazy_normal(self, rhs: Self) -> Self {
        Mixed {
            v: self.v.sub_lazy_normal(rhs.v),
            s: self.s.sub_lazy_normal(rhs.s),
        }
    }
    #[inline(always)]
    fn sub_for_mul(self, rhs: Self) -> Self {
        Mixed {
            v: self.v.sub_for_mul(rhs.v),
            s: self.s.sub_for_mul(rhs.s),
        }
    }
    #[inline(always)]
    fn normalize(self) -> Self {
        Mixed {
            v: self.v.normalize(),
            s: self.s.normalize(),
        }
    }
}
