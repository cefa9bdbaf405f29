//! The constant-time comb of [`super::fixed_base`] for several secret scalars side by side in
//! SIMD lanes: [`mul_generator_ct_lanes`], the engine of
//! [`get_public_key_batch`](crate::ecdsa::get_public_key_batch).
//!
//! # Method
//! Keys are taken `LANES` at a time (the backend's packed field type: 8 lanes on AVX-512 IFMA, 4
//! on AVX2 and NEON, and one (`Felt`) on the portable backend). Every lane runs exactly the steps
//! of [`mul_generator_ct`](super::mul_generator_ct): the key is reduced mod n and recoded into 37
//! signed radix-128 digits (scalar code per lane); then for each of the 37 table rows
//! - each lane's entry is fetched with the constant-time scan kernel `Backend::scan_row` (every
//!   entry of the row is read and combined under masks) and its y negated under the lane's sign
//!   mask ([`Felt::select`]);
//! - the `LANES` entries are loaded into the packed type (for the 9×28-bit lanes a load is one
//!   lane Montgomery product per coordinate, converting R = 2^256 to the lanes' R = 2^280);
//! - the mixed addition [`formulas::add_affine_unchecked`] runs in all lanes at once, and the
//!   special cases are resolved with per-lane masks ([`PackedSelect::select`]) in the scalar
//!   comb's order: in the last two rows the doubling is computed in every lane and selected where
//!   H = 0 and r = 0 and the accumulator is finite; an accumulator at infinity takes the table
//!   point (Z = 1); a zero digit keeps the accumulator.
//!
//! Both branches of every case are always computed: no lane mask is ever tested with a branch
//! (unlike the public-data batch addition of `super::batch`, which skips the doubling when no
//! lane needs it).
//!
//! The "accumulator at infinity" mask: in rows 0..=35 the accumulator is A_i·G with
//! |A_i| < 0.51·128^i < n (module docs of `fixed_base`), so it is infinity exactly when every
//! earlier digit is 0; that mask is computed from the digits (no field test). Row 36 uses
//! `zero_mask` of Z, as A_36 may be ±n (k = 2^252 − n).
//!
//! # Constant time
//! The digits are formed with arithmetic masks; every row reads all 64 entries per lane; the
//! lane arithmetic and the selects are branch-free (`PackedSelect` contract); loops run over
//! public counts (rows, lanes, keys). Padding lanes of a short final group hold the key 0 and
//! are not written back. No branch and no memory index depends on a key.

use super::fixed_base::{DIGITS, W, recode, reduce_mod_n, table};
use super::formulas;
use crate::Felt;
use crate::backend::Backend;
use crate::backend::MAX_LANES;
use crate::backend::select::PackedSelect;

/// For every key, the Jacobian X and Z of `key·G` (`key` as the integer of its canonical
/// limbs, used mod n), `LANES` keys at a time; Y is not needed by the callers. Z = 0 exactly
/// when the key is ≡ 0 (mod n). Results are the triples [`super::mul_generator_ct`] computes,
/// up to the Jacobian scaling (same affine point).
///
/// Precondition: `keys`, `xs` and `zs` have equal lengths.
#[inline(always)]
pub(crate) fn mul_generator_ct_lanes<P: PackedSelect>(
    scan: Backend,
    keys: &[Felt],
    xs: &mut [Felt],
    zs: &mut [Felt],
) {
    let l = P::LANES;
    assert!(l <= MAX_LANES && keys.len() == xs.len() && keys.len() == zs.len());
    let t = table();
    let one = P::constant(&P::prepare(Felt::ONE));
    let zero_word = P::word_splat(0);
    let mut i = 0;
    while i < keys.len() {
        let n = (keys.len() - i).min(l);
        // Digits per lane (padding lanes: key 0, all digits 0).
        let mut digits = [[(0u64, 0u64); DIGITS]; MAX_LANES];
        for k in 0..n {
            digits[k] = recode(&reduce_mod_n(&keys[i + k].to_raw_limbs()));
        }
        let mut ax = one;
        let mut ay = one;
        let mut az = P::zero();
        // All-ones in the lanes whose digits so far were all 0 (accumulator at infinity).
        let mut all_zero = P::word_splat(u64::MAX);
        for (row_i, row) in t.iter().enumerate() {
            let mut sx = [Felt::ZERO; MAX_LANES];
            let mut sy = [Felt::ZERO; MAX_LANES];
            let mut mags = [0u64; MAX_LANES];
            for k in 0..l {
                let (mag, neg) = digits[k][row_i];
                // Constant-time lookup of row[mag − 1] (mag = 0 selects none).
                let sel = scan.scan_row(row, mag);
                let y = Felt([sel[4], sel[5], sel[6], sel[7]]);
                sx[k] = Felt([sel[0], sel[1], sel[2], sel[3]]);
                sy[k] = Felt::select(&y, &-y, neg);
                mags[k] = mag;
            }
            let px = P::load(&sx[..l]);
            let py = P::load(&sy[..l]);
            let ((mut x, mut y, mut z), h, r) = formulas::add_affine_unchecked(ax, ay, az, px, py);
            let acc_inf = if row_i + 1 < DIGITS {
                all_zero
            } else {
                // Public row index: the last row tests Z itself (module docs).
                az.zero_mask()
            };
            if W * row_i + W > 250 {
                // Last rows (public index): equal points are possible; compute the doubling
                // in every lane and select it where H = 0, r = 0 and the accumulator is finite.
                let (dx, dy, dz) = formulas::double(ax, ay, az);
                let use_double = P::word_and(
                    P::word_and(h.zero_mask(), r.zero_mask()),
                    P::mask_not(acc_inf),
                );
                x = P::select(use_double, x, dx);
                y = P::select(use_double, y, dy);
                z = P::select(use_double, z, dz);
            }
            // Accumulator at infinity: the sum is the table point.
            x = P::select(acc_inf, x, px);
            y = P::select(acc_inf, y, py);
            z = P::select(acc_inf, z, one);
            // Digit 0: keep the accumulator.
            let keep = P::word_eq(P::word_load(&mags[..l]), zero_word);
            ax = P::select(keep, x, ax);
            ay = P::select(keep, y, ay);
            az = P::select(keep, z, az);
            all_zero = P::word_and(all_zero, keep);
        }
        let mut ox = [Felt::ZERO; MAX_LANES];
        let mut oz = [Felt::ZERO; MAX_LANES];
        ax.store(&mut ox[..l]);
        az.store(&mut oz[..l]);
        xs[i..i + n].copy_from_slice(&ox[..n]);
        zs[i..i + n].copy_from_slice(&oz[..n]);
        i += n;
    }
}
