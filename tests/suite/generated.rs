//! Generated sources match their generators (run only where `python3` is available).

use std::process::Command;

/// `src/poseidon/avx2_rounds.rs` is exactly what `scripts/gen-avx2-rounds.py` prints,
/// so that the assembly in the crate is the one the generator's docs describe.
#[test]
fn avx2_rounds_rounds_match_their_generator() {
    let root = env!("CARGO_MANIFEST_DIR");
    let generated = match Command::new("python3")
        .arg(format!("{root}/scripts/gen-avx2-rounds.py"))
        .output()
    {
        Ok(out) if out.status.success() => out.stdout,
        _ => {
            eprintln!("python3 unavailable: generator check skipped");
            return;
        }
    };
    let file = std::fs::read(format!("{root}/src/poseidon/avx2_rounds.rs")).unwrap();
    assert!(
        generated == file,
        "src/poseidon/avx2_rounds.rs differs from the output of scripts/gen-avx2-rounds.py: regenerate it"
    );
}
