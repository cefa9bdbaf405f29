//! # starkbatch
//!
//! A SIMD-accelerated batch hashing engine for Starknet's field,
//! p = 2^251 + 17·2^192 + 1, with the scalar surface that users of `starknet-crypto` know.
//!
//! This crate is being built; see README.md for what exists today.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

// Layers, imported one way: field → backend → poseidon/pedersen/curve → ecdsa/merkle/state.
mod backend;
pub mod batch;
pub mod class_hash;
pub mod curve;
pub mod ecdsa;
pub mod field;
pub mod hash;
pub mod merkle;
pub mod pedersen;
pub mod poseidon;
pub mod state;

pub use backend::{Backend, BackendError, BACKEND_ENV};
pub use batch::*;
pub use ecdsa::{
    get_public_key, recover, rfc6979_generate_k, sign, verify, ExtendedSignature, RecoverError,
    Scalar, SignError, Signature, VerifyError,
};
pub use ecdsa::{
    get_public_key_batch, get_public_key_batch_par, verify_batch, verify_batch_par, VerifyItem,
};
pub use field::{Felt, FeltError, PackedFelt};
pub use hash::{PairHash, Pedersen, Poseidon};
pub use pedersen::{
    pedersen_hash, pedersen_hash_array, pedersen_hash_batch, pedersen_hash_batch_par,
    PedersenHasher,
};
pub use poseidon::{
    poseidon_hash, poseidon_hash_many, poseidon_hash_single, poseidon_permute_comp, PoseidonHasher,
};
