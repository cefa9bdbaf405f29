//! Helpers shared by the integration tests: finding the project's shared data (the published
//! vectors and contract classes), which lives in `shared/` beside the checkout (CI) or in
//! `/work/shared` (development worktrees).

#![allow(dead_code)] // each test binary uses its own subset

use std::path::{Path, PathBuf};

/// `shared/REL`, beside the checkout if it exists there, otherwise under `/work/shared`.
pub fn shared_path(rel: &str) -> PathBuf {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(rel);
    if beside.exists() {
        beside
    } else {
        Path::new("/work/shared").join(rel)
    }
}

/// The text of `shared/REL`; panics naming the path when it cannot be read.
pub fn read_shared(rel: &str) -> String {
    let path = shared_path(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `shared/data/vectors/official.json`: vectors published in the reference implementations'
/// own test suites, each entry naming its source.
pub fn official() -> serde_json::Value {
    serde_json::from_str(&read_shared("data/vectors/official.json")).unwrap()
}
