//! [`ProjectivePoint`]: a point of the STARK curve in Jacobian coordinates.

use super::formulas;
use super::{AffinePoint, BETA};
use crate::Felt;
use alloc::vec::Vec;
use core::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// A point of the STARK curve in Jacobian coordinates: (X, Y, Z) stands for the affine point
/// (X/Z², Y/Z³), and any triple with Z = 0 is the point at infinity.
///
/// Equality ([`PartialEq`]) compares the points, not the triples. All arithmetic here is exact
/// for every input (infinity, P + P, P + (−P)) and variable time (it branches on those cases);
/// the constant-time path is [`super::mul_generator_ct`].
#[derive(Clone, Copy, Debug)]
pub struct ProjectivePoint {
    /// X (the affine x is X/Z²).
    pub x: Felt,
    /// Y (the affine y is Y/Z³).
    pub y: Felt,
    /// Z (zero for the point at infinity).
    pub z: Felt,
}

impl ProjectivePoint {
    /// The point at infinity, (1, 1, 0).
    pub const INFINITY: ProjectivePoint = ProjectivePoint {
        x: Felt::ONE,
        y: Felt::ONE,
        z: Felt::ZERO,
    };

    /// The point at infinity (the group identity).
    pub const fn identity() -> ProjectivePoint {
        ProjectivePoint::INFINITY
    }

    /// Whether this is the point at infinity (Z = 0).
    #[inline]
    pub const fn is_infinity(&self) -> bool {
        self.z.is_zero()
    }

    /// Whether this is the point at infinity (the name `starknet-types-core` uses).
    #[inline]
    pub const fn is_identity(&self) -> bool {
        self.z.is_zero()
    }

    /// The Jacobian form (x, y, 1) of an affine point (infinity maps to infinity).
    #[inline]
    pub const fn from_affine(p: &AffinePoint) -> ProjectivePoint {
        if p.infinity {
            ProjectivePoint::INFINITY
        } else {
            ProjectivePoint {
                x: p.x,
                y: p.y,
                z: Felt::ONE,
            }
        }
    }

    /// The affine point (X/Z², Y/Z³), with one inversion; infinity maps to
    /// [`AffinePoint::INFINITY`].
    pub fn to_affine(&self) -> AffinePoint {
        match self.z.inverse() {
            None => AffinePoint::INFINITY,
            Some(zinv) => {
                let zinv2 = zinv.square();
                AffinePoint {
                    x: self.x * zinv2,
                    y: self.y * zinv2 * zinv,
                    infinity: false,
                }
            }
        }
    }

    /// Converts many points with one inversion in total (Montgomery's trick).
    pub fn batch_to_affine(points: &[ProjectivePoint]) -> Vec<AffinePoint> {
        let mut zs: Vec<Felt> = points.iter().map(|p| p.z).collect();
        Felt::batch_inverse(&mut zs);
        points
            .iter()
            .zip(zs.iter())
            .map(|(p, zinv)| {
                if p.is_infinity() {
                    AffinePoint::INFINITY
                } else {
                    let zinv2 = zinv.square();
                    AffinePoint {
                        x: p.x * zinv2,
                        y: p.y * zinv2 * zinv,
                        infinity: false,
                    }
                }
            })
            .collect()
    }

    /// Whether the point satisfies the curve equation in Jacobian form,
    /// Y² = X³ + X·Z⁴ + β·Z⁶ (infinity does).
    pub fn is_on_curve(&self) -> bool {
        if self.is_infinity() {
            return true;
        }
        let z2 = self.z.square();
        let z4 = z2.square();
        let z6 = z4 * z2;
        self.y.square() == self.x.square() * self.x + self.x * z4 + BETA * z6
    }

    /// `2·self` (dbl-2007-bl; see [`formulas::double`]). Exact for every input.
    #[inline]
    pub fn double(&self) -> ProjectivePoint {
        let (x, y, z) = formulas::double(self.x, self.y, self.z);
        ProjectivePoint { x, y, z }
    }

    /// `-self`: (X, −Y, Z).
    #[inline]
    pub fn neg(&self) -> ProjectivePoint {
        ProjectivePoint {
            x: self.x,
            y: -self.y,
            z: self.z,
        }
    }

    /// `self + other` (add-2007-bl), exact for infinity inputs, P + P and P + (−P).
    #[inline]
    pub fn add(&self, other: &ProjectivePoint) -> ProjectivePoint {
        if self.is_infinity() {
            return *other;
        }
        if other.is_infinity() {
            return *self;
        }
        let ((x, y, z), h, r) =
            formulas::add_unchecked(self.x, self.y, self.z, other.x, other.y, other.z);
        if h.is_zero() {
            return if r.is_zero() {
                self.double()
            } else {
                ProjectivePoint::INFINITY
            };
        }
        ProjectivePoint { x, y, z }
    }

    /// `self + other` for an affine `other` (mixed addition, madd-2007-bl), exact for infinity
    /// inputs, P + P and P + (−P).
    #[inline]
    pub fn add_affine(&self, other: &AffinePoint) -> ProjectivePoint {
        if other.infinity {
            return *self;
        }
        if self.is_infinity() {
            return ProjectivePoint::from_affine(other);
        }
        let ((x, y, z), h, r) =
            formulas::add_affine_unchecked(self.x, self.y, self.z, other.x, other.y);
        if h.is_zero() {
            return if r.is_zero() {
                self.double()
            } else {
                ProjectivePoint::INFINITY
            };
        }
        ProjectivePoint { x, y, z }
    }

    /// `self − other` for an affine `other`.
    #[inline]
    pub fn sub_affine(&self, other: &AffinePoint) -> ProjectivePoint {
        self.add_affine(&other.neg())
    }
}

impl PartialEq for ProjectivePoint {
    /// Point equality: X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³ (or both infinity).
    fn eq(&self, other: &ProjectivePoint) -> bool {
        match (self.is_infinity(), other.is_infinity()) {
            (true, true) => true,
            (false, false) => {
                let z1z1 = self.z.square();
                let z2z2 = other.z.square();
                self.x * z2z2 == other.x * z1z1
                    && self.y * z2z2 * other.z == other.y * z1z1 * self.z
            }
            _ => false,
        }
    }
}

impl Eq for ProjectivePoint {}

impl From<&AffinePoint> for ProjectivePoint {
    fn from(p: &AffinePoint) -> ProjectivePoint {
        ProjectivePoint::from_affine(p)
    }
}

impl From<AffinePoint> for ProjectivePoint {
    fn from(p: AffinePoint) -> ProjectivePoint {
        ProjectivePoint::from_affine(&p)
    }
}

impl Add<&ProjectivePoint> for &ProjectivePoint {
    type Output = ProjectivePoint;
    fn add(self, rhs: &ProjectivePoint) -> ProjectivePoint {
        ProjectivePoint::add(self, rhs)
    }
}

impl Add for ProjectivePoint {
    type Output = ProjectivePoint;
    fn add(self, rhs: ProjectivePoint) -> ProjectivePoint {
        ProjectivePoint::add(&self, &rhs)
    }
}

impl Add<&AffinePoint> for &ProjectivePoint {
    type Output = ProjectivePoint;
    fn add(self, rhs: &AffinePoint) -> ProjectivePoint {
        self.add_affine(rhs)
    }
}

impl AddAssign<&ProjectivePoint> for ProjectivePoint {
    fn add_assign(&mut self, rhs: &ProjectivePoint) {
        *self = ProjectivePoint::add(self, rhs);
    }
}

impl AddAssign<&AffinePoint> for ProjectivePoint {
    fn add_assign(&mut self, rhs: &AffinePoint) {
        *self = self.add_affine(rhs);
    }
}

impl Sub<&ProjectivePoint> for &ProjectivePoint {
    type Output = ProjectivePoint;
    fn sub(self, rhs: &ProjectivePoint) -> ProjectivePoint {
        ProjectivePoint::add(self, &rhs.neg())
    }
}

impl Sub for ProjectivePoint {
    type Output = ProjectivePoint;
    fn sub(self, rhs: ProjectivePoint) -> ProjectivePoint {
        ProjectivePoint::add(&self, &rhs.neg())
    }
}

impl SubAssign<&ProjectivePoint> for ProjectivePoint {
    fn sub_assign(&mut self, rhs: &ProjectivePoint) {
        *self = ProjectivePoint::add(self, &rhs.neg());
    }
}

impl Neg for ProjectivePoint {
    type Output = ProjectivePoint;
    fn neg(self) -> ProjectivePoint {
        ProjectivePoint::neg(&self)
    }
}

impl Neg for &ProjectivePoint {
    type Output = ProjectivePoint;
    fn neg(self) -> ProjectivePoint {
        ProjectivePoint::neg(self)
    }
}
