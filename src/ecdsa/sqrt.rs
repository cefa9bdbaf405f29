//! Fast square roots modulo p for public inputs (public keys in [`verify`](crate::verify),
//! r in [`recover`](crate::recover)): a table-driven Tonelli–Shanks.
//!
//! # Math
//! p − 1 = 2^192·q with q = 2^59 + 17 odd, and g = 3^q generates the subgroup of order 2^192
//! (3 is a non-residue). For a ≠ 0 let x = a^((q+1)/2) and b = a^q = x²/a. Then b = g^E for some
//! E < 2^192, a is a square iff E is even, and then (x·g^(−E/2))² = x²·b⁻¹ = a.
//!
//! E is found 8 bits at a time, lowest digit first, from the chain B_k = b^(2^(8k)) (184
//! squarings): with e_0..e_(i−1) known, B_(23−i)·Π_(t<i) g^(−e_t·2^(184−8(i−t))) = ζ^(e_i) where
//! ζ = g^(2^184) has order 256, and e_i is read from a sorted table of the powers of ζ. The
//! powers g^(−j·2^(8k)) (24 × 256 entries, 192 KiB) are built once on first use.
//!
//! Cost: 58 squarings for x, 184 for the chain, at most 276 + 24 multiplications for the
//! digits and the root, against roughly 192²/4 squarings for the textbook Tonelli–Shanks.
//!
//! # Constant time
//! No: it branches on digits of the input's discrete log. It is used on public values only.

use crate::Felt;
use std::sync::OnceLock;

/// Digits of 8 bits in the 192-bit discrete log.
const DIGITS: usize = 24;

struct Tables {
    /// `neg_pow[k][j] = g^(−j·2^(8k))`.
    neg_pow: Vec<[Felt; 256]>,
    /// `(limb 0 of neg_pow[23][j], j)` sorted by limb: the discrete-log lookup for ζ^(−j).
    lookup: Vec<(u64, u16)>,
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        // g = 3^q, q = 2^59 + 17.
        let g = Felt::THREE.pow((1u128 << 59) + 17);
        let mut base = g.inverse().unwrap_or(Felt::ONE); // g ≠ 0
        let mut neg_pow = Vec::with_capacity(DIGITS);
        for _ in 0..DIGITS {
            let mut row = [Felt::ONE; 256];
            for j in 1..256 {
                row[j] = row[j - 1] * base;
            }
            neg_pow.push(row);
            for _ in 0..8 {
                base = base.square();
            }
        }
        let mut lookup: Vec<(u64, u16)> = neg_pow[DIGITS - 1]
            .iter()
            .enumerate()
            .map(|(j, f)| (f.0[0], j as u16))
            .collect();
        lookup.sort_unstable();
        Tables { neg_pow, lookup }
    })
}

/// The j with `v = ζ^(−j)`, or `None` if v is not in the subgroup of order 256.
fn dlog_neg(t: &Tables, v: &Felt) -> Option<usize> {
    let key = v.0[0];
    let start = t.lookup.partition_point(|&(k, _)| k < key);
    t.lookup[start..]
        .iter()
        .take_while(|&&(k, _)| k == key)
        .map(|&(_, j)| j as usize)
        .find(|&j| t.neg_pow[DIGITS - 1][j] == *v)
}

/// A square root of `a`, or `None` if `a` is not a square. Which of the two roots is returned
/// is unspecified (callers here try both signs or normalise the parity). Variable time.
pub(crate) fn sqrt_vartime(a: &Felt) -> Option<Felt> {
    if a.is_zero() {
        return Some(Felt::ZERO);
    }
    let t = tables();
    // w = a^((q−1)/2) = a^(2^58 + 8).
    let mut a8 = *a;
    let mut acc = *a;
    for i in 0..58 {
        acc = acc.square();
        if i == 2 {
            a8 = acc;
        }
    }
    let w = acc * a8;
    let x = *a * w;
    let b = x * w;
    // Chain B_k = b^(2^(8k)).
    let mut chain = [Felt::ZERO; DIGITS];
    chain[0] = b;
    for k in 1..DIGITS {
        let mut c = chain[k - 1];
        for _ in 0..8 {
            c = c.square();
        }
        chain[k] = c;
    }
    let mut e = [0u8; DIGITS];
    for i in 0..DIGITS {
        let mut v = chain[DIGITS - 1 - i];
        for (tt, &et) in e.iter().enumerate().take(i) {
            if et != 0 {
                v *= t.neg_pow[DIGITS - 1 - (i - tt)][et as usize];
            }
        }
        let j = dlog_neg(t, &v)?;
        e[i] = (256 - j) as u8; // j = 0 wraps to 0
        if i == 0 && e[0] & 1 == 1 {
            return None; // E odd: a is not a square
        }
    }
    // Multiply x by g^(−E/2), reading E/2 in 8-bit digits.
    let mut r = x;
    for i in 0..DIGITS {
        let hi = if i + 1 < DIGITS { e[i + 1] & 1 } else { 0 };
        let f = (e[i] >> 1) | (hi << 7);
        if f != 0 {
            r *= t.neg_pow[i][f as usize];
        }
    }
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_textbook_sqrt() {
        let mut x = Felt::from(0x1234_5678u64);
        for i in 0..300u64 {
            x = x * x + Felt::from(i);
            let fast = sqrt_vartime(&x);
            let slow = x.sqrt();
            assert_eq!(fast.is_some(), slow.is_some(), "{x}");
            if let Some(r) = fast {
                assert_eq!(r.square(), x);
            }
        }
        assert_eq!(sqrt_vartime(&Felt::ZERO), Some(Felt::ZERO));
        assert_eq!(
            sqrt_vartime(&Felt::ONE).map(|r| r.square()),
            Some(Felt::ONE)
        );
        assert_eq!(sqrt_vartime(&Felt::THREE), None);
        assert_eq!(
            sqrt_vartime(&Felt::MAX).is_some(),
            Felt::MAX.sqrt().is_some()
        );
    }
}
