//! # starkbatch
//!
//! A SIMD-accelerated batch hashing engine for Starknet's field,
//! p = 2^251 + 17·2^192 + 1, with the scalar surface that users of `starknet-crypto` know.
//!
//! - **Scalar functions** with the names and outputs of `starknet-crypto`: [`Felt`],
//!   [`poseidon_hash`] and friends, [`pedersen_hash`], [`get_public_key`], [`sign`], [`verify`],
//!   [`recover`], [`rfc6979_generate_k`], the [`curve`] types, and [`class_hash`].
//! - **Batch functions** ([`batch`]): many independent hashes side by side in SIMD lanes
//!   (AVX2 or NEON, chosen once at run time by [`Backend`], with a portable fallback giving
//!   bit-identical results), plus `_par` variants that split the work over rayon.
//! - **Bulk structures** built on the batch engine: binary Merkle trees ([`merkle`]) and
//!   Starknet's Patricia-Merkle state tries and commitments ([`state`]), generic over the
//!   [`PairHash`] ([`Poseidon`] or [`Pedersen`]).
//!
//! ```
//! use starkbatch::{poseidon_hash, poseidon_hash_batch, Felt};
//!
//! let pairs: Vec<[Felt; 2]> = (0..100u64).map(|i| [Felt::from(i), Felt::TWO]).collect();
//! let mut out = vec![Felt::ZERO; pairs.len()];
//! poseidon_hash_batch(&pairs, &mut out);
//! assert_eq!(out[42], poseidon_hash(Felt::from(42u64), Felt::TWO));
//! ```
//!
//! The design is described in the crate's `docs/` folder (field arithmetic, backends, batching,
//! scaling, benchmarks).

#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]

extern crate alloc;
// The unit tests use std (threads, run-time CPU detection, `vec!`/`format!`) even when the
// library does not.
#[cfg(all(test, not(feature = "std")))]
#[macro_use]
extern crate std;

// Layers, imported one way: field → backend → poseidon/pedersen/curve → ecdsa/merkle/state → store.
mod backend;
pub mod batch;
pub mod blake2s;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod class_hash;
pub mod curve;
pub mod ecdsa;
pub mod field;
pub mod hash;
pub mod input;
#[cfg(any(
    feature = "starknet-types-core",
    feature = "lambdaworks",
    feature = "starknet-ff"
))]
pub mod interop;
pub mod merkle;
pub mod pedersen;
pub mod poseidon;
pub mod prover;
pub mod state;
#[cfg(feature = "store")]
#[cfg_attr(docsrs, doc(cfg(feature = "store")))]
pub mod store;
mod sync;

pub use backend::{BACKEND_ENV, Backend, BackendError};
pub use batch::*;
pub use blake2s::blake2s_hash_many;
pub use ecdsa::{
    ExtendedSignature, RecoverError, Scalar, SignError, Signature, VerifyError, get_public_key,
    recover, rfc6979_generate_k, sign, verify,
};
pub use field::{Felt, FeltError, PackedFelt};
pub use hash::{PairHash, Pedersen, Poseidon};
pub use pedersen::{PedersenHasher, pedersen_hash, pedersen_hash_array};
pub use poseidon::{
    PoseidonHasher, poseidon_hash, poseidon_hash_many, poseidon_hash_single, poseidon_permute_comp,
};

// README.md's Rust examples run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
