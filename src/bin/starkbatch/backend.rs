//! What the machine offers and which backend the library uses: CPU features (std's run-time
//! detection) and the library's [`Backend`] choice, honouring `STARKBATCH_BACKEND`.

use crate::error::{CliError, CliResult};
use starkbatch::{BACKEND_ENV, Backend};

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
    /// Fastest first; the last is `portable`.
    pub available: Vec<Backend>,
    pub chosen: Backend,
    pub reason: String,
}

/// The library's choice ([`Backend::from_env`]): `STARKBATCH_BACKEND` if set (an unknown or
/// unsupported name is an error, exit code 2), else the fastest backend this CPU supports.
pub fn choose() -> CliResult<BackendChoice> {
    let chosen = Backend::from_env().map_err(|e| CliError::input(format!("{BACKEND_ENV}: {e}")))?;
    let forced = std::env::var(BACKEND_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty());
    let reason = match forced {
        Some(v) => format!("forced by {BACKEND_ENV}={v}"),
        None if chosen == Backend::portable() => {
            "no SIMD instruction set this build supports was detected".to_string()
        }
        None => format!(
            "the fastest backend this CPU supports ({} detected; set {BACKEND_ENV} to override)",
            chosen.name()
        ),
    };
    Ok(BackendChoice {
        available: Backend::available(),
        chosen,
        reason,
    })
}
