//! [`AffinePoint`]: a point (x, y) of the STARK curve, or the point at infinity.

use super::{ALPHA, BETA, CurveError, ProjectivePoint};
use crate::Felt;
use core::ops::{Add, Neg, Sub};

/// A point of the STARK curve in affine coordinates, or the point at infinity
/// (`infinity == true`, in which case `x` and `y` are zero and carry no meaning).
///
/// The fields mirror `starknet-curve`'s (pre-0.5) and `pathfinder-crypto`'s `AffinePoint`.
/// Constructors ([`AffinePoint::new`], [`AffinePoint::from_x`]) check that the point is on the
/// curve; building the struct by hand skips that check (see [`AffinePoint::is_on_curve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AffinePoint {
    /// The x-coordinate.
    pub x: Felt,
    /// The y-coordinate.
    pub y: Felt,
    /// Whether this is the point at infinity (the group identity).
    pub infinity: bool,
}

impl AffinePoint {
    /// The point at infinity.
    pub const INFINITY: AffinePoint = AffinePoint {
        x: Felt::ZERO,
        y: Felt::ZERO,
        infinity: true,
    };

    /// The point at infinity (the group identity).
    pub const fn identity() -> AffinePoint {
        AffinePoint::INFINITY
    }

    /// The point (x, y), or an error if it is not on the curve.
    pub fn new(x: Felt, y: Felt) -> Result<AffinePoint, CurveError> {
        let p = AffinePoint {
            x,
            y,
            infinity: false,
        };
        if p.is_on_curve() {
            Ok(p)
        } else {
            Err(CurveError::NotOnCurve { x, y })
        }
    }

    /// The point (x, y) without checking the curve equation (for constants).
    pub const fn new_unchecked(x: Felt, y: Felt) -> AffinePoint {
        AffinePoint {
            x,
            y,
            infinity: false,
        }
    }

    /// The right-hand side of the curve equation, x³ + α·x + β.
    #[inline]
    pub fn rhs(x: &Felt) -> Felt {
        x.square() * x + ALPHA * x + BETA
    }

    /// The point with this x-coordinate whose y is the smaller square root (as an integer,
    /// `y <= p − y`) of x³ + x + β — the root `starknet-crypto` 0.8 picks (its `verify` and
    /// `recover` take `Felt::sqrt`, which returns the lower root). The other point is its
    /// negation. Errors when no point has this x.
    pub fn from_x(x: Felt) -> Result<AffinePoint, CurveError> {
        match Self::rhs(&x).sqrt() {
            Some(y) => Ok(AffinePoint {
                x,
                y,
                infinity: false,
            }),
            None => Err(CurveError::NotOnCurveX { x }),
        }
    }

    /// The point with this x-coordinate whose y has the given parity (lowest bit of its
    /// integer value), as `starknet-types-core`'s `AffinePoint::new_from_x`; `None` when no
    /// point has this x.
    pub fn new_from_x(x: &Felt, y_parity: bool) -> Option<AffinePoint> {
        let p = AffinePoint::from_x(*x).ok()?;
        if p.y.bit(0) == y_parity {
            Some(p)
        } else {
            Some(p.neg())
        }
    }

    /// The generator G ([`super::GENERATOR`]).
    pub const fn generator() -> AffinePoint {
        super::GENERATOR
    }

    /// Whether this is the point at infinity (the name `starknet-types-core` uses).
    #[inline]
    pub const fn is_identity(&self) -> bool {
        self.infinity
    }

    /// Whether the point satisfies y² = x³ + x + β (the point at infinity does).
    pub fn is_on_curve(&self) -> bool {
        self.infinity || self.y.square() == Self::rhs(&self.x)
    }

    /// The coordinates (x, y), or [`CurveError::Infinity`] for the point at infinity.
    pub fn coordinates(&self) -> Result<(Felt, Felt), CurveError> {
        if self.infinity {
            Err(CurveError::Infinity)
        } else {
            Ok((self.x, self.y))
        }
    }

    /// Whether this is the point at infinity.
    #[inline]
    pub const fn is_infinity(&self) -> bool {
        self.infinity
    }

    /// `2·self`.
    pub fn double(&self) -> AffinePoint {
        ProjectivePoint::from_affine(self).double().to_affine()
    }

    /// `-self`: (x, −y).
    #[inline]
    pub fn neg(&self) -> AffinePoint {
        AffinePoint {
            x: self.x,
            y: -self.y,
            infinity: self.infinity,
        }
    }

    /// `scalar·self` for a scalar given as little-endian `u64` limbs of its integer value (any
    /// 256-bit value; it is used as is, not reduced). Variable time: for public scalars.
    pub fn mul_vartime(&self, scalar: &[u64; 4]) -> ProjectivePoint {
        ProjectivePoint::from_affine(self).mul_vartime(scalar)
    }
}

impl Neg for AffinePoint {
    type Output = AffinePoint;
    fn neg(self) -> AffinePoint {
        AffinePoint::neg(&self)
    }
}

impl Neg for &AffinePoint {
    type Output = AffinePoint;
    fn neg(self) -> AffinePoint {
        AffinePoint::neg(self)
    }
}

impl Add for AffinePoint {
    type Output = AffinePoint;
    fn add(self, rhs: AffinePoint) -> AffinePoint {
        ProjectivePoint::from_affine(&self)
            .add_affine(&rhs)
            .to_affine()
    }
}

impl Sub for AffinePoint {
    type Output = AffinePoint;
    fn sub(self, rhs: AffinePoint) -> AffinePoint {
        ProjectivePoint::from_affine(&self)
            .sub_affine(&rhs)
            .to_affine()
    }
}

impl From<&ProjectivePoint> for AffinePoint {
    fn from(p: &ProjectivePoint) -> AffinePoint {
        p.to_affine()
    }
}

impl From<ProjectivePoint> for AffinePoint {
    fn from(p: ProjectivePoint) -> AffinePoint {
        p.to_affine()
    }
}
