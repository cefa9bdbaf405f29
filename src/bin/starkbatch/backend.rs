//! What the machine offers and which backend the library uses: CPU features (std's run-time
//! detection) and the library's backends.
//!
//! Until the library's `Backend` lands, the only backend is `portable` (scalar `Felt`, one
//! lane); `STARKBATCH_BACKEND` is read and reported, and any value other than `portable` or
//! `auto` is an error.

use crate::error::{CliError, CliResult};

/// CPU features that matter to the SIMD backends, as detected at run time.
pub fn cpu_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut v: Vec<&'static str> = Vec::new();
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        macro_rules! probe {
            ($($f:tt),*) => {$(
                if std::arch::is_x86_feature_detected!($f) {
                    v.push($f);
                }
            )*};
        }
        probe!(
            "sse4.2",
            "avx",
            "avx2",
            "bmi2",
            "adx",
            "fma",
            "avx512f",
            "avx512dq",
            "avx512vl",
            "avx512ifma"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            v.push("neon");
        }
    }
    v
}

/// The backends the library can run on this machine, and the one it picks (with the reason).
pub struct BackendChoice {
    pub available: Vec<String>,
    pub chosen: String,
    pub reason: String,
    pub lanes: usize,
}

/// The library's choice, honouring `STARKBATCH_BACKEND`.
pub fn choose() -> CliResult<BackendChoice> {
    let env = std::env::var("STARKBATCH_BACKEND").ok();
    match env.as_deref() {
        None | Some("") | Some("auto") | Some("portable") => Ok(BackendChoice {
            available: vec!["portable".into()],
            chosen: "portable".into(),
            reason: match env.as_deref() {
                Some("portable") => "STARKBATCH_BACKEND=portable".into(),
                _ => "the only backend in this build (SIMD backends not yet available)".into(),
            },
            lanes: 1,
        }),
        Some(other) => Err(CliError::input(format!(
            "STARKBATCH_BACKEND={other:?}: unknown or unavailable backend (available: portable, or auto)"
        ))),
    }
}
