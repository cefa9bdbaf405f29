//! Batch curve operations on the current backend's lanes: the free functions over
//! [`Backend::current`] (the algorithms are in `crate::curve::batch`, instantiated per
//! instruction set in `super::curve_entry`).

use crate::backend::Backend;
use crate::curve::{AffinePoint, ProjectivePoint};

/// Doubles every point in place: `points[i] = points[i].double()`, on [`Backend::current`]'s
/// lanes. Results are identical to [`ProjectivePoint::double`].
///
/// ```
/// use starkbatch::curve::{ProjectivePoint, GENERATOR};
/// use starkbatch::double_batch;
/// let g = ProjectivePoint::from_affine(&GENERATOR);
/// let mut pts = vec![g, ProjectivePoint::INFINITY, g.double()];
/// double_batch(&mut pts);
/// assert_eq!(pts[0], g.double());
/// assert!(pts[1].is_infinity());
/// assert_eq!(pts[2], g.double().double());
/// ```
///
/// # Panics
/// If `STARKBATCH_BACKEND` names a backend this CPU lacks (see [`Backend::current`]).
///
/// [`Backend::current`]: crate::Backend::current
pub fn double_batch(points: &mut [ProjectivePoint]) {
    Backend::current().double_batch(points)
}

/// `points[i] = points[i] + others[i]` (exact for infinity, P + P and P + (−P), identical to
/// [`ProjectivePoint::add`]) on [`Backend::current`](crate::Backend::current)'s lanes.
///
/// # Panics
/// If `points.len() != others.len()`, or if `STARKBATCH_BACKEND` names a backend this CPU
/// lacks.
pub fn add_batch(points: &mut [ProjectivePoint], others: &[ProjectivePoint]) {
    Backend::current().add_batch(points, others)
}

/// `out[i] = points[i].to_affine()` with one field inversion for the whole batch (Montgomery's
/// trick), on [`Backend::current`](crate::Backend::current)'s lanes. Branch-free in the point
/// values.
///
/// # Panics
/// If `points.len() != out.len()`, or if `STARKBATCH_BACKEND` names a backend this CPU lacks.
pub fn to_affine_batch(points: &[ProjectivePoint], out: &mut [AffinePoint]) {
    Backend::current().to_affine_batch(points, out)
}

/// [`double_batch`] split over the rayon thread pool.
///
/// # Panics
/// As [`double_batch`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn double_batch_par(points: &mut [ProjectivePoint]) {
    Backend::current().double_batch_par(points)
}

/// [`add_batch`] split over the rayon thread pool.
///
/// # Panics
/// As [`add_batch`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn add_batch_par(points: &mut [ProjectivePoint], others: &[ProjectivePoint]) {
    Backend::current().add_batch_par(points, others)
}

/// [`to_affine_batch`] split over the rayon thread pool (one inversion per piece).
///
/// # Panics
/// As [`to_affine_batch`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn to_affine_batch_par(points: &[ProjectivePoint], out: &mut [AffinePoint]) {
    Backend::current().to_affine_batch_par(points, out)
}
