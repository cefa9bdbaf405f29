//! Inversion: single ([`Felt::inverse`], constant-time safegcd) and batched
//! ([`Felt::batch_inverse`], Montgomery's trick).
//!
//! # Single inversion
//! A Felt holds `x = a·R mod p` (`R = 2^256`). The safegcd core (`safegcd.rs`) computes
//! `c / x mod p` for any `c`; with `c = R² mod p` this is `R²/(a·R) = a^(−1)·R`, the Montgomery
//! form of `a^(−1)`, so no conversion multiplication is needed.
//!
//! # Batch inversion
//! Prefix products `π_i = a_0·…·a_(i−1)`, one inversion of `π_n`, then a backward pass:
//! `a_i^(−1) = π_i · (π_(i+1))^(−1)` and `(π_i)^(−1) = (π_(i+1))^(−1) · a_i`. That is 3(n−1)
//! multiplications and one inversion. Zeros are replaced by 1 in the products (branch-free
//! selects) and written back as 0.

use super::{Felt, mont, safegcd};
use alloc::vec::Vec;

impl Felt {
    /// The multiplicative inverse, or `None` for zero.
    ///
    /// Constant-time in the value (Bernstein–Yang safegcd with a fixed 590 divsteps; the only
    /// value-dependent branch is the zero test, whose outcome is the `Option` itself).
    pub fn inverse(&self) -> Option<Felt> {
        if self.is_zero() {
            return None;
        }
        Some(Felt(safegcd::invert_scaled_p(&self.0, &mont::R2)))
    }

    /// The multiplicative inverse, or `None` for zero, in **variable time**: the number of
    /// divstep batches and the branches inside them depend on the value. Use only on public
    /// data (e.g. verification, point normalisation of public points); for secrets use
    /// [`Felt::inverse`]. Returns the same value as [`Felt::inverse`].
    pub fn inverse_vartime(&self) -> Option<Felt> {
        if self.is_zero() {
            return None;
        }
        Some(Felt(safegcd::invert_scaled_p_vartime(&self.0, &mont::R2)))
    }

    /// Replaces every element by its inverse with Montgomery's trick: one inversion and
    /// 3(n−1) multiplications for the whole slice.
    ///
    /// Zeros stay zero (they have no inverse); every non-zero element is replaced by its
    /// inverse, whatever the positions of the zeros. The work does not depend on the values
    /// (zeros are handled with branch-free selects). Allocates one scratch vector of `n` elements.
    pub fn batch_inverse(values: &mut [Felt]) {
        let n = values.len();
        if n == 0 {
            return;
        }
        // prefix[i] = product of the (zero-replaced-by-one) elements before i.
        let mut prefix = Vec::with_capacity(n);
        let mut acc = Felt::ONE;
        for v in values.iter() {
            prefix.push(acc);
            let z = v.is_zero() as u64;
            acc *= Felt::select(v, &Felt::ONE, z);
        }
        // acc is a product of non-zero elements, hence non-zero.
        let mut inv = Felt(safegcd::invert_scaled_p(&acc.0, &mont::R2));
        for (v, pre) in values.iter_mut().zip(prefix.iter()).rev() {
            let z = v.is_zero() as u64;
            let a = Felt::select(v, &Felt::ONE, z);
            let this = inv * pre;
            inv *= a;
            *v = Felt::select(&this, &Felt::ZERO, z);
        }
    }
}
