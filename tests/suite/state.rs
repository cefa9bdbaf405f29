//! Patricia-Merkle tries: published vectors, and the batched builder against a plain recursive
//! reference implementation (one hash at a time, keys as big integers) written here.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use starkbatch::Felt;
use starkbatch::hash::PairHash;
use starkbatch::state::{
    COMMITMENT_HEIGHT, Node, STATE_HEIGHT, TrieError, TrieTop, compose_tops, hash_nodes_vec,
    trie_root, trie_roots, trie_top,
};
use std::collections::BTreeMap;

fn to_ref(a: &Felt) -> starknet_crypto::Felt {
    starknet_crypto::Felt::from_bytes_be(&a.to_bytes_be())
}

fn from_ref(a: &starknet_crypto::Felt) -> Felt {
    Felt::from_bytes_be(&a.to_bytes_be()).expect("canonical")
}

/// Pedersen from starknet-crypto: an independent implementation of the trie hash.
struct RefPedersen;
impl PairHash for RefPedersen {
    const NAME: &'static str = "starknet-crypto pedersen";
    fn hash(a: &Felt, b: &Felt) -> Felt {
        from_ref(&starknet_crypto::pedersen_hash(&to_ref(a), &to_ref(b)))
    }
}

/// Poseidon from starknet-crypto (faster than Pedersen: used for the many random cases).
struct RefPoseidon;
impl PairHash for RefPoseidon {
    const NAME: &'static str = "starknet-crypto poseidon";
    fn hash(a: &Felt, b: &Felt) -> Felt {
        from_ref(&starknet_crypto::poseidon_hash(to_ref(a), to_ref(b)))
    }
}

fn hex(s: &str) -> Felt {
    Felt::from_hex(s).unwrap()
}

fn big(f: &Felt) -> BigUint {
    BigUint::from_bytes_be(&f.to_bytes_be())
}

fn felt(b: &BigUint) -> Felt {
    let bytes = b.to_bytes_be();
    let mut buf = [0u8; 32];
    buf[32 - bytes.len()..].copy_from_slice(&bytes);
    Felt::from_bytes_be(&buf).unwrap()
}

/// Reference: the final map (later writes win, zeros delete), then a top-down recursion.
fn reference_root<H: PairHash>(entries: &[(Felt, Felt)], height: u32) -> Felt {
    let mut map = BTreeMap::new();
    for (k, v) in entries {
        map.insert(big(k), *v);
    }
    let items: Vec<(BigUint, Felt)> = map.into_iter().filter(|(_, v)| !v.is_zero()).collect();
    if items.is_empty() {
        return Felt::ZERO;
    }
    reference_node::<H>(&items, height)
}

/// The hash of the node whose subtree (of height `h`) holds the non-empty `items`, all keys
/// agreeing above bit `h`.
fn reference_node<H: PairHash>(items: &[(BigUint, Felt)], h: u32) -> Felt {
    if h == 0 {
        assert_eq!(items.len(), 1);
        return items[0].1;
    }
    // Walk down while every key takes the same branch: that is the edge.
    let mut level = h;
    let mut path = BigUint::zero();
    let mut length = 0u32;
    loop {
        if level == 0 {
            break;
        }
        let bit = |k: &BigUint| k.bit(u64::from(level - 1));
        let ones = items.iter().filter(|(k, _)| bit(k)).count();
        if ones != 0 && ones != items.len() {
            break;
        }
        path = (path << 1u32)
            + if ones != 0 {
                BigUint::one()
            } else {
                BigUint::zero()
            };
        length += 1;
        level -= 1;
    }
    let bottom = if level == 0 {
        items[0].1
    } else {
        let split = items
            .iter()
            .position(|(k, _)| k.bit(u64::from(level - 1)))
            .unwrap();
        let left = reference_node::<H>(&items[..split], level - 1);
        let right = reference_node::<H>(&items[split..], level - 1);
        H::hash(&left, &right)
    };
    if length == 0 {
        bottom
    } else {
        H::hash(&bottom, &felt(&path)) + Felt::from(length)
    }
}

// ---- published vectors (spec: "Starknet state commitment"; cairo-lang / pathfinder tests) ----

#[test]
fn published_single_leaf() {
    let entries = [(hex("0x1"), hex("0x1"))];
    let want = hex("0x2ebbd6878f81e49560ae863bd4ef327a417037bf57b63a016130ad0a94c8fa7");
    assert_eq!(
        trie_root::<RefPedersen>(&entries, STATE_HEIGHT).unwrap(),
        want
    );
    assert_eq!(reference_root::<RefPedersen>(&entries, STATE_HEIGHT), want);
}

#[test]
fn published_three_keys() {
    let entries = [
        (hex("0x1"), hex("0x0")),
        (hex("0x86"), hex("0x1")),
        (hex("0x87"), hex("0x2")),
    ];
    let want = hex("0x5458b9f8491e7c845bffa4cd36cdb3a7c29dcdf75f2809bd6f4ce65386facfc");
    assert_eq!(
        trie_root::<RefPedersen>(&entries, STATE_HEIGHT).unwrap(),
        want
    );
    assert_eq!(reference_root::<RefPedersen>(&entries, STATE_HEIGHT), want);
}

#[test]
fn published_edge_node() {
    let node = Node::Edge {
        child: Felt::ONE,
        path: Felt::TWO,
        length: 3,
    };
    let want = hex("0x5bb9440e27889a364bcb678b1f679ecd1347acdedcbf36e83494f857cc58029");
    assert_eq!(node.hash::<RefPedersen>(), want);
    assert_eq!(hash_nodes_vec::<RefPedersen>(&[node]), vec![want]);
}

#[test]
fn bulk_nodes_match_one_at_a_time() {
    let nodes: Vec<Node> = (0..200u64)
        .map(|i| {
            if i % 3 == 0 {
                Node::Binary {
                    left: Felt::from(i),
                    right: Felt::from(i * 7 + 1),
                }
            } else {
                Node::Edge {
                    child: Felt::from(i),
                    path: Felt::from(i % 5),
                    length: (i % 251) as u8 + 1,
                }
            }
        })
        .collect();
    let batch = hash_nodes_vec::<RefPoseidon>(&nodes);
    for (n, h) in nodes.iter().zip(&batch) {
        assert_eq!(n.hash::<RefPoseidon>(), *h);
    }
}

// ---- rules ----

#[test]
fn empty_and_all_zero_tries_have_root_zero() {
    assert_eq!(
        trie_root::<RefPedersen>(&[], STATE_HEIGHT).unwrap(),
        Felt::ZERO
    );
    let zeros = [(Felt::ONE, Felt::ZERO), (Felt::TWO, Felt::ZERO)];
    assert_eq!(
        trie_root::<RefPedersen>(&zeros, STATE_HEIGHT).unwrap(),
        Felt::ZERO
    );
}

#[test]
fn duplicate_keys_last_wins() {
    let k = Felt::from(5u64);
    let a = trie_root::<RefPoseidon>(&[(k, Felt::ONE), (k, Felt::TWO)], STATE_HEIGHT).unwrap();
    let b = trie_root::<RefPoseidon>(&[(k, Felt::TWO)], STATE_HEIGHT).unwrap();
    assert_eq!(a, b);
    let deleted =
        trie_root::<RefPoseidon>(&[(k, Felt::ONE), (k, Felt::ZERO)], STATE_HEIGHT).unwrap();
    assert_eq!(deleted, Felt::ZERO);
    let revived =
        trie_root::<RefPoseidon>(&[(k, Felt::ZERO), (k, Felt::TWO)], STATE_HEIGHT).unwrap();
    assert_eq!(revived, b);
}

#[test]
fn keys_that_do_not_fit_are_errors() {
    let two_251 = felt(&(BigUint::one() << 251u32));
    assert_eq!(
        trie_root::<RefPoseidon>(&[(two_251, Felt::ONE)], STATE_HEIGHT),
        Err(TrieError::KeyOutOfRange {
            key: two_251,
            height: 251
        })
    );
    assert!(matches!(
        trie_root::<RefPoseidon>(
            &[(Felt::ONE, Felt::ONE), (Felt::MAX, Felt::ONE)],
            STATE_HEIGHT
        ),
        Err(TrieError::KeyOutOfRange { .. })
    ));
    let two_64 = felt(&(BigUint::one() << 64u32));
    assert!(matches!(
        trie_root::<RefPoseidon>(&[(two_64, Felt::ONE)], COMMITMENT_HEIGHT),
        Err(TrieError::KeyOutOfRange { height: 64, .. })
    ));
    // u64::MAX fits height 64.
    let max64 = Felt::from(u64::MAX);
    assert_eq!(
        trie_root::<RefPoseidon>(&[(max64, Felt::ONE)], 64).unwrap(),
        reference_root::<RefPoseidon>(&[(max64, Felt::ONE)], 64)
    );
    assert_eq!(
        trie_root::<RefPoseidon>(&[], 0),
        Err(TrieError::InvalidHeight(0))
    );
    assert_eq!(
        trie_root::<RefPoseidon>(&[], 252),
        Err(TrieError::InvalidHeight(252))
    );
    assert!(TrieError::InvalidHeight(0).to_string().contains("height"));
}

#[test]
fn extreme_keys() {
    let max = felt(&((BigUint::one() << 251u32) - 1u32));
    let cases: Vec<Vec<(Felt, Felt)>> = vec![
        vec![(Felt::ZERO, Felt::ONE)],
        vec![(max, Felt::ONE)],
        vec![(Felt::ZERO, Felt::ONE), (max, Felt::TWO)],
        vec![(Felt::ZERO, Felt::ONE), (Felt::ONE, Felt::TWO)],
        vec![
            (max, Felt::ONE),
            (max - Felt::ONE, Felt::TWO),
            (max - Felt::TWO, Felt::THREE),
        ],
    ];
    for entries in cases {
        assert_eq!(
            trie_root::<RefPedersen>(&entries, STATE_HEIGHT).unwrap(),
            reference_root::<RefPedersen>(&entries, STATE_HEIGHT),
            "{entries:?}"
        );
    }
}

// ---- random key sets ----

/// A key below 2^height from a few shapes: uniform, near a base (adjacent keys), sharing a long
/// prefix with a base, and the extremes 0 and 2^height - 1.
fn key_strategy(height: u32, base: BigUint) -> impl Strategy<Value = Felt> {
    let top = (BigUint::one() << height) - 1u32;
    let uniform = any::<[u8; 32]>().prop_map(move |b| {
        let full = BigUint::from_bytes_be(&b);
        full & ((BigUint::one() << height) - 1u32)
    });
    let b1 = base.clone();
    let t1 = top.clone();
    let adjacent = (0u32..8).prop_map(move |d| (&b1 + d).min(t1.clone()));
    let b2 = base.clone();
    let prefix = (0u32..height, any::<[u8; 32]>()).prop_map(move |(low, bytes)| {
        let r = BigUint::from_bytes_be(&bytes) & ((BigUint::one() << low) - 1u32);
        ((&b2 >> low) << low) | r
    });
    let t2 = top.clone();
    let extremes = prop_oneof![Just(BigUint::zero()), Just(t2)];
    prop_oneof![3 => uniform, 2 => adjacent, 3 => prefix, 1 => extremes].prop_map(|b| felt(&b))
}

fn entries_strategy(height: u32, max_len: usize) -> impl Strategy<Value = Vec<(Felt, Felt)>> {
    any::<[u8; 32]>().prop_flat_map(move |b| {
        let base = BigUint::from_bytes_be(&b) & ((BigUint::one() << height) - 1u32);
        let value = prop_oneof![1 => Just(Felt::ZERO), 6 => any::<u64>().prop_map(|v| Felt::from(v | 1)),
            2 => any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b))];
        prop::collection::vec((key_strategy(height, base), value), 0..max_len)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn batched_equals_reference_251(entries in entries_strategy(251, 40)) {
        prop_assert_eq!(trie_root::<RefPoseidon>(&entries, 251).unwrap(), reference_root::<RefPoseidon>(&entries, 251));
    }

    #[test]
    fn batched_equals_reference_64(entries in entries_strategy(64, 40)) {
        prop_assert_eq!(trie_root::<RefPoseidon>(&entries, 64).unwrap(), reference_root::<RefPoseidon>(&entries, 64));
    }

    #[test]
    fn batched_equals_reference_small_heights(h in 1u32..12, entries in entries_strategy(11, 30)) {
        let entries: Vec<_> = entries.into_iter().filter(|(k, _)| k.to_raw_limbs()[0] >> h == 0).collect();
        prop_assert_eq!(trie_root::<RefPoseidon>(&entries, h).unwrap(), reference_root::<RefPoseidon>(&entries, h));
    }

    #[test]
    fn insertion_order_does_not_matter(entries in entries_strategy(251, 30), seed in any::<u64>()) {
        // Distinct keys (the first occurrence of each), then a seeded shuffle.
        let mut seen = std::collections::HashSet::new();
        let distinct: Vec<_> = entries.into_iter().filter(|(k, _)| seen.insert(*k)).collect();
        let mut shuffled = distinct.clone();
        let mut s = seed | 1;
        for i in (1..shuffled.len()).rev() {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            shuffled.swap(i, (s % (i as u64 + 1)) as usize);
        }
        prop_assert_eq!(trie_root::<RefPoseidon>(&distinct, 251).unwrap(), trie_root::<RefPoseidon>(&shuffled, 251).unwrap());
    }

    #[test]
    fn zero_values_delete(entries in entries_strategy(251, 30)) {
        let nonzero: Vec<_> = {
            let mut map = BTreeMap::new();
            for (k, v) in &entries { map.insert(big(k), *v); }
            map.into_iter().filter(|(_, v)| !v.is_zero()).map(|(k, v)| (felt(&k), v)).collect()
        };
        prop_assert_eq!(trie_root::<RefPoseidon>(&entries, 251).unwrap(), trie_root::<RefPoseidon>(&nonzero, 251).unwrap());
        // Deleting every key afterwards empties the trie.
        let mut all = entries.clone();
        all.extend(entries.iter().map(|(k, _)| (*k, Felt::ZERO)));
        prop_assert_eq!(trie_root::<RefPoseidon>(&all, 251).unwrap(), Felt::ZERO);
    }

    #[test]
    fn many_tries_together_equal_each_alone(tries in prop::collection::vec(entries_strategy(251, 12), 0..8)) {
        let slices: Vec<&[(Felt, Felt)]> = tries.iter().map(Vec::as_slice).collect();
        let roots = trie_roots::<RefPoseidon>(&slices, 251).unwrap();
        prop_assert_eq!(roots.len(), tries.len());
        for (t, r) in tries.iter().zip(&roots) {
            prop_assert_eq!(*r, reference_root::<RefPoseidon>(t, 251));
        }
    }

    #[test]
    fn subtrie_composition_equals_whole(entries in entries_strategy(251, 30), split_bits in 0u32..5) {
        subtrie_composition_case(&entries, 251, split_bits)?;
    }

    #[test]
    fn subtrie_composition_equals_whole_64(entries in entries_strategy(64, 30), split_bits in 0u32..6) {
        subtrie_composition_case(&entries, 64, split_bits)?;
    }
}

fn subtrie_composition_case(
    entries: &[(Felt, Felt)],
    height: u32,
    split_bits: u32,
) -> Result<(), TestCaseError> {
    let sub_height = height - split_bits;
    let mask = (BigUint::one() << sub_height) - 1u32;
    let mut shards: Vec<Vec<(Felt, Felt)>> = vec![Vec::new(); 1 << split_bits];
    for (k, v) in entries {
        let k = big(k);
        let index: usize = (&k >> sub_height).try_into().unwrap();
        shards[index].push((felt(&(k & &mask)), *v));
    }
    let tops: Vec<Option<TrieTop>> = shards
        .iter()
        .map(|s| trie_top::<RefPoseidon>(s, sub_height).unwrap())
        .collect();
    for (s, t) in shards.iter().zip(&tops) {
        prop_assert_eq!(
            t.map_or(Felt::ZERO, |t| t.hash::<RefPoseidon>()),
            trie_root::<RefPoseidon>(s, sub_height).unwrap()
        );
    }
    prop_assert_eq!(
        compose_tops::<RefPoseidon>(&tops, split_bits, sub_height).unwrap(),
        trie_root::<RefPoseidon>(entries, height).unwrap()
    );
    Ok(())
}

#[test]
fn compose_rejects_malformed_input() {
    let top = Some(TrieTop {
        node: Felt::ONE,
        path: Felt::from(4u64),
        length: 2,
    });
    assert_eq!(
        compose_tops::<RefPoseidon>(&[top, None], 1, 250),
        Err(TrieError::InvalidTop { index: 0 })
    );
    let long = Some(TrieTop {
        node: Felt::ONE,
        path: Felt::ZERO,
        length: 11,
    });
    assert_eq!(
        compose_tops::<RefPoseidon>(&[None, long], 1, 10),
        Err(TrieError::InvalidTop { index: 1 })
    );
    assert_eq!(
        compose_tops::<RefPoseidon>(&[None, None, None], 1, 250),
        Err(TrieError::TopCount {
            split_bits: 1,
            got: 3
        })
    );
    assert_eq!(
        compose_tops::<RefPoseidon>(&[None, None], 1, 251),
        Err(TrieError::InvalidHeight(252))
    );
    assert_eq!(
        compose_tops::<RefPoseidon>(&[None, None], 1, 250),
        Ok(Felt::ZERO)
    );
}

#[test]
fn larger_random_trie_pedersen() {
    // 300 keys with a deterministic generator; Pedersen from starknet-crypto on both sides.
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let entries: Vec<(Felt, Felt)> = (0..300)
        .map(|_| {
            let mut b = [0u8; 32];
            for c in b.chunks_mut(8) {
                c.copy_from_slice(&next().to_be_bytes());
            }
            b[0] &= 0x07;
            (Felt::from_bytes_be(&b).unwrap(), Felt::from(next()))
        })
        .collect();
    assert_eq!(
        trie_root::<RefPedersen>(&entries, STATE_HEIGHT).unwrap(),
        reference_root::<RefPedersen>(&entries, STATE_HEIGHT)
    );
}

// ---- Starknet hashes: contract leaves, class leaves, state root, whole state ----

mod commitment {
    use super::*;
    use starkbatch::state::{
        CONTRACT_CLASS_LEAF_V0, ContractState, DeclaredClass, STARKNET_STATE_V0, StateRootRule,
        class_leaf_hash, class_leaf_hash_batch, contract_state_hash, contract_state_hashes,
        global_state_root, state_commitment,
    };
    use starkbatch::{Pedersen, Poseidon};

    #[test]
    fn real_hashes_give_the_published_trie_vectors() {
        let one = [(hex("0x1"), hex("0x1"))];
        assert_eq!(
            trie_root::<Pedersen>(&one, STATE_HEIGHT).unwrap(),
            hex("0x2ebbd6878f81e49560ae863bd4ef327a417037bf57b63a016130ad0a94c8fa7")
        );
        let three = [
            (hex("0x1"), hex("0x0")),
            (hex("0x86"), hex("0x1")),
            (hex("0x87"), hex("0x2")),
        ];
        assert_eq!(
            trie_root::<Pedersen>(&three, STATE_HEIGHT).unwrap(),
            hex("0x5458b9f8491e7c845bffa4cd36cdb3a7c29dcdf75f2809bd6f4ce65386facfc")
        );
        let edge = Node::Edge {
            child: Felt::ONE,
            path: Felt::TWO,
            length: 3,
        };
        assert_eq!(
            hash_nodes_vec::<Pedersen>(&[edge]),
            vec![hex(
                "0x5bb9440e27889a364bcb678b1f679ecd1347acdedcbf36e83494f857cc58029"
            )]
        );
    }

    #[test]
    fn short_string_constants() {
        let short = |s: &str| {
            let mut b = [0u8; 32];
            b[32 - s.len()..].copy_from_slice(s.as_bytes());
            Felt::from_bytes_be(&b).unwrap()
        };
        assert_eq!(CONTRACT_CLASS_LEAF_V0, short("CONTRACT_CLASS_LEAF_V0"));
        assert_eq!(STARKNET_STATE_V0, short("STARKNET_STATE_V0"));
    }

    #[test]
    fn contract_state_hash_published_vector() {
        // pathfinder (eqlabs/pathfinder), merkle-tree `contract_state.rs`, test `hash`.
        let root = hex("0x4fb440e8ca9b74fc12a22ebffe0bc0658206337897226117b985434c239c028");
        let class = hex("0x2ff4903e17f87b298ded00c44bfeb22874c5f73be2ced8f1d9d9556fb509779");
        let want = hex("0x7161b591c893836263a64f2a7e0d829c92f6956148a60ce5e99a3f55c7973f3");
        assert_eq!(contract_state_hash(&class, &root, &Felt::ZERO), want);
    }

    fn ref_contract_state_hash(c: &Felt, r: &Felt, n: &Felt) -> Felt {
        let h = RefPedersen::hash(c, r);
        let h = RefPedersen::hash(&h, n);
        RefPedersen::hash(&h, &Felt::ZERO)
    }

    fn ref_state_root(c: &Felt, k: &Felt, rule: StateRootRule) -> Felt {
        if c.is_zero() && k.is_zero() {
            Felt::ZERO
        } else if k.is_zero() && rule == StateRootRule::Before0_14_0 {
            *c
        } else {
            let v = [STARKNET_STATE_V0, *c, *k].map(|x| to_ref(&x));
            from_ref(&starknet_crypto::poseidon_hash_many(&v))
        }
    }

    fn felt_s() -> impl Strategy<Value = Felt> {
        prop_oneof![
            Just(Felt::ZERO),
            Just(Felt::MAX),
            any::<u64>().prop_map(Felt::from),
            any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b))
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn leaves_and_roots_match_starknet_crypto(c in felt_s(), r in felt_s(), n in felt_s(), cch in felt_s()) {
            prop_assert_eq!(contract_state_hash(&c, &r, &n), ref_contract_state_hash(&c, &r, &n));
            let mut out = [Felt::ZERO; 2];
            contract_state_hashes(&[c, r], &[r, c], &[n, n], &mut out);
            prop_assert_eq!(out, [ref_contract_state_hash(&c, &r, &n), ref_contract_state_hash(&r, &c, &n)]);
            prop_assert_eq!(class_leaf_hash(&cch), RefPoseidon::hash(&CONTRACT_CLASS_LEAF_V0, &cch));
            let mut leaf = [Felt::ZERO];
            class_leaf_hash_batch(&[cch], &mut leaf);
            prop_assert_eq!(leaf[0], class_leaf_hash(&cch));
            for rule in [StateRootRule::Before0_14_0, StateRootRule::From0_14_0] {
                for (a, b) in [(c, r), (c, Felt::ZERO), (Felt::ZERO, r), (Felt::ZERO, Felt::ZERO)] {
                    prop_assert_eq!(global_state_root(&a, &b, rule), ref_state_root(&a, &b, rule));
                }
            }
        }

        #[test]
        fn trie_with_real_hashes_matches_reference(entries in entries_strategy(251, 24)) {
            prop_assert_eq!(trie_root::<Pedersen>(&entries, 251).unwrap(), reference_root::<RefPedersen>(&entries, 251));
            prop_assert_eq!(trie_root::<Poseidon>(&entries, 251).unwrap(), reference_root::<RefPoseidon>(&entries, 251));
        }
    }

    #[test]
    fn global_state_root_rules() {
        let c = Felt::from(7u64);
        let z = Felt::ZERO;
        for rule in [StateRootRule::Before0_14_0, StateRootRule::From0_14_0] {
            assert_eq!(global_state_root(&z, &z, rule), z);
        }
        assert_eq!(global_state_root(&c, &z, StateRootRule::Before0_14_0), c);
        assert_ne!(global_state_root(&c, &z, StateRootRule::From0_14_0), c);
        assert_eq!(
            global_state_root(&c, &c, StateRootRule::Before0_14_0),
            global_state_root(&c, &c, StateRootRule::From0_14_0)
        );
    }

    fn block(seed: u64, contracts: usize) -> (Vec<ContractState>, Vec<DeclaredClass>) {
        let mut s = seed | 1;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let big = |next: &mut dyn FnMut() -> u64| {
            let mut b = [0u8; 32];
            for c in b.chunks_mut(8) {
                c.copy_from_slice(&next().to_be_bytes());
            }
            b[0] &= 0x07;
            Felt::from_bytes_be(&b).unwrap()
        };
        let cs = (0..contracts)
            .map(|i| ContractState {
                address: big(&mut next),
                class_hash: big(&mut next),
                nonce: Felt::from(i as u64 % 3),
                storage: (0..(i * 7) % 13)
                    .map(|j| (big(&mut next), Felt::from(j as u64 % 4)))
                    .collect(),
            })
            .collect();
        let classes = (0..contracts / 2)
            .map(|_| DeclaredClass {
                class_hash: big(&mut next),
                compiled_class_hash: big(&mut next),
            })
            .collect();
        (cs, classes)
    }

    #[test]
    fn whole_state_equals_piece_by_piece_reference() {
        for (seed, n) in [(1u64, 0usize), (2, 1), (3, 2), (4, 9), (5, 30)] {
            let (contracts, classes) = block(seed, n);
            for rule in [StateRootRule::Before0_14_0, StateRootRule::From0_14_0] {
                let got = state_commitment(&contracts, &classes, rule).unwrap();
                let storage: Vec<Felt> = contracts
                    .iter()
                    .map(|c| reference_root::<RefPedersen>(&c.storage, 251))
                    .collect();
                assert_eq!(got.storage_roots, storage);
                let leaves: Vec<(Felt, Felt)> = contracts
                    .iter()
                    .zip(&storage)
                    .map(|(c, r)| {
                        (
                            c.address,
                            ref_contract_state_hash(&c.class_hash, r, &c.nonce),
                        )
                    })
                    .collect();
                assert_eq!(
                    got.contract_leaves,
                    leaves.iter().map(|l| l.1).collect::<Vec<_>>()
                );
                let contract_root = reference_root::<RefPedersen>(&leaves, 251);
                let class_leaves: Vec<(Felt, Felt)> = classes
                    .iter()
                    .map(|c| {
                        (
                            c.class_hash,
                            RefPoseidon::hash(&CONTRACT_CLASS_LEAF_V0, &c.compiled_class_hash),
                        )
                    })
                    .collect();
                let class_root = reference_root::<RefPoseidon>(&class_leaves, 251);
                assert_eq!(got.contract_root, contract_root);
                assert_eq!(got.class_root, class_root);
                assert_eq!(
                    got.state_root,
                    ref_state_root(&contract_root, &class_root, rule)
                );
            }
        }
    }

    #[test]
    fn whole_state_rejects_keys_out_of_range() {
        let (mut contracts, classes) = block(9, 3);
        contracts[1].storage.push((Felt::MAX, Felt::ONE));
        assert!(matches!(
            state_commitment(&contracts, &classes, StateRootRule::From0_14_0),
            Err(TrieError::KeyOutOfRange { .. })
        ));
        let (mut contracts, classes) = block(9, 3);
        contracts[0].address = Felt::MAX;
        assert!(state_commitment(&contracts, &classes, StateRootRule::From0_14_0).is_err());
        let (contracts, mut classes) = block(9, 4);
        classes[0].class_hash = Felt::MAX;
        assert!(state_commitment(&contracts, &classes, StateRootRule::From0_14_0).is_err());
    }
}
