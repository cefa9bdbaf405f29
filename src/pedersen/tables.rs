//! Precomputed window tables for the Pedersen points, built once on first use.
//!
//! For a low part (248 bits) and its point P, window i holds the affine points
//! d·2^(W·i)·P for d = 1..=2^(W−1) (signed digits: −d·Q is (x, −y), free). For a high part
//! (4 bits) the table holds d·P for d = 1..=15.

use super::points::{P0, P1, P2, P3, SHIFT_POINT};
use crate::Felt;
use crate::curve::{ALPHA, AffinePoint, ProjectivePoint};
use crate::sync::OnceTable;
use alloc::vec;
use alloc::vec::Vec;

/// Window width in bits for the 248-bit low parts.
pub(crate) const W: usize = 10;
/// Entries per window: the magnitudes 1..=2^(W−1).
pub(crate) const HALF: usize = 1 << (W - 1);
/// Number of windows for a 248-bit value: enough that the top window has a spare bit, so the
/// signed recoding never carries out of it (W·WINDOWS >= 249).
pub(crate) const WINDOWS: usize = 249usize.div_ceil(W);
/// Values a high part can take: 0..=8 (x < p < 2^251 + 2^248).
pub(crate) const HIGH: usize = 9;

/// An affine table point, aligned to one 64-byte cache line.
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(64))]
pub(crate) struct Entry {
    pub(crate) x: Felt,
    pub(crate) y: Felt,
}

/// All four tables.
pub(crate) struct Tables {
    /// P0 windows, `WINDOWS · HALF` entries: index `i·HALF + d − 1` holds d·2^(W·i)·P0.
    pub(crate) p0: Vec<Entry>,
    /// P2 windows, as for P0.
    pub(crate) p2: Vec<Entry>,
    /// S + a·P1 + b·P3 at index `a·HIGH + b`.
    pub(crate) start: Vec<Entry>,
}

/// The window tables of every point in `points`, each `WINDOWS · HALF` entries long.
///
/// All windows advance together in affine coordinates: step d turns d·B into (d+1)·B for every
/// window base B at once, with one batched inversion for all the slopes (Montgomery's trick),
/// so an entry costs about 3M for its share of the inversion plus 2M + 1S for the addition.
/// The bases 2^(W·i)·P come from W doublings each, normalised together.
fn low_windows(points: &[AffinePoint]) -> Vec<Vec<Entry>> {
    // bases[k] for k = point·WINDOWS + window.
    let mut jac_bases = Vec::with_capacity(points.len() * WINDOWS);
    for p in points {
        let mut b = ProjectivePoint::from_affine(p);
        for _ in 0..WINDOWS {
            jac_bases.push(b);
            for _ in 0..W {
                b = b.double();
            }
        }
    }
    let bases = ProjectivePoint::batch_to_affine(&jac_bases);
    let k = bases.len();
    let mut tables: Vec<Vec<Entry>> = vec![Vec::with_capacity(HALF); k];
    for (t, b) in tables.iter_mut().zip(&bases) {
        t.push(Entry { x: b.x, y: b.y });
    }
    // 2·B with the affine tangent: λ = (3x² + α) / 2y.
    let mut den: Vec<Felt> = bases.iter().map(|b| b.y.double()).collect();
    Felt::batch_inverse(&mut den);
    let mut cur: Vec<(Felt, Felt)> = bases
        .iter()
        .zip(&den)
        .map(|(b, inv)| {
            let xx = b.x.square();
            let lambda = (xx.double() + xx + ALPHA) * inv;
            let x3 = lambda.square() - b.x.double();
            let y3 = lambda * (b.x - x3) - b.y;
            (x3, y3)
        })
        .collect();
    for step in 2..=HALF {
        for (t, c) in tables.iter_mut().zip(&cur) {
            t.push(Entry { x: c.0, y: c.1 });
        }
        if step == HALF {
            break;
        }
        // (d+1)·B = d·B + B with the chord: λ = (y_B − y) / (x_B − x). x_B ≠ x because
        // d·B ≠ ±B for 2 <= d < n.
        for ((d, c), b) in den.iter_mut().zip(&cur).zip(&bases) {
            *d = b.x - c.0;
        }
        Felt::batch_inverse(&mut den);
        for ((c, inv), b) in cur.iter_mut().zip(&den).zip(&bases) {
            let lambda = (b.y - c.1) * inv;
            let x3 = lambda.square() - c.0 - b.x;
            let y3 = lambda * (c.0 - x3) - c.1;
            *c = (x3, y3);
        }
    }
    // Concatenate the windows of each point.
    tables
        .chunks(WINDOWS)
        .map(|windows| windows.concat())
        .collect()
}

/// S + a·P1 + b·P3 for a, b in 0..HIGH, appended to `out` in the order a·HIGH + b.
fn start_table(out: &mut Vec<ProjectivePoint>) {
    let mut row = ProjectivePoint::from_affine(&SHIFT_POINT);
    for _ in 0..HIGH {
        let mut m = row;
        for _ in 0..HIGH {
            out.push(m);
            m = m.add_affine(&P3);
        }
        row = row.add_affine(&P1);
    }
}

fn build() -> Tables {
    let mut low = low_windows(&[P0, P2]);
    let p2 = low.pop().unwrap_or_default();
    let p0 = low.pop().unwrap_or_default();
    let mut jac = Vec::with_capacity(HIGH * HIGH);
    start_table(&mut jac);
    let start = ProjectivePoint::batch_to_affine(&jac)
        .iter()
        .map(|p| Entry { x: p.x, y: p.y })
        .collect();
    Tables { p0, p2, start }
}

/// The tables, built on the first call.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceTable<Tables> = OnceTable::new();
    TABLES.get_or_init(build)
}

/// Bytes held by the tables.
pub(crate) const TABLE_BYTES: usize = (2 * WINDOWS * HALF + HIGH * HIGH) * 64;

/// The P0 and P2 windows with every coordinate multiplied by `2^shift`, for lane types that
/// load such values without a conversion product (`PackedSelect::LOAD_SHIFT`): `shift` 0 is the
/// tables themselves; 4 (AVX-512 IFMA) is a second copy of the windows, built on its first use
/// from the first (four doublings per coordinate) and kept: [`PRESCALED_BYTES`] more.
///
/// # Panics
/// For another `shift` (a programming error: no backend has one).
pub(crate) fn windows_prescaled(shift: u32) -> (&'static [Entry], &'static [Entry]) {
    match shift {
        0 => {
            let t = tables();
            (&t.p0, &t.p2)
        }
        4 => {
            static SCALED: OnceTable<[Vec<Entry>; 2]> = OnceTable::new();
            let [p0, p2] = SCALED.get_or_init(|| {
                let t = tables();
                let scale = |w: &[Entry]| -> Vec<Entry> {
                    let x16 = |v: Felt| v.double().double().double().double();
                    w.iter()
                        .map(|e| Entry {
                            x: x16(e.x),
                            y: x16(e.y),
                        })
                        .collect()
                };
                [scale(&t.p0), scale(&t.p2)]
            });
            (p0, p2)
        }
        _ => panic!("no prescaled Pedersen windows for shift {shift}"),
    }
}

/// Bytes of the prescaled windows (allocated on the first batch in AVX-512 IFMA lanes).
pub(crate) const PRESCALED_BYTES: usize = 2 * WINDOWS * HALF * 64;
