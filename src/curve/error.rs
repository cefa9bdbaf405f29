//! [`CurveError`]: why an input is not a usable point of the STARK curve.

use crate::Felt;
use core::fmt;

/// Why a value could not be turned into a point of the STARK curve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CurveError {
    /// No point of the curve has this x-coordinate (x³ + x + β is not a square mod p).
    NotOnCurveX {
        /// The rejected x-coordinate.
        x: Felt,
    },
    /// The pair (x, y) does not satisfy y² = x³ + x + β.
    NotOnCurve {
        /// The x-coordinate given.
        x: Felt,
        /// The y-coordinate given.
        y: Felt,
    },
    /// The point at infinity was given where a finite point is needed (for example, its
    /// affine coordinates were asked for).
    Infinity,
}

impl fmt::Display for CurveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CurveError::NotOnCurveX { x } => write!(
                f,
                "no point of the STARK curve has x = {x}: x^3 + x + beta is not a square mod p"
            ),
            CurveError::NotOnCurve { x, y } => write!(
                f,
                "({x}, {y}) is not on the STARK curve y^2 = x^3 + x + beta"
            ),
            CurveError::Infinity => {
                write!(f, "the point at infinity has no affine coordinates")
            }
        }
    }
}

impl core::error::Error for CurveError {}
