//! Constant-time fixed-base multiplication by the generator, [`mul_generator_ct`].
//!
//! # Method
//! The scalar k (256 bits) is cut into 64 unsigned 4-bit windows, k = Σ d_i·16^i. A table built
//! once holds T[i][j] = (j+1)·16^i·G (affine, 64 × 15 points, 60 KiB), so
//! k·G = Σ_i T[i][d_i − 1] with no doubling at all: 64 mixed additions.
//!
//! # Constant time
//! - Every window reads all 15 entries of its row and keeps the wanted one with masks
//!   (no secret-dependent index or branch).
//! - Each step computes the generic mixed addition *and* the doubling of the accumulator and
//!   picks the right one with masks, so the exceptional cases (accumulator at infinity, equal
//!   points, digit 0) are handled without a branch. When the generic formula meets opposite
//!   points (H = 0, r ≠ 0), its Z3 = 2·Z1·H is already 0, i.e. infinity.
//! - The field operations of [`crate::Felt`] are branch-free.

use super::formulas;
use super::{ProjectivePoint, GENERATOR};
use crate::Felt;
use std::sync::OnceLock;

/// Number of 4-bit windows in a 256-bit scalar.
const WINDOWS: usize = 64;
/// Non-zero digits per window.
const ENTRIES: usize = 15;

/// An affine table entry (never the point at infinity).
#[derive(Clone, Copy)]
struct Entry {
    x: Felt,
    y: Felt,
}

/// T[i][j] = (j+1)·16^i·G.
fn table() -> &'static [[Entry; ENTRIES]] {
    static TABLE: OnceLock<Vec<[Entry; ENTRIES]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut points = Vec::with_capacity(WINDOWS * ENTRIES);
        let mut base = ProjectivePoint::from_affine(&GENERATOR);
        for _ in 0..WINDOWS {
            let mut m = base;
            for _ in 0..ENTRIES {
                points.push(m);
                m = m.add(&base);
            }
            // m is now 16·base.
            base = m;
        }
        let affine = ProjectivePoint::batch_to_affine(&points);
        affine
            .chunks_exact(ENTRIES)
            .map(|row| {
                let mut out = [Entry {
                    x: Felt::ZERO,
                    y: Felt::ZERO,
                }; ENTRIES];
                for (o, p) in out.iter_mut().zip(row) {
                    *o = Entry { x: p.x, y: p.y };
                }
                out
            })
            .collect()
    })
}

/// 1 if `v == 0`, else 0, without a branch.
#[inline(always)]
fn ct_is_zero_u64(v: u64) -> u64 {
    ((v | v.wrapping_neg()) >> 63) ^ 1
}

/// 1 if the field element is zero, else 0, without a branch.
#[inline(always)]
fn ct_is_zero(f: &Felt) -> u64 {
    ct_is_zero_u64(f.0[0] | f.0[1] | f.0[2] | f.0[3])
}

/// `k·G` for a secret scalar `k` given as little-endian `u64` limbs of its integer value (any
/// 256-bit value, used as is). Constant time in `k`: no branch and no memory index depends on
/// it (see the module docs). The result is in Jacobian form; [`ProjectivePoint::to_affine`]
/// inverts Z with a fixed exponentiation.
pub fn mul_generator_ct(scalar: &[u64; 4]) -> ProjectivePoint {
    let t = table();
    let mut acc = ProjectivePoint::INFINITY;
    for (i, row) in t.iter().enumerate() {
        let digit = (scalar[i / 16] >> (4 * (i % 16))) & 15;
        // Constant-time lookup of row[digit - 1] (all entries read).
        let mut px = Felt::ZERO;
        let mut py = Felt::ZERO;
        for (j, e) in row.iter().enumerate() {
            let hit = ct_is_zero_u64(digit ^ (j as u64 + 1));
            px = Felt::select(&px, &e.x, hit);
            py = Felt::select(&py, &e.y, hit);
        }
        let ((x3, y3, z3), h, r) = formulas::add_affine_unchecked(acc.x, acc.y, acc.z, px, py);
        let (dx, dy, dz) = formulas::double(acc.x, acc.y, acc.z);
        let acc_inf = ct_is_zero(&acc.z);
        let use_double = ct_is_zero(&h) & ct_is_zero(&r) & (acc_inf ^ 1);
        let mut x = Felt::select(&x3, &dx, use_double);
        let mut y = Felt::select(&y3, &dy, use_double);
        let mut z = Felt::select(&z3, &dz, use_double);
        // Accumulator at infinity: the sum is the table point.
        x = Felt::select(&x, &px, acc_inf);
        y = Felt::select(&y, &py, acc_inf);
        z = Felt::select(&z, &Felt::ONE, acc_inf);
        // Digit 0: keep the accumulator.
        let keep = ct_is_zero_u64(digit);
        acc = ProjectivePoint {
            x: Felt::select(&x, &acc.x, keep),
            y: Felt::select(&y, &acc.y, keep),
            z: Felt::select(&z, &acc.z, keep),
        };
    }
    acc
}
