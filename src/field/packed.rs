//! [`PackedFelt`]: a vector of field elements processed in lock-step.
//!
//! Algorithms (the Hades permutation, point doubling) are written once, generic over this
//! trait, and instantiated for the scalar [`Felt`] (one lane) and for every SIMD lane type in
//! `crate::backend`. Implementations may keep values lazily reduced between operations;
//! [`PackedFelt::store`] always writes canonical [`Felt`]s.
//!
//! # Lazy operations and weights
//! Besides the ordinary operations, whose results are *normal* (within the representation's
//! usual bound), the trait has lazy ones (`add_lazy`, `double_lazy`, `add_constant_lazy`,
//! `sub_lazy`) that skip the renormalisation, and [`PackedFelt::normalize`], which restores it.
//! Their results are congruent to the exact result but may exceed the usual bound. The
//! contract is stated with a *weight* per value:
//!
//! * every ordinary result (`load`, `constant`, `zero`, `add`, `sub`, `mul`, `square`,
//!   `double`, `add_constant`, `normalize`) has weight 1;
//! * `add_lazy(a, b)` has weight `w(a) + w(b)`, `double_lazy(a)` `2·w(a)`,
//!   `add_constant_lazy(a, k)` `w(a) + 1`, and `sub_lazy(a, b)` `w(a) + 4` (it adds a multiple
//!   of p so that no lane goes negative);
//! * `mul` and `square` accept inputs of weight at most 4 ([`MUL_WEIGHT`]) whose weights
//!   multiply to at most [`PackedFelt::MUL_WEIGHTS`] (`w(a)·w(b)`, for `square` `w(a)²`): 16
//!   for every lane type, so that any two inputs of weight 4 are allowed; 7 for the scalar
//!   Poseidon type, whose lazy sums are plain additions (`crate::poseidon::lazy`);
//! * the normalising operations accept inputs whose lazy counterpart would have weight at most
//!   10 ([`NORMALIZE_WEIGHT`]): `normalize(a)` needs `w(a) <= 10`, `add(a, b)` needs
//!   `w(a) + w(b) <= 10`, `double(a)` `2·w(a) <= 10`, `add_constant(a, k)` `w(a) + 1 <= 10`,
//!   `sub(a, b)` `w(a) + 4 <= 10`;
//! * the subtrahend of `sub` and `sub_lazy` has weight at most 2;
//! * `sub_lazy_normal(a, b)` is `a − b` for a subtrahend of weight 1, lazily: weight
//!   `w(a) + 2` (a smaller multiple of p suffices; the default is `sub`, weight 1);
//! * `sub_for_mul(a, b)` is `a − b` for a multiplication input: it needs `w(a) <= 6` and
//!   `w(b) = 1` and gives weight at most 2 (the default is `sub`, weight 1; a type may return
//!   an unreduced difference when that is cheaper, as the scalar Poseidon type does);
//! * `store` takes values of weight 1 (call `normalize` first).
//!
//! Every implementation must accept this; the default lazy methods are the ordinary
//! (normalising) operations, and `normalize` is the identity, which meets the contract for any
//! type whose values are always normal (such as [`Felt`]). `crate::backend::packed` documents
//! the limb bounds behind these numbers for the 9×28-bit lanes.

use super::Felt;

/// The largest weight `mul` and `square` accept (module docs).
pub(crate) const MUL_WEIGHT: u32 = 4;
/// The largest weight the normalising operations accept (module docs).
pub(crate) const NORMALIZE_WEIGHT: u32 = 10;

/// A vector of `LANES` field elements with lane-wise arithmetic.
pub trait PackedFelt: Copy + Send + Sync + Sized {
    /// How many field elements one value holds.
    const LANES: usize;

    /// The largest product `w(a)·w(b)` of input weights that [`mul`](Self::mul) accepts
    /// (for [`square`](Self::square), `w(a)²`); each input is also at most `MUL_WEIGHT`
    /// (module docs). Generic code that multiplies lazy values checks this at compile time.
    const MUL_WEIGHTS: u32 = MUL_WEIGHT * MUL_WEIGHT;

    /// Whether permutations should run the three S-boxes of a full round as a rolled loop
    /// rather than straight-line code. Straight-line code gives the out-of-order core the most
    /// independent work, but for the SIMD lane types a full round is then thousands of
    /// instructions (six products of about 300), too many for the decoded-instruction cache,
    /// and the front end becomes the bottleneck (docs/backends.md, "Full rounds"). Default:
    /// `false`.
    const ROLLED_FULL_ROUNDS: bool = false;

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

    /// Lane-wise `a + b`, lazily: weight `w(a) + w(b)` (module docs).
    #[inline(always)]
    fn add_lazy(self, rhs: Self) -> Self {
        self.add(rhs)
    }

    /// Lane-wise `2a`, lazily: weight `2·w(a)`.
    #[inline(always)]
    fn double_lazy(self) -> Self {
        self.double()
    }

    /// Lane-wise `a + c` for a prepared constant, lazily: weight `w(a) + 1`.
    #[inline(always)]
    fn add_constant_lazy(self, c: &Self::Constant) -> Self {
        self.add_constant(c)
    }

    /// Lane-wise `a - b`, lazily: weight `w(a) + 4`; requires `w(b) <= 2`.
    #[inline(always)]
    fn sub_lazy(self, rhs: Self) -> Self {
        self.sub(rhs)
    }

    /// `x³` (the S-box), with a weight-1 result, for `x` that the default's operations accept:
    /// `square` then `mul`. A type may fuse them (the IFMA lanes skip carrying the square's
    /// output again, which is already a valid multiplier).
    #[inline(always)]
    fn cube(self) -> Self {
        self.square().mul(self)
    }

    /// `2x³` (the partial round's S-box in the Hades `(A, s, c)` coordinates), with a weight-1
    /// result, for `x` that the default's operations accept: `square`, `double_lazy`, `mul`
    /// by `x`. A type may fuse them (the IFMA lanes double the square inside its reduction
    /// instead of doubling and carrying its output).
    #[inline(always)]
    fn double_cube(self) -> Self {
        self.square().double_lazy().mul(self)
    }

    /// Runs the middle partial rounds of the Poseidon permutation (rounds 1..=82 of the 83,
    /// `crate::poseidon::hades::partial_round_wide`, in its `(A, s, c)` coordinates and with
    /// its weights) with a fused kernel if this type has one, and says whether it did; the
    /// default has none and `hades::permute` runs the generic loop. Only types with
    /// `MUL_WEIGHTS >= 16` are asked.
    #[inline(always)]
    fn poseidon_partial_rounds(_state: &mut [Self; 3]) -> bool {
        false
    }

    /// Runs the full rounds of the Poseidon permutation whose prepared constants are `k`
    /// (three per round; `crate::poseidon::hades::full_round`, with its weights: inputs of
    /// weight at most 7) with a fused kernel if this type has one, and says whether it did;
    /// the default has none and `hades::permute` runs the generic loop. The first round runs
    /// the S-boxes of cells `0..first_sboxes` only (1 to 3): the other cells already hold
    /// their S-box output, with weight 1 (`hades::permute_known`).
    #[inline(always)]
    fn poseidon_full_rounds(
        _state: &mut [Self; 3],
        _k: &[Self::Constant],
        _first_sboxes: usize,
    ) -> bool {
        false
    }

    /// Lane-wise `a - b` for a subtrahend of weight 1, lazily: weight `w(a) + 2` (module
    /// docs). The default is [`sub`](Self::sub) (requires `w(a) <= NORMALIZE_WEIGHT - 4`).
    #[inline(always)]
    fn sub_lazy_normal(self, rhs: Self) -> Self {
        self.sub(rhs)
    }

    /// Lane-wise `a - b` as a multiplication input: weight at most 2. Requires
    /// `w(a) <= NORMALIZE_WEIGHT - 4` and `w(b) = 1`. The default is [`sub`](Self::sub).
    #[inline(always)]
    fn sub_for_mul(self, rhs: Self) -> Self {
        self.sub(rhs)
    }

    /// The same values with weight 1. Requires `w(self) <= NORMALIZE_WEIGHT`.
    #[inline(always)]
    fn normalize(self) -> Self {
        self
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
