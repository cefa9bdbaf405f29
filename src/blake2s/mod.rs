//! Blake2s-256 over field elements: the hash of Starknet's v2 compiled class hashes (CASM,
//! Starknet 0.14.1).
//!
//! # Definition
//! Sources: cairo-lang `starkware/cairo/common/cairo_blake2s/blake2s.cairo`
//! (`encode_felt252_to_u32s`, `blake_with_opcode`), starknet-types-core 1.0
//! `hash/blake2s.rs` (`Blake2Felt252::encode_felt252_data_and_calc_blake_hash`).
//!
//! 1. Each felt `x` (its integer value, not the Montgomery form) becomes 32-bit words:
//!    - `x < 2^63`: two words, the big-endian split of `x` as a 64-bit integer
//!      (`[x >> 32, x & 0xffffffff]`);
//!    - otherwise: eight words, the big-endian split of `x` as a 256-bit integer, with the top
//!      bit of the first word set (`x + 2^255`; `x < p < 2^252` leaves that bit free).
//! 2. The words are serialised little-endian, in order, into one byte string.
//! 3. Blake2s-256 (RFC 7693: no key, 32-byte digest) of that string.
//! 4. The digest read as a little-endian 256-bit integer, reduced modulo p (all 256 bits; an
//!    early version kept only 224).
//!
//! Since Blake2s also reads its message words little-endian, the words of step 1 are exactly
//! the message words of the compression function: the batch kernels (`lanes`) fill message
//! blocks with them directly.
//!
//! # Implementations
//! [`blake2s_hash_many`] hashes one message with the `blake2s_simd` crate, streaming the
//! encoding through a stack buffer (no allocation). The batch functions
//! ([`crate::blake2s_hash_many_batch`]) run one message per SIMD lane in `lanes`, generic over
//! the 32-bit word vectors of each backend; see `docs/class-hashes.md` for the layout and
//! the figures.

pub(crate) mod lanes;

use crate::field::Felt;

/// The words of one felt (step 1 of the module docs): `(words, count)`, `count` 2 or 8.
#[inline(always)]
pub(crate) fn felt_words(x: &Felt) -> ([u32; 8], usize) {
    let l = x.to_raw_limbs();
    if l[1] == 0 && l[2] == 0 && l[3] == 0 && l[0] < 1 << 63 {
        let mut w = [0u32; 8];
        w[0] = (l[0] >> 32) as u32;
        w[1] = l[0] as u32;
        (w, 2)
    } else {
        (
            [
                (l[3] >> 32) as u32 | 1 << 31,
                l[3] as u32,
                (l[2] >> 32) as u32,
                l[2] as u32,
                (l[1] >> 32) as u32,
                l[1] as u32,
                (l[0] >> 32) as u32,
                l[0] as u32,
            ],
            8,
        )
    }
}

/// The felt of a digest given as its eight little-endian words (step 4 of the module docs).
#[inline]
pub(crate) fn digest_felt(h: [u32; 8]) -> Felt {
    let mut bytes = [0u8; 32];
    for (chunk, w) in bytes.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    Felt::from_bytes_le_reduced(&bytes)
}

/// Blake2s-256 of the felts' word encoding, reduced to a felt (see the module docs):
/// starknet-types-core's `Blake2Felt252::encode_felt252_data_and_calc_blake_hash`.
///
/// ```
/// use starkbatch::{blake2s_hash_many, Felt};
/// // Vectors from starknet-types-core 1.0 (hash/blake2s.rs tests, computed with Cairo 0.14).
/// assert_eq!(
///     blake2s_hash_many(&[Felt::ZERO]),
///     Felt::from_hex("0x5768af071a2f8df7c9df9dc4ca0e7a1c5908d5eff88af963c3264f412dbdf43").unwrap()
/// );
/// assert_eq!(
///     blake2s_hash_many(&[Felt::ONE, Felt::TWO]),
///     Felt::from_hex("0x5534c03a14b214436366f30e9c77b6e56c8835de7dc5aee36957d4384cce66d").unwrap()
/// );
/// ```
pub fn blake2s_hash_many(felts: &[Felt]) -> Felt {
    let mut state = blake2s_simd::Params::new().hash_length(32).to_state();
    // Encoded bytes are staged in a 1 KiB buffer, flushed whenever a felt might not fit.
    let mut buf = [0u8; 1024];
    let mut n = 0;
    for x in felts {
        if n + 32 > buf.len() {
            state.update(&buf[..n]);
            n = 0;
        }
        let (w, count) = felt_words(x);
        for word in &w[..count] {
            buf[n..n + 4].copy_from_slice(&word.to_le_bytes());
            n += 4;
        }
    }
    state.update(&buf[..n]);
    let digest = state.finalize();
    let mut h = [0u32; 8];
    for (w, chunk) in h.iter_mut().zip(digest.as_bytes().chunks_exact(4)) {
        *w = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    digest_felt(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encoding examples of starknet-types-core 1.0's tests (`test_encode_felts_to_u32s_*`).
    #[test]
    fn encoding_examples() {
        let (w, n) = felt_words(&Felt::from(0x1122_3344_5566_7788u64));
        assert_eq!(&w[..n], &[0x1122_3344, 0x5566_7788]);
        let (w, n) = felt_words(&Felt::from(1u64 << 63));
        assert_eq!(&w[..n], &[0x8000_0000, 0, 0, 0, 0, 0, 0x8000_0000, 0]);
        let (w, n) = felt_words(&Felt::from((1u64 << 63) - 1));
        assert_eq!(&w[..n], &[0x7fff_ffff, 0xffff_ffff]);
    }

    /// Published vectors: starknet-types-core 1.0, `hash/blake2s.rs`,
    /// `test_encode_felt252_data_and_calc_blake_hash` ("the same result as the Cairo v0.14
    /// version").
    #[test]
    fn published_vectors() {
        let f = |s: &str| Felt::from_dec_str(s).unwrap();
        let cases: [(&[Felt], &str); 6] = [
            (
                &[],
                "874258848688468311465623299960361657518391155660316941922502367727700287818",
            ),
            (
                &[Felt::from((1u64 << 63) - 1)],
                "94160078030592802631039216199460125121854007413180444742120780261703604445",
            ),
            (
                &[Felt::from(1u64 << 63)],
                "318549634615606806810268830802792194529205864650702991817600345489579978482",
            ),
            (
                &[Felt::from_hex(
                    "0x800000000000011000000000000000000000000000000000000000000000000",
                )
                .unwrap()],
                "3505594194634492896230805823524239179921427575619914728883524629460058657521",
            ),
            (
                &[
                    Felt::from(42u64),
                    Felt::from(1u64 << 63),
                    Felt::from(1337u64),
                ],
                "1127477916086913892828040583976438888091205536601278656613505514972451246501",
            ),
            (
                &[Felt::from(u64::MAX)],
                "3515074221976790747383295076946184515593027667350620348239642126105984996390",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(blake2s_hash_many(input), f(want), "{input:?}");
        }
    }

    /// Long messages cross the staging buffer's flushes at every offset.
    #[test]
    fn buffer_flushes_match_one_shot() {
        let felts: alloc::vec::Vec<Felt> = (0..200u64)
            .map(|i| {
                if i % 3 == 0 {
                    Felt::from(i)
                } else {
                    Felt::MAX - Felt::from(i)
                }
            })
            .collect();
        for len in [0, 1, 31, 32, 33, 63, 64, 65, 127, 200] {
            let mut bytes = alloc::vec::Vec::new();
            for x in &felts[..len] {
                let (w, n) = felt_words(x);
                for word in &w[..n] {
                    bytes.extend_from_slice(&word.to_le_bytes());
                }
            }
            let d = blake2s_simd::Params::new().hash_length(32).hash(&bytes);
            let mut le = [0u8; 32];
            le.copy_from_slice(d.as_bytes());
            assert_eq!(
                blake2s_hash_many(&felts[..len]),
                Felt::from_bytes_le_reduced(&le),
                "length {len}"
            );
        }
    }
}
