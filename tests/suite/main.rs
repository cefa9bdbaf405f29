//! The integration tests, one test binary (each binary is linked with fat LTO under
//! `--release`; one link instead of twenty keeps `cargo test --release` short). One module per
//! topic; run one with a filter, e.g. `cargo test --release --test suite -- store::`.
//! `tests/serde.rs` stays apart: it needs the `serde` feature.

mod alloc;
mod common;

mod backends;
mod blake2s;
mod class_hash;
mod class_hash_legacy;
mod class_hash_v2;
#[cfg(feature = "cli")]
mod cli;
mod curve;
mod curve_batch;
mod ecdsa;
mod ecdsa_batch;
mod field;
mod field_inverse;
mod generated;
mod layers;
mod merkle;
mod pedersen;
mod poseidon;
mod prover;
mod state;
#[cfg(feature = "store")]
mod store;
#[cfg(feature = "store")]
mod store_crash;
#[cfg(feature = "store")]
mod store_published;
