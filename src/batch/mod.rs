//! Batch Poseidon over SIMD lanes: many independent hashes side by side.
//!
//! Every function exists three ways: as a free function using [`Backend::current`] (the
//! backend detected once, or forced with `STARKBATCH_BACKEND`), as a method of [`Backend`]
//! with the same name, and with a `_par` suffix splitting the work over the rayon thread pool
//! in chunks that are multiples of the lane count. Outputs are identical to the scalar
//! functions ([`poseidon_hash`](crate::poseidon_hash) and friends) on every backend.
//!
//! Array-of-structs inputs (`&[[Felt; 2]]`, `&mut [[Felt; 3]]`) are gathered into lanes;
//! callers holding structure-of-arrays data use the `_columns` functions, which load lanes
//! straight from each column. A column is a plain `&[Felt]`; since [`Felt`] is
//! [`bytemuck::Pod`], columns can be cast from and to `&[[u64; 4]]` (Montgomery limbs) or bytes
//! with `bytemuck::cast_slice` without copying.
//!
//! No batch call allocates: the prepared round constants are statics built at compile time
//! and the drivers use small stack buffers (the `_par` variants use rayon, which may).
//!
//! ```
//! use starkbatch::{poseidon_hash, poseidon_hash_batch, Felt};
//! let inputs: Vec<[Felt; 2]> = (0..10u64).map(|i| [Felt::from(i), Felt::from(i + 1)]).collect();
//! let mut out = vec![Felt::ZERO; inputs.len()];
//! poseidon_hash_batch(&inputs, &mut out);
//! for (o, [x, y]) in out.iter().zip(&inputs) {
//!     assert_eq!(*o, poseidon_hash(*x, *y));
//! }
//! ```

mod blake2s;
pub(crate) mod comb_entry;
pub(crate) mod curve_entry;
pub(crate) mod drivers;
pub(crate) mod entry;
mod pedersen;
mod points;
mod public_keys;
mod verify;

pub use blake2s::blake2s_hash_many_batch;
#[cfg(feature = "std")]
pub use blake2s::blake2s_hash_many_batch_par;
pub use pedersen::{pedersen_hash_array_batch, pedersen_hash_batch};
#[cfg(feature = "std")]
pub use pedersen::{pedersen_hash_array_batch_par, pedersen_hash_batch_par};
pub use points::{add_batch, double_batch, to_affine_batch};
#[cfg(feature = "std")]
pub use points::{add_batch_par, double_batch_par, to_affine_batch_par};
pub use public_keys::get_public_key_batch;
#[cfg(feature = "std")]
pub use public_keys::get_public_key_batch_par;
#[cfg(feature = "std")]
pub use verify::verify_batch_par;
pub use verify::{VerifyItem, verify_batch};

use crate::backend::{Backend, Kind};
use crate::field::Felt;
#[cfg(feature = "std")]
use rayon::prelude::*;

/// Dispatches one call to the entry point of `$backend`'s instruction set.
macro_rules! dispatch {
    ($backend:expr, $f:ident ( $($arg:expr),* )) => {
        match $backend.0 {
            #[cfg(target_arch = "x86_64")]
            Kind::Portable if crate::backend::cpu::has_bmi2() => {
                // SAFETY: the portable code compiled with BMI2, which has_bmi2() found
                // (run-time test, or without `std` a build that targets BMI2).
                unsafe { entry::portable_bmi2::$f($($arg),*) }
            }
            // SAFETY: portable code needs no CPU feature.
            Kind::Portable => unsafe { entry::portable::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Backend with Kind::Avx2 is only created after
            // is_x86_feature_detected! returned true for "avx2" and "bmi2" (backend/mod.rs),
            // the features its entry points enable.
            // Without `std` the check is instead that the build enables the feature
            // (`cfg!(target_feature)`), so every CPU running this code has it.
            Kind::Avx2 => unsafe { entry::avx2::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Backend with Kind::Avx512Ifma is only created after
            // is_x86_feature_detected! returned true for "avx512f" and "avx512ifma"
            // (backend/mod.rs), the features its entry points enable.
            // Without `std` the check is instead that the build enables the feature
            // (`cfg!(target_feature)`), so every CPU running this code has it.
            Kind::Avx512Ifma => unsafe { entry::avx512ifma::$f($($arg),*) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: a Backend with Kind::Neon is only created after
            // is_aarch64_feature_detected!("neon") returned true (backend/mod.rs).
            // Without `std` the check is instead that the build enables the feature
            // (`cfg!(target_feature)`), so every CPU running this code has it.
            Kind::Neon => unsafe { entry::neon::$f($($arg),*) },
        }
    };
}

/// Chunk length for the parallel variants: a multiple of the lane count, about sixteen chunks
/// per thread, at least 64 elements. Many small chunks let work stealing even out a thread
/// that is slowed down (a shared machine, a core busy elsewhere); 64 hashes take about 0.1 ms,
/// far more than rayon's cost per task.
#[cfg(feature = "std")]
fn par_chunk(n: usize, lanes: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    let per = n.div_ceil(threads * 16).max(64);
    per.div_ceil(lanes) * lanes
}

impl Backend {
    /// `out[i] = poseidon_hash(inputs[i][0], inputs[i][1])`.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash, Backend, Felt};
    /// let inputs: Vec<[Felt; 2]> = (0..20u64).map(|i| [Felt::from(i), Felt::TWO]).collect();
    /// let want: Vec<Felt> = inputs.iter().map(|[x, y]| poseidon_hash(*x, *y)).collect();
    /// for backend in Backend::available() {
    ///     let mut out = vec![Felt::ZERO; inputs.len()];
    ///     backend.poseidon_hash_batch(&inputs, &mut out);
    ///     assert_eq!(out, want);
    /// }
    /// ```
    ///
    /// # Panics
    /// If `inputs.len() != out.len()`.
    pub fn poseidon_hash_batch(&self, inputs: &[[Felt; 2]], out: &mut [Felt]) {
        assert_eq!(
            inputs.len(),
            out.len(),
            "poseidon_hash_batch: inputs and out differ in length"
        );
        dispatch!(self, hash2(inputs, out))
    }

    /// `out[i] = poseidon_hash(xs[i], ys[i])`, for structure-of-arrays data.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash, Backend, Felt};
    /// let xs: Vec<Felt> = (0..20u64).map(Felt::from).collect();
    /// let ys: Vec<Felt> = (100..120u64).map(Felt::from).collect();
    /// for backend in Backend::available() {
    ///     let mut out = vec![Felt::ZERO; xs.len()];
    ///     backend.poseidon_hash_columns(&xs, &ys, &mut out);
    ///     for i in 0..xs.len() {
    ///         assert_eq!(out[i], poseidon_hash(xs[i], ys[i]));
    ///     }
    /// }
    /// ```
    ///
    /// # Panics
    /// If `xs`, `ys` and `out` do not all have the same length.
    pub fn poseidon_hash_columns(&self, xs: &[Felt], ys: &[Felt], out: &mut [Felt]) {
        assert!(
            xs.len() == ys.len() && xs.len() == out.len(),
            "poseidon_hash_columns: xs, ys and out differ in length"
        );
        dispatch!(self, hash2_columns(xs, ys, out))
    }

    /// `out[i] = poseidon_hash_single(inputs[i])`.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash_single, Backend, Felt};
    /// let inputs: Vec<Felt> = (0..20u64).map(Felt::from).collect();
    /// let want: Vec<Felt> = inputs.iter().map(|x| poseidon_hash_single(*x)).collect();
    /// for backend in Backend::available() {
    ///     let mut out = vec![Felt::ZERO; inputs.len()];
    ///     backend.poseidon_hash_single_batch(&inputs, &mut out);
    ///     assert_eq!(out, want);
    /// }
    /// ```
    ///
    /// # Panics
    /// If `inputs.len() != out.len()`.
    pub fn poseidon_hash_single_batch(&self, inputs: &[Felt], out: &mut [Felt]) {
        assert_eq!(
            inputs.len(),
            out.len(),
            "poseidon_hash_single_batch: inputs and out differ in length"
        );
        dispatch!(self, hash1(inputs, out))
    }

    /// Applies the Hades permutation to every state in place (as
    /// [`poseidon_permute_comp`](crate::poseidon_permute_comp)).
    ///
    /// ```
    /// use starkbatch::{poseidon_permute_comp, Backend, Felt};
    /// let start: Vec<[Felt; 3]> =
    ///     (0..10u64).map(|i| [Felt::from(i), Felt::ONE, Felt::TWO]).collect();
    /// let mut want = start.clone();
    /// want.iter_mut().for_each(|s| poseidon_permute_comp(s));
    /// for backend in Backend::available() {
    ///     let mut states = start.clone();
    ///     backend.poseidon_permute_batch(&mut states);
    ///     assert_eq!(states, want);
    /// }
    /// ```
    pub fn poseidon_permute_batch(&self, states: &mut [[Felt; 3]]) {
        dispatch!(self, permute_states(states))
    }

    /// Permutes the states `(s0[i], s1[i], s2[i])` in place, for structure-of-arrays data.
    ///
    /// ```
    /// use starkbatch::{poseidon_permute_comp, Backend, Felt};
    /// let xs: Vec<Felt> = (0..9u64).map(Felt::from).collect();
    /// let (mut s0, mut s1, mut s2) = (xs.clone(), vec![Felt::ONE; 9], vec![Felt::TWO; 9]);
    /// Backend::detect().poseidon_permute_columns(&mut s0, &mut s1, &mut s2);
    /// for i in 0..xs.len() {
    ///     let mut want = [xs[i], Felt::ONE, Felt::TWO];
    ///     poseidon_permute_comp(&mut want);
    ///     assert_eq!([s0[i], s1[i], s2[i]], want);
    /// }
    /// ```
    ///
    /// # Panics
    /// If the three columns differ in length.
    pub fn poseidon_permute_columns(&self, s0: &mut [Felt], s1: &mut [Felt], s2: &mut [Felt]) {
        assert!(
            s0.len() == s1.len() && s0.len() == s2.len(),
            "poseidon_permute_columns: columns differ in length"
        );
        dispatch!(self, permute_columns(s0, s1, s2))
    }

    /// `out[i] = poseidon_hash_many(messages[i])`; messages may have any lengths (lanes
    /// whose message is finished take the next one).
    ///
    /// ```
    /// use starkbatch::{poseidon_hash_many, Backend, Felt};
    /// let data: Vec<Felt> = (1..=6u64).map(Felt::from).collect();
    /// let messages: [&[Felt]; 4] = [&data, &data[..1], &[], &data[2..5]];
    /// for backend in Backend::available() {
    ///     let mut out = [Felt::ZERO; 4];
    ///     backend.poseidon_hash_many_batch(&messages, &mut out);
    ///     for (m, h) in messages.iter().zip(&out) {
    ///         assert_eq!(*h, poseidon_hash_many(m.iter()));
    ///     }
    /// }
    /// ```
    ///
    /// # Panics
    /// If `messages.len() != out.len()`.
    pub fn poseidon_hash_many_batch(&self, messages: &[&[Felt]], out: &mut [Felt]) {
        assert_eq!(
            messages.len(),
            out.len(),
            "poseidon_hash_many_batch: messages and out differ in length"
        );
        dispatch!(self, hash_many(messages, out))
    }

    /// [`Backend::poseidon_hash_batch`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash, Backend, Felt};
    /// let inputs: Vec<[Felt; 2]> = (0..300u64).map(|i| [Felt::from(i), Felt::ONE]).collect();
    /// let mut out = vec![Felt::ZERO; inputs.len()];
    /// Backend::detect().poseidon_hash_batch_par(&inputs, &mut out);
    /// for (o, [x, y]) in out.iter().zip(&inputs) {
    ///     assert_eq!(*o, poseidon_hash(*x, *y));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `inputs.len() != out.len()`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn poseidon_hash_batch_par(&self, inputs: &[[Felt; 2]], out: &mut [Felt]) {
        assert_eq!(
            inputs.len(),
            out.len(),
            "poseidon_hash_batch_par: inputs and out differ in length"
        );
        let c = par_chunk(inputs.len(), self.poseidon_lanes());
        inputs
            .par_chunks(c)
            .zip(out.par_chunks_mut(c))
            .for_each(|(i, o)| self.poseidon_hash_batch(i, o));
    }

    /// [`Backend::poseidon_hash_columns`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash, Backend, Felt};
    /// let xs: Vec<Felt> = (0..300u64).map(Felt::from).collect();
    /// let ys: Vec<Felt> = xs.iter().map(|x| x.double()).collect();
    /// let mut out = vec![Felt::ZERO; xs.len()];
    /// Backend::detect().poseidon_hash_columns_par(&xs, &ys, &mut out);
    /// for i in 0..xs.len() {
    ///     assert_eq!(out[i], poseidon_hash(xs[i], ys[i]));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `xs`, `ys` and `out` do not all have the same length.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn poseidon_hash_columns_par(&self, xs: &[Felt], ys: &[Felt], out: &mut [Felt]) {
        assert!(
            xs.len() == ys.len() && xs.len() == out.len(),
            "poseidon_hash_columns_par: xs, ys and out differ in length"
        );
        let c = par_chunk(xs.len(), self.poseidon_lanes());
        xs.par_chunks(c)
            .zip(ys.par_chunks(c))
            .zip(out.par_chunks_mut(c))
            .for_each(|((x, y), o)| self.poseidon_hash_columns(x, y, o));
    }

    /// [`Backend::poseidon_hash_single_batch`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash_single, Backend, Felt};
    /// let inputs: Vec<Felt> = (0..300u64).map(Felt::from).collect();
    /// let mut out = vec![Felt::ZERO; inputs.len()];
    /// Backend::detect().poseidon_hash_single_batch_par(&inputs, &mut out);
    /// for (o, x) in out.iter().zip(&inputs) {
    ///     assert_eq!(*o, poseidon_hash_single(*x));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `inputs.len() != out.len()`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn poseidon_hash_single_batch_par(&self, inputs: &[Felt], out: &mut [Felt]) {
        assert_eq!(
            inputs.len(),
            out.len(),
            "poseidon_hash_single_batch_par: inputs and out differ in length"
        );
        let c = par_chunk(inputs.len(), self.poseidon_lanes());
        inputs
            .par_chunks(c)
            .zip(out.par_chunks_mut(c))
            .for_each(|(i, o)| self.poseidon_hash_single_batch(i, o));
    }

    /// [`Backend::poseidon_permute_batch`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::{poseidon_permute_comp, Backend, Felt};
    /// let start: Vec<[Felt; 3]> = (0..300u64).map(|i| [Felt::from(i); 3]).collect();
    /// let mut states = start.clone();
    /// Backend::detect().poseidon_permute_batch_par(&mut states);
    /// for (s, mut want) in states.iter().zip(start) {
    ///     poseidon_permute_comp(&mut want);
    ///     assert_eq!(*s, want);
    /// }
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn poseidon_permute_batch_par(&self, states: &mut [[Felt; 3]]) {
        let c = par_chunk(states.len(), self.poseidon_lanes());
        states
            .par_chunks_mut(c)
            .for_each(|s| self.poseidon_permute_batch(s));
    }

    /// [`Backend::poseidon_hash_many_batch`] on the rayon thread pool (chunks of messages;
    /// within a chunk, lanes are refilled as messages finish).
    ///
    /// ```
    /// use starkbatch::{poseidon_hash_many, Backend, Felt};
    /// let data: Vec<Felt> = (0..300u64).map(Felt::from).collect();
    /// let messages: Vec<&[Felt]> = (0..200usize).map(|i| &data[i..i + i % 7]).collect();
    /// let mut out = vec![Felt::ZERO; messages.len()];
    /// Backend::detect().poseidon_hash_many_batch_par(&messages, &mut out);
    /// for (m, h) in messages.iter().zip(&out) {
    ///     assert_eq!(*h, poseidon_hash_many(m.iter()));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `messages.len() != out.len()`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn poseidon_hash_many_batch_par(&self, messages: &[&[Felt]], out: &mut [Felt]) {
        assert_eq!(
            messages.len(),
            out.len(),
            "poseidon_hash_many_batch_par: messages and out differ in length"
        );
        let c = par_chunk(messages.len(), self.poseidon_lanes());
        messages
            .par_chunks(c)
            .zip(out.par_chunks_mut(c))
            .for_each(|(m, o)| self.poseidon_hash_many_batch(m, o));
    }
}

macro_rules! free_fn {
    ($(#[$doc:meta])* $name:ident ( $($arg:ident : $ty:ty),* )) => {
        $(#[$doc])*
        ///
        /// Uses [`Backend::current`]; see the method of the same name on [`Backend`].
        ///
        /// # Panics
        /// On mismatched lengths (see the method), or if `STARKBATCH_BACKEND` names a
        /// backend this CPU lacks (see [`Backend::current`]).
        pub fn $name($($arg: $ty),*) {
            Backend::current().$name($($arg),*)
        }
    };
}

free_fn!(
    /// `out[i] = poseidon_hash(inputs[i][0], inputs[i][1])`.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash, poseidon_hash_batch, Felt};
    /// let inputs = [[Felt::ONE, Felt::TWO], [Felt::ZERO, Felt::MAX], [Felt::THREE, Felt::ONE]];
    /// let mut out = [Felt::ZERO; 3];
    /// poseidon_hash_batch(&inputs, &mut out);
    /// for (o, [x, y]) in out.iter().zip(&inputs) {
    ///     assert_eq!(*o, poseidon_hash(*x, *y));
    /// }
    /// ```
    poseidon_hash_batch(inputs: &[[Felt; 2]], out: &mut [Felt])
);
free_fn!(
    /// `out[i] = poseidon_hash(xs[i], ys[i])` for structure-of-arrays data.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash, poseidon_hash_columns, Felt};
    /// let xs: Vec<Felt> = (0..10u64).map(Felt::from).collect();
    /// let ys: Vec<Felt> = (10..20u64).map(Felt::from).collect();
    /// let mut out = vec![Felt::ZERO; xs.len()];
    /// poseidon_hash_columns(&xs, &ys, &mut out);
    /// for i in 0..xs.len() {
    ///     assert_eq!(out[i], poseidon_hash(xs[i], ys[i]));
    /// }
    /// ```
    poseidon_hash_columns(xs: &[Felt], ys: &[Felt], out: &mut [Felt])
);
free_fn!(
    /// `out[i] = poseidon_hash_single(inputs[i])`.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash_single, poseidon_hash_single_batch, Felt};
    /// let inputs: Vec<Felt> = (0..10u64).map(Felt::from).collect();
    /// let mut out = vec![Felt::ZERO; inputs.len()];
    /// poseidon_hash_single_batch(&inputs, &mut out);
    /// for (o, x) in out.iter().zip(&inputs) {
    ///     assert_eq!(*o, poseidon_hash_single(*x));
    /// }
    /// ```
    poseidon_hash_single_batch(inputs: &[Felt], out: &mut [Felt])
);
free_fn!(
    /// Permutes every state in place.
    ///
    /// ```
    /// use starkbatch::{poseidon_permute_batch, poseidon_permute_comp, Felt};
    /// let mut states = [[Felt::ZERO; 3], [Felt::ONE, Felt::TWO, Felt::THREE]];
    /// let mut want = states;
    /// want.iter_mut().for_each(|s| poseidon_permute_comp(s));
    /// poseidon_permute_batch(&mut states);
    /// assert_eq!(states, want);
    /// ```
    poseidon_permute_batch(states: &mut [[Felt; 3]])
);
free_fn!(
    /// Permutes the states `(s0[i], s1[i], s2[i])` in place.
    ///
    /// ```
    /// use starkbatch::{poseidon_permute_columns, poseidon_permute_comp, Felt};
    /// let (mut s0, mut s1, mut s2) = ([Felt::ZERO, Felt::ONE], [Felt::TWO; 2], [Felt::THREE; 2]);
    /// poseidon_permute_columns(&mut s0, &mut s1, &mut s2);
    /// let mut want = [Felt::ONE, Felt::TWO, Felt::THREE];
    /// poseidon_permute_comp(&mut want);
    /// assert_eq!([s0[1], s1[1], s2[1]], want);
    /// ```
    poseidon_permute_columns(s0: &mut [Felt], s1: &mut [Felt], s2: &mut [Felt])
);
free_fn!(
    /// `out[i] = poseidon_hash_many(messages[i])` for messages of any lengths.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash_many, poseidon_hash_many_batch, Felt};
    /// let a = [Felt::ONE, Felt::TWO, Felt::THREE];
    /// let messages: [&[Felt]; 3] = [&a, &a[..1], &[]];
    /// let mut out = [Felt::ZERO; 3];
    /// poseidon_hash_many_batch(&messages, &mut out);
    /// for (m, h) in messages.iter().zip(&out) {
    ///     assert_eq!(*h, poseidon_hash_many(m.iter()));
    /// }
    /// ```
    poseidon_hash_many_batch(messages: &[&[Felt]], out: &mut [Felt])
);
free_fn!(
    /// [`poseidon_hash_batch`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash, poseidon_hash_batch_par, Felt};
    /// let inputs: Vec<[Felt; 2]> = (0..300u64).map(|i| [Felt::from(i), Felt::MAX]).collect();
    /// let mut out = vec![Felt::ZERO; inputs.len()];
    /// poseidon_hash_batch_par(&inputs, &mut out);
    /// for (o, [x, y]) in out.iter().zip(&inputs) {
    ///     assert_eq!(*o, poseidon_hash(*x, *y));
    /// }
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    poseidon_hash_batch_par(inputs: &[[Felt; 2]], out: &mut [Felt])
);
free_fn!(
    /// [`poseidon_hash_columns`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash, poseidon_hash_columns_par, Felt};
    /// let xs: Vec<Felt> = (0..300u64).map(Felt::from).collect();
    /// let ys = vec![Felt::MAX; xs.len()];
    /// let mut out = vec![Felt::ZERO; xs.len()];
    /// poseidon_hash_columns_par(&xs, &ys, &mut out);
    /// for (o, x) in out.iter().zip(&xs) {
    ///     assert_eq!(*o, poseidon_hash(*x, Felt::MAX));
    /// }
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    poseidon_hash_columns_par(xs: &[Felt], ys: &[Felt], out: &mut [Felt])
);
free_fn!(
    /// [`poseidon_hash_single_batch`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash_single, poseidon_hash_single_batch_par, Felt};
    /// let inputs: Vec<Felt> = (0..300u64).map(|i| Felt::from(i * 7)).collect();
    /// let mut out = vec![Felt::ZERO; inputs.len()];
    /// poseidon_hash_single_batch_par(&inputs, &mut out);
    /// for (o, x) in out.iter().zip(&inputs) {
    ///     assert_eq!(*o, poseidon_hash_single(*x));
    /// }
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    poseidon_hash_single_batch_par(inputs: &[Felt], out: &mut [Felt])
);
free_fn!(
    /// [`poseidon_permute_batch`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::{poseidon_permute_batch_par, poseidon_permute_comp, Felt};
    /// let start: Vec<[Felt; 3]> =
    ///     (0..300u64).map(|i| [Felt::from(i), Felt::ZERO, Felt::ONE]).collect();
    /// let mut states = start.clone();
    /// poseidon_permute_batch_par(&mut states);
    /// for (s, mut want) in states.iter().zip(start) {
    ///     poseidon_permute_comp(&mut want);
    ///     assert_eq!(*s, want);
    /// }
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    poseidon_permute_batch_par(states: &mut [[Felt; 3]])
);
free_fn!(
    /// [`poseidon_hash_many_batch`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::{poseidon_hash_many, poseidon_hash_many_batch_par, Felt};
    /// let data: Vec<Felt> = (0..100u64).map(Felt::from).collect();
    /// let messages: Vec<&[Felt]> = (0..100usize).map(|i| &data[..i]).collect();
    /// let mut out = vec![Felt::ZERO; messages.len()];
    /// poseidon_hash_many_batch_par(&messages, &mut out);
    /// for (m, h) in messages.iter().zip(&out) {
    ///     assert_eq!(*h, poseidon_hash_many(m.iter()));
    /// }
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    poseidon_hash_many_batch_par(messages: &[&[Felt]], out: &mut [Felt])
);
