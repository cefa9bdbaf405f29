//! `starkbatch merkle --hash poseidon|pedersen [FILE] [--proof INDEX]`.
//!
//! Reads all leaves (one felt per line, the syntax of `input.rs`), then prints `root 0x...`.
//! The tree shape is the library's (`starkbatch::merkle`): an odd level carries its last node
//! up unchanged, the root of one leaf is the leaf, the root of no leaves is `0x0`.
//! With `--proof I`: also `leaf_count N`, `index I`, `leaf 0x...` and one `sibling 0x...` line
//! per level that has a sibling, bottom up (the proof is checked with
//! `merkle::verify_proof` before it is printed).

use crate::args::{MerkleArgs, TreeHash};
use crate::error::{CliError, CliResult};
use crate::input::Input;
use crate::output::Output;
use starkbatch::hash::PairHash;
use starkbatch::merkle::{self, MerkleTree};
use starkbatch::{Felt, Pedersen, Poseidon};

pub fn run(a: &MerkleArgs) -> CliResult {
    // A bad STARKBATCH_BACKEND is a usage error here too, before the library sees it.
    crate::backend::choose()?;
    match a.hash {
        TreeHash::Poseidon => run_with::<Poseidon>(a),
        TreeHash::Pedersen => run_with::<Pedersen>(a),
    }
}

fn run_with<H: PairHash>(a: &MerkleArgs) -> CliResult {
    let mut input = Input::open(a.file.as_deref())?;
    let mut leaves = Vec::new();
    while input.next_exact(&mut leaves, 1)? {}
    let mut out = Output::create(None)?;
    match a.proof {
        None => out.line(format_args!("root {}", merkle::root::<H>(&leaves)))?,
        Some(index) => {
            let tree = MerkleTree::<H>::new(leaves);
            let proof = tree.proof(index).map_err(|e| {
                CliError::input(format!("--proof {index}: {e} in {}", input.name()))
            })?;
            let root = tree.root();
            let leaf: Felt = tree.leaves()[index];
            if !merkle::verify_proof::<H>(&root, &leaf, index, &proof) {
                return Err(CliError::failure(format!(
                    "internal error: the proof of leaf {index} does not verify"
                )));
            }
            out.line(format_args!("root {root}"))?;
            out.line(format_args!("leaf_count {}", proof.leaf_count))?;
            out.line(format_args!("index {index}"))?;
            out.line(format_args!("leaf {leaf}"))?;
            for s in &proof.siblings {
                out.line(format_args!("sibling {s}"))?;
            }
        }
    }
    out.finish()
}
