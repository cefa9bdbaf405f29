//! Square roots modulo p (Tonelli–Shanks; p - 1 = 2^192 · (2^59 + 17)).

use super::Felt;

/// The odd part of p - 1: q = 2^59 + 17.
const Q: u64 = 0x0800_0000_0000_0011;
/// The 2-adicity of p - 1.
const S: u32 = 192;

impl Felt {
    /// A square root, or `None` if `self` is not a square. For a non-zero square the returned
    /// root is the one with the smaller integer value (`r <= p - r`), so the result is unique.
    pub fn sqrt(&self) -> Option<Felt> {
        if self.is_zero() {
            return Some(Felt::ZERO);
        }
        // 3 generates the multiplicative group (it is a quadratic non-residue mod p).
        let z = Felt::THREE;
        let mut m = S;
        let mut c = z.pow(Q as u128);
        let mut t = self.pow(Q as u128);
        let mut r = self.pow(Q.div_ceil(2) as u128);
        while t != Felt::ONE {
            // Least i with t^(2^i) = 1.
            let mut i = 0;
            let mut t2 = t;
            while t2 != Felt::ONE {
                t2 = t2.square();
                i += 1;
                if i == m {
                    return None;
                }
            }
            let mut b = c;
            for _ in 0..(m - i - 1) {
                b = b.square();
            }
            m = i;
            c = b.square();
            t *= c;
            r *= b;
        }
        let neg = -r;
        Some(if neg < r { neg } else { r })
    }
}
