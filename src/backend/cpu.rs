//! CPU features the scalar code is compiled for.
//!
//! Scalar (one element at a time) kernels are compiled for the x86-64 BMI2 extension beside
//! their plain build; each algorithm module keeps its two builds (`crate::poseidon`'s
//! permutation, `crate::curve::fixed_base`'s generator multiplication, `crate::pedersen::batch`'s
//! lock-step steps) and picks one per call with [`has_bmi2`].
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
