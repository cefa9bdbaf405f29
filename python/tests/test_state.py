"""Tries and the state commitment against a small pure-Python Patricia trie over crypto-cpp-py's
Pedersen and poseidon-py's Poseidon (the definitions of ../shared/spec: binary H(l, r), edge
H(child, path) + length, leaves are values)."""

import random

import numpy as np
import poseidon_py.poseidon_hash as pp
import pytest
from crypto_cpp_py import cpp_bindings as cb

import starkbatch as sb

P = sb.P
HASH = {"pedersen": cb.cpp_hash, "poseidon": pp.poseidon_hash}
CONTRACT_CLASS_LEAF_V0 = int.from_bytes(b"CONTRACT_CLASS_LEAF_V0", "big")
STARKNET_STATE_V0 = int.from_bytes(b"STARKNET_STATE_V0", "big")


def ref_top(entries, height, h):
    """(node, path, length) of the trie of `entries` (key -> non-zero value), or None."""

    def build(items, depth):
        if depth == height:
            return (items[0][1], 0, 0)
        bit = lambda k: (k >> (height - 1 - depth)) & 1  # noqa: E731
        left = [e for e in items if bit(e[0]) == 0]
        right = [e for e in items if bit(e[0]) == 1]
        if left and right:
            return (h(close(build(left, depth + 1), h), close(build(right, depth + 1), h)), 0, 0)
        side, b = (left, 0) if left else (right, 1)
        node, path, length = build(side, depth + 1)
        return (node, (b << length) | path, length + 1)

    items = sorted((k, v) for k, v in entries.items() if v != 0)
    return build(items, 0) if items else None


def close(top, h):
    node, path, length = top
    return node if length == 0 else (h(node, path) + length) % P


def ref_root(entries, height, h):
    top = ref_top(entries, height, h)
    return 0 if top is None else close(top, h)


def writes(rng, n, height):
    """n writes (some repeated keys, some zero values) and the resulting key -> value map."""
    keys = [rng.randrange(2**height) for _ in range(n)]
    keys += rng.sample(keys, min(3, len(keys)))
    values = [rng.choice([0, rng.randrange(1, P)]) if rng.random() < 0.2 else rng.randrange(P) for _ in keys]
    state = {}
    for k, v in zip(keys, values):
        state[k] = v
    return keys, values, state


@pytest.mark.parametrize("hash", ["pedersen", "poseidon"])
@pytest.mark.parametrize("height", [1, 8, 64, 251])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 17, 40])
def test_trie_root_and_top(hash, height, n):
    rng = random.Random(height * 1000 + n)
    keys, values, state = writes(rng, n, height)
    want = ref_root(state, height, HASH[hash])
    assert sb.trie_root(keys, values, height, hash) == want
    top = sb.trie_top(keys, values, height=height, hash=hash)
    assert top == ref_top(state, height, HASH[hash])
    # The same trie from its 2^s subtries.
    for s in sorted({1, min(3, height - 1)}) if height > 1 else []:
        sub = height - s
        tops = []
        for i in range(2**s):
            part = [(k & (2**sub - 1), v) for k, v in zip(keys, values) if k >> sub == i]
            tops.append(sb.trie_top([k for k, _ in part], [v for _, v in part], sub, hash))
        assert sb.compose_tops(tops, s, sub, hash) == want


def test_trie_forms_and_errors():
    keys, values = [5, 9, 200], [100, 7, 1]
    want = sb.trie_root(keys, values)
    limbs = np.array([[k, 0, 0, 0] for k in keys], dtype=np.uint64)
    assert sb.trie_root(limbs, values) == want
    with pytest.raises(ValueError):
        sb.trie_root([4], [1], 2)  # key not below 2^height
    with pytest.raises(ValueError, match="hash"):
        sb.trie_root(keys, values, 251, "sha256")
    with pytest.raises(ValueError, match="differ in length"):
        sb.trie_root(keys, values[:2])
    with pytest.raises(ValueError):
        sb.compose_tops([None, None, None], 2, 6)


def ref_state(contracts, classes, rule):
    leaves = {}
    for c in contracts:
        root = ref_root(c.get("storage", {}), 251, cb.cpp_hash)
        h = cb.cpp_hash(cb.cpp_hash(cb.cpp_hash(c.get("class_hash", 0), root), c.get("nonce", 0)), 0)
        leaves[c["address"]] = h
    contract_root = ref_root(leaves, 251, cb.cpp_hash)
    class_leaves = {k: pp.poseidon_hash(CONTRACT_CLASS_LEAF_V0, v) for k, v in classes.items()}
    class_root = ref_root(class_leaves, 251, pp.poseidon_hash)
    if contract_root == 0 and class_root == 0:
        state_root = 0
    elif rule == "before-0.14" and class_root == 0:
        state_root = contract_root
    else:
        state_root = pp.poseidon_hash_many([STARKNET_STATE_V0, contract_root, class_root])
    return {"state_root": state_root, "contract_root": contract_root, "class_root": class_root}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rule", ["from-0.14", "before-0.14"])
def test_state_commitment(seed, rule):
    rng = random.Random(seed)
    contracts = []
    for a in {rng.randrange(1, 2**251) for _ in range(rng.randrange(0, 6))}:
        storage = {rng.randrange(2**251): rng.randrange(P) for _ in range(rng.randrange(0, 8))}
        contracts.append({"address": a, "class_hash": rng.randrange(P), "nonce": rng.randrange(4), "storage": storage})
    classes = {rng.randrange(2**251): rng.randrange(1, P) for _ in range(rng.randrange(0, 4) if seed % 3 else 0)}
    got = sb.state_commitment(contracts, classes, rule)
    assert got == ref_state(contracts, classes, rule)
    assert got["state_root"] == sb.global_state_root(got["contract_root"], got["class_root"], rule)
    for c in contracts:
        root = sb.trie_root(list(c["storage"]), list(c["storage"].values()))
        assert sb.contract_state_hash(c["class_hash"], root, c["nonce"]) == cb.cpp_hash(
            cb.cpp_hash(cb.cpp_hash(c["class_hash"], root), c["nonce"]), 0
        )


def test_state_commitment_errors():
    with pytest.raises(ValueError, match=r"contracts\[0\]: no address"):
        sb.state_commitment([{"nonce": 1}])
    with pytest.raises(ValueError, match=r"contracts\[0\].storage\[0\].value"):
        sb.state_commitment([{"address": 1, "storage": {1: P}}])
    with pytest.raises(ValueError, match="rule"):
        sb.state_commitment([], {}, "0.13")
