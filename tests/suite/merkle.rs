//! Binary Merkle trees: the batched, in-place and parallel roots against a plain reference (one
//! hash at a time), proofs, subtree composition, and the memory bound of `merkle::root`.

use crate::alloc::peak_during;
use proptest::prelude::*;
use starkbatch::Felt;
use starkbatch::hash::PairHash;
use starkbatch::merkle::{self, MerkleError, MerkleProof, MerkleTree};

fn to_ref(a: &Felt) -> starknet_crypto::Felt {
    starknet_crypto::Felt::from_bytes_be(&a.to_bytes_be())
}

/// Poseidon from starknet-crypto: an independent node hash.
struct RefPoseidon;
impl PairHash for RefPoseidon {
    const NAME: &'static str = "starknet-crypto poseidon";
    fn hash(a: &Felt, b: &Felt) -> Felt {
        let h = starknet_crypto::poseidon_hash(to_ref(a), to_ref(b));
        Felt::from_bytes_be(&h.to_bytes_be()).unwrap()
    }
}

/// A cheap non-commutative stand-in (a·3 + b + 1) for trees too large for the real hash in a test.
struct Cheap;
impl PairHash for Cheap {
    const NAME: &'static str = "cheap";
    fn hash(a: &Felt, b: &Felt) -> Felt {
        *a * Felt::THREE + *b + Felt::ONE
    }
}

/// Reference: the level-by-level definition, one hash per node, odd last node carried up.
fn reference_root<H: PairHash>(leaves: &[Felt]) -> Felt {
    if leaves.is_empty() {
        return Felt::ZERO;
    }
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|c| {
                if c.len() == 2 {
                    H::hash(&c[0], &c[1])
                } else {
                    c[0]
                }
            })
            .collect();
    }
    level[0]
}

/// Reference for a power-of-two count: the recursive definition.
fn recursive_root<H: PairHash>(leaves: &[Felt]) -> Felt {
    if leaves.len() == 1 {
        return leaves[0];
    }
    let (l, r) = leaves.split_at(leaves.len() / 2);
    H::hash(&recursive_root::<H>(l), &recursive_root::<H>(r))
}

fn leaves(n: usize, seed: u64) -> Vec<Felt> {
    (0..n as u64)
        .map(|i| Felt::from(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed) + Felt::MAX)
        .collect()
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

#[test]
fn empty_and_single() {
    assert_eq!(merkle::root::<RefPoseidon>(&[]), Felt::ZERO);
    assert_eq!(MerkleTree::<RefPoseidon>::new(vec![]).root(), Felt::ZERO);
    let x = Felt::from(42u64);
    assert_eq!(merkle::root::<RefPoseidon>(&[x]), x);
    let t = MerkleTree::<RefPoseidon>::new(vec![x]);
    assert_eq!(t.root(), x);
    let p = t.proof(0).unwrap();
    assert!(p.siblings.is_empty());
    assert!(merkle::verify_proof::<RefPoseidon>(&x, &x, 0, &p));
    assert_eq!(
        t.proof(1),
        Err(MerkleError::IndexOutOfRange {
            index: 1,
            leaf_count: 1
        })
    );
    assert!(MerkleTree::<RefPoseidon>::new(vec![]).proof(0).is_err());
}

#[test]
fn small_trees_match_reference() {
    for n in 0..=70 {
        let l = leaves(n, 7);
        let want = reference_root::<RefPoseidon>(&l);
        assert_eq!(merkle::root::<RefPoseidon>(&l), want, "n = {n}");
        assert_eq!(merkle::root_seq::<RefPoseidon>(&l), want, "n = {n}");
        assert_eq!(
            MerkleTree::<RefPoseidon>::new(l.clone()).root(),
            want,
            "n = {n}"
        );
        if n.is_power_of_two() {
            assert_eq!(recursive_root::<RefPoseidon>(&l), want);
        }
    }
}

#[test]
fn three_leaves_by_hand() {
    let [a, b, c] = [Felt::ONE, Felt::TWO, Felt::THREE];
    let h = RefPoseidon::hash;
    // The odd last leaf is carried up unchanged.
    assert_eq!(merkle::root::<RefPoseidon>(&[a, b, c]), h(&h(&a, &b), &c));
}

#[test]
fn large_trees_parallel_and_sequential_agree() {
    for n in [4096, 4097, 6000, 8191, 1 << 14, (1 << 15) + 3] {
        let l = leaves(n, n as u64);
        let want = reference_root::<Cheap>(&l);
        assert_eq!(merkle::root_seq::<Cheap>(&l), want, "n = {n}");
        for threads in [1, 2, 3] {
            assert_eq!(
                pool(threads).install(|| merkle::root::<Cheap>(&l)),
                want,
                "n = {n}, {threads} threads"
            );
        }
        assert_eq!(
            pool(2).install(|| MerkleTree::<Cheap>::new(l.clone()).root()),
            want
        );
    }
    // The real hash on a tree large enough to take the parallel path.
    let l = leaves(5000, 3);
    assert_eq!(
        pool(2).install(|| merkle::root::<RefPoseidon>(&l)),
        reference_root::<RefPoseidon>(&l)
    );
}

#[test]
fn subtree_composition_equals_whole() {
    for n in [1usize, 2, 5, 16, 17, 100, 1000] {
        let l = leaves(n, 11);
        let whole = merkle::root::<Cheap>(&l);
        for k in 0..8 {
            let roots: Vec<Felt> = l.chunks(1 << k).map(merkle::root::<Cheap>).collect();
            assert_eq!(
                merkle::root_from_subtree_roots::<Cheap>(&roots),
                whole,
                "n = {n}, k = {k}"
            );
        }
    }
    let l = leaves(37, 5);
    let roots: Vec<Felt> = l.chunks(8).map(merkle::root::<RefPoseidon>).collect();
    assert_eq!(
        merkle::root_from_subtree_roots::<RefPoseidon>(&roots),
        reference_root::<RefPoseidon>(&l)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_leaves_match_reference(l in prop::collection::vec(any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b)), 0..40)) {
        prop_assert_eq!(merkle::root::<RefPoseidon>(&l), reference_root::<RefPoseidon>(&l));
    }

    #[test]
    fn proofs_verify_and_tampering_fails(n in 1usize..40, seed in any::<u64>(), which in any::<prop::sample::Index>()) {
        let l = leaves(n, seed);
        let tree = MerkleTree::<RefPoseidon>::new(l.clone());
        let root = tree.root();
        let i = which.index(n);
        let proof = tree.proof(i).unwrap();
        prop_assert!(merkle::verify_proof::<RefPoseidon>(&root, &l[i], i, &proof));
        // Any changed element makes verification fail.
        prop_assert!(!merkle::verify_proof::<RefPoseidon>(&(root + Felt::ONE), &l[i], i, &proof));
        prop_assert!(!merkle::verify_proof::<RefPoseidon>(&root, &(l[i] + Felt::ONE), i, &proof));
        if n > 1 {
            let j = (i + 1) % n;
            prop_assert!(!merkle::verify_proof::<RefPoseidon>(&root, &l[i], j, &proof));
        }
        prop_assert!(!merkle::verify_proof::<RefPoseidon>(&root, &l[i], n, &proof));
        for k in 0..proof.siblings.len() {
            let mut bad = proof.clone();
            bad.siblings[k] += Felt::ONE;
            prop_assert!(!merkle::verify_proof::<RefPoseidon>(&root, &l[i], i, &bad));
        }
        let mut longer = proof.clone();
        longer.siblings.push(Felt::ONE);
        prop_assert!(!merkle::verify_proof::<RefPoseidon>(&root, &l[i], i, &longer));
        if !proof.siblings.is_empty() {
            let mut shorter = proof.clone();
            shorter.siblings.pop();
            prop_assert!(!merkle::verify_proof::<RefPoseidon>(&root, &l[i], i, &shorter));
        }
        let empty = MerkleProof { leaf_count: 0, siblings: vec![] };
        prop_assert!(!merkle::verify_proof::<RefPoseidon>(&root, &l[i], 0, &empty));
    }
}

// ---- memory: the suite's allocator counts on the threads that ask (tests/suite/alloc.rs) ----

#[test]
fn root_needs_at_most_half_the_leaves_in_extra_memory() {
    for n in [2usize, 3, 1000, 1001, 1 << 16, (1 << 16) + 1] {
        let l = leaves(n, 1);
        let mut r = Felt::ZERO;
        let peak = peak_during(|| r = merkle::root_seq::<Cheap>(&l));
        let bound = n.div_ceil(2) * std::mem::size_of::<Felt>();
        assert!(peak <= bound, "n = {n}: peak {peak} bytes > bound {bound}");
        assert_eq!(r, reference_root::<Cheap>(&l));
    }
}

#[test]
fn real_poseidon_matches_reference() {
    for n in [0usize, 1, 2, 3, 7, 64, 100, 4999] {
        let l = leaves(n, 99);
        assert_eq!(
            pool(2).install(|| merkle::root::<starkbatch::Poseidon>(&l)),
            reference_root::<RefPoseidon>(&l)
        );
        let t = MerkleTree::<starkbatch::Pedersen>::new(l.iter().take(9).copied().collect());
        assert_eq!(
            t.root(),
            reference_root::<starkbatch::Pedersen>(&l[..n.min(9)])
        );
    }
}

#[test]
fn batch_entry_points_equal_the_scalar_hash() {
    fn check<H: PairHash>() {
        for n in [0usize, 1, 3, 4, 5, 8, 9, 63, 64, 65, 200] {
            let pairs: Vec<[Felt; 2]> = leaves(2 * n, n as u64)
                .chunks(2)
                .map(|c| [c[0], c[1]])
                .collect();
            let want: Vec<Felt> = pairs.iter().map(|[a, b]| H::hash(a, b)).collect();
            let mut out = vec![Felt::ZERO; n];
            H::hash_batch(&pairs, &mut out);
            assert_eq!(out, want, "{} hash_batch, n = {n}", H::NAME);
            out.fill(Felt::ZERO);
            pool(2).install(|| H::hash_batch_par(&pairs, &mut out));
            assert_eq!(out, want, "{} hash_batch_par, n = {n}", H::NAME);
        }
    }
    check::<starkbatch::Poseidon>();
    check::<starkbatch::Pedersen>();
    // The scalar Poseidon itself against starknet-crypto.
    let (a, b) = (Felt::from(0x123456u64), Felt::MAX);
    assert_eq!(
        starkbatch::Poseidon::hash(&a, &b),
        RefPoseidon::hash(&a, &b)
    );
}
