//! Every available backend against the portable one and against the scalar functions:
//! random and edge inputs, a distinct input in each lane, every length up to 3·lanes + 1,
//! ragged many-batches, no allocation inside a batch call, and the backend choice itself.
//! (Packed arithmetic chains against `Felt` are unit tests in `src/backend/packed.rs`, as the
//! packed type is crate-private.)

use crate::alloc::allocations_during;
use proptest::prelude::*;
use starkbatch::{
    Backend, Felt, poseidon_hash, poseidon_hash_many, poseidon_hash_single, poseidon_permute_comp,
};

// ---- inputs ----

fn edge_values() -> Vec<Felt> {
    let mut v = vec![
        Felt::ZERO,
        Felt::ONE,
        Felt::TWO,
        Felt::MAX,
        Felt::MAX - Felt::ONE,
    ];
    for e in [27u128, 28, 56, 63, 64, 112, 128, 192, 224, 250, 251] {
        let x = Felt::TWO.pow(e);
        v.extend([x, x - Felt::ONE, x + Felt::ONE, -x]);
    }
    v
}

fn felt() -> impl Strategy<Value = Felt> {
    let edges = edge_values();
    prop_oneof![
        3 => any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b)),
        1 => (0..edges.len()).prop_map(move |i| edges[i]),
    ]
}

fn backends() -> Vec<Backend> {
    Backend::available()
}

/// The widest step of any available backend (SIMD lanes, or Poseidon lanes where a backend
/// adds a scalar lane), so needles and tails cover every lane position of every backend.
fn lanes() -> usize {
    backends()
        .iter()
        .map(|b| b.lanes().max(b.poseidon_lanes()))
        .max()
        .unwrap()
}

fn pseudo(i: u64) -> Felt {
    let mut b = [0u8; 32];
    let mut s = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for c in b.chunks_mut(8) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        c.copy_from_slice(&s.to_le_bytes());
    }
    Felt::from_bytes_be_reduced(&b)
}

/// Checks every batch function of every backend on these inputs against the scalar ones.
fn check_all(pairs: &[[Felt; 2]]) {
    let n = pairs.len();
    let want2: Vec<Felt> = pairs.iter().map(|[x, y]| poseidon_hash(*x, *y)).collect();
    let want1: Vec<Felt> = pairs
        .iter()
        .map(|[x, _]| poseidon_hash_single(*x))
        .collect();
    let states: Vec<[Felt; 3]> = pairs
        .iter()
        .enumerate()
        .map(|(i, [x, y])| [*x, *y, pairs[(i + 1) % n][0]])
        .collect();
    let want_perm: Vec<[Felt; 3]> = states
        .iter()
        .map(|s| {
            let mut s = *s;
            poseidon_permute_comp(&mut s);
            s
        })
        .collect();
    let xs: Vec<Felt> = pairs.iter().map(|p| p[0]).collect();
    let ys: Vec<Felt> = pairs.iter().map(|p| p[1]).collect();
    for b in backends() {
        let mut out = vec![Felt::ZERO; n];
        b.poseidon_hash_batch(pairs, &mut out);
        assert_eq!(out, want2, "{b} poseidon_hash_batch, n = {n}");
        let mut out = vec![Felt::ZERO; n];
        b.poseidon_hash_batch_par(pairs, &mut out);
        assert_eq!(out, want2, "{b} poseidon_hash_batch_par, n = {n}");
        let mut out = vec![Felt::ZERO; n];
        b.poseidon_hash_columns(&xs, &ys, &mut out);
        assert_eq!(out, want2, "{b} poseidon_hash_columns, n = {n}");
        let mut out = vec![Felt::ZERO; n];
        b.poseidon_hash_columns_par(&xs, &ys, &mut out);
        assert_eq!(out, want2, "{b} poseidon_hash_columns_par, n = {n}");
        let mut out = vec![Felt::ZERO; n];
        b.poseidon_hash_single_batch(&xs, &mut out);
        assert_eq!(out, want1, "{b} poseidon_hash_single_batch, n = {n}");
        let mut out = vec![Felt::ZERO; n];
        b.poseidon_hash_single_batch_par(&xs, &mut out);
        assert_eq!(out, want1, "{b} poseidon_hash_single_batch_par, n = {n}");
        let mut s = states.clone();
        b.poseidon_permute_batch(&mut s);
        assert_eq!(s, want_perm, "{b} poseidon_permute_batch, n = {n}");
        let mut s = states.clone();
        b.poseidon_permute_batch_par(&mut s);
        assert_eq!(s, want_perm, "{b} poseidon_permute_batch_par, n = {n}");
        let mut c0: Vec<Felt> = states.iter().map(|s| s[0]).collect();
        let mut c1: Vec<Felt> = states.iter().map(|s| s[1]).collect();
        let mut c2: Vec<Felt> = states.iter().map(|s| s[2]).collect();
        b.poseidon_permute_columns(&mut c0, &mut c1, &mut c2);
        for i in 0..n {
            assert_eq!(
                [c0[i], c1[i], c2[i]],
                want_perm[i],
                "{b} permute_columns {i}"
            );
        }
    }
}

fn check_many(msgs: &[Vec<Felt>]) {
    let refs: Vec<&[Felt]> = msgs.iter().map(|m| m.as_slice()).collect();
    let want: Vec<Felt> = refs.iter().map(|m| poseidon_hash_many(*m)).collect();
    for b in backends() {
        let mut out = vec![Felt::ZERO; refs.len()];
        b.poseidon_hash_many_batch(&refs, &mut out);
        assert_eq!(out, want, "{b} poseidon_hash_many_batch");
        let mut out = vec![Felt::ZERO; refs.len()];
        b.poseidon_hash_many_batch_par(&refs, &mut out);
        assert_eq!(out, want, "{b} poseidon_hash_many_batch_par");
    }
}

#[test]
fn published_vectors_on_every_backend() {
    // spec/starknet.md (cairo-lang / starkware-industries poseidon test vectors).
    let h = |s: &str| Felt::from_hex(s).unwrap();
    for b in backends() {
        let mut out = [Felt::ZERO];
        b.poseidon_hash_batch(
            &[[Felt::from(0x123456u64), Felt::from(0x789101u64)]],
            &mut out,
        );
        assert_eq!(
            out[0],
            h("0x2fb6e1e8838d4b850877944f0a13340dd5810f01f5d4361c54b22b4abda3248")
        );
        b.poseidon_hash_single_batch(&[Felt::from(9u64)], &mut out);
        assert_eq!(
            out[0],
            h("0x3bb3b91c714cb47003947f36dadc98326176963c434cd0a10320b8146c948b3")
        );
        let mut s = [[Felt::ZERO; 3]];
        b.poseidon_permute_batch(&mut s);
        assert_eq!(
            s[0],
            [
                h("0x79e8d1e78258000a28fc9d49e233bc6852357968577b1e386550ed6a9086133"),
                h("0x3840d003d0f3f96dbb796ff6aa6a63be5b5404b91ccaabca256154cbb6fb984"),
                h("0x1eb39da3f7d3b04142d0ac83d9da00c9325a61fb2ef326e50b70eaa8a3c7cc7"),
            ]
        );
        let one = Felt::ONE;
        let msgs: [&[Felt]; 5] = [
            &[],
            &[one],
            &[one, Felt::TWO],
            &[one, Felt::TWO, Felt::THREE],
            &[Felt::ZERO, one, Felt::TWO, Felt::THREE],
        ];
        let mut out = [Felt::ZERO; 5];
        b.poseidon_hash_many_batch(&msgs, &mut out);
        assert_eq!(
            out,
            [
                h("0x2272be0f580fd156823304800919530eaa97430e972d7213ee13f4fbf7a5dbc"),
                h("0x579e8877c7755365d5ec1ec7d3a94a457eff5d1f40482bbe9729c064cdead2"),
                h("0x371cb6995ea5e7effcd2e174de264b5b407027a75a231a70c2c8d196107f0e7"),
                h("0x2f0d8840bcf3bc629598d8a6cc80cb7c0d9e52d93dab244bbf9cd0dca0ad082"),
                h("0x7b8f30ac298ea12d170c0873f1fa631a18c00756c6e7d1fd273b9a239d0d413"),
            ]
        );
    }
}

#[test]
fn every_length_up_to_three_vectors_and_one() {
    for n in 0..=3 * lanes() + 1 {
        let pairs: Vec<[Felt; 2]> = (0..n as u64)
            .map(|i| [pseudo(2 * i), pseudo(2 * i + 1)])
            .collect();
        check_all(&pairs);
    }
}

#[test]
fn edge_values_in_every_lane() {
    let e = edge_values();
    let pairs: Vec<[Felt; 2]> = e
        .iter()
        .flat_map(|x| e.iter().step_by(5).map(move |y| [*x, *y]))
        .collect();
    check_all(&pairs);
}

#[test]
fn needle_in_each_lane() {
    // One distinct input in lane k, the same value everywhere else: a lane mix-up shows.
    let l = lanes();
    for k in 0..l {
        let mut pairs = vec![[Felt::ONE, Felt::TWO]; l];
        pairs[k] = [Felt::MAX, pseudo(k as u64)];
        check_all(&pairs);
        let msgs: Vec<Vec<Felt>> = (0..l)
            .map(|i| {
                if i == k {
                    vec![Felt::MAX; 5]
                } else {
                    vec![Felt::ONE]
                }
            })
            .collect();
        check_many(&msgs);
    }
}

#[test]
fn ragged_many_batches() {
    for count in [0usize, 1, 3, 4, 5, 9, 17, 41] {
        let msgs: Vec<Vec<Felt>> = (0..count as u64)
            .map(|i| {
                let len = (i * 7919 + count as u64 * 31) % 40;
                (0..len).map(|j| pseudo(i * 1000 + j)).collect()
            })
            .collect();
        check_many(&msgs);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(32)
    ))]

    #[test]
    fn random_batches_match_scalar(pairs in prop::collection::vec(prop::array::uniform2(felt()), 0..40)) {
        check_all(&pairs);
    }

    #[test]
    fn random_many_batches_match_scalar(
        msgs in prop::collection::vec(prop::collection::vec(felt(), 0..40), 0..12)
    ) {
        check_many(&msgs);
    }
}

#[test]
fn every_backend_equals_portable_on_long_batches() {
    let pairs: Vec<[Felt; 2]> = (0..257u64).map(|i| [pseudo(i), pseudo(i + 7777)]).collect();
    let mut want = vec![Felt::ZERO; pairs.len()];
    Backend::portable().poseidon_hash_batch(&pairs, &mut want);
    for b in backends() {
        let mut out = vec![Felt::ZERO; pairs.len()];
        b.poseidon_hash_batch(&pairs, &mut out);
        assert_eq!(out, want, "{b}");
    }
}

#[test]
fn batch_calls_do_not_allocate() {
    let pairs: Vec<[Felt; 2]> = (0..37u64).map(|i| [pseudo(i), pseudo(i + 1)]).collect();
    let xs: Vec<Felt> = pairs.iter().map(|p| p[0]).collect();
    let msgs: Vec<Vec<Felt>> = (0..9u64)
        .map(|i| (0..i * 3).map(pseudo).collect())
        .collect();
    let refs: Vec<&[Felt]> = msgs.iter().map(|m| m.as_slice()).collect();
    let mut out = vec![Felt::ZERO; pairs.len()];
    let mut states = vec![[Felt::ONE; 3]; 11];
    let (mut c0, mut c1, mut c2) = (xs.clone(), xs.clone(), xs.clone());
    for b in backends() {
        // Warm up (detection and any one-time initialisation happen outside the count).
        b.poseidon_hash_batch(&pairs, &mut out);
        starkbatch::poseidon_hash_batch(&pairs, &mut out);
        let n = allocations_during(|| {
            b.poseidon_hash_batch(&pairs, &mut out);
            b.poseidon_hash_single_batch(&xs, &mut out);
            b.poseidon_hash_columns(&xs, &xs, &mut out);
            b.poseidon_permute_batch(&mut states);
            b.poseidon_permute_columns(&mut c0, &mut c1, &mut c2);
            b.poseidon_hash_many_batch(&refs, &mut out[..refs.len()]);
            starkbatch::poseidon_hash_batch(&pairs, &mut out);
        });
        assert_eq!(n, 0, "{b}: batch calls allocated {n} times");
    }
    // The counter does count: a Vec allocates.
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 10]))) > 0);
}

#[test]
fn chosen_backend_is_the_expected_one() {
    // Set by scripts/cross-test.sh: the backend this CPU (or emulator) should get, or the one
    // forced with STARKBATCH_BACKEND.
    let Ok(want) = std::env::var("STARKBATCH_EXPECT_BACKEND") else {
        return;
    };
    assert_eq!(Backend::current().name(), want);
    assert_eq!(Backend::from_env().unwrap().name(), want);
    let forced = std::env::var("STARKBATCH_BACKEND").is_ok_and(|v| !v.trim().is_empty());
    if !forced {
        // Not forced: the best backend this CPU has.
        assert_eq!(Backend::detect().name(), want);
        assert_eq!(Backend::available()[0].name(), want);
    }
}

#[test]
fn backend_names_and_errors() {
    assert_eq!(Backend::portable().name(), "portable");
    assert_eq!(Backend::from_name("portable"), Ok(Backend::portable()));
    assert!(Backend::from_name("sse9").is_err());
    for name in ["avx2", "avx512ifma", "neon"] {
        let available = Backend::available().iter().any(|b| b.name() == name);
        assert_eq!(Backend::from_name(name).is_ok(), available, "{name}");
        if !available {
            let msg = Backend::from_name(name).unwrap_err().to_string();
            assert!(msg.contains(name) && msg.contains("not supported"), "{msg}");
        }
    }
    assert_eq!(*Backend::available().last().unwrap(), Backend::portable());
    for b in Backend::available() {
        let want = if b.name() == "avx512ifma" { 8 } else { 4 };
        assert_eq!(b.lanes(), want, "{b}");
        let want = match b.name() {
            "avx512ifma" => 16,
            "avx2" => 8,
            "neon" => 4,
            _ => 1,
        };
        assert_eq!(b.poseidon_lanes(), want, "{b}");
    }
}

#[test]
#[should_panic(expected = "differ in length")]
fn mismatched_lengths_panic() {
    let mut out = [Felt::ZERO; 2];
    Backend::portable().poseidon_hash_batch(&[[Felt::ONE; 2]; 3], &mut out);
}
