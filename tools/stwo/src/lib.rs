//! starkbatch behind the shapes of stwo 2.x's Poseidon252 prover operations, as a patch to
//! stwo's SIMD backend would call it (docs/provers.md, "How stwo calls it"):
//!
//! - [`build_leaves`] / [`build_next_layer`]: the bodies of
//!   `MerkleOpsLifted<Poseidon252MerkleHasher> for SimdBackend`
//!   (`prover/backend/simd/poseidon252_lifted.rs`);
//! - [`grind`]: the body of `GrindOps<Poseidon252Channel> for SimdBackend`
//!   (`prover/backend/simd/grind.rs`).
//!
//! The M31 columns are read in place (`M31` is a `#[repr(transparent)]` `u32`, cast with
//! bytemuck), and the felts cross as Montgomery limbs (`starkbatch::interop::starknet_ff`).
//! With this crate's `parallel` feature (stwo's `parallel`), the work is spread over rayon's
//! threads as stwo's own `parallel` paths are.

use starkbatch::Felt;
use starkbatch::interop::{from_foreign, from_foreign_vec, to_foreign_vec};
use starknet_ff::FieldElement as FieldElement252;
use stwo::core::channel::Poseidon252Channel;
use stwo::prover::backend::simd::column::BaseColumn;

/// The M31 values of `column`, as `u32`s, without a copy.
pub fn column_u32s(column: &BaseColumn) -> &[u32] {
    bytemuck::cast_slice(column.as_slice())
}

/// stwo's `build_leaves(columns, lifting_log_size)`: the leaf layer of the lifted Poseidon252
/// Merkle tree of `columns` (sorted by length, as stwo's `MerkleProverLifted::commit` passes
/// them).
///
/// # Panics
/// As stwo's own backend, on columns it would reject (lengths that are not powers of two,
/// longer than `2^lifting_log_size`), naming the fault.
pub fn build_leaves(columns: &[&BaseColumn], lifting_log_size: u32) -> Vec<FieldElement252> {
    if columns.is_empty() {
        return vec![FieldElement252::default()];
    }
    let cols: Vec<&[u32]> = columns.iter().map(|c| column_u32s(c)).collect();
    #[cfg(feature = "parallel")]
    let leaves = starkbatch::prover::leaf_layer_par(&cols, lifting_log_size);
    #[cfg(not(feature = "parallel"))]
    let leaves = starkbatch::prover::leaf_layer(&cols, lifting_log_size);
    to_foreign_vec(&leaves.unwrap_or_else(|e| panic!("build_leaves: {e}")))
}

/// stwo's `build_next_layer(prev_layer)`: `poseidon_hash(prev[2i], prev[2i + 1])` for every `i`.
pub fn build_next_layer(prev_layer: &[FieldElement252]) -> Vec<FieldElement252> {
    let prev: Vec<Felt> = from_foreign_vec(prev_layer);
    to_foreign_vec(&starkbatch::prover::next_layer(&prev))
}

/// stwo's `grind(channel, pow_bits)`: the smallest nonce that the channel's `verify_pow_nonce`
/// accepts for `pow_bits` (stwo's SIMD grinder returns the smallest of the form
/// `(a << 32) | b`, `b < 2^14`; both are accepted by the same check).
///
/// # Panics
/// If `pow_bits > 128` (stwo's own check reads the low 128 bits).
pub fn grind(channel: &Poseidon252Channel, pow_bits: u32) -> u64 {
    let digest = from_foreign(&channel.digest());
    #[cfg(feature = "parallel")]
    let nonce = starkbatch::prover::grind_par(digest, pow_bits);
    #[cfg(not(feature = "parallel"))]
    let nonce = starkbatch::prover::grind(digest, pow_bits);
    nonce.unwrap_or_else(|e| panic!("grind: {e}"))
}
