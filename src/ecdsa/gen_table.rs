//! Variable-time fixed-base multiplication by the generator for verification:
//! [`mul_generator_vartime`].
//!
//! # Method
//! The scalar's 32 bytes are its digits in base 256: k = Σ d_i·256^i. A table built once holds
//! T[i][j − 1] = j·256^i·G (affine, 32 rows × 255 points, 510 KiB), so k·G = Σ_(d_i ≠ 0)
//! T[i][d_i − 1]: at most 32 mixed additions and no doubling.
//!
//! Variable time (it skips zero digits and indexes the table by the scalar): for public
//! scalars only. The constant-time path is [`crate::curve::mul_generator_ct`].

use crate::curve::{AffinePoint, GENERATOR, ProjectivePoint};
use crate::sync::OnceTable;
use alloc::vec::Vec;

const ROWS: usize = 32;
const ENTRIES: usize = 255;

fn table() -> &'static [AffinePoint] {
    static TABLE: OnceTable<Vec<AffinePoint>> = OnceTable::new();
    TABLE.get_or_init(|| {
        let mut points = Vec::with_capacity(ROWS * ENTRIES);
        let mut base = ProjectivePoint::from_affine(&GENERATOR);
        for _ in 0..ROWS {
            let mut m = base;
            for _ in 0..ENTRIES {
                points.push(m);
                m = m.add(&base);
            }
            base = m; // 256·base
        }
        ProjectivePoint::batch_to_affine(&points)
    })
}

/// `k·G` for `k` given as little-endian limbs (any 256-bit value). Variable time.
pub(crate) fn mul_generator_vartime(k: &[u64; 4]) -> ProjectivePoint {
    let t = table();
    let mut acc = ProjectivePoint::INFINITY;
    for i in 0..ROWS {
        let d = ((k[i / 8] >> (8 * (i % 8))) & 0xff) as usize;
        if d != 0 {
            acc = acc.add_affine(&t[i * ENTRIES + d - 1]);
        }
    }
    acc
}
