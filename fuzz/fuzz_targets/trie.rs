//! The batched Patricia-Merkle trie builder (`starkbatch::state::trie_root`) against a
//! one-hash-at-a-time recursive reference, for arbitrary heights, keys (clustered to share
//! long prefixes), duplicate keys and zero values (deletions).
#![no_main]

use libfuzzer_sys::fuzz_target;
use starkbatch::hash::{PairHash, Pedersen, Poseidon};
use starkbatch::state::{trie_root, TrieError};
use starkbatch::Felt;
use starkbatch_fuzz::Bytes;
use std::collections::BTreeMap;

/// Keys as big-endian bytes (so byte order is numeric order) and the bit `i` of a key.
type Key = [u8; 32];
fn bit(k: &Key, i: u32) -> bool {
    (k[31 - (i / 8) as usize] >> (i % 8)) & 1 == 1
}

/// The hash of the subtree of height `h` holding the non-empty, sorted `items`.
fn node<H: PairHash>(items: &[(Key, Felt)], h: u32) -> Felt {
    // Descend while all keys take the same branch: the edge.
    let mut level = h;
    let mut path = Felt::ZERO;
    while level > 0 {
        let ones = items.iter().filter(|(k, _)| bit(k, level - 1)).count();
        if ones != 0 && ones != items.len() {
            break;
        }
        path = path.double() + if ones != 0 { Felt::ONE } else { Felt::ZERO };
        level -= 1;
    }
    let bottom = if level == 0 {
        assert_eq!(items.len(), 1);
        items[0].1
    } else {
        let split = items.iter().position(|(k, _)| bit(k, level - 1)).unwrap();
        H::hash(
            &node::<H>(&items[..split], level - 1),
            &node::<H>(&items[split..], level - 1),
        )
    };
    let length = h - level;
    if length == 0 {
        bottom
    } else {
        H::hash(&bottom, &path) + Felt::from(length)
    }
}

fn reference<H: PairHash>(entries: &[(Felt, Felt)], height: u32) -> Result<Felt, TrieError> {
    let mut map = BTreeMap::new();
    for (k, v) in entries {
        map.insert(k.to_bytes_be(), *v);
    }
    let items: Vec<(Key, Felt)> = map.into_iter().filter(|(_, v)| !v.is_zero()).collect();
    Ok(if items.is_empty() {
        Felt::ZERO
    } else {
        node::<H>(&items, height)
    })
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let flags = b.u8();
    let height = match b.u8() {
        0..=199 => 1 + u32::from(b.u8()) % 251,
        200..=239 => [251, 64, 1, 2, 250][usize::from(b.u8()) % 5],
        _ => u32::from(b.u8()) * 2, // 0 and > 251 are errors
    };
    // Keys share a random prefix with a base key, then differ in their low bits.
    let base = b.felt_raw();
    let mut entries = Vec::new();
    let n = usize::from(b.u8() % 48);
    for _ in 0..n {
        let kind = b.u8();
        let key = match kind % 4 {
            0 => b.felt(),
            1 => base + Felt::from(b.u16()),
            2 => base + Felt::from(u64::from(b.u8())) * Felt::TWO.pow(u128::from(b.u8() % 251)),
            _ => Felt::from(b.u16()),
        };
        // Keys below 2^height mostly; some left as they are to test the range error.
        let key = if kind & 0x30 == 0 || height > 251 {
            key
        } else {
            Felt::from_raw_limbs(mask(key.to_raw_limbs(), height)).unwrap()
        };
        let value = if b.u8() % 8 == 0 {
            Felt::ZERO
        } else {
            b.felt()
        };
        entries.push((key, value));
        if b.u8() % 16 == 0 {
            // A duplicate key, written later.
            entries.push((key, b.felt()));
        }
    }
    let in_range = entries.iter().all(|(k, _)| k.bits() <= height as usize);
    let got = if flags & 1 == 0 {
        trie_root::<Poseidon>(&entries, height)
    } else {
        trie_root::<Pedersen>(&entries, height)
    };
    if !(1..=251).contains(&height) {
        assert!(matches!(got, Err(TrieError::InvalidHeight(_))), "{got:?}");
    } else if !in_range {
        assert!(
            matches!(got, Err(TrieError::KeyOutOfRange { .. })),
            "{got:?}"
        );
    } else {
        let want = if flags & 1 == 0 {
            reference::<Poseidon>(&entries, height)
        } else {
            reference::<Pedersen>(&entries, height)
        };
        assert_eq!(got, want, "height {height}, {} entries", entries.len());
    }
});

/// Keeps the low `height` bits.
fn mask(mut l: [u64; 4], height: u32) -> [u64; 4] {
    for (i, limb) in l.iter_mut().enumerate() {
        let lo = 64 * i as u32;
        if height <= lo {
            *limb = 0;
        } else if height < lo + 64 {
            *limb &= (1u64 << (height - lo)) - 1;
        }
    }
    l
}
