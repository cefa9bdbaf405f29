//! SIMD backends and their run-time dispatch.
//!
//! # Layers
//! 1. [`lane`]: the lane primitives (four 64-bit lanes: add, sub, and, shifts, 32×32→64
//!    multiply, broadcast, masks, select, load/store), implemented three times:
//!    [`portable`] (a plain `[u64; 4]`, every host), `avx2` (`__m256i`, x86-64) and `neon`
//!    (two `uint64x2_t`, aarch64).
//! 2. [`packed`]: one generic 9×28-bit Montgomery field over any lane type, implementing
//!    [`PackedFelt`](crate::PackedFelt) with four lanes; and `ifma` (x86-64): a 5×52-bit
//!    Montgomery field on AVX-512 IFMA with eight lanes, one `__m512i` per limb.
//! 3. Algorithms generic over `PackedFelt` (the Hades permutation in `crate::poseidon`, the
//!    batch drivers in `crate::batch`).
//! 4. Entry points: one function per batch operation and backend, the SIMD ones
//!    `#[target_feature]`, selected by [`Backend`] with one `match` per batch call.
//!
//! See `docs/backends.md` for the bounds, the safety argument and how to add a backend.

pub(crate) mod cpu;
pub(crate) mod ct_scan;
pub(crate) mod felt4;
pub(crate) mod lane;
#[cfg(target_arch = "x86_64")]
pub(crate) mod mixed;
pub(crate) mod packed;
// Two values of a packed type in lock-step: the IFMA backend's Poseidon type (x86-64 only).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) mod pair;
pub(crate) mod portable;
pub(crate) mod select;
pub(crate) mod words;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2_words;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512_words;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon_words;

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
#[cfg(feature = "std")]
use std::sync::OnceLock;

/// The largest lane count any backend uses (the size of the stack buffers that gather lanes).
pub(crate) const MAX_LANES: usize = 16;

/// The environment variable that forces a backend: `portable`, `avx2`, `avx512ifma` or `neon`
/// (read only with the `std` feature; see [`Backend::from_env`]).
pub const BACKEND_ENV: &str = "STARKBATCH_BACKEND";

/// Which implementation of the lane primitives runs the batch functions.
///
/// A `Backend` value can only be obtained for an instruction set this CPU has
/// ([`Backend::detect`], [`Backend::portable`], [`Backend::available`],
/// [`Backend::from_name`], [`Backend::from_env`]), so calling its batch methods is always
/// sound. The free batch functions (such as [`poseidon_hash_batch`](crate::poseidon_hash_batch))
/// use [`Backend::current`].
///
/// ```
/// use starkbatch::Backend;
/// let best = Backend::detect();
/// assert!(Backend::available().contains(&best));
/// assert_eq!(Backend::portable().name(), "portable");
/// assert!(Backend::from_name("no-such-backend").is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Backend(pub(crate) Kind);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Kind {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512Ifma,
    #[cfg(target_arch = "aarch64")]
    Neon,
}

/// Why a requested backend cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendError {
    /// The name is not one of `portable`, `avx2`, `avx512ifma`, `neon`.
    Unknown(String),
    /// The backend exists but this CPU (or this build's target) does not support it.
    Unavailable(&'static str),
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendError::Unknown(n) => write!(
                f,
                "unknown starkbatch backend {n:?} (expected one of: portable, avx2, avx512ifma, neon)"
            ),
            BackendError::Unavailable(n) => write!(
                f,
                "starkbatch backend {n:?} is not supported by this CPU or target (available: {})",
                Backend::available()
                    .iter()
                    .map(|b| b.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl core::error::Error for BackendError {}

impl fmt::Debug for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Backend({})", self.name())
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// CPU features. With `std` they are detected at run time. Without `std` there is no run-time
// detection, so a SIMD backend is available only when the build itself enables its
// instruction set (`-C target-feature=+avx2`, `-C target-cpu=...`; NEON is baseline on
// aarch64): code compiled that way already requires a CPU that has it, so the backend's
// `#[target_feature]` entry points are sound to call.

// The `avx2` backend also requires BMI2: its Poseidon entry points run a scalar lane beside the
// four SIMD lanes, compiled with `mulx` (`crate::batch::entry`). Every AVX2 CPU we know of has
// BMI2; a CPU without it gets the portable backend.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2")
}

#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn has_avx2() -> bool {
    cfg!(all(target_feature = "avx2", target_feature = "bmi2"))
}

/// AVX-512 F and IFMA: everything the `avx512ifma` backend's entry points enable; and AVX2,
/// whose entry points this backend uses for the curve operations (`crate::batch::curve_entry`).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn has_avx512ifma() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512ifma")
        && has_avx2()
}

#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn has_avx512ifma() -> bool {
    cfg!(all(
        target_feature = "avx512f",
        target_feature = "avx512ifma"
    )) && has_avx2()
}

#[cfg(all(target_arch = "aarch64", feature = "std"))]
fn has_neon() -> bool {
    std::arch::is_aarch64_feature_detected!("neon")
}

#[cfg(all(target_arch = "aarch64", not(feature = "std")))]
fn has_neon() -> bool {
    cfg!(target_feature = "neon")
}

impl Backend {
    /// The portable backend (plain arrays, runs everywhere).
    pub const fn portable() -> Backend {
        Backend(Kind::Portable)
    }

    /// The fastest backend this CPU supports (ignores [`BACKEND_ENV`]; see
    /// [`Backend::from_env`]). With the `std` feature detection runs once at run time and is
    /// cached; without it the choice is made at compile time from the target features the
    /// build enables (e.g. AVX2 with `-C target-feature=+avx2`, NEON on aarch64), else
    /// portable.
    pub fn detect() -> Backend {
        #[cfg(feature = "std")]
        {
            static BEST: OnceLock<Backend> = OnceLock::new();
            *BEST.get_or_init(Backend::best)
        }
        #[cfg(not(feature = "std"))]
        {
            Backend::best()
        }
    }

    /// The first of avx512ifma, avx2, neon, portable that this CPU supports.
    fn best() -> Backend {
        #[cfg(target_arch = "x86_64")]
        if has_avx512ifma() {
            return Backend(Kind::Avx512Ifma);
        }
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            return Backend(Kind::Avx2);
        }
        #[cfg(target_arch = "aarch64")]
        if has_neon() {
            return Backend(Kind::Neon);
        }
        Backend::portable()
    }

    /// Every backend this CPU supports, fastest first (the last is always portable).
    pub fn available() -> Vec<Backend> {
        let mut v = Vec::new();
        #[cfg(target_arch = "x86_64")]
        if has_avx512ifma() {
            v.push(Backend(Kind::Avx512Ifma));
        }
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            v.push(Backend(Kind::Avx2));
        }
        #[cfg(target_arch = "aarch64")]
        if has_neon() {
            v.push(Backend(Kind::Neon));
        }
        v.push(Backend::portable());
        v
    }

    /// The backend with this name (`portable`, `avx2`, `avx512ifma` or `neon`), if this CPU
    /// supports it.
    ///
    /// # Errors
    /// [`BackendError::Unknown`] for another name, [`BackendError::Unavailable`] when the
    /// CPU or the compilation target lacks the instruction set. Never falls back silently.
    pub fn from_name(name: &str) -> Result<Backend, BackendError> {
        let wanted = match name.trim() {
            "portable" => return Ok(Backend::portable()),
            "avx2" => "avx2",
            "avx512ifma" => "avx512ifma",
            "neon" => "neon",
            other => return Err(BackendError::Unknown(other.to_string())),
        };
        Backend::available()
            .into_iter()
            .find(|b| b.name() == wanted)
            .ok_or(BackendError::Unavailable(wanted))
    }

    /// The backend named by the environment variable [`BACKEND_ENV`]
    /// (`STARKBATCH_BACKEND`), or [`Backend::detect`] when it is unset or empty.
    ///
    /// # Errors
    /// As [`Backend::from_name`] when the variable names an unknown or unsupported backend.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn from_env() -> Result<Backend, BackendError> {
        match std::env::var(BACKEND_ENV) {
            Ok(name) if !name.trim().is_empty() => Backend::from_name(&name),
            _ => Ok(Backend::detect()),
        }
    }

    /// The backend the free batch functions use: [`Backend::from_env`], evaluated once and
    /// cached. Without the `std` feature (no environment): [`Backend::detect`].
    ///
    /// # Panics
    /// If `STARKBATCH_BACKEND` names an unknown backend or one this CPU lacks (the error
    /// message says which and lists the available ones). A forced backend never falls back
    /// silently; use [`Backend::from_env`] to handle the error instead.
    #[cfg(feature = "std")]
    pub fn current() -> Backend {
        static CURRENT: OnceLock<Result<Backend, BackendError>> = OnceLock::new();
        match CURRENT.get_or_init(Backend::from_env) {
            Ok(b) => *b,
            Err(e) => panic!("{BACKEND_ENV}: {e}"),
        }
    }

    /// The backend the free batch functions use: [`Backend::detect`] (without the `std`
    /// feature there is no environment variable to read).
    #[cfg(not(feature = "std"))]
    pub fn current() -> Backend {
        Backend::detect()
    }

    /// The backend's name: `portable`, `avx2`, `avx512ifma` or `neon`.
    pub const fn name(&self) -> &'static str {
        match self.0 {
            Kind::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx512Ifma => "avx512ifma",
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => "neon",
        }
    }

    /// How many field elements one operation processes side by side: 8 for `avx512ifma`
    /// (one per 64-bit lane of a 512-bit vector), 4 for the others (one per 64-bit lane of a
    /// 256-bit vector, of a pair of 128-bit NEON vectors, or four scalar elements).
    pub const fn lanes(&self) -> usize {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            Kind::Avx512Ifma => 8,
            _ => 4,
        }
    }

    /// How many Poseidon permutations one batch step runs side by side: `avx512ifma` 16 (two
    /// sets of eight lanes; a remainder of up to eight runs as one set),
    /// `avx2` 8 (two sets of four SIMD lanes; a remainder of up to five runs as four SIMD
    /// lanes plus one scalar lane on the integer pipes, see `docs/backends.md`), `neon` 4,
    /// `portable` 1. Batch sizes that are multiples of it leave no lane idle.
    pub const fn poseidon_lanes(&self) -> usize {
        match self.0 {
            Kind::Portable => 1,
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => 8,
            #[cfg(target_arch = "x86_64")]
            Kind::Avx512Ifma => 16,
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    // Both tests below are cfg-gated; on aarch64 with `std` neither is compiled.
    #[allow(unused_imports)]
    use super::*;

    /// Without `std` the choice is the build's: the backend for the instruction sets this
    /// compilation enables (none beyond x86-64's baseline in a default host build: portable).
    #[cfg(not(feature = "std"))]
    #[test]
    fn detect_without_std_follows_the_target_features() {
        let want = if cfg!(all(
            target_arch = "x86_64",
            target_feature = "avx512f",
            target_feature = "avx512ifma",
            target_feature = "avx2"
        )) {
            "avx512ifma"
        } else if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
            "avx2"
        } else if cfg!(all(target_arch = "aarch64", target_feature = "neon")) {
            "neon"
        } else {
            "portable"
        };
        assert_eq!(Backend::detect().name(), want);
        assert_eq!(Backend::current(), Backend::detect());
        assert_eq!(Backend::available()[0], Backend::detect());
        assert_eq!(*Backend::available().last().unwrap(), Backend::portable());
        // A backend the build does not enable is refused even if this CPU has it.
        #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
        assert_eq!(
            Backend::from_name("avx2"),
            Err(BackendError::Unavailable("avx2"))
        );
    }

    /// With `std`, detection is at run time and agrees with the CPU.
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    #[test]
    fn detect_with_std_follows_the_cpu() {
        let avx2 = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2");
        assert_eq!(Backend::from_name("avx2").is_ok(), avx2);
        if avx2 && Backend::detect().name() != "avx512ifma" {
            assert_eq!(Backend::detect().name(), "avx2");
        }
    }
}
