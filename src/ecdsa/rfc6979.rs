//! Deterministic ECDSA nonces (RFC 6979) for the STARK curve, as cairo-lang's
//! `generate_k_rfc6979` (`src/starkware/crypto/signature/signature.py`) computes them through
//! python-ecdsa's `rfc6979.generate_k` with SHA-256.
//!
//! # Definition
//! - The message hash m gets the elliptic.js padding first: if `1 <= bitlen(m) % 8 <= 4` and
//!   `bitlen(m) >= 248`, then `m ← 16·m`.
//! - `data` = m in big-endian bytes of minimal length (empty for 0); `bits2int(data)` keeps the
//!   top qlen = 252 bits (a right shift by `8·len - 252` when that is positive), and
//!   `bits2octets` reduces that once modulo n and encodes it in 32 bytes.
//! - The private key is encoded in 32 big-endian bytes, the optional seed in minimal-length
//!   big-endian bytes (empty for none or 0).
//! - HMAC-DRBG (RFC 6979 §3.2 b–h) with K = 0^32, V = 1^32; each candidate is one 32-byte V
//!   shifted right by 4 bits, accepted when it is in `[1, n)`.
//!
//! For every message below n (in particular every signable message, `< 2^251`) the padding and
//! the shift cancel, and this equals starknet-crypto's `rfc6979_generate_k`. For m in `[n, p)`
//! cairo-lang reduces `bits2octets` modulo n while starknet-crypto 0.8 does not; this follows
//! cairo-lang, which is the definition.
//!
//! # Constant time
//! The private key only enters HMAC-SHA-256 as a fixed 32-byte block, so its processing time
//! does not depend on its value. The candidate test branches on the derived k, but a rejection
//! happens with probability below 2^-250 and only discards that candidate.

use super::scalar::N;
use crate::Felt;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// HMAC-SHA-256 of the concatenated `parts` under `key`.
fn hmac(key: &[u8; 32], parts: &[&[u8]]) -> [u8; 32] {
    // HMAC accepts keys of any length, so this cannot fail.
    let mut mac = <HmacSha256 as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    for p in parts {
        mac.update(p);
    }
    mac.finalize().into_bytes().into()
}

/// Minimal-length big-endian encoding of a value given as 32 big-endian bytes.
fn minimal_be(bytes: &[u8; 32]) -> &[u8] {
    let first = bytes.iter().position(|&b| b != 0).unwrap_or(32);
    &bytes[first..]
}

/// Little-endian limbs from 32 big-endian bytes.
fn limbs_from_be(b: &[u8; 32]) -> [u64; 4] {
    core::array::from_fn(|i| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[32 - 8 * (i + 1)..32 - 8 * i]);
        u64::from_be_bytes(w)
    })
}

/// 32 big-endian bytes from little-endian limbs.
fn be_from_limbs(l: [u64; 4]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for i in 0..4 {
        out[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&l[i].to_be_bytes());
    }
    out
}

/// `a < b` for little-endian limbs.
fn lt(a: &[u64; 4], b: &[u64; 4]) -> bool {
    a.iter().rev().cmp(b.iter().rev()) == core::cmp::Ordering::Less
}

/// `a >> s` for `s < 64`.
fn shr(a: [u64; 4], s: u32) -> [u64; 4] {
    if s == 0 {
        return a;
    }
    [
        (a[0] >> s) | (a[1] << (64 - s)),
        (a[1] >> s) | (a[2] << (64 - s)),
        (a[2] >> s) | (a[3] << (64 - s)),
        a[3] >> s,
    ]
}

/// `bits2octets(m)` of python-ecdsa for qlen = 252, after cairo-lang's padding rule.
fn message_octets(message_hash: &Felt) -> [u8; 32] {
    let m = message_hash.to_raw_limbs();
    let bitlen = message_hash.bits();
    // The elliptic.js padding (cairo-lang): one nibble short of a whole byte count.
    let (value, bitlen) = if (1..=4).contains(&(bitlen % 8)) && bitlen >= 248 {
        // m < 2^252, so 16·m < 2^256 still fits in four limbs.
        (
            [
                m[0] << 4,
                (m[1] << 4) | (m[0] >> 60),
                (m[2] << 4) | (m[1] >> 60),
                (m[3] << 4) | (m[2] >> 60),
            ],
            bitlen + 4,
        )
    } else {
        (m, bitlen)
    };
    // bits2int: the data has 8·ceil(bitlen/8) bits; keep the top 252.
    let len_bits = bitlen.div_ceil(8) * 8;
    let z1 = if len_bits > 252 {
        shr(value, (len_bits - 252) as u32)
    } else {
        value
    };
    // bits2octets: z1 - n if that is non-negative, in 32 bytes.
    let z2 = if lt(&z1, &N) {
        z1
    } else {
        let mut d = [0u64; 4];
        let mut borrow = 0;
        for i in 0..4 {
            (d[i], borrow) = crate::field::mont::sbb(z1[i], N[i], borrow);
        }
        d
    };
    be_from_limbs(z2)
}

/// Generates the deterministic nonce k of RFC 6979 for signing `message_hash` with
/// `private_key`, with optional extra entropy `seed`, exactly as cairo-lang's
/// `generate_k_rfc6979` (see the module docs). The result is in `[1, n)`.
pub fn rfc6979_generate_k(message_hash: &Felt, private_key: &Felt, seed: Option<&Felt>) -> Felt {
    let x = private_key.to_bytes_be();
    let h = message_octets(message_hash);
    let seed_bytes = seed.map(|s| s.to_bytes_be()).unwrap_or([0u8; 32]);
    let extra = minimal_be(&seed_bytes);

    let mut k = [0u8; 32];
    let mut v = [1u8; 32];
    k = hmac(&k, &[&v, &[0x00], &x, &h, extra]);
    v = hmac(&k, &[&v]);
    k = hmac(&k, &[&v, &[0x01], &x, &h, extra]);
    v = hmac(&k, &[&v]);
    loop {
        v = hmac(&k, &[&v]);
        // bits2int(V, 252): V has 256 bits, keep the top 252.
        let cand = shr(limbs_from_be(&v), 4);
        if (cand[0] | cand[1] | cand[2] | cand[3]) != 0 && lt(&cand, &N) {
            // cand < n < p.
            return Felt::from_raw_limbs(cand).unwrap_or(Felt::ZERO);
        }
        k = hmac(&k, &[&v, &[0x00]]);
        v = hmac(&k, &[&v]);
    }
}
