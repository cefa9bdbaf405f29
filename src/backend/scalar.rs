//! Scalar (one element at a time) kernels compiled for the x86-64 BMI2 extension.
//!
//! The scalar field arithmetic (`crate::field::mont`, `crate::poseidon::lazy`) is plain Rust on
//! `u64` limbs with `u128` products. Compiled for baseline x86-64, every limb product is a
//! `mul`, which writes `rdx:rax` and forces a `mov` into and out of those registers around it;
//! with BMI2, LLVM emits `mulx`, which takes any destination registers and leaves the flags
//! alone, so the carry chains around it need fewer moves. Under callgrind the Poseidon
//! permutation drops from about 50.6k to 43.1k instructions.
//!
//! The same source is compiled twice: once as it is, once inside a `#[target_feature(enable =
//! "bmi2")]` function (the `#[inline(always)]` arithmetic is inlined into it and compiled with
//! the feature). The choice is made per call from the cached CPU feature test, so the results
//! are bit-identical on every CPU; tests compare both versions where the CPU has BMI2, and the
//! plain one runs under `qemu-x86_64 -cpu Nehalem` (scripts/cross-test.sh).
//!
//! Without the `std` feature there is no run-time detection: the BMI2 version is used when the
//! build itself targets BMI2 (`-C target-feature=+bmi2`).

use crate::curve::ProjectivePoint;
use crate::field::Felt;
use crate::pedersen::batch::Scratch;

/// Whether this CPU has BMI2 (cached by the standard library after the first test).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[inline(always)]
pub(crate) fn has_bmi2() -> bool {
    std::arch::is_x86_feature_detected!("bmi2")
}

/// Without std, only a build that targets BMI2 uses it.
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
#[inline(always)]
pub(crate) fn has_bmi2() -> bool {
    cfg!(target_feature = "bmi2")
}

/// [`crate::poseidon::permute_lazy`] compiled with BMI2.
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn poseidon_permute_bmi2<const K: usize>(state: &mut [Felt; 3], cubes: &[Felt; K]) {
    crate::poseidon::permute_lazy(state, cubes)
}

/// The Hades permutation on one state, with the fastest scalar code this CPU runs; the last
/// `K` cells are fixed and given as their first-round S-box outputs (`hades::permute_known`).
#[inline]
pub(crate) fn poseidon_permute<const K: usize>(state: &mut [Felt; 3], cubes: &[Felt; K]) {
    #[cfg(target_arch = "x86_64")]
    if has_bmi2() {
        // SAFETY: BMI2 is present (run-time test above, or the build targets it).
        unsafe { poseidon_permute_bmi2(state, cubes) };
        return;
    }
    crate::poseidon::permute_lazy(state, cubes)
}

/// [`crate::curve::mul_generator_ct`] compiled with BMI2.
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn mul_generator_ct_bmi2(k: &[u64; 4]) -> ProjectivePoint {
    crate::curve::fixed_base::mul_generator_ct_inline(k)
}

/// Constant-time `k·G` with the fastest scalar code this CPU runs (the choice depends on the
/// CPU only, never on `k`).
#[inline]
pub(crate) fn mul_generator_ct(k: &[u64; 4]) -> ProjectivePoint {
    #[cfg(target_arch = "x86_64")]
    if has_bmi2() {
        // SAFETY: BMI2 is present (run-time test above, or the build targets it).
        return unsafe { mul_generator_ct_bmi2(k) };
    }
    mul_generator_ct_plain(k)
}

/// The plain build, kept out of line like the BMI2 one (its callers stay small).
#[inline(never)]
fn mul_generator_ct_plain(k: &[u64; 4]) -> ProjectivePoint {
    crate::curve::fixed_base::mul_generator_ct_inline(k)
}

/// The lock-step steps of `pedersen_hash_batch` (batch-affine additions in scalar `Felt`
/// arithmetic) compiled with BMI2.
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub(crate) unsafe fn pedersen_steps_bmi2(s: &mut Scratch) {
    s.run_inline()
}

/// The plain build of the same steps.
#[inline(never)]
pub(crate) fn pedersen_steps_plain(s: &mut Scratch) {
    s.run_inline()
}

/// Runs every step of a `pedersen_hash_batch` chunk with the fastest scalar code this CPU runs.
#[inline]
pub(crate) fn pedersen_steps(s: &mut Scratch) {
    #[cfg(target_arch = "x86_64")]
    if has_bmi2() {
        // SAFETY: BMI2 is present (run-time test above, or the build targets it).
        unsafe { pedersen_steps_bmi2(s) };
        return;
    }
    pedersen_steps_plain(s)
}

#[cfg(all(test, target_arch = "x86_64", feature = "std"))]
mod tests {
    use super::*;

    /// The BMI2 build of the permutation equals the plain one, on edge and pseudo-random states.
    #[test]
    fn bmi2_permutation_equals_plain() {
        if !has_bmi2() {
            return;
        }
        let edges = [
            Felt::ZERO,
            Felt::ONE,
            Felt::TWO,
            Felt::MAX,
            Felt::MAX - Felt::ONE,
            Felt::from_hex("0x800000000000000000000000000000000000000000000000000000000000000")
                .unwrap(),
            Felt::from(u64::MAX),
            Felt::from(u128::MAX),
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut states = Vec::new();
        for a in edges {
            for b in edges {
                states.push([a, b, Felt::from(next())]);
            }
        }
        for _ in 0..200 {
            let limbs = [next(), next(), next(), next() >> 5];
            let v = Felt::from_raw_limbs(limbs).unwrap_or(Felt::MAX);
            states.push([v, Felt::from(next()), v.square()]);
        }
        use crate::poseidon::constants::{HASH1_CUBES, HASH2_CUBES};
        for s in states {
            let mut plain = s;
            crate::poseidon::permute_lazy(&mut plain, &[]);
            let mut fast = s;
            // SAFETY: `has_bmi2()` was checked at the top of the test.
            unsafe { poseidon_permute_bmi2(&mut fast, &[]) };
            assert_eq!(plain, fast, "state {s:?}");
            // The forms with known cells (`poseidon_hash`, `poseidon_hash_single`).
            let (mut plain, mut fast) = (s, s);
            crate::poseidon::permute_lazy(&mut plain, &HASH2_CUBES);
            // SAFETY: as above.
            unsafe { poseidon_permute_bmi2(&mut fast, &HASH2_CUBES) };
            assert_eq!(plain, fast, "state {s:?} with cell 2 known");
            let (mut plain, mut fast) = (s, s);
            crate::poseidon::permute_lazy(&mut plain, &HASH1_CUBES);
            // SAFETY: as above.
            unsafe { poseidon_permute_bmi2(&mut fast, &HASH1_CUBES) };
            assert_eq!(plain, fast, "state {s:?} with cells 1 and 2 known");
        }
    }

    /// The BMI2 build of the constant-time generator multiplication equals the plain one on
    /// edge scalars (0, 1, n − 1, n, n + 1, 2^256 − 1, single bits, limb boundaries) and
    /// pseudo-random ones.
    #[test]
    fn bmi2_generator_multiplication_equals_plain() {
        if !has_bmi2() {
            return;
        }
        let n = crate::curve::EC_ORDER.to_raw_limbs();
        let mut scalars = vec![
            [0; 4],
            [1, 0, 0, 0],
            [n[0] - 1, n[1], n[2], n[3]],
            n,
            [n[0] + 1, n[1], n[2], n[3]],
            [u64::MAX; 4],
            [0, 0, 0, 1 << 59],
            [u64::MAX, 0, u64::MAX, 0],
        ];
        for bit in [0, 63, 64, 127, 128, 191, 192, 250, 251, 255] {
            let mut k = [0u64; 4];
            k[bit / 64] = 1 << (bit % 64);
            scalars.push(k);
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..24 {
            let mut k = [0u64; 4];
            for l in k.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *l = x;
            }
            scalars.push(k);
        }
        for k in scalars {
            let plain = crate::curve::fixed_base::mul_generator_ct_inline(&k);
            // SAFETY: `has_bmi2()` was checked at the top of the test.
            let fast = unsafe { mul_generator_ct_bmi2(&k) };
            assert_eq!(
                (plain.x, plain.y, plain.z),
                (fast.x, fast.y, fast.z),
                "k = {k:x?}"
            );
        }
    }
}
