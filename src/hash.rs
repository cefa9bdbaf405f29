//! [`PairHash`]: a two-to-one hash over [`Felt`]s, with a batched entry point.
//!
//! Every tree in this crate (the binary Merkle tree in [`crate::merkle`], the Patricia-Merkle
//! tries in [`crate::state`]) is generic over a `PairHash` and hashes each tree level with one
//! call to [`PairHash::hash_batch`] (or [`PairHash::hash_batch_par`] for large levels). A hash
//! function that has a SIMD batch implementation therefore speeds every tree up by overriding
//! those two methods; the trees themselves never call [`PairHash::hash`] in a loop.
//!
//! The implementations for Starknet's two hashes are the unit types [`Poseidon`]
//! (`poseidon_hash(a, b)`; its batches run on SIMD lanes through [`crate::poseidon_hash_batch`])
//! and [`Pedersen`] (`pedersen_hash(a, b)`; its batches run in lock-step with affine additions sharing one field
//! inversion per step through [`crate::pedersen_hash_batch`]).

use crate::Felt;
#[cfg(feature = "std")]
use rayon::prelude::*;

/// [`PairHash::hash_batch_par`] with the `std` feature (rayon), else [`PairHash::hash_batch`]:
/// how the bulk structures (Merkle trees, state tries) hash a level.
pub(crate) fn hash_batch_auto<H: PairHash>(pairs: &[[Felt; 2]], out: &mut [Felt]) {
    #[cfg(feature = "std")]
    H::hash_batch_par(pairs, out);
    #[cfg(not(feature = "std"))]
    H::hash_batch(pairs, out);
}

/// Batches at least this long are split across rayon's threads by the default
/// [`PairHash::hash_batch_par`]; shorter ones are hashed on the calling thread.
pub const PAR_THRESHOLD: usize = 64;

/// A hash of two field elements to one, `H(a, b)`.
///
/// Implementors provide [`PairHash::hash`]; the batched methods have scalar defaults and are
/// meant to be overridden by hashes that have a faster batch implementation. All three must
/// compute the same function: `hash_batch(pairs, out)` sets `out[i] = hash(pairs[i][0], pairs[i][1])`.
pub trait PairHash {
    /// A short name for messages and benchmarks (for example `"poseidon"`).
    const NAME: &'static str;

    /// `H(a, b)`.
    fn hash(a: &Felt, b: &Felt) -> Felt;

    /// `out[i] = H(pairs[i][0], pairs[i][1])` for every `i`, on the calling thread.
    ///
    /// # Panics
    /// If `out.len() != pairs.len()`.
    fn hash_batch(pairs: &[[Felt; 2]], out: &mut [Felt]) {
        assert_eq!(
            pairs.len(),
            out.len(),
            "hash_batch: pairs and out lengths differ"
        );
        for (o, [a, b]) in out.iter_mut().zip(pairs) {
            *o = Self::hash(a, b);
        }
    }

    /// As [`PairHash::hash_batch`], split across the current rayon thread pool when the batch is
    /// long enough (at least [`PAR_THRESHOLD`] pairs and more than one thread).
    ///
    /// # Panics
    /// If `out.len() != pairs.len()`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    fn hash_batch_par(pairs: &[[Felt; 2]], out: &mut [Felt]) {
        assert_eq!(
            pairs.len(),
            out.len(),
            "hash_batch_par: pairs and out lengths differ"
        );
        let threads = rayon::current_num_threads();
        if pairs.len() < PAR_THRESHOLD || threads < 2 {
            return Self::hash_batch(pairs, out);
        }
        // A few chunks per thread so that uneven progress (a shared machine) balances out.
        let chunk = pairs.len().div_ceil(4 * threads).max(PAR_THRESHOLD / 4);
        pairs
            .par_chunks(chunk)
            .zip(out.par_chunks_mut(chunk))
            .for_each(|(p, o)| Self::hash_batch(p, o));
    }
}

/// Starknet's Poseidon as a tree hash: `H(a, b) = poseidon_hash(a, b)` (the class trie's hash).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Poseidon;

impl PairHash for Poseidon {
    const NAME: &'static str = "poseidon";

    #[inline]
    fn hash(a: &Felt, b: &Felt) -> Felt {
        crate::poseidon_hash(*a, *b)
    }

    /// SIMD lanes: [`crate::poseidon_hash_batch`] (the backend detected at run time).
    fn hash_batch(pairs: &[[Felt; 2]], out: &mut [Felt]) {
        crate::poseidon_hash_batch(pairs, out);
    }

    /// SIMD lanes on the rayon pool: [`crate::poseidon_hash_batch_par`] for large batches.
    #[cfg(feature = "std")]
    fn hash_batch_par(pairs: &[[Felt; 2]], out: &mut [Felt]) {
        if pairs.len() < PAR_THRESHOLD || rayon::current_num_threads() < 2 {
            crate::poseidon_hash_batch(pairs, out);
        } else {
            crate::poseidon_hash_batch_par(pairs, out);
        }
    }
}

/// Starknet's Pedersen hash as a tree hash: `H(a, b) = pedersen_hash(a, b)` (the contract and
/// contract-storage tries' hash).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pedersen;

impl PairHash for Pedersen {
    const NAME: &'static str = "pedersen";

    #[inline]
    fn hash(a: &Felt, b: &Felt) -> Felt {
        crate::pedersen_hash(a, b)
    }

    /// Batch-affine lock-step additions: [`crate::pedersen_hash_batch`].
    fn hash_batch(pairs: &[[Felt; 2]], out: &mut [Felt]) {
        crate::pedersen_hash_batch(pairs, out);
    }

    /// [`crate::pedersen_hash_batch_par`] on the rayon pool (the calling thread for short
    /// batches or a single-thread pool).
    #[cfg(feature = "std")]
    fn hash_batch_par(pairs: &[[Felt; 2]], out: &mut [Felt]) {
        crate::pedersen_hash_batch_par(pairs, out);
    }
}
