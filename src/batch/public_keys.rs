//! [`get_public_key_batch`]: many public keys, the constant-time comb run in SIMD lanes and one
//! shared field inversion per chunk.
//!
//! # Method
//! The keys of a chunk of [`CHUNK`] go through the comb of
//! [`mul_generator_ct`](crate::curve::mul_generator_ct) `LANES` keys at a time
//! (`crate::curve::comb_lanes`: per-lane reduction mod n and recoding, per-lane constant-time
//! row scans, the mixed additions and their special cases in the backend's packed field type with
//! masked selects), which yields each key's Jacobian X and Z. The Z values of the chunk are then
//! inverted together with [`Felt::batch_inverse`] (Montgomery's trick with branch-free selects
//! around one constant-time safegcd inversion), and x = X·Z⁻².
//!
//! The lanes are those of the backend the scan kernel uses (`STARKBATCH_BACKEND`, else the
//! detected one, never a panic): 8 IFMA lanes on AVX-512 IFMA, 4 on AVX2 and NEON, one key at a
//! time (`Felt`) on the portable backend. [`Backend::get_public_key_batch`] picks the
//! backend explicitly (every backend gives the same results).
//!
//! # Constant time
//! No branch and no memory index depends on a private key: the lane comb is constant time
//! (module docs of `crate::curve::comb_lanes`), the batch inversion's work depends only on the
//! batch length, and a key ≡ 0 (mod n) (Z = 0) gets the "inverse" 0 through a select, giving 0
//! as [`get_public_key`] does. `scripts/ct-check.sh` runs it on marked keys under valgrind.
//!
//! [`get_public_key`]: crate::ecdsa::get_public_key

use crate::backend::Backend;
use crate::backend::ct_scan::scan_backend;
use crate::field::Felt;
use alloc::vec;
#[cfg(feature = "std")]
use rayon::prelude::*;

/// Keys per shared inversion.
const CHUNK: usize = 256;

/// `out[i] = get_public_key(&private_keys[i])` for every key: the comb in SIMD lanes, one field
/// inversion per 256 keys. Constant time in the keys (module docs).
///
/// ```
/// use starkbatch::get_public_key_batch;
/// use starkbatch::{get_public_key, Felt};
/// let keys = [Felt::ONE, Felt::from(0x1234u64), Felt::ZERO];
/// let mut out = [Felt::ZERO; 3];
/// get_public_key_batch(&keys, &mut out);
/// for (k, o) in keys.iter().zip(&out) {
///     assert_eq!(*o, get_public_key(k));
/// }
/// ```
///
/// # Panics
/// If `private_keys.len() != out.len()`.
pub fn get_public_key_batch(private_keys: &[Felt], out: &mut [Felt]) {
    get_public_key_batch_on(scan_backend(), private_keys, out)
}

impl Backend {
    /// [`get_public_key_batch`] on this backend's lanes and scan kernel (every backend gives the
    /// same results; for tests and comparisons). Constant time in the keys.
    ///
    /// ```
    /// use starkbatch::{get_public_key, Backend, Felt};
    /// let keys = [Felt::ONE, Felt::from(0xabcdu64), Felt::ZERO];
    /// for backend in Backend::available() {
    ///     let mut out = [Felt::ZERO; 3];
    ///     backend.get_public_key_batch(&keys, &mut out);
    ///     assert_eq!(out, keys.map(|k| get_public_key(&k)));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `private_keys.len() != out.len()`.
    pub fn get_public_key_batch(&self, private_keys: &[Felt], out: &mut [Felt]) {
        get_public_key_batch_on(*self, private_keys, out)
    }
}

fn get_public_key_batch_on(backend: Backend, private_keys: &[Felt], out: &mut [Felt]) {
    assert_eq!(
        private_keys.len(),
        out.len(),
        "get_public_key_batch: private_keys and out differ in length"
    );
    let len = CHUNK.min(private_keys.len());
    let mut xs = vec![Felt::ZERO; len];
    let mut zs = vec![Felt::ZERO; len];
    for (keys, o) in private_keys.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
        let (xs, zs) = (&mut xs[..keys.len()], &mut zs[..keys.len()]);
        backend.mul_generator_ct_batch(keys, xs, zs);
        // Zeros (keys ≡ 0 mod n) stay 0, so their x becomes 0.
        Felt::batch_inverse(zs);
        for ((o, x), zinv) in o.iter_mut().zip(xs.iter()).zip(zs.iter()) {
            *o = *x * zinv.square();
        }
    }
}

/// [`get_public_key_batch`] split over the rayon thread pool (pieces of at least 64 keys).
///
/// ```
/// use starkbatch::{get_public_key, get_public_key_batch_par, Felt};
/// let keys: Vec<Felt> = (1..=70u64).map(|i| Felt::from(i * 0x9e37_79b9)).collect();
/// let mut out = vec![Felt::ZERO; keys.len()];
/// get_public_key_batch_par(&keys, &mut out);
/// for (k, o) in keys.iter().zip(&out) {
///     assert_eq!(*o, get_public_key(k));
/// }
/// ```
///
/// # Panics
/// If `private_keys.len() != out.len()`.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn get_public_key_batch_par(private_keys: &[Felt], out: &mut [Felt]) {
    assert_eq!(
        private_keys.len(),
        out.len(),
        "get_public_key_batch_par: private_keys and out differ in length"
    );
    let threads = rayon::current_num_threads().max(1);
    let piece = private_keys.len().div_ceil(4 * threads).clamp(64, CHUNK);
    private_keys
        .par_chunks(piece)
        .zip(out.par_chunks_mut(piece))
        .for_each(|(k, o)| get_public_key_batch(k, o));
}
