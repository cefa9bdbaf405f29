//! 256-bit unsigned integers as little-endian `[u64; 4]` limbs: the few operations the trie
//! builder needs on keys and edge paths (compare, xor, shifts, masks, highest set bit).

use core::cmp::Ordering;

/// A 256-bit unsigned integer, little-endian 64-bit limbs.
pub(crate) type U256 = [u64; 4];

/// Numeric order (most significant limb first).
#[inline]
pub(crate) fn cmp(a: &U256, b: &U256) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

/// `a ^ b`.
#[inline]
pub(crate) fn xor(a: &U256, b: &U256) -> U256 {
    [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]]
}

/// The index of the highest set bit, or `None` for zero.
#[inline]
pub(crate) fn highest_bit(x: &U256) -> Option<u32> {
    (0..4)
        .rev()
        .find(|&i| x[i] != 0)
        .map(|i| 64 * i as u32 + 63 - x[i].leading_zeros())
}

/// The number of significant bits (0 for zero).
#[inline]
pub(crate) fn bit_len(x: &U256) -> u32 {
    highest_bit(x).map_or(0, |b| b + 1)
}

/// `x >> k` (0 for `k >= 256`).
pub(crate) fn shr(x: &U256, k: u32) -> U256 {
    if k >= 256 {
        return [0; 4];
    }
    let (w, b) = ((k / 64) as usize, k % 64);
    let mut r = [0u64; 4];
    for i in 0..4 - w {
        r[i] = x[i + w] >> b;
        if b != 0 && i + w + 1 < 4 {
            r[i] |= x[i + w + 1] << (64 - b);
        }
    }
    r
}

/// `x << k` truncated to 256 bits (0 for `k >= 256`).
pub(crate) fn shl(x: &U256, k: u32) -> U256 {
    if k >= 256 {
        return [0; 4];
    }
    let (w, b) = ((k / 64) as usize, k % 64);
    let mut r = [0u64; 4];
    for i in w..4 {
        r[i] = x[i - w] << b;
        if b != 0 && i > w {
            r[i] |= x[i - w - 1] >> (64 - b);
        }
    }
    r
}

/// `x mod 2^k` (the low `k` bits).
pub(crate) fn low_bits(x: &U256, k: u32) -> U256 {
    let mut r = *x;
    for (i, limb) in r.iter_mut().enumerate() {
        let lo = 64 * i as u32;
        if k <= lo {
            *limb = 0;
        } else if k < lo + 64 {
            *limb &= (1u64 << (k - lo)) - 1;
        }
    }
    r
}

/// `a | b`.
#[inline]
pub(crate) fn or(a: &U256, b: &U256) -> U256 {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_and_masks() {
        let x: U256 = [
            0x0123_4567_89ab_cdef,
            0xfedc_ba98_7654_3210,
            0x1111,
            0x0800_0000_0000_0011,
        ];
        for k in 0..260 {
            let back = or(&shl(&shr(&x, k), k), &low_bits(&x, k));
            if k < 256 {
                assert_eq!(back, x, "k = {k}");
            }
        }
        assert_eq!(highest_bit(&x), Some(251));
        assert_eq!(highest_bit(&[0; 4]), None);
        assert_eq!(highest_bit(&[1, 0, 0, 0]), Some(0));
        assert_eq!(bit_len(&[0, 1, 0, 0]), 65);
        assert_eq!(cmp(&[5, 0, 0, 1], &[0, 0, 0, 2]), Ordering::Less);
        assert_eq!(cmp(&[5, 0, 0, 2], &[0, 0, 0, 2]), Ordering::Greater);
        assert_eq!(xor(&x, &x), [0; 4]);
        assert_eq!(low_bits(&x, 256), x);
        assert_eq!(low_bits(&x, 0), [0; 4]);
        assert_eq!(shr(&x, 251), [1, 0, 0, 0]);
    }
}
