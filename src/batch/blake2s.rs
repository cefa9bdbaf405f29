//! Batch Blake2s felt hashes: many messages side by side in SIMD lanes (the algorithm is in
//! `crate::blake2s::lanes`, instantiated here per instruction set).

use crate::backend::{Backend, Kind};
use crate::blake2s::lanes;
use crate::field::Felt;
#[cfg(feature = "std")]
use rayon::prelude::*;

/// One entry point per word-lane type. The SIMD ones carry `#[target_feature]` so the whole
/// inlined compression is compiled for that instruction set.
mod entry {
    use super::lanes;
    use crate::backend::words::PortableWords;
    use crate::field::Felt;

    pub(super) fn portable(messages: &[&[Felt]], out: &mut [Felt]) {
        lanes::hash_many::<PortableWords>(messages, out)
    }

    /// # Safety
    /// The CPU must support AVX2 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi2")]
    pub(super) unsafe fn avx2(messages: &[&[Felt]], out: &mut [Felt]) {
        lanes::hash_many::<crate::backend::avx2_words::Avx2Words>(messages, out)
    }

    /// # Safety
    /// The CPU must support AVX-512F and BMI2 (the felt conversions use `mulx`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,bmi2")]
    pub(super) unsafe fn avx512_bmi2(messages: &[&[Felt]], out: &mut [Felt]) {
        lanes::hash_many::<crate::backend::avx512_words::Avx512Words>(messages, out)
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn avx512(messages: &[&[Felt]], out: &mut [Felt]) {
        lanes::hash_many::<crate::backend::avx512_words::Avx512Words>(messages, out)
    }

    /// # Safety
    /// The CPU must support NEON.
    #[cfg(target_arch = "aarch64")]
    #[target_feature(enable = "neon")]
    pub(super) unsafe fn neon(messages: &[&[Felt]], out: &mut [Felt]) {
        lanes::hash_many::<crate::backend::neon_words::NeonWords>(messages, out)
    }
}

impl Backend {
    /// The number of messages [`Backend::blake2s_hash_many_batch`] hashes side by side.
    ///
    /// ```
    /// use starkbatch::Backend;
    /// assert_eq!(Backend::portable().blake2s_lanes(), 8);
    /// ```
    pub fn blake2s_lanes(&self) -> usize {
        match self.0 {
            Kind::Portable => 8,
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => 8,
            #[cfg(target_arch = "x86_64")]
            Kind::Avx512Ifma => 16,
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => 4,
        }
    }

    /// `out[i] = blake2s_hash_many(messages[i])` for messages of any lengths, one message
    /// per lane of this backend; see [`crate::blake2s_hash_many_batch`].
    ///
    /// ```
    /// use starkbatch::{blake2s_hash_many, Backend, Felt};
    /// let a = [Felt::ONE, Felt::MAX, Felt::from(7u64)];
    /// let msgs: [&[Felt]; 3] = [&a, &a[..1], &[]];
    /// let mut out = [Felt::ZERO; 3];
    /// Backend::portable().blake2s_hash_many_batch(&msgs, &mut out);
    /// for (m, h) in msgs.iter().zip(&out) {
    ///     assert_eq!(*h, blake2s_hash_many(m));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `out.len() != messages.len()`.
    pub fn blake2s_hash_many_batch(&self, messages: &[&[Felt]], out: &mut [Felt]) {
        assert_eq!(
            messages.len(),
            out.len(),
            "blake2s_hash_many_batch: messages and out differ in length"
        );
        match self.0 {
            Kind::Portable => entry::portable(messages, out),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Backend with Kind::Avx2 is only created after AVX2 and BMI2 were
            // confirmed (run-time detection, or without `std` a build that enables them;
            // backend/mod.rs).
            Kind::Avx2 => unsafe { entry::avx2(messages, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Backend with Kind::Avx512Ifma is only created after AVX-512F (and IFMA)
            // were confirmed, as above, and has_bmi2() just confirmed BMI2.
            Kind::Avx512Ifma if crate::backend::cpu::has_bmi2() => unsafe {
                entry::avx512_bmi2(messages, out)
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above; this entry point needs only AVX-512F.
            Kind::Avx512Ifma => unsafe { entry::avx512(messages, out) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: a Backend with Kind::Neon is only created after NEON was confirmed.
            Kind::Neon => unsafe { entry::neon(messages, out) },
        }
    }

    /// [`Backend::blake2s_hash_many_batch`] on the rayon thread pool, in chunks that are
    /// multiples of the lane count.
    ///
    /// ```
    /// use starkbatch::{blake2s_hash_many, Backend, Felt};
    /// let felts: Vec<Felt> = (0..100u64).map(Felt::from).collect();
    /// let msgs: Vec<&[Felt]> = (0..100).map(|i| &felts[..i]).collect();
    /// let mut out = vec![Felt::ZERO; msgs.len()];
    /// Backend::detect().blake2s_hash_many_batch_par(&msgs, &mut out);
    /// assert_eq!(out[42], blake2s_hash_many(&felts[..42]));
    /// ```
    ///
    /// # Panics
    /// If `out.len() != messages.len()`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn blake2s_hash_many_batch_par(&self, messages: &[&[Felt]], out: &mut [Felt]) {
        assert_eq!(
            messages.len(),
            out.len(),
            "blake2s_hash_many_batch_par: messages and out differ in length"
        );
        let lanes = self.blake2s_lanes();
        let threads = rayon::current_num_threads().max(1);
        // About eight chunks per thread so work stealing evens out ragged lengths, at least
        // four lane groups per chunk.
        let per = messages.len().div_ceil(threads * 8).max(4 * lanes);
        let c = per.div_ceil(lanes) * lanes;
        messages
            .par_chunks(c)
            .zip(out.par_chunks_mut(c))
            .for_each(|(m, o)| self.blake2s_hash_many_batch(m, o));
    }
}

/// `out[i] = blake2s_hash_many(messages[i])` for messages of any lengths, side by side in the
/// SIMD lanes of the current backend ([`Backend::current`]): eight lanes with AVX2 and the
/// portable backend, sixteen with AVX-512, four with NEON. A lane takes the next message as
/// soon as its own ends, so ragged lengths keep every lane busy. Results are identical to
/// [`crate::blake2s_hash_many`] on every backend.
///
/// ```
/// use starkbatch::{blake2s_hash_many, blake2s_hash_many_batch, Felt};
/// let felts: Vec<Felt> = (0..40u64).map(|i| Felt::MAX - Felt::from(i)).collect();
/// let msgs: Vec<&[Felt]> = (0..20).map(|i| &felts[i..2 * i]).collect();
/// let mut out = vec![Felt::ZERO; msgs.len()];
/// blake2s_hash_many_batch(&msgs, &mut out);
/// for (m, h) in msgs.iter().zip(&out) {
///     assert_eq!(*h, blake2s_hash_many(m));
/// }
/// ```
///
/// # Panics
/// If `out.len() != messages.len()`, or if `STARKBATCH_BACKEND` names a backend this CPU lacks
/// (see [`Backend::current`]).
pub fn blake2s_hash_many_batch(messages: &[&[Felt]], out: &mut [Felt]) {
    Backend::current().blake2s_hash_many_batch(messages, out)
}

/// As [`blake2s_hash_many_batch`], split across the current rayon thread pool.
///
/// ```
/// use starkbatch::{blake2s_hash_many, blake2s_hash_many_batch_par, Felt};
/// let felts: Vec<Felt> = (0..64u64).map(Felt::from).collect();
/// let msgs: Vec<&[Felt]> = felts.chunks(3).collect();
/// let mut out = vec![Felt::ZERO; msgs.len()];
/// blake2s_hash_many_batch_par(&msgs, &mut out);
/// assert_eq!(out[5], blake2s_hash_many(&felts[15..18]));
/// ```
///
/// # Panics
/// As [`blake2s_hash_many_batch`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn blake2s_hash_many_batch_par(messages: &[&[Felt]], out: &mut [Felt]) {
    Backend::current().blake2s_hash_many_batch_par(messages, out)
}
