//! Batch Pedersen hashes on the current backend: the free functions over [`Backend::current`]
//! (the algorithms are in `crate::pedersen`, instantiated per instruction set in
//! `super::curve_entry`).

use crate::backend::Backend;
use crate::field::Felt;

/// `out[i] = pedersen_hash(inputs[i][0], inputs[i][1])` for every `i`: batch-affine additions
/// with one shared field inversion per step of up to 4096 hashes (see the module docs), in the
/// SIMD lanes of the current backend ([`crate::Backend::pedersen_hash_batch`]). Results are
/// identical to [`crate::pedersen_hash`].
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
    Backend::current().pedersen_hash_batch(inputs, out)
}

/// As [`pedersen_hash_batch`], split across the current rayon thread pool when the batch is
/// long enough (at least 64 pairs and more than one thread).
///
/// ```
/// use starkbatch::{pedersen_hash, pedersen_hash_batch_par, Felt};
/// let pairs: Vec<[Felt; 2]> = (0..30u64).map(|i| [Felt::from(i), Felt::from(2 * i)]).collect();
/// let mut out = vec![Felt::ZERO; pairs.len()];
/// pedersen_hash_batch_par(&pairs, &mut out);
/// for (o, [a, b]) in out.iter().zip(&pairs) {
///     assert_eq!(*o, pedersen_hash(a, b));
/// }
/// ```
///
/// # Panics
/// If `out.len() != inputs.len()`.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn pedersen_hash_batch_par(inputs: &[[Felt; 2]], out: &mut [Felt]) {
    assert_eq!(
        inputs.len(),
        out.len(),
        "pedersen_hash_batch_par: inputs and out lengths differ"
    );
    Backend::current().pedersen_hash_batch_par(inputs, out)
}

/// `out[i] = pedersen_hash_array(messages[i])` for messages of any lengths, in lock-step
/// batches on the current backend ([`crate::Backend::pedersen_hash_array_batch`]). Results are
/// identical to [`crate::pedersen_hash_array`].
///
/// ```
/// use starkbatch::{pedersen_hash_array, pedersen_hash_array_batch, Felt};
/// let a = [Felt::ONE, Felt::TWO, Felt::THREE];
/// let msgs: [&[Felt]; 3] = [&a, &a[..1], &[]];
/// let mut out = [Felt::ZERO; 3];
/// pedersen_hash_array_batch(&msgs, &mut out);
/// for (m, h) in msgs.iter().zip(&out) {
///     assert_eq!(*h, pedersen_hash_array(m));
/// }
/// ```
///
/// # Panics
/// If `out.len() != messages.len()`.
pub fn pedersen_hash_array_batch(messages: &[&[Felt]], out: &mut [Felt]) {
    Backend::current().pedersen_hash_array_batch(messages, out)
}

/// As [`pedersen_hash_array_batch`], every step split across the current rayon thread pool.
///
/// ```
/// use starkbatch::{pedersen_hash_array, pedersen_hash_array_batch_par, Felt};
/// let data: Vec<Felt> = (0..8u64).map(|i| Felt::from(i * 3)).collect();
/// let messages: Vec<&[Felt]> = (0..8usize).map(|i| &data[i..]).collect();
/// let mut out = vec![Felt::ZERO; messages.len()];
/// pedersen_hash_array_batch_par(&messages, &mut out);
/// for (m, h) in messages.iter().zip(&out) {
///     assert_eq!(*h, pedersen_hash_array(m));
/// }
/// ```
///
/// # Panics
/// If `out.len() != messages.len()`.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn pedersen_hash_array_batch_par(messages: &[&[Felt]], out: &mut [Felt]) {
    Backend::current().pedersen_hash_array_batch_par(messages, out)
}
