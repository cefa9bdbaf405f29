//! Provers' bulk Poseidon252: the leaves and layers of stwo's lifted Poseidon252 Merkle
//! commitment, decommitments, and proof-of-work grinding, with many rows (or nonces) side by
//! side in SIMD lanes (docs/provers.md).
//!
//! # The definitions (stwo 2.x, `core/vcs_lifted/poseidon252_merkle.rs`, `core/channel/poseidon252.rs`)
//!
//! - **Packing**: M31 values (`0 <= v < 2^31 - 1`) are packed 8 per felt, the first most
//!   significant: `pack(v_0..v_{k-1}) = Σ v_i · 2^(31·(k-1-i))`; a short last chunk (`k < 8`)
//!   adds `k · 2^248`, a full one adds nothing ([`pack_m31`]).
//! - **Leaf**: the row's values over all columns, in commitment order (columns stably sorted by
//!   length, shortest first), packed 8 per felt, hashed with `poseidon_hash_many` (rate 2,
//!   padding 1): [`leaf_hash`]. A row `i` of the `2^L` domain reads column `c` of log size `l`
//!   at `((i >> (s + 1)) << 1) | (i & 1)`, `s = L - l` (stwo's lifting: the low bit kept, the
//!   next `s` bits dropped).
//! - **Inner node**: `poseidon_hash(left, right)`.
//! - **Proof of work**: nonce `n` is valid for `n_bits` and channel digest `d` when
//!   `poseidon_hash(poseidon_hash_many([0x12345678, d, n_bits]), n)` has at least `n_bits`
//!   trailing zero bits in its low 128 bits ([`verify_pow_nonce`]).
//!
//! # Batching
//!
//! [`leaf_layer`] runs the sponges of a block of rows as three state columns through
//! [`Backend::poseidon_permute_columns`](crate::Backend::poseidon_permute_columns), the packing
//! fused into the absorb; [`next_layer`] hashes a layer's pairs as two columns; [`grind`] hashes
//! a block of consecutive nonces per call, the shared first input prepared once. The `_par`
//! forms split rows, pairs or nonce blocks across rayon's threads.

mod error;
#[cfg(feature = "lambdaworks")]
#[cfg_attr(docsrs, doc(cfg(feature = "lambdaworks")))]
pub mod lambdaworks;
mod layers;
mod leaves;
mod m31;
mod pow;

pub use error::ProverError;
#[cfg(feature = "std")]
pub use layers::commit_par;
pub use layers::{Commitment, commit, next_layer, verify_decommitment};
#[cfg(feature = "std")]
pub use leaves::leaf_layer_par;
pub use leaves::{leaf_hash, leaf_layer};
pub use m31::{M31_MODULUS, pack_m31};
#[cfg(feature = "std")]
pub use pow::grind_par;
pub use pow::{POW_PREFIX, grind, verify_pow_nonce};
