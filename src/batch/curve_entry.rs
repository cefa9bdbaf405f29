//! Entry points and [`Backend`] methods for the batch curve and ECDSA operations
//! (`crate::curve::batch`, `crate::ecdsa::batch`): one function per operation and backend,
//! instantiating the generic drivers with the backend's packed type (which must implement
//! `PackedSelect`); the SIMD ones carry `#[target_feature]`, as for Poseidon (`entry.rs`).

use crate::backend::{Backend, Kind};
use crate::curve::{AffinePoint, ProjectivePoint};
#[cfg(feature = "std")]
use rayon::prelude::*;

macro_rules! curve_entry_points {
    ($(#[$attr:meta])* $name:ident, $packed:ty) => {
        /// Curve entry points for one lane type.
        ///
        /// # Safety
        /// Each function may only be called when the CPU supports this lane type's
        /// instruction set (checked by `crate::Backend`, see `docs/backends.md`).
        pub(crate) mod $name {
            use crate::curve::batch as drivers;
            use crate::curve::{AffinePoint, ProjectivePoint};

            type P = $packed;

            $(#[$attr])*
            pub(crate) unsafe fn double_points(points: &mut [ProjectivePoint]) {
                drivers::double_points::<P>(points)
            }
            $(#[$attr])*
            pub(crate) unsafe fn add_points(points: &mut [ProjectivePoint], others: &[ProjectivePoint]) {
                drivers::add_points::<P>(points, others)
            }
            $(#[$attr])*
            pub(crate) unsafe fn to_affine_points(points: &[ProjectivePoint], out: &mut [AffinePoint]) {
                drivers::to_affine_points::<P>(points, out)
            }
            $(#[$attr])*
            pub(crate) unsafe fn mul_affine_tables(
                tables: &[AffinePoint],
                scalars: &[[u64; 4]],
                out: &mut [ProjectivePoint],
            ) {
                drivers::mul_affine_tables::<P>(tables, scalars, out)
            }
            $(#[$attr])*
            pub(crate) unsafe fn pedersen_hash_batch(
                inputs: &[[crate::Felt; 2]],
                out: &mut [crate::Felt],
            ) {
                crate::pedersen::lanes::hash_batch::<P>(inputs, out)
            }
        }
    };
}

// Portable: one lane (`Felt`). Four scalar lanes in lock-step (`X4<Felt>`, the earlier
// portable type, kept below as a tested reference) measured slower than one point at a time:
// double_batch(1024) 167 µs against a 146 µs scalar loop, add_batch 307 against 240 µs.
curve_entry_points!(portable, crate::field::Felt);
#[cfg(target_arch = "x86_64")]
curve_entry_points!(
    #[target_feature(enable = "avx2")]
    avx2,
    crate::backend::packed::Packed<crate::backend::avx2::Avx2Lane>
);
#[cfg(target_arch = "x86_64")]
curve_entry_points!(
    #[target_feature(enable = "avx512f,avx512ifma")]
    avx512ifma,
    crate::backend::ifma::Ifma
);
#[cfg(target_arch = "aarch64")]
curve_entry_points!(
    #[target_feature(enable = "neon")]
    neon,
    crate::backend::packed::Packed<crate::backend::neon::NeonLane>
);
// The 9×28-bit field over plain arrays and the one-lane scalar type: references in tests.
#[cfg(test)]
curve_entry_points!(
    lanes_portable,
    crate::backend::packed::Packed<crate::backend::portable::PortableLane>
);
#[cfg(test)]
curve_entry_points!(x4, crate::backend::felt4::X4<crate::field::Felt>);

/// Dispatches one call to the curve entry point of `$backend`'s instruction set (a backend
/// without curve entry points would run the portable ones).
macro_rules! curve_dispatch {
    ($backend:expr, $f:ident ( $($arg:expr),* )) => {
        #[allow(unreachable_patterns)]
        match $backend.0 {
            // SAFETY: portable code needs no CPU feature.
            Kind::Portable => unsafe { portable::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Backend with Kind::Avx2 is only created after
            // is_x86_feature_detected!("avx2") returned true (backend/mod.rs).
            // Without `std` the check is instead that the build enables the feature
            // (`cfg!(target_feature)`), so every CPU running this code has it.
            Kind::Avx2 => unsafe { avx2::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Backend with Kind::Avx512Ifma is only created after has_avx512ifma()
            // (avx512f and avx512ifma detected at run time) returned true (backend/mod.rs).
            // Without `std` the check is instead that the build enables the features
            // (`cfg!(target_feature)`), so every CPU running this code has them.
            Kind::Avx512Ifma => unsafe { avx512ifma::$f($($arg),*) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: a Backend with Kind::Neon is only created after
            // is_aarch64_feature_detected!("neon") returned true (backend/mod.rs).
            // Without `std` the check is instead that the build enables the feature
            // (`cfg!(target_feature)`), so every CPU running this code has it.
            Kind::Neon => unsafe { neon::$f($($arg),*) },
            // SAFETY: as the portable arm.
            _ => unsafe { portable::$f($($arg),*) },
        }
    };
}

/// Chunk length for the parallel variants: a multiple of the lane count, about four chunks per
/// thread, at least `min` elements.
#[cfg(feature = "std")]
fn par_chunk(n: usize, lanes: usize, min: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    let per = n.div_ceil(threads * 4).max(min);
    per.div_ceil(lanes) * lanes
}

impl Backend {
    /// Doubles every point in place (as [`ProjectivePoint::double`]); see
    /// [`crate::double_batch`].
    ///
    /// ```
    /// use starkbatch::curve::{ProjectivePoint, GENERATOR};
    /// use starkbatch::Backend;
    /// let g = ProjectivePoint::from_affine(&GENERATOR);
    /// let pts = [g, ProjectivePoint::INFINITY, g.double().add(&g)];
    /// for backend in Backend::available() {
    ///     let mut out = pts;
    ///     backend.double_batch(&mut out);
    ///     assert!(out.iter().zip(&pts).all(|(d, p)| *d == p.double()));
    /// }
    /// ```
    pub fn double_batch(&self, points: &mut [ProjectivePoint]) {
        curve_dispatch!(self, double_points(points))
    }

    /// `points[i] = points[i] + others[i]` (as [`ProjectivePoint::add`]); see
    /// [`crate::add_batch`].
    ///
    /// ```
    /// use starkbatch::curve::{ProjectivePoint, GENERATOR};
    /// use starkbatch::Backend;
    /// let g = ProjectivePoint::from_affine(&GENERATOR);
    /// let a = [g, g, g.double(), g];
    /// let b = [g.double(), g, g.double().neg(), ProjectivePoint::INFINITY];
    /// for backend in Backend::available() {
    ///     let mut sum = a;
    ///     backend.add_batch(&mut sum, &b);
    ///     assert!((0..a.len()).all(|i| sum[i] == a[i].add(&b[i])));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `points.len() != others.len()`.
    pub fn add_batch(&self, points: &mut [ProjectivePoint], others: &[ProjectivePoint]) {
        assert_eq!(
            points.len(),
            others.len(),
            "add_batch: points and others differ in length"
        );
        curve_dispatch!(self, add_points(points, others))
    }

    /// `out[i] = points[i].to_affine()` with one field inversion; see
    /// [`crate::to_affine_batch`].
    ///
    /// ```
    /// use starkbatch::curve::{AffinePoint, ProjectivePoint, GENERATOR};
    /// use starkbatch::Backend;
    /// let g = ProjectivePoint::from_affine(&GENERATOR);
    /// let pts = [g.double(), ProjectivePoint::INFINITY, g.double().add(&g)];
    /// for backend in Backend::available() {
    ///     let mut out = [AffinePoint::INFINITY; 3];
    ///     backend.to_affine_batch(&pts, &mut out);
    ///     assert_eq!(out, pts.map(|p| p.to_affine()));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `points.len() != out.len()`.
    pub fn to_affine_batch(&self, points: &[ProjectivePoint], out: &mut [AffinePoint]) {
        assert_eq!(
            points.len(),
            out.len(),
            "to_affine_batch: points and out differ in length"
        );
        curve_dispatch!(self, to_affine_points(points, out))
    }

    /// `out[i] = k_i·Q_i` with `k_i = scalars[i]` and `tables[8i..8i + 8]` the affine odd
    /// multiples Q_i, 3Q_i, …, 15Q_i (finite), in lanes (`crate::curve::batch::mul_affine_tables`).
    /// Variable time in the scalars.
    ///
    /// # Panics
    /// If `tables.len() != 8 * scalars.len()` or `out.len() != scalars.len()`.
    pub(crate) fn mul_affine_tables(
        &self,
        tables: &[AffinePoint],
        scalars: &[[u64; 4]],
        out: &mut [ProjectivePoint],
    ) {
        curve_dispatch!(self, mul_affine_tables(tables, scalars, out))
    }

    /// `out[i] = pedersen_hash(inputs[i][0], inputs[i][1])`; see
    /// [`crate::pedersen_hash_batch`]. The x86-64 SIMD backends run the batch-affine steps in
    /// their lanes (`crate::pedersen::lanes`: 8.5× pathfinder-crypto's loop with AVX-512 IFMA,
    /// 4.5-5.4× with AVX2); the portable and NEON backends run them one `Felt` at a time
    /// (`crate::pedersen::batch`, 3.0-3.5× on x86-64); batches under 24 pairs take the scalar
    /// XYZZ path on every backend (docs/pedersen-batch.md).
    ///
    /// ```
    /// use starkbatch::{pedersen_hash, Backend, Felt};
    /// let pairs: Vec<[Felt; 2]> =
    ///     (0..30u64).map(|i| [Felt::from(i), Felt::MAX]).collect();
    /// let want: Vec<Felt> = pairs.iter().map(|[a, b]| pedersen_hash(a, b)).collect();
    /// for backend in Backend::available() {
    ///     let mut out = vec![Felt::ZERO; pairs.len()];
    ///     backend.pedersen_hash_batch(&pairs, &mut out);
    ///     assert_eq!(out, want);
    /// }
    /// ```
    ///
    /// # Panics
    /// If `out.len() != inputs.len()`.
    pub fn pedersen_hash_batch(&self, inputs: &[[crate::Felt; 2]], out: &mut [crate::Felt]) {
        assert_eq!(
            inputs.len(),
            out.len(),
            "pedersen_hash_batch: inputs and out lengths differ"
        );
        if inputs.len() < crate::pedersen::batch::AFFINE_MIN {
            return crate::pedersen::batch::hash_batch_scalar(inputs, out);
        }
        match self.0 {
            Kind::Portable => crate::pedersen::batch::hash_batch_scalar(inputs, out),
            // NEON's lanes are tested (`pedersen::lanes`) but not used here: they cannot be timed
            // on this project's machines, and the estimate in docs/backends.md ("NEON: design and
            // expected speed") puts them at or below the scalar steps for this workload.
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => crate::pedersen::batch::hash_batch_scalar(inputs, out),
            // The x86-64 SIMD backends. Elsewhere the arms above are exhaustive; the arm stays,
            // so that the other backends' lane entry points are still compiled (and tested).
            #[cfg_attr(not(target_arch = "x86_64"), allow(unreachable_patterns))]
            _ => {
                curve_dispatch!(self, pedersen_hash_batch(inputs, out))
            }
        }
    }

    /// [`Backend::pedersen_hash_batch`] on the rayon thread pool; see
    /// [`crate::pedersen_hash_batch_par`].
    ///
    /// ```
    /// use starkbatch::{pedersen_hash, Backend, Felt};
    /// let pairs: Vec<[Felt; 2]> =
    ///     (0..30u64).map(|i| [Felt::from(i), Felt::from(i + 1)]).collect();
    /// let mut out = vec![Felt::ZERO; pairs.len()];
    /// Backend::detect().pedersen_hash_batch_par(&pairs, &mut out);
    /// for (o, [a, b]) in out.iter().zip(&pairs) {
    ///     assert_eq!(*o, pedersen_hash(a, b));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `out.len() != inputs.len()`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn pedersen_hash_batch_par(&self, inputs: &[[crate::Felt; 2]], out: &mut [crate::Felt]) {
        assert_eq!(
            inputs.len(),
            out.len(),
            "pedersen_hash_batch_par: inputs and out lengths differ"
        );
        match crate::pedersen::batch::par_piece(inputs.len()) {
            None => self.pedersen_hash_batch(inputs, out),
            Some(piece) => inputs
                .par_chunks(piece)
                .zip(out.par_chunks_mut(piece))
                .for_each(|(i, o)| self.pedersen_hash_batch(i, o)),
        }
    }

    /// `out[i] = pedersen_hash_array(messages[i])` for messages of any lengths: the messages
    /// advance in lock-step, each step one [`Backend::pedersen_hash_batch`] over those that
    /// still have elements (`crate::pedersen::array_batch`). Identical to
    /// [`crate::pedersen_hash_array`].
    ///
    /// ```
    /// use starkbatch::{pedersen_hash_array, Backend, Felt};
    /// let data: Vec<Felt> = (1..=5u64).map(Felt::from).collect();
    /// let messages: [&[Felt]; 4] = [&data, &data[..2], &[], &data[3..]];
    /// for backend in Backend::available() {
    ///     let mut out = [Felt::ZERO; 4];
    ///     backend.pedersen_hash_array_batch(&messages, &mut out);
    ///     for (m, h) in messages.iter().zip(&out) {
    ///         assert_eq!(*h, pedersen_hash_array(m));
    ///     }
    /// }
    /// ```
    ///
    /// # Panics
    /// If `messages.len() != out.len()`.
    pub fn pedersen_hash_array_batch(&self, messages: &[&[crate::Felt]], out: &mut [crate::Felt]) {
        assert_eq!(
            messages.len(),
            out.len(),
            "pedersen_hash_array_batch: messages and out differ in length"
        );
        crate::pedersen::array_batch::hash_arrays(
            |p, o| self.pedersen_hash_batch(p, o),
            messages,
            out,
        )
    }

    /// [`Backend::pedersen_hash_array_batch`] with every step split across the rayon thread
    /// pool ([`Backend::pedersen_hash_batch_par`]).
    ///
    /// ```
    /// use starkbatch::{pedersen_hash_array, Backend, Felt};
    /// let data: Vec<Felt> = (0..8u64).map(Felt::from).collect();
    /// let messages: Vec<&[Felt]> = (0..8usize).map(|i| &data[..i]).collect();
    /// let mut out = vec![Felt::ZERO; messages.len()];
    /// Backend::detect().pedersen_hash_array_batch_par(&messages, &mut out);
    /// for (m, h) in messages.iter().zip(&out) {
    ///     assert_eq!(*h, pedersen_hash_array(m));
    /// }
    /// ```
    ///
    /// # Panics
    /// If `messages.len() != out.len()`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn pedersen_hash_array_batch_par(
        &self,
        messages: &[&[crate::Felt]],
        out: &mut [crate::Felt],
    ) {
        assert_eq!(
            messages.len(),
            out.len(),
            "pedersen_hash_array_batch_par: messages and out differ in length"
        );
        crate::pedersen::array_batch::hash_arrays(
            |p, o| self.pedersen_hash_batch_par(p, o),
            messages,
            out,
        )
    }

    /// [`Backend::double_batch`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::curve::{ProjectivePoint, GENERATOR};
    /// use starkbatch::Backend;
    /// let g = ProjectivePoint::from_affine(&GENERATOR);
    /// let mut pts = vec![g; 200];
    /// for i in 1..pts.len() {
    ///     pts[i] = pts[i - 1].add(&g);
    /// }
    /// let want: Vec<ProjectivePoint> = pts.iter().map(|p| p.double()).collect();
    /// Backend::detect().double_batch_par(&mut pts);
    /// assert_eq!(pts, want);
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn double_batch_par(&self, points: &mut [ProjectivePoint]) {
        let c = par_chunk(points.len(), self.lanes(), 64);
        points.par_chunks_mut(c).for_each(|p| self.double_batch(p));
    }

    /// [`Backend::add_batch`] on the rayon thread pool.
    ///
    /// ```
    /// use starkbatch::curve::{ProjectivePoint, GENERATOR};
    /// use starkbatch::Backend;
    /// let g = ProjectivePoint::from_affine(&GENERATOR);
    /// let mut pts = vec![g; 200];
    /// for i in 1..pts.len() {
    ///     pts[i] = pts[i - 1].add(&g);
    /// }
    /// let mut sums = pts.clone();
    /// Backend::detect().add_batch_par(&mut sums, &pts);
    /// assert!(sums.iter().zip(&pts).all(|(s, p)| *s == p.add(p)));
    /// ```
    ///
    /// # Panics
    /// If `points.len() != others.len()`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn add_batch_par(&self, points: &mut [ProjectivePoint], others: &[ProjectivePoint]) {
        assert_eq!(
            points.len(),
            others.len(),
            "add_batch_par: points and others differ in length"
        );
        let c = par_chunk(points.len(), self.lanes(), 64);
        points
            .par_chunks_mut(c)
            .zip(others.par_chunks(c))
            .for_each(|(p, o)| self.add_batch(p, o));
    }

    /// [`Backend::to_affine_batch`] on the rayon thread pool (one inversion per piece of at
    /// least 256 points).
    ///
    /// ```
    /// use starkbatch::curve::{AffinePoint, ProjectivePoint, GENERATOR};
    /// use starkbatch::Backend;
    /// let g = ProjectivePoint::from_affine(&GENERATOR);
    /// let mut pts = vec![g; 300];
    /// for i in 1..pts.len() {
    ///     pts[i] = pts[i - 1].add(&g);
    /// }
    /// let mut out = vec![AffinePoint::INFINITY; pts.len()];
    /// Backend::detect().to_affine_batch_par(&pts, &mut out);
    /// assert!(out.iter().zip(&pts).all(|(a, p)| *a == p.to_affine()));
    /// ```
    ///
    /// # Panics
    /// If `points.len() != out.len()`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn to_affine_batch_par(&self, points: &[ProjectivePoint], out: &mut [AffinePoint]) {
        assert_eq!(
            points.len(),
            out.len(),
            "to_affine_batch_par: points and out differ in length"
        );
        let c = par_chunk(points.len(), self.lanes(), 256);
        points
            .par_chunks(c)
            .zip(out.par_chunks_mut(c))
            .for_each(|(p, o)| self.to_affine_batch(p, o));
    }
}

#[cfg(test)]
mod tests {
    use crate::curve::{GENERATOR, ProjectivePoint};
    use alloc::vec::Vec;

    /// Scalars around the exceptional cases of the lane multiplication: 0, 1, even and odd,
    /// n − 1, n, n + 1, 2n − 2 (the final −Q meets −Q), the largest values, random ones.
    fn mul_cases() -> Vec<[u64; 4]> {
        let n = crate::curve::EC_ORDER_LIMBS;
        let add = |a: [u64; 4], b: u64| {
            let mut r = a;
            let (v, mut c) = r[0].overflowing_add(b);
            r[0] = v;
            for x in r.iter_mut().skip(1) {
                let (v, c2) = x.overflowing_add(c as u64);
                *x = v;
                c = c2;
            }
            r
        };
        let sub1 = |a: [u64; 4]| {
            let mut r = a;
            for x in r.iter_mut() {
                let (v, b) = x.overflowing_sub(1);
                *x = v;
                if !b {
                    break;
                }
            }
            r
        };
        let mut two_n = [0u64; 4];
        let mut carry = 0u64;
        for j in 0..4 {
            two_n[j] = (n[j] << 1) | carry;
            carry = n[j] >> 63;
        }
        let mut v = vec![
            [0, 0, 0, 0],
            [1, 0, 0, 0],
            [2, 0, 0, 0],
            [15, 0, 0, 0],
            [16, 0, 0, 0],
            [17, 0, 0, 0],
            sub1(n),
            n,
            add(n, 1),
            sub1(sub1(two_n)),
            two_n,
            [u64::MAX; 4],
            [u64::MAX - 1, u64::MAX, u64::MAX, u64::MAX],
            [0, 0, 0, 1 << 63],
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..13 {
            let mut k = [0u64; 4];
            for l in k.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *l = x;
            }
            k[3] >>= 4;
            v.push(k);
        }
        v
    }

    #[test]
    fn mul_affine_tables_matches_mul_vartime() {
        let cases = mul_cases();
        let bases: Vec<ProjectivePoint> = (0..cases.len() as u64)
            .map(|i| GENERATOR.mul_vartime(&[i * 7 + 3, i, 0, 0]))
            .collect();
        let mut tables = Vec::new();
        for q in &bases {
            let q2 = q.double();
            let mut t = *q;
            for _ in 0..8 {
                tables.push(t.to_affine());
                t = t.add(&q2);
            }
        }
        for run in 0..3 {
            // Every tail length, so that every case sits in every lane position.
            for start in 0..8.min(cases.len()) {
                let sc = &cases[start..];
                let tb = &tables[8 * start..];
                let mut out = vec![ProjectivePoint::INFINITY; sc.len()];
                // SAFETY: neither reference type needs a CPU feature.
                unsafe {
                    match run {
                        0 => super::lanes_portable::mul_affine_tables(tb, sc, &mut out),
                        1 => super::x4::mul_affine_tables(tb, sc, &mut out),
                        _ => crate::Backend::current().mul_affine_tables(tb, sc, &mut out),
                    }
                }
                for (j, (o, k)) in out.iter().zip(sc).enumerate() {
                    let want = bases[start + j].mul_vartime(k);
                    assert_eq!(*o, want, "run {run}, start {start}, case {j}");
                }
            }
        }
        for backend in crate::Backend::available() {
            let mut out = vec![ProjectivePoint::INFINITY; cases.len()];
            backend.mul_affine_tables(&tables, &cases, &mut out);
            for (j, (o, k)) in out.iter().zip(&cases).enumerate() {
                assert_eq!(*o, bases[j].mul_vartime(k), "{backend:?} case {j}");
            }
        }
    }

    /// The Pedersen batch through the reference entry points and every available backend's,
    /// at every length up to three groups of eight and one more (each tail length, so every
    /// input sits in every lane position).
    #[test]
    fn pedersen_entries_match_scalar() {
        let pairs: Vec<[crate::Felt; 2]> = (0..25u64)
            .map(|i| {
                let a = crate::Felt::from(i * 0x9e37_79b9_7f4a_7c15 + 5).pow(5);
                [a, a.double() + crate::Felt::MAX]
            })
            .collect();
        let want: Vec<crate::Felt> = pairs
            .iter()
            .map(|[a, b]| crate::pedersen_hash(a, b))
            .collect();
        for n in 0..=pairs.len() {
            for run in 0..2 {
                let mut out = vec![crate::Felt::ZERO; n];
                // SAFETY: neither reference type needs a CPU feature.
                unsafe {
                    if run == 0 {
                        super::lanes_portable::pedersen_hash_batch(&pairs[..n], &mut out);
                    } else {
                        super::x4::pedersen_hash_batch(&pairs[..n], &mut out);
                    }
                }
                assert_eq!(out, want[..n], "run {run}, n {n}");
            }
            for backend in crate::Backend::available() {
                let mut out = vec![crate::Felt::ZERO; n];
                // The entry point itself (the method sends batches this short to the scalar
                // code).
                entry(backend, &pairs[..n], &mut out);
                assert_eq!(out, want[..n], "{backend:?}, n {n}");
            }
        }
    }

    /// Calls `backend`'s Pedersen entry point directly.
    fn entry(backend: crate::Backend, inputs: &[[crate::Felt; 2]], out: &mut [crate::Felt]) {
        use super::*;
        curve_dispatch!(backend, pedersen_hash_batch(inputs, out))
    }

    #[test]
    fn reference_lane_types_match_scalar() {
        // The 9×28-bit field over plain arrays (the reference for the SIMD lanes) and the
        // four interleaved scalar lanes (the earlier portable type), on a batch with
        // infinity, P + P and P + (−P) mixed in.
        let mut a: Vec<ProjectivePoint> = (1..=11u64)
            .map(|k| GENERATOR.mul_vartime(&[k * 0x9e37_79b9, k, 0, 0]))
            .collect();
        let mut b: Vec<ProjectivePoint> = (1..=11u64)
            .map(|k| GENERATOR.mul_vartime(&[k, 0, k, 0]))
            .collect();
        a[2] = ProjectivePoint::INFINITY;
        b[5] = ProjectivePoint::INFINITY;
        b[6] = a[6];
        b[7] = a[7].neg();
        for run in 0..2 {
            let mut d = a.clone();
            let mut s = a.clone();
            let mut out = vec![crate::curve::AffinePoint::INFINITY; a.len()];
            // SAFETY: neither reference type needs a CPU feature.
            unsafe {
                if run == 0 {
                    super::lanes_portable::double_points(&mut d);
                    super::lanes_portable::add_points(&mut s, &b);
                    super::lanes_portable::to_affine_points(&a, &mut out);
                } else {
                    super::x4::double_points(&mut d);
                    super::x4::add_points(&mut s, &b);
                    super::x4::to_affine_points(&a, &mut out);
                }
            }
            for i in 0..a.len() {
                let (dw, sw) = (a[i].double(), a[i].add(&b[i]));
                assert_eq!([d[i].x, d[i].y, d[i].z], [dw.x, dw.y, dw.z]);
                assert_eq!(
                    [s[i].x, s[i].y, s[i].z],
                    [sw.x, sw.y, sw.z],
                    "run {run}, i {i}"
                );
                assert_eq!(out[i], a[i].to_affine());
            }
        }
    }
}
