//! # starkbatch
//!
//! A SIMD-accelerated batch hashing engine for Starknet's field,
//! p = 2^251 + 17·2^192 + 1, with the scalar surface that users of `starknet-crypto` know.
//!
//! This crate is being built; see README.md for what exists today.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod class_hash;
pub mod curve;
pub mod field;
pub mod pedersen;

pub use field::{Felt, FeltError, PackedFelt};
pub mod hash;
pub use hash::{PairHash, Pedersen, Poseidon};
pub mod merkle;
pub mod poseidon;
pub mod state;
pub use pedersen::{pedersen_hash, pedersen_hash_array, PedersenHasher};
pub use poseidon::{
    poseidon_hash, poseidon_hash_many, poseidon_hash_single, poseidon_permute_comp, PoseidonHasher,
};
mod backend;
pub mod batch;
pub use backend::{Backend, BackendError, BACKEND_ENV};
pub use batch::*;
