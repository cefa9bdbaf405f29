"""The batch functions against the scalar ones at every length 0..=67, and their errors."""

import numpy as np
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


def as_be32(values):
    return np.array([list(v.to_bytes(32, "big")) for v in values], dtype=np.uint8).reshape(-1, 32)


def as_limbs(values):
    rows = [[(v >> (64 * i)) & (2**64 - 1) for i in range(4)] for v in values]
    return np.array(rows, dtype=np.uint64).reshape(-1, 4)


def from_be32(a):
    return [int.from_bytes(bytes(row), "big") for row in a]


def from_limbs(a):
    return [sum(int(x) << (64 * i) for i, x in enumerate(row)) for row in a]


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 33, 67, 1000])
def test_array_and_bytes_forms(n):
    xs, ys = xs_ys(n, 5 * n + 3)
    xs[: min(n, 2)] = [P - 1, 0][: min(n, 2)]
    for f, g in [(sb.poseidon_hash_batch, sb.poseidon_hash), (sb.pedersen_hash_batch, sb.pedersen_hash)]:
        want = [g(x, y) for x, y in zip(xs, ys)]
        got = f(as_be32(xs), as_be32(ys))
        assert got.dtype == np.uint8 and got.shape == (n, 32)
        assert from_be32(got) == want
        got = f(as_limbs(xs), as_limbs(ys))
        assert got.dtype == np.uint64 and got.shape == (n, 4)
        assert from_limbs(got) == want
        flat = b"".join(v.to_bytes(32, "big") for v in xs)
        got = f(flat, ys)
        assert isinstance(got, bytes) and [
            int.from_bytes(got[i : i + 32], "big") for i in range(0, len(got), 32)
        ] == want
        # A non-contiguous view (every other row) reads the same values.
        wide = as_be32([v for x in xs for v in (x, 1)])
        assert from_be32(f(wide[::2], as_be32(ys))) == want


@pytest.mark.parametrize("n", [0, 1, 5, 30])
def test_many_batch_offsets(n):
    msgs = [xs_ys(i % 11, 7 * n + i)[0] for i in range(n)]
    offsets = np.cumsum([0] + [len(m) for m in msgs])
    flat = [v for m in msgs for v in m]
    want = [sb.poseidon_hash_many(m) for m in msgs]
    assert sb.poseidon_hash_many_batch(flat, offsets) == want
    assert from_be32(sb.poseidon_hash_many_batch(as_be32(flat), list(offsets))) == want
    assert from_limbs(sb.blake2s_hash_many_batch(as_limbs(flat), offsets)) == [
        sb.blake2s_hash_many(m) for m in msgs
    ]


def test_array_errors():
    good = as_be32([1, 2, 3])
    bad = good.copy()
    bad[1] = list(P.to_bytes(32, "big"))
    with pytest.raises(ValueError, match=r"ys\[1\]: not below p"):
        sb.poseidon_hash_batch(good, bad)
    limbs = as_limbs([1, 2, 3])
    limbs[2, 3] = 2**63
    with pytest.raises(ValueError, match=r"xs\[2\]: not below p"):
        sb.pedersen_hash_batch(limbs, good)
    with pytest.raises(ValueError, match="shape"):
        sb.poseidon_hash_batch(np.zeros((3, 31), dtype=np.uint8), good)
    with pytest.raises(ValueError, match="dtype"):
        sb.poseidon_hash_batch(np.zeros((3, 32), dtype=np.int32), good)
    with pytest.raises(ValueError, match="whole number"):
        sb.poseidon_hash_batch(b"\x00" * 33, [1])
    with pytest.raises(ValueError, match="offsets"):
        sb.poseidon_hash_many_batch([1, 2, 3], [0, 2])
    with pytest.raises(ValueError, match="offsets"):
        sb.poseidon_hash_many_batch([1, 2, 3], [0, 2, 1, 3])


def limbs_of(x):
    return [(x >> (64 * j)) & (2**64 - 1) for j in range(4)]


@given(st.lists(felts, max_size=40))
def test_felt_limbs_every_form(values):
    want = np.array([limbs_of(x) for x in values], dtype=np.uint64).reshape(len(values), 4)
    forms = [
        values,
        [hex(x) for x in values],
        [str(x) for x in values],
        [x.to_bytes(32, "big") for x in values],
        np.array(values, dtype=object),
    ]
    for form in forms:
        got = sb.felt_limbs(form)
        assert got.dtype == np.uint64 and got.shape == (len(values), 4)
        assert (got == want).all()
    # The limbs are the batch functions' (n, 4) form.
    assert sb.poseidon_hash_batch(sb.felt_limbs(values), sb.felt_limbs(values)).tolist() == [
        limbs_of(sb.poseidon_hash(x, x)) for x in values
    ]


@pytest.mark.parametrize(
    "bad, message",
    [
        ([1, P], r"values\[1\]"),
        ([0, 1, "0x1g"], r"values\[2\]"),
        (["12", hex(P)], r"values\[1\]"),
        ([b"\x01" * 33], r"values\[0\]: 33 bytes"),
        ([-1], r"values\[0\]"),
        ([1.5], r"values\[0\]"),
    ],
)
def test_felt_limbs_names_the_bad_item(bad, message):
    with pytest.raises(ValueError, match=message):
        sb.felt_limbs(bad)
