//! Precomputed window tables for the Pedersen points, built once on first use.
//!
//! For a low part (248 bits) and its point P, window i holds the affine points
//! d·2^(W·i)·P for d = 1..=2^(W−1) (signed digits: −d·Q is (x, −y), free). For a high part
//! (4 bits) the table holds d·P for d = 1..=15.

use super::points::{P0, P1, P2, P3};
use crate::curve::{AffinePoint, ProjectivePoint};
use crate::Felt;
use std::sync::OnceLock;

/// Window width in bits for the 248-bit low parts.
pub(crate) const W: usize = 10;
/// Entries per window: the magnitudes 1..=2^(W−1).
pub(crate) const HALF: usize = 1 << (W - 1);
/// Number of windows for a 248-bit value: enough that the top window has a spare bit, so the
/// signed recoding never carries out of it (W·WINDOWS >= 249).
pub(crate) const WINDOWS: usize = 249usize.div_ceil(W);
/// Entries of a high-part table: d·P for d = 1..=15.
pub(crate) const HIGH: usize = 15;

/// An affine table point, aligned to one 64-byte cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Entry {
    pub(crate) x: Felt,
    pub(crate) y: Felt,
}

/// All four tables.
pub(crate) struct Tables {
    /// P0 windows, `WINDOWS · HALF` entries: index `i·HALF + d − 1` holds d·2^(W·i)·P0.
    pub(crate) p0: Vec<Entry>,
    /// d·P1 at index d − 1.
    pub(crate) p1: [Entry; HIGH],
    /// P2 windows, as for P0.
    pub(crate) p2: Vec<Entry>,
    /// d·P3 at index d − 1.
    pub(crate) p3: [Entry; HIGH],
}

/// The window tables of `p` (Jacobian, not yet normalised), appended to `out`.
fn low_windows(p: &AffinePoint, out: &mut Vec<ProjectivePoint>) {
    let mut base = *p;
    for _ in 0..WINDOWS {
        let start = out.len();
        let mut m = ProjectivePoint::from_affine(&base);
        for _ in 0..HALF {
            out.push(m);
            m = m.add_affine(&base);
        }
        // 2^(W-1)·base doubled is the next window's base.
        base = out[start + HALF - 1].double().to_affine();
    }
}

fn high_window(p: &AffinePoint, out: &mut Vec<ProjectivePoint>) {
    let mut m = ProjectivePoint::from_affine(p);
    for _ in 0..HIGH {
        out.push(m);
        m = m.add_affine(p);
    }
}

fn build() -> Tables {
    let mut jac = Vec::with_capacity(2 * WINDOWS * HALF + 2 * HIGH);
    low_windows(&P0, &mut jac);
    low_windows(&P2, &mut jac);
    high_window(&P1, &mut jac);
    high_window(&P3, &mut jac);
    let aff = ProjectivePoint::batch_to_affine(&jac);
    let entry = |p: &AffinePoint| Entry { x: p.x, y: p.y };
    let n = WINDOWS * HALF;
    let mut p1 = [Entry {
        x: Felt::ZERO,
        y: Felt::ZERO,
    }; HIGH];
    let mut p3 = p1;
    for d in 0..HIGH {
        p1[d] = entry(&aff[2 * n + d]);
        p3[d] = entry(&aff[2 * n + HIGH + d]);
    }
    Tables {
        p0: aff[..n].iter().map(entry).collect(),
        p1,
        p2: aff[n..2 * n].iter().map(entry).collect(),
        p3,
    }
}

/// The tables, built on the first call.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// Bytes held by the tables.
pub(crate) const TABLE_BYTES: usize = (2 * WINDOWS * HALF + 2 * HIGH) * 64;
