//! `starkbatch info`: the machine, the available backends and the one chosen, and why.

use crate::backend;
use crate::error::CliResult;
use crate::output::Output;
use starkbatch::BACKEND_ENV;

pub fn run() -> CliResult {
    let choice = backend::choose()?;
    let mut out = Output::create(None)?;
    out.line(format_args!("starkbatch {}", env!("CARGO_PKG_VERSION")))?;
    out.line(format_args!(
        "cpu: {} ({})",
        std::env::consts::ARCH,
        join_or_none(&backend::cpu_features())
    ))?;
    out.line(format_args!("cores: {}", cores()))?;
    let names: Vec<String> = choice
        .available
        .iter()
        .map(|b| format!("{} ({} lanes)", b.name(), b.lanes()))
        .collect();
    out.line(format_args!("backends available: {}", names.join(", ")))?;
    out.line(format_args!(
        "backend chosen: {}: {}",
        choice.chosen.name(),
        choice.reason
    ))?;
    out.line(format_args!(
        "{BACKEND_ENV}: {}",
        std::env::var(BACKEND_ENV).unwrap_or_else(|_| "(unset)".into())
    ))?;
    out.finish()
}

/// Logical cores usable by this process.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub fn join_or_none(v: &[&str]) -> String {
    if v.is_empty() {
        "no SIMD features detected".into()
    } else {
        v.join(", ")
    }
}
