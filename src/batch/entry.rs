//! One entry point per batch operation and backend. Each instantiates the generic drivers
//! with that backend's packed type; the SIMD ones carry `#[target_feature]`, so the whole
//! inlined permutation is compiled for that instruction set.

use super::drivers::Prepared;
use crate::backend::packed::{PackedConstant, prepare_const};
use crate::field::Felt;
use crate::poseidon::constants::{
    COMPRESSED_ROUND_CONSTANTS, HASH1_CUBES, HASH2_CUBES, N_CONSTANTS,
};

/// The round constants and small constants in the 9×28-bit form, built at compile time
/// (shared by every lane type: the prepared form does not depend on the instruction set).
pub(crate) static PACKED: Prepared<PackedConstant> = packed_constants();

/// Builds [`PACKED`].
const fn packed_constants() -> Prepared<PackedConstant> {
    let mut rc = [prepare_const(Felt::ZERO); N_CONSTANTS];
    let mut i = 0;
    while i < N_CONSTANTS {
        rc[i] = prepare_const(COMPRESSED_ROUND_CONSTANTS[i]);
        i += 1;
    }
    Prepared {
        rc,
        hash1_cubes: [prepare_const(HASH1_CUBES[0]), prepare_const(HASH1_CUBES[1])],
        hash2_cubes: [prepare_const(HASH2_CUBES[0])],
    }
}

macro_rules! entry_points {
    ($(#[$attr:meta])* $name:ident, $packed:ty, $prep:path) => {
        /// Entry points for one lane type.
        ///
        /// # Safety
        /// Each function may only be called when the CPU supports this lane type's
        /// instruction set (checked by `crate::Backend`, see `docs/backends.md`).
        pub(crate) mod $name {
            use crate::batch::drivers;
            use crate::field::Felt;

            type P = $packed;
            use $prep as PACKED;

            $(#[$attr])*
            pub(crate) unsafe fn hash2(inputs: &[[Felt; 2]], out: &mut [Felt]) {
                drivers::hash2::<P>(&PACKED, inputs, out)
            }
            $(#[$attr])*
            pub(crate) unsafe fn hash2_columns(xs: &[Felt], ys: &[Felt], out: &mut [Felt]) {
                drivers::hash2_columns::<P>(&PACKED, xs, ys, out)
            }
            $(#[$attr])*
            pub(crate) unsafe fn hash1(inputs: &[Felt], out: &mut [Felt]) {
                drivers::hash1::<P>(&PACKED, inputs, out)
            }
            $(#[$attr])*
            pub(crate) unsafe fn permute_states(states: &mut [[Felt; 3]]) {
                drivers::permute_states::<P>(&PACKED, states)
            }
            $(#[$attr])*
            pub(crate) unsafe fn permute_columns(s0: &mut [Felt], s1: &mut [Felt], s2: &mut [Felt]) {
                drivers::permute_columns::<P>(&PACKED, s0, s1, s2)
            }
            $(#[$attr])*
            pub(crate) unsafe fn hash_many(messages: &[&[Felt]], out: &mut [Felt]) {
                drivers::hash_many::<P>(&PACKED, messages, out)
            }
        }
    };
}

/// The scalar constants, for the portable backend: one lane of the lazily reduced scalar
/// [`Lazy`](crate::poseidon::lazy::Lazy), the type of the scalar `poseidon_hash`.
pub(crate) static SCALAR: Prepared<Felt> = Prepared {
    rc: COMPRESSED_ROUND_CONSTANTS,
    hash1_cubes: HASH1_CUBES,
    hash2_cubes: HASH2_CUBES,
};

entry_points!(portable, crate::poseidon::lazy::Lazy, super::SCALAR);
// The same scalar code compiled with BMI2 (`mulx`), chosen for the portable backend when the
// CPU has it (`crate::backend::cpu::has_bmi2`): bit-identical results, fewer instructions.
#[cfg(target_arch = "x86_64")]
entry_points!(
    #[target_feature(enable = "bmi2")]
    portable_bmi2,
    crate::poseidon::lazy::Lazy,
    super::SCALAR
);
// The 9×28-bit field over plain arrays: the reference for the SIMD lane types (tests use
// only some of its entry points).
#[cfg(test)]
#[allow(dead_code)]
mod reference {
    entry_points!(
        lanes_portable,
        crate::backend::packed::Packed<crate::backend::portable::PortableLane>,
        super::super::PACKED
    );
}
#[cfg(test)]
use reference::lanes_portable;
// Four interleaved scalar lanes (the previous portable backend), kept as a tested reference.
#[cfg(test)]
#[allow(dead_code)]
mod reference_x4 {
    entry_points!(
        x4_lazy,
        crate::backend::felt4::X4<crate::poseidon::lazy::Lazy>,
        super::super::SCALAR
    );
}
/// The constants of the AVX2 backend's Poseidon lane type: the 9×28-bit form for its four SIMD
/// lanes and the scalar form for its scalar lane.
#[cfg(target_arch = "x86_64")]
pub(crate) static MIXED: Prepared<(PackedConstant, Felt)> = Prepared {
    rc: {
        let mut rc = [(prepare_const(Felt::ZERO), Felt::ZERO); N_CONSTANTS];
        let mut i = 0;
        while i < N_CONSTANTS {
            let c = COMPRESSED_ROUND_CONSTANTS[i];
            rc[i] = (prepare_const(c), c);
            i += 1;
        }
        rc
    },
    hash1_cubes: [
        (prepare_const(HASH1_CUBES[0]), HASH1_CUBES[0]),
        (prepare_const(HASH1_CUBES[1]), HASH1_CUBES[1]),
    ],
    hash2_cubes: [(prepare_const(HASH2_CUBES[0]), HASH2_CUBES[0])],
};
// Four AVX2 lanes and one scalar lane in lock-step (`backend::mixed`): the scalar permutation
// runs on the integer pipes in the gaps of the vector dependency chains. BMI2 is part of the
// AVX2 backend's requirements (`Backend` checks both). Used for the last few elements of a
// batch (see `avx2` below).
#[cfg(target_arch = "x86_64")]
entry_points!(
    #[target_feature(enable = "avx2,bmi2")]
    avx2_mixed,
    crate::backend::mixed::Mixed<
        crate::backend::packed::Packed<crate::backend::avx2::Avx2Lane>,
        crate::poseidon::lazy::Lazy,
    >,
    super::MIXED
);
// Two independent sets of four AVX2 lanes in lock-step (`poseidon::avx2_twin`): eight hashes per
// permutation. One set alone leaves the vector pipes idle while a multiplication's carry chain
// (two dependent operations per column, 18 columns) completes; the second set's instructions
// fill those gaps. Poseidon on 1024 and 65536 inputs: about 6 % faster than four AVX2 lanes
// plus one scalar lane (`avx2_mixed`), which in turn beat four lanes alone
// (docs/poseidon-kernels.md). Its partial and full rounds run the generated assembly kernels
// of `poseidon::avx2_rounds`.
#[cfg(target_arch = "x86_64")]
entry_points!(
    #[target_feature(enable = "avx2,bmi2")]
    avx2_twin,
    crate::poseidon::avx2_twin::Twin,
    super::PACKED
);

/// The six entry points of a backend that runs whole groups on a `wide` lane type and the
/// rest on a `narrow` one: `$lanes` is the wide lane count, and a remainder of `$pad_from`
/// or more runs as one padded wide group instead. Expands inside the backend's module.
#[cfg(target_arch = "x86_64")]
macro_rules! wide_and_narrow {
    ($wide:ident, $narrow:ident, $lanes:expr, $pad_from:expr) => {
        use super::{$narrow as narrow, $wide as wide};
        use crate::field::Felt;

        const WIDE: usize = $lanes;

        /// How many leading elements of `n` go to the wide entry points.
        #[inline(always)]
        pub(crate) const fn wide_len(n: usize) -> usize {
            if n % WIDE >= $pad_from {
                n
            } else {
                n - n % WIDE
            }
        }

        /// Lengths must match (the callers in `crate::batch` check them).
        pub(crate) unsafe fn hash2(inputs: &[[Felt; 2]], out: &mut [Felt]) {
            let w = wide_len(inputs.len());
            // SAFETY: the caller's guarantee (the backend's features) covers both entry
            // points.
            unsafe {
                wide::hash2(&inputs[..w], &mut out[..w]);
                narrow::hash2(&inputs[w..], &mut out[w..]);
            }
        }
        pub(crate) unsafe fn hash2_columns(xs: &[Felt], ys: &[Felt], out: &mut [Felt]) {
            let w = wide_len(xs.len());
            // SAFETY: as in `hash2`.
            unsafe {
                wide::hash2_columns(&xs[..w], &ys[..w], &mut out[..w]);
                narrow::hash2_columns(&xs[w..], &ys[w..], &mut out[w..]);
            }
        }
        pub(crate) unsafe fn hash1(inputs: &[Felt], out: &mut [Felt]) {
            let w = wide_len(inputs.len());
            // SAFETY: as in `hash2`.
            unsafe {
                wide::hash1(&inputs[..w], &mut out[..w]);
                narrow::hash1(&inputs[w..], &mut out[w..]);
            }
        }
        pub(crate) unsafe fn permute_states(states: &mut [[Felt; 3]]) {
            let w = wide_len(states.len());
            let (a, b) = states.split_at_mut(w);
            // SAFETY: as in `hash2`.
            unsafe {
                wide::permute_states(a);
                narrow::permute_states(b);
            }
        }
        pub(crate) unsafe fn permute_columns(s0: &mut [Felt], s1: &mut [Felt], s2: &mut [Felt]) {
            let w = wide_len(s0.len());
            let (a0, b0) = s0.split_at_mut(w);
            let (a1, b1) = s1.split_at_mut(w);
            let (a2, b2) = s2.split_at_mut(w);
            // SAFETY: as in `hash2`.
            unsafe {
                wide::permute_columns(a0, a1, a2);
                narrow::permute_columns(b0, b1, b2);
            }
        }
        /// Messages share lanes as they finish (`drivers::hash_many`), so only the number of
        /// messages decides: a full wide group or more runs on the wide type.
        pub(crate) unsafe fn hash_many(messages: &[&[Felt]], out: &mut [Felt]) {
            // SAFETY: as in `hash2`.
            unsafe {
                if messages.len() >= WIDE {
                    wide::hash_many(messages, out)
                } else {
                    narrow::hash_many(messages, out)
                }
            }
        }
    };
}

/// The AVX2 backend's entry points: whole groups of eight elements run on `avx2_twin`; a
/// remainder of one to five runs on `avx2_mixed` (five lanes), one of six or seven as one
/// padded group of eight (one eight-lane permutation costs less than two five-lane ones).
///
/// # Safety
/// As for every entry point: the CPU must have AVX2 and BMI2 (checked by `crate::Backend`).
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    wide_and_narrow!(avx2_twin, avx2_mixed, 8, 6);
}
// The AVX2 lanes alone (the layout before the scalar lane was added), kept as a tested
// reference and for comparison.
#[cfg(all(test, target_arch = "x86_64"))]
#[allow(dead_code)]
mod reference_avx2 {
    entry_points!(
        #[target_feature(enable = "avx2")]
        avx2_only,
        crate::backend::packed::Packed<crate::backend::avx2::Avx2Lane>,
        super::super::PACKED
    );
}
/// The round constants and small constants in the 5×52-bit form of the IFMA backend.
#[cfg(target_arch = "x86_64")]
pub(crate) static IFMA: Prepared<crate::backend::ifma::IfmaConstant> = {
    use crate::backend::ifma::prepare_const;
    Prepared {
        rc: {
            let mut rc = [prepare_const(Felt::ZERO); N_CONSTANTS];
            let mut i = 0;
            while i < N_CONSTANTS {
                rc[i] = prepare_const(COMPRESSED_ROUND_CONSTANTS[i]);
                i += 1;
            }
            rc
        },
        hash1_cubes: [prepare_const(HASH1_CUBES[0]), prepare_const(HASH1_CUBES[1])],
        hash2_cubes: [prepare_const(HASH2_CUBES[0])],
    }
};
// Eight IFMA lanes: the remainder of the IFMA backend's batches.
#[cfg(target_arch = "x86_64")]
entry_points!(
    #[target_feature(enable = "avx512f,avx512ifma")]
    avx512ifma_single,
    crate::backend::ifma::Ifma,
    super::IFMA
);
// Two sets of eight IFMA lanes in lock-step (`backend::pair`): sixteen hashes per permutation.
// One set's round is nearly one dependency chain (square → reduction → product → reduction);
// the second set's instructions fill its gaps. Poseidon on 1024 inputs: about 7 % faster than
// one set (docs/poseidon-kernels.md).
#[cfg(target_arch = "x86_64")]
entry_points!(
    #[target_feature(enable = "avx512f,avx512ifma")]
    avx512ifma_pair,
    crate::backend::pair::Pair<crate::backend::ifma::Ifma>,
    super::IFMA
);

/// The AVX-512 IFMA backend's entry points: whole groups of sixteen elements run on
/// `avx512ifma_pair`, a remainder of up to eight on `avx512ifma_single`, one of nine to
/// fifteen as one padded group of sixteen (cheaper than two groups of eight).
///
/// # Safety
/// As for every entry point: the CPU must have AVX-512F and AVX-512 IFMA (checked by
/// `crate::Backend`).
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512ifma {
    wide_and_narrow!(avx512ifma_pair, avx512ifma_single, 16, 9);
}
#[cfg(target_arch = "aarch64")]
entry_points!(
    #[target_feature(enable = "neon")]
    neon,
    crate::backend::packed::Packed<crate::backend::neon::NeonLane>,
    super::PACKED
);

/// Scalar reference drivers (one lane, the `Felt` type itself), used by tests.
#[cfg(test)]
pub(crate) mod scalar {
    use crate::batch::drivers;
    use crate::field::Felt;
    use crate::poseidon::constants::{COMPRESSED_ROUND_CONSTANTS, HASH1_CUBES, HASH2_CUBES};
    use alloc::vec::Vec;

    pub(crate) fn hash_many(messages: &[&[Felt]], out: &mut [Felt]) {
        let c = drivers::Prepared {
            rc: COMPRESSED_ROUND_CONSTANTS,
            hash1_cubes: HASH1_CUBES,
            hash2_cubes: HASH2_CUBES,
        };
        drivers::hash_many::<Felt>(&c, messages, out)
    }

    #[test]
    fn lanes_over_plain_arrays_match_scalar() {
        // The 9×28-bit field over PortableLane (the reference for the SIMD lanes), end to end.
        let pairs: Vec<[Felt; 2]> = (0..11u64)
            .map(|i| {
                [
                    Felt::from(i) - Felt::from(3u64),
                    Felt::TWO.pow(i as u128 * 23),
                ]
            })
            .collect();
        let mut out = vec![Felt::ZERO; pairs.len()];
        // SAFETY: portable code has no CPU requirement.
        unsafe { super::lanes_portable::hash2(&pairs, &mut out) };
        for (o, [x, y]) in out.iter().zip(&pairs) {
            assert_eq!(*o, crate::poseidon_hash(*x, *y));
        }
        let mut out = vec![Felt::ZERO; pairs.len()];
        // SAFETY: as above.
        unsafe { super::reference_x4::x4_lazy::hash2(&pairs, &mut out) };
        for (o, [x, y]) in out.iter().zip(&pairs) {
            assert_eq!(*o, crate::poseidon_hash(*x, *y));
        }
        let msgs: Vec<Vec<Felt>> = (0..9u64).map(|i| vec![Felt::from(i); i as usize]).collect();
        let refs: Vec<&[Felt]> = msgs.iter().map(|m| m.as_slice()).collect();
        let mut out = vec![Felt::ZERO; refs.len()];
        // SAFETY: as above.
        unsafe { super::lanes_portable::hash_many(&refs, &mut out) };
        for (m, o) in refs.iter().zip(&out) {
            assert_eq!(*o, crate::poseidon_hash_many(*m));
        }
    }

    /// The portable entry points compiled with BMI2 equal the plain build (which is also what
    /// runs under qemu Nehalem) on edge and pseudo-random inputs, for every entry point.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn portable_bmi2_equals_plain_portable() {
        if !crate::backend::cpu::has_bmi2() {
            return;
        }
        let edges = [
            Felt::ZERO,
            Felt::ONE,
            Felt::MAX,
            Felt::MAX - Felt::ONE,
            Felt::TWO.pow(251),
            Felt::TWO.pow(192) - Felt::ONE,
            Felt::from(u64::MAX),
        ];
        let mut pairs = Vec::new();
        for a in edges {
            for b in edges {
                pairs.push([a, b]);
            }
        }
        for i in 0..40u64 {
            pairs.push([
                Felt::from(i).pow(77) - Felt::TWO,
                Felt::THREE.pow(i as u128 * 101),
            ]);
        }
        let xs: Vec<Felt> = pairs.iter().map(|p| p[0]).collect();
        let ys: Vec<Felt> = pairs.iter().map(|p| p[1]).collect();
        let (mut plain, mut fast) = (vec![Felt::ZERO; pairs.len()], vec![Felt::ZERO; pairs.len()]);
        // SAFETY: portable needs nothing; BMI2 was checked above (both blocks below too).
        unsafe { super::portable::hash2(&pairs, &mut plain) };
        // SAFETY: as above.
        unsafe { super::portable_bmi2::hash2(&pairs, &mut fast) };
        assert_eq!(plain, fast);
        // SAFETY: as above.
        unsafe { super::portable::hash1(&xs, &mut plain) };
        // SAFETY: as above.
        unsafe { super::portable_bmi2::hash1(&xs, &mut fast) };
        assert_eq!(plain, fast);
        // SAFETY: as above.
        unsafe { super::portable::hash2_columns(&xs, &ys, &mut plain) };
        // SAFETY: as above.
        unsafe { super::portable_bmi2::hash2_columns(&xs, &ys, &mut fast) };
        assert_eq!(plain, fast);
        let mut s_plain: Vec<[Felt; 3]> = pairs.iter().map(|p| [p[0], p[1], p[0] + p[1]]).collect();
        let mut s_fast = s_plain.clone();
        // SAFETY: as above.
        unsafe { super::portable::permute_states(&mut s_plain) };
        // SAFETY: as above.
        unsafe { super::portable_bmi2::permute_states(&mut s_fast) };
        assert_eq!(s_plain, s_fast);
        let refs: Vec<&[Felt]> = (0..xs.len()).map(|i| &xs[..i % 13]).collect();
        let (mut plain, mut fast) = (vec![Felt::ZERO; refs.len()], vec![Felt::ZERO; refs.len()]);
        // SAFETY: as above.
        unsafe { super::portable::hash_many(&refs, &mut plain) };
        // SAFETY: as above.
        unsafe { super::portable_bmi2::hash_many(&refs, &mut fast) };
        assert_eq!(plain, fast);
    }

    /// `Backend::poseidon_lanes` is the lane count of each backend's Poseidon entry type.
    #[test]
    fn poseidon_lanes_match_the_entry_types() {
        use crate::backend::{Backend, Kind};
        use crate::field::PackedFelt;
        let lanes = |k: Kind| Backend(k).poseidon_lanes();
        assert_eq!(lanes(Kind::Portable), crate::poseidon::lazy::Lazy::LANES);
        #[cfg(target_arch = "x86_64")]
        {
            type Avx2 = crate::backend::mixed::Mixed<
                crate::backend::packed::Packed<crate::backend::avx2::Avx2Lane>,
                crate::backend::packed::Packed<crate::backend::avx2::Avx2Lane>,
            >;
            assert_eq!(lanes(Kind::Avx2), Avx2::LANES);
            assert_eq!(
                lanes(Kind::Avx512Ifma),
                <crate::backend::pair::Pair<crate::backend::ifma::Ifma> as PackedFelt>::LANES
            );
        }
        #[cfg(target_arch = "aarch64")]
        assert_eq!(
            lanes(Kind::Neon),
            <crate::backend::packed::Packed<crate::backend::neon::NeonLane> as PackedFelt>::LANES
        );
    }

    /// The AVX2 lanes without the scalar lane (the reference layout) still equal the scalar
    /// hash, at every tail length.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_lanes_alone_match_scalar() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let pairs: Vec<[Felt; 2]> = (0..13u64)
            .map(|i| [Felt::MAX - Felt::from(i), Felt::TWO.pow(i as u128 * 19 + 1)])
            .collect();
        for n in 0..=pairs.len() {
            let mut out = vec![Felt::ZERO; n];
            // SAFETY: AVX2 was detected above.
            unsafe { super::reference_avx2::avx2_only::hash2(&pairs[..n], &mut out) };
            for (o, [x, y]) in out.iter().zip(&pairs) {
                assert_eq!(*o, crate::poseidon_hash(*x, *y));
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    type Hash2 = unsafe fn(&[[Felt; 2]], &mut [Felt]);
    #[cfg(target_arch = "x86_64")]
    type Cols = unsafe fn(&[Felt], &[Felt], &mut [Felt]);
    #[cfg(target_arch = "x86_64")]
    type Hash1 = unsafe fn(&[Felt], &mut [Felt]);
    #[cfg(target_arch = "x86_64")]
    type States = unsafe fn(&mut [[Felt; 3]]);
    #[cfg(target_arch = "x86_64")]
    type Many = unsafe fn(&[&[Felt]], &mut [Felt]);
    /// The entry points of one module, as a row of function pointers.
    #[cfg(target_arch = "x86_64")]
    type Row = (&'static str, Hash2, Cols, Hash1, States, Many);
    #[cfg(target_arch = "x86_64")]
    macro_rules! kernel {
        ($m:ident) => {
            (
                stringify!($m),
                super::$m::hash2 as Hash2,
                super::$m::hash2_columns as Cols,
                super::$m::hash1 as Hash1,
                super::$m::permute_states as States,
                super::$m::hash_many as Many,
            )
        };
    }

    /// Every entry point of every module in `kernels` equals the scalar functions at every
    /// length from 0 to `len`.
    ///
    /// # Safety
    /// The CPU must support every module's instruction set.
    #[cfg(target_arch = "x86_64")]
    unsafe fn entry_modules_match_scalar(kernels: &[Row], len: usize) {
        let xs: Vec<Felt> = (0..len as u64)
            .map(|i| Felt::MAX - Felt::from(i * i))
            .collect();
        let ys: Vec<Felt> = (0..len as u64)
            .map(|i| Felt::TWO.pow(i as u128 * 9 + 250))
            .collect();
        let pairs: Vec<[Felt; 2]> = xs.iter().zip(&ys).map(|(x, y)| [*x, *y]).collect();
        let msgs: Vec<Vec<Felt>> = (0..len as u64)
            .map(|i| (0..(i * 5) % 13).map(|j| Felt::from(i * 31 + j)).collect())
            .collect();
        let refs: Vec<&[Felt]> = msgs.iter().map(|m| m.as_slice()).collect();
        for &(name, hash2, cols, hash1, states, many) in kernels {
            for n in 0..=len {
                let mut out = vec![Felt::ZERO; n];
                let mut out_cols = vec![Felt::ZERO; n];
                let mut out1 = vec![Felt::ZERO; n];
                let mut st: Vec<[Felt; 3]> = (0..n)
                    .map(|i| [xs[i], ys[i], Felt::from(i as u64)])
                    .collect();
                let mut out_many = vec![Felt::ZERO; n];
                // SAFETY: the caller's guarantee.
                unsafe {
                    hash2(&pairs[..n], &mut out);
                    cols(&xs[..n], &ys[..n], &mut out_cols);
                    hash1(&xs[..n], &mut out1);
                    states(&mut st);
                    many(&refs[..n], &mut out_many);
                }
                for i in 0..n {
                    let h = crate::poseidon_hash(xs[i], ys[i]);
                    assert_eq!(out[i], h, "{name} hash2 n={n} i={i}");
                    assert_eq!(out_cols[i], h, "{name} columns n={n} i={i}");
                    assert_eq!(
                        out1[i],
                        crate::poseidon_hash_single(xs[i]),
                        "{name} hash1 n={n} i={i}"
                    );
                    let mut s = [xs[i], ys[i], Felt::from(i as u64)];
                    crate::poseidon_permute_comp(&mut s);
                    assert_eq!(st[i], s, "{name} permute n={n} i={i}");
                    assert_eq!(
                        out_many[i],
                        crate::poseidon_hash_many(refs[i]),
                        "{name} many n={n} i={i}"
                    );
                }
            }
        }
    }

    /// The two lane types behind the AVX2 backend, each alone (the backend itself sends only
    /// remainders of up to five to `avx2_mixed`), equal the scalar functions at every length
    /// up to three groups of eight plus one, for every entry point.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_lane_types_alone_match_scalar() {
        if !(std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2"))
        {
            return;
        }
        let kernels = [kernel!(avx2_mixed), kernel!(avx2_twin), kernel!(avx2)];
        // SAFETY: AVX2 and BMI2 were detected above.
        unsafe { entry_modules_match_scalar(&kernels, 3 * 8 + 1) };
    }

    /// The same for the IFMA backend's two lane types (8 and 16 lanes) and the backend's
    /// split between them, up to three groups of sixteen plus one.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn ifma_lane_types_alone_match_scalar() {
        if !(std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512ifma"))
        {
            return;
        }
        let kernels = [
            kernel!(avx512ifma_single),
            kernel!(avx512ifma_pair),
            kernel!(avx512ifma),
        ];
        // SAFETY: AVX-512F and IFMA were detected above.
        unsafe { entry_modules_match_scalar(&kernels, 3 * 16 + 1) };
    }

    #[test]
    fn scalar_lane_scheduler_matches_poseidon_hash_many() {
        let msgs: Vec<Vec<Felt>> = (0..23u64)
            .map(|i| (0..(i * 7) % 11).map(|j| Felt::from(i * 100 + j)).collect())
            .collect();
        let refs: Vec<&[Felt]> = msgs.iter().map(|m| m.as_slice()).collect();
        let mut out = vec![Felt::ZERO; refs.len()];
        hash_many(&refs, &mut out);
        for (m, o) in refs.iter().zip(&out) {
            assert_eq!(*o, crate::poseidon_hash_many(*m));
        }
    }
}
