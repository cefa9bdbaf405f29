//! ECDSA over the STARK curve, with the API of starknet-crypto 0.8: [`get_public_key`],
//! [`sign`], [`verify`], [`recover`] and [`rfc6979_generate_k`], re-exported at the crate root.
//!
//! # Math
//! Curve y² = x³ + x + β over F_p, generator G of prime order
//! n = `0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2f`.
//! A private key d is any field element (used modulo n); the public key is x(d·G).
//! - sign(d, m, k): r = x(k·G), s = (m + r·d)/k mod n, v = the parity of y(k·G).
//! - verify(Q.x, m, r, s): w = s⁻¹ mod n; accepts when x(m·w·G ± r·w·Q) = r, trying both
//!   points with x-coordinate Q.x.
//! - recover(m, r, s, v): R = the point with x = r and y parity v; Q = r⁻¹·(s·R − m·G).
//!
//! # Bounds (those of starknet-crypto 0.8, which follows crypto-cpp)
//! message < 2^251; 1 <= r < 2^251; verify: 1 <= s < 2^251 and s⁻¹ mod n < 2^251; sign:
//! 1 <= s < 2^251 (else `InvalidK`); recover: 1 <= s < n, v ∈ {0, 1}.
//!
//! # Secrets
//! [`get_public_key`] and [`sign`] take no branch and no table index that depends on the
//! private key or k (see each function).
//!
//! # Where starknet-crypto 0.8 panics (and what happens here instead)
//! Every input for which starknet-crypto returns has the same result or error here
//! (tests/suite/ecdsa.rs checks this differentially). Where it panics on the point at infinity:
//! - `get_public_key(d)` with d ≡ 0 (mod n): returns 0;
//! - `sign` with k = n: `Err(InvalidK)`;
//! - `verify` when m·w·G + r·w·Q is infinity: the other candidate m·w·G − r·w·Q decides;
//! - `recover` when s·R = m·G: `Err(InvalidS)`.
//!
//! Batches (in [`crate::batch`]): [`verify_batch`](crate::verify_batch) (results identical to [`verify`] item by item, inversions shared)
//! and [`get_public_key_batch`](crate::get_public_key_batch) (constant time, the comb in SIMD lanes, one shared inversion),
//! with `_par` variants; see `docs/curve-batch.md`.
//!
//! [`rfc6979_generate_k`] follows cairo-lang, which differs from starknet-crypto 0.8 only for
//! a message hash in [n, p) (see its module).

mod error;
pub(crate) mod gen_table;
mod keys;
mod recover;
mod rfc6979;
mod scalar;
mod sign;
mod signature;
pub(crate) mod verify;

pub use error::{RecoverError, SignError, VerifyError};
pub use keys::get_public_key;
pub use recover::recover;
pub use rfc6979::rfc6979_generate_k;
pub use scalar::Scalar;
pub use sign::sign;
pub use signature::{ExtendedSignature, Signature};
pub use verify::verify;

use crate::Felt;

/// 2^251, the exclusive bound on messages, r, s and w (crypto-cpp's `kUpperBound`).
pub(crate) const ELEMENT_UPPER_BOUND: Felt =
    Felt::from_hex_unchecked("0x800000000000000000000000000000000000000000000000000000000000000");
