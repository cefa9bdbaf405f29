//! Every batch function against the scalar function, on every available backend, with
//! arbitrary lengths (every tail length) and values (biased to edge values).
#![no_main]

use libfuzzer_sys::fuzz_target;
use starkbatch::{
    blake2s_hash_many, pedersen_hash, pedersen_hash_batch, pedersen_hash_batch_par, poseidon_hash, poseidon_hash_many,
    poseidon_hash_single, poseidon_permute_comp, Backend, Felt,
};
use starkbatch_fuzz::Bytes;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let available = Backend::available();
    let backend = available[usize::from(b.u8()) % available.len()];
    let op = b.u8() % 9;
    // Up to 40 elements: several lane groups plus every tail length; `_par` variants above
    // their chunking threshold need more, so a flag byte stretches the batch by repetition.
    let n = usize::from(b.u8() % 41);
    let repeat = if b.u8() % 8 == 0 { 7 } else { 1 };
    let base: Vec<Felt> = (0..3 * n).map(|_| b.felt()).collect();
    let felts: Vec<Felt> = base.iter().copied().cycle().take(3 * n * repeat).collect();
    let n = n * repeat;
    let (xs, rest) = felts.split_at(n);
    let (ys, zs) = rest.split_at(n);
    let pairs: Vec<[Felt; 2]> = xs.iter().zip(ys).map(|(x, y)| [*x, *y]).collect();
    let par = b.u8() & 1 == 1;
    let mut out = vec![Felt::MAX; n];
    match op {
        0 => {
            if par {
                backend.poseidon_hash_batch_par(&pairs, &mut out);
            } else {
                backend.poseidon_hash_batch(&pairs, &mut out);
            }
            for (o, [x, y]) in out.iter().zip(&pairs) {
                assert_eq!(*o, poseidon_hash(*x, *y), "{backend:?}");
            }
        }
        1 => {
            if par {
                backend.poseidon_hash_columns_par(xs, ys, &mut out);
            } else {
                backend.poseidon_hash_columns(xs, ys, &mut out);
            }
            for ((o, x), y) in out.iter().zip(xs).zip(ys) {
                assert_eq!(*o, poseidon_hash(*x, *y), "{backend:?}");
            }
        }
        2 => {
            if par {
                backend.poseidon_hash_single_batch_par(xs, &mut out);
            } else {
                backend.poseidon_hash_single_batch(xs, &mut out);
            }
            for (o, x) in out.iter().zip(xs) {
                assert_eq!(*o, poseidon_hash_single(*x), "{backend:?}");
            }
        }
        3 => {
            let mut states: Vec<[Felt; 3]> = (0..n).map(|i| [xs[i], ys[i], zs[i]]).collect();
            if par {
                backend.poseidon_permute_batch_par(&mut states);
            } else {
                backend.poseidon_permute_batch(&mut states);
            }
            for (i, s) in states.iter().enumerate() {
                let mut want = [xs[i], ys[i], zs[i]];
                poseidon_permute_comp(&mut want);
                assert_eq!(*s, want, "{backend:?} state {i}");
            }
        }
        4 => {
            let (mut s0, mut s1, mut s2) = (xs.to_vec(), ys.to_vec(), zs.to_vec());
            backend.poseidon_permute_columns(&mut s0, &mut s1, &mut s2);
            for i in 0..n {
                let mut want = [xs[i], ys[i], zs[i]];
                poseidon_permute_comp(&mut want);
                assert_eq!([s0[i], s1[i], s2[i]], want, "{backend:?} state {i}");
            }
        }
        5 => {
            // Messages of arbitrary lengths (0..=12), cut from the felts.
            let mut messages: Vec<&[Felt]> = Vec::new();
            let mut at = 0;
            while messages.len() < n {
                let len = usize::from(b.u8() % 13).min(felts.len() - at);
                messages.push(&felts[at..at + len]);
                at += len;
            }
            if par {
                backend.poseidon_hash_many_batch_par(&messages, &mut out);
            } else {
                backend.poseidon_hash_many_batch(&messages, &mut out);
            }
            for (o, m) in out.iter().zip(&messages) {
                assert_eq!(*o, poseidon_hash_many(*m), "{backend:?}");
            }
        }
        6 => {
            // Blake2s over felts: ragged messages (0..=40 felts, so felts straddle blocks).
            let mut messages: Vec<&[Felt]> = Vec::new();
            let mut at = 0;
            while messages.len() < n {
                let len = usize::from(b.u8() % 41).min(felts.len() - at);
                messages.push(&felts[at..at + len]);
                at += len;
            }
            if par {
                backend.blake2s_hash_many_batch_par(&messages, &mut out);
            } else {
                backend.blake2s_hash_many_batch(&messages, &mut out);
            }
            for (o, m) in out.iter().zip(&messages) {
                assert_eq!(*o, blake2s_hash_many(m), "{backend:?}");
            }
        }
        _ => {
            // Pedersen's batch (one shared inversion per chunk) has no per-backend variant.
            if par {
                pedersen_hash_batch_par(&pairs, &mut out);
            } else {
                pedersen_hash_batch(&pairs, &mut out);
            }
            for (o, [x, y]) in out.iter().zip(&pairs) {
                assert_eq!(*o, pedersen_hash(x, y));
            }
        }
    }
});
