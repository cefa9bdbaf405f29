//! Batched Pedersen hashes: one shared field inversion per chunk instead of one per hash.
//!
//! Each hash runs the scalar accumulation ([`super::accumulate`], XYZZ coordinates) unchanged;
//! only the final x = X/ZZ differs. Within a chunk of at most [`CHUNK`] hashes the ZZ values are
//! inverted together with Montgomery's trick: prefix products z_0·…·z_{i−1} (kept in `out`),
//! one variable-time inversion of the full product, then a backward pass that gives
//! 1/z_i = (prefix_i)·(z_{i+1}·…·z_{n−1})/(z_0·…·z_{n−1}) for 3 multiplications per hash.
//! A zero ZZ (the point at infinity, unreachable without discrete logarithms between the
//! constant points) contributes 1 to the products and yields x = 0, exactly as
//! [`crate::pedersen_hash`] does. No heap allocation: the X and ZZ values of a chunk live in two
//! stack arrays of [`CHUNK`] field elements (16 KiB).

use super::{accumulate, Acc};
use crate::Felt;
use rayon::prelude::*;

/// Hashes per shared inversion (and the size of the stack scratch arrays).
const CHUNK: usize = 256;

/// Batches shorter than this run on the calling thread in [`pedersen_hash_batch_par`] (the same
/// value as `crate::hash::PAR_THRESHOLD`, kept here so this layer does not import the trees').
const PAR_THRESHOLD: usize = 64;

/// `out[i] = pedersen_hash(inputs[i][0], inputs[i][1])` for every `i`, with one field inversion
/// per 256 hashes instead of one per hash. Results are identical to [`crate::pedersen_hash`].
///
/// ```
/// use starkbatch::{pedersen_hash, pedersen_hash_batch, Felt};
/// let pairs = [[Felt::ONE, Felt::TWO], [Felt::ZERO, Felt::MAX]];
/// let mut out = [Felt::ZERO; 2];
/// pedersen_hash_batch(&pairs, &mut out);
/// assert_eq!(out[0], pedersen_hash(&Felt::ONE, &Felt::TWO));
/// assert_eq!(out[1], pedersen_hash(&Felt::ZERO, &Felt::MAX));
/// ```
///
/// # Panics
/// If `out.len() != inputs.len()`.
pub fn pedersen_hash_batch(inputs: &[[Felt; 2]], out: &mut [Felt]) {
    assert_eq!(
        inputs.len(),
        out.len(),
        "pedersen_hash_batch: inputs and out lengths differ"
    );
    for (inp, o) in inputs.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
        hash_chunk(inp, o);
    }
}

/// As [`pedersen_hash_batch`], split across the current rayon thread pool when the batch is
/// long enough (at least 64 pairs and more than one thread); each piece still shares one
/// inversion per 256 hashes.
///
/// # Panics
/// If `out.len() != inputs.len()`.
pub fn pedersen_hash_batch_par(inputs: &[[Felt; 2]], out: &mut [Felt]) {
    assert_eq!(
        inputs.len(),
        out.len(),
        "pedersen_hash_batch_par: inputs and out lengths differ"
    );
    let threads = rayon::current_num_threads();
    if inputs.len() < PAR_THRESHOLD || threads < 2 {
        return pedersen_hash_batch(inputs, out);
    }
    // A few pieces per thread so that uneven progress (a shared machine) balances out, but
    // pieces of at least a quarter chunk so the shared inversion stays amortised.
    let piece = inputs.len().div_ceil(4 * threads).max(CHUNK / 4);
    inputs
        .par_chunks(piece)
        .zip(out.par_chunks_mut(piece))
        .for_each(|(i, o)| pedersen_hash_batch(i, o));
}

/// One chunk (`inputs.len() == out.len() <= CHUNK`): accumulate, then Montgomery's trick.
fn hash_chunk(inputs: &[[Felt; 2]], out: &mut [Felt]) {
    debug_assert!(inputs.len() == out.len() && inputs.len() <= CHUNK);
    let n = inputs.len();
    if n == 0 {
        return;
    }
    let mut xs = [Felt::ZERO; CHUNK];
    let mut zzs = [Felt::ZERO; CHUNK];
    // Forward: accumulate each hash; out[i] = product of the non-zero ZZ before i.
    let mut prod = Felt::ONE;
    for (i, [a, b]) in inputs.iter().enumerate() {
        let Acc { x, zz, .. } = accumulate(a, b);
        xs[i] = x;
        zzs[i] = zz;
        out[i] = prod;
        if !zz.is_zero() {
            prod *= zz;
        }
    }
    // prod is a product of non-zero elements, hence invertible.
    let mut inv = prod.inverse_vartime().unwrap_or(Felt::ZERO);
    // Backward: inv = 1/(z_0·…·z_i) at step i, so 1/z_i = inv·prefix_i.
    for i in (0..n).rev() {
        let zz = zzs[i];
        if zz.is_zero() {
            // Infinity: x = 0, as in the scalar hash (X·0).
            out[i] = Felt::ZERO;
            continue;
        }
        out[i] = xs[i] * (inv * out[i]);
        inv *= zz;
    }
}
