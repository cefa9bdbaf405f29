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
/// ```
/// use starkbatch::add_batch;
/// use starkbatch::curve::{ProjectivePoint, GENERATOR};
/// let g = ProjectivePoint::from_affine(&GENERATOR);
/// let a = [g, g, g.double(), ProjectivePoint::INFINITY];
/// let b = [g.double(), g, g.double().neg(), g];
/// let mut sum = a;
/// add_batch(&mut sum, &b);
/// assert_eq!(sum, [g.double().add(&g), g.double(), ProjectivePoint::INFINITY, g]);
/// ```
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
/// ```
/// use starkbatch::curve::{AffinePoint, ProjectivePoint, GENERATOR};
/// use starkbatch::to_affine_batch;
/// let g = ProjectivePoint::from_affine(&GENERATOR);
/// let pts = [g, ProjectivePoint::INFINITY, g.double()];
/// let mut out = [AffinePoint::INFINITY; 3];
/// to_affine_batch(&pts, &mut out);
/// assert_eq!(out, [GENERATOR, AffinePoint::INFINITY, g.double().to_affine()]);
/// ```
///
/// # Panics
/// If `points.len() != out.len()`, or if `STARKBATCH_BACKEND` names a backend this CPU lacks.
pub fn to_affine_batch(points: &[ProjectivePoint], out: &mut [AffinePoint]) {
    Backend::current().to_affine_batch(points, out)
}

/// [`double_batch`] split over the rayon thread pool.
///
/// ```
/// use starkbatch::curve::{ProjectivePoint, GENERATOR};
/// use starkbatch::double_batch_par;
/// let g = ProjectivePoint::from_affine(&GENERATOR);
/// let mut pts = vec![g; 200];
/// for i in 1..pts.len() {
///     pts[i] = pts[i - 1].add(&g);
/// }
/// let want: Vec<ProjectivePoint> = pts.iter().map(|p| p.double()).collect();
/// double_batch_par(&mut pts);
/// assert_eq!(pts, want);
/// ```
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
/// ```
/// use starkbatch::add_batch_par;
/// use starkbatch::curve::{ProjectivePoint, GENERATOR};
/// let g = ProjectivePoint::from_affine(&GENERATOR);
/// let mut pts = vec![g; 200];
/// for i in 1..pts.len() {
///     pts[i] = pts[i - 1].add(&g);
/// }
/// let mut sums = vec![g; pts.len()];
/// add_batch_par(&mut sums, &pts);
/// assert!(sums.iter().zip(&pts).all(|(s, p)| *s == p.add(&g)));
/// ```
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
/// ```
/// use starkbatch::curve::{AffinePoint, ProjectivePoint, GENERATOR};
/// use starkbatch::to_affine_batch_par;
/// let g = ProjectivePoint::from_affine(&GENERATOR);
/// let mut pts = vec![g; 300];
/// for i in 1..pts.len() {
///     pts[i] = pts[i - 1].add(&g);
/// }
/// let mut out = vec![AffinePoint::INFINITY; pts.len()];
/// to_affine_batch_par(&pts, &mut out);
/// assert_eq!(out, ProjectivePoint::batch_to_affine(&pts));
/// ```
///
/// # Panics
/// As [`to_affine_batch`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn to_affine_batch_par(points: &[ProjectivePoint], out: &mut [AffinePoint]) {
    Backend::current().to_affine_batch_par(points, out)
}
