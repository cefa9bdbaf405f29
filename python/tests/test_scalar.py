"""starkbatch's scalar functions against poseidon-py and crypto-cpp-py (the packages they
replace), on edge values and hypothesis-random inputs."""

import poseidon_py.poseidon_hash as pp
import pytest
from crypto_cpp_py import cpp_bindings as cb
from crypto_cpp_py.utils import cpp_inv_mod_curve_size
from hypothesis import given, settings
from hypothesis import strategies as st

import starkbatch as sb

P = 2**251 + 17 * 2**192 + 1
#: The STARK curve's order (cairo-lang's EC_ORDER).
N = 0x800000000000010FFFFFFFFFFFFFFFFB781126DCAE7B2319E38D2A2C2C6E9E1
EDGES = [0, 1, 2, 2**63 - 1, 2**63, 2**64, 2**128 + 3, 2**251 - 1, 2**251, P - 2, P - 1]
felts = st.one_of(st.sampled_from(EDGES), st.integers(0, P - 1))
keys = st.integers(1, N - 1)


def test_modulus():
    assert sb.P == P


@pytest.mark.parametrize("x", EDGES)
@pytest.mark.parametrize("y", EDGES)
def test_poseidon_hash_edges(x, y):
    assert sb.poseidon_hash(x, y) == pp.poseidon_hash(x, y)


@given(felts, felts)
def test_poseidon_hash(x, y):
    assert sb.poseidon_hash(x, y) == pp.poseidon_hash(x, y)


@given(felts)
def test_poseidon_hash_single(x):
    assert sb.poseidon_hash_single(x) == pp.poseidon_hash_single(x)


@given(st.lists(felts, max_size=40))
def test_poseidon_hash_many(xs):
    assert sb.poseidon_hash_many(xs) == pp.poseidon_hash_many(xs)
    assert sb.poseidon_hash_many(tuple(xs)) == pp.poseidon_hash_many(xs)


@given(felts, felts, felts)
def test_permutation(x, y, z):
    want = list(pp.poseidon_perm(x, y, z))
    assert sb.hades_permutation([x, y, z]) == want
    assert sb.poseidon_perm(x, y, z) == want


@pytest.mark.parametrize("x", EDGES)
def test_pedersen_edges(x):
    for y in EDGES:
        assert sb.pedersen_hash(x, y) == cb.cpp_hash(x, y)


@given(felts, felts)
def test_pedersen(x, y):
    assert sb.pedersen_hash(x, y) == cb.cpp_hash(x, y)
    assert sb.cpp_hash(x, y) == cb.cpp_hash(x, y)


@given(st.lists(felts, max_size=12))
def test_compute_hash_on_elements(xs):
    h = 0
    for x in xs:
        h = cb.cpp_hash(h, x)
    assert sb.compute_hash_on_elements(xs) == cb.cpp_hash(h, len(xs))


@given(keys)
def test_public_key(k):
    assert sb.get_public_key(k) == cb.cpp_get_public_key(k)
    assert sb.cpp_get_public_key(k) == cb.cpp_get_public_key(k)


# crypto-cpp-py fails on a message hash of 0 (its generate_k reads zero bytes). Its sign
# takes about 0.1 s (its RFC 6979 nonce is pure Python), hence fewer examples.
@settings(max_examples=60)
@given(st.integers(1, 2**251 - 1), keys, st.one_of(st.none(), st.integers(0, 2**64)))
def test_k_and_sign(msg, k, seed):
    from crypto_cpp_py.utils import cpp_generate_k_rfc6979

    assert sb.cpp_generate_k_rfc6979(msg, k, seed) == cpp_generate_k_rfc6979(msg, k, seed)
    assert sb.cpp_sign(msg, k, seed) == cb.cpp_sign(msg, k, seed)
    assert sb.cpp_sign(msg, k) == cb.cpp_sign(msg, k)  # the default seed, 32
    assert sb.sign(msg, k) == cb.cpp_sign(msg, k)


@settings(max_examples=60)
@given(st.integers(1, 2**251 - 2), keys)
def test_verify(msg, k):
    q = sb.get_public_key(k)
    r, s = cb.cpp_sign(msg, k)
    w = cpp_inv_mod_curve_size(s)
    assert sb.verify(msg, r, s, q)
    assert sb.cpp_verify(msg, r, w, q) == cb.cpp_verify(msg, r, w, q) is True
    # Another message, another key, another r: rejected by both.
    other = (msg + 1) % 2**251
    assert sb.verify(other, r, s, q) is False
    assert sb.cpp_verify(other, r, w, q) == bool(cb.cpp_verify(other, r, w, q))
    other_key = sb.get_public_key(k + 1 if k < N - 1 else 1)
    assert sb.verify(msg, r, s, other_key) is False


def test_sign_zero_message():
    # Signing a zero hash works here (crypto-cpp-py cannot); the signature verifies.
    q = sb.get_public_key(7)
    r, s = sb.sign(0, 7)
    assert sb.verify(0, r, s, q)


@pytest.mark.parametrize("bad", [P, P + 1, 2**252, 2**256, 2**300, -1])
def test_out_of_range_rejected(bad):
    with pytest.raises(ValueError, match="x"):
        sb.poseidon_hash(bad, 1)
    with pytest.raises(ValueError, match="right"):
        sb.pedersen_hash(1, bad)
    with pytest.raises(ValueError, match=r"array\[2\]"):
        sb.poseidon_hash_many([1, 2, bad])


@pytest.mark.parametrize("bad", ["1", 1.5, None, b"\x01"])
def test_wrong_types_rejected(bad):
    with pytest.raises(ValueError, match="expected a non-negative int"):
        sb.poseidon_hash(1, bad)


def test_permutation_wants_three():
    with pytest.raises(ValueError, match="3 elements"):
        sb.hades_permutation([1, 2])


def test_zero_private_key_rejected():
    with pytest.raises(ValueError, match="private_key"):
        sb.get_public_key(0)
