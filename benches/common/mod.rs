//! Inputs shared by the benchmarks.

use starkbatch::Felt;

/// `n` deterministic pseudo-random field elements (xorshift64* from `seed`, 32 bytes reduced
/// mod p): full-size values, as hashes of trie nodes are.
pub fn random_felts(n: usize, seed: u64) -> Vec<Felt> {
    let mut s = seed;
    let mut next = || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    (0..n)
        .map(|_| {
            let mut b = [0u8; 32];
            for chunk in b.chunks_mut(8) {
                chunk.copy_from_slice(&next().to_be_bytes());
            }
            Felt::from_bytes_be_reduced(&b)
        })
        .collect()
}
