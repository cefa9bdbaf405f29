//! Inversion: single ([`Felt::inverse`]) and batched ([`Felt::batch_inverse`]).

use super::Felt;

/// p - 2 as little-endian limbs: the Fermat exponent.
const P_MINUS_2: [u64; 4] = [
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0x0800_0000_0000_0010,
];

impl Felt {
    /// The multiplicative inverse, or `None` for zero. Constant-time in the value.
    pub fn inverse(&self) -> Option<Felt> {
        if self.is_zero() {
            return None;
        }
        // Fermat: a^(p-2). The exponent is public, so square-and-multiply leaks nothing.
        Some(self.pow_limbs(&P_MINUS_2))
    }

    /// Replaces every element by its inverse with Montgomery's trick: one inversion and
    /// 3(n-1) multiplications for the whole slice.
    ///
    /// Zeros are left as zero (they are skipped, and do not spoil the other elements).
    pub fn batch_inverse(values: &mut [Felt]) {
        if values.is_empty() {
            return;
        }
        // Prefix products of the non-zero elements, kept in a scratch vector.
        let mut prefix = Vec::with_capacity(values.len());
        let mut acc = Felt::ONE;
        for v in values.iter() {
            prefix.push(acc);
            if !v.is_zero() {
                acc *= v;
            }
        }
        // acc is the product of all non-zero elements, hence non-zero.
        let mut inv = acc.inverse().unwrap_or(Felt::ZERO);
        for (v, pre) in values.iter_mut().zip(prefix.iter()).rev() {
            if v.is_zero() {
                continue;
            }
            let this = inv * pre;
            inv *= *v;
            *v = this;
        }
    }
}
