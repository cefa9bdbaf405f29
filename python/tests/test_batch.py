"""The batch functions against the scalar ones at every length 0..=67, and their errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import starkbatch as sb

P = sb.P
felts = st.integers(0, P - 1)


def xs_ys(n, seed):
    xs = [(seed * 0x9E3779B97F4A7C15 + 7 * i * i + i) % P for i in range(n)]
    ys = [(P - 1 - x * 31 + i) % P for i, x in enumerate(xs)]
    return xs, ys


@pytest.mark.parametrize("n", range(68))
def test_pair_batches_every_length(n):
    xs, ys = xs_ys(n, n + 1)
    assert sb.poseidon_hash_batch(xs, ys) == [sb.poseidon_hash(x, y) for x, y in zip(xs, ys)]
    assert sb.pedersen_hash_batch(xs, ys) == [sb.pedersen_hash(x, y) for x, y in zip(xs, ys)]


@pytest.mark.parametrize("n", range(68))
def test_many_batches_every_length(n):
    # n ragged messages of lengths 0..n.
    msgs = [xs_ys(i % 23, n * 100 + i)[0] for i in range(n)]
    assert sb.poseidon_hash_many_batch(msgs) == [sb.poseidon_hash_many(m) for m in msgs]
    assert sb.blake2s_hash_many_batch(msgs) == [sb.blake2s_hash_many(m) for m in msgs]
    assert sb.compute_hash_on_elements_batch(msgs) == [
        sb.compute_hash_on_elements(m) for m in msgs
    ]


@given(st.lists(st.tuples(felts, felts), max_size=80))
def test_pair_batches_random(pairs):
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    assert sb.poseidon_hash_batch(xs, ys) == [sb.poseidon_hash(x, y) for x, y in pairs]


def test_errors_name_the_index():
    with pytest.raises(ValueError, match=r"ys\[3\]"):
        sb.pedersen_hash_batch([1, 2, 3, 4], [1, 2, 3, P])
    with pytest.raises(ValueError, match="differ in length"):
        sb.poseidon_hash_batch([1, 2], [1])
    with pytest.raises(ValueError, match=r"messages\[1\]\[0\]"):
        sb.poseidon_hash_many_batch([[1], [P]])
