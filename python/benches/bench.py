"""starkbatch beside poseidon-py and crypto-cpp-py, one run, side by side (docs/python.md).

    python python/benches/bench.py [--quick]

Each row times the same work with both packages in the same process, alternating (3 runs each
with --quick, 5 without), and prints the best run of each per call and their ratio. The CPU and starkbatch's backend are
printed first.
"""

import platform
import random
import sys
import time

import numpy as np
import poseidon_py.poseidon_hash as pp
from crypto_cpp_py import cpp_bindings as cb

import starkbatch as sb

QUICK = "--quick" in sys.argv
REPEATS = 3 if QUICK else 5
P = sb.P


def cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def once(f, calls):
    """The time per call of one run of `f`, which makes `calls` calls."""
    t = time.perf_counter()
    f()
    return (time.perf_counter() - t) / calls


def row(name, ours, theirs, calls, unit, our_calls=None):
    """`calls` calls of `theirs` and `our_calls` (default `calls`) of `ours`, per call."""
    a, b = [], []
    for _ in range(REPEATS):
        b.append(once(theirs, calls))
        a.append(once(ours, our_calls or calls))
    a, b = min(a), min(b)
    print(f"{name:<84} {b * 1e6:12.2f} {unit}  {a * 1e6:12.2f} {unit}  {b / a:7.1f}x")


def main():
    rng = random.Random(1)
    felts = [rng.randrange(P) for _ in range(1 << 16)]
    print(f"CPU: {cpu()}; starkbatch backend: {sb.backend()}; Python {platform.python_version()}")
    print(f"{'row':<84} {'reference':>15}  {'starkbatch':>15}  {'ratio':>8}")

    n = 2000 if QUICK else 20000
    m8 = [felts[i : i + 8] for i in range(0, 8 * n, 8)]
    row(
        "poseidon_hash_many, 8 felts (vs poseidon-py)",
        lambda: [sb.poseidon_hash_many(m) for m in m8],
        lambda: [pp.poseidon_hash_many(m) for m in m8],
        n,
        "us",
    )
    xs, ys = felts[:n], felts[n : 2 * n]
    row(
        "poseidon_hash (vs poseidon-py)",
        lambda: [sb.poseidon_hash(x, y) for x, y in zip(xs, ys)],
        lambda: [pp.poseidon_hash(x, y) for x, y in zip(xs, ys)],
        n,
        "us",
    )
    row(
        "pedersen_hash (vs crypto-cpp-py cpp_hash)",
        lambda: [sb.pedersen_hash(x, y) for x, y in zip(xs, ys)],
        lambda: [cb.cpp_hash(x, y) for x, y in zip(xs, ys)],
        n,
        "us",
    )
    big = 1 << (14 if QUICK else 16)
    bx, by = felts[:big], felts[::-1][:big]
    row(
        f"poseidon_hash_batch, {big} pairs, per pair (vs a poseidon-py loop)",
        lambda: sb.poseidon_hash_batch(bx, by),
        lambda: [pp.poseidon_hash(x, y) for x, y in zip(bx, by)],
        big,
        "us",
    )
    # 10^6 pairs from (n, 4) uint64 limb arrays; the reference loop on 2^14 pairs, per pair.
    million = 10**5 if QUICK else 10**6
    limbs = np.random.default_rng(1).integers(0, 2**63, size=(million, 4), dtype=np.uint64)
    limbs[:, 3] &= (1 << 58) - 1  # below 2^250 < p
    la, lb = limbs, limbs[::-1].copy()
    lx = [sum(int(v) << (64 * i) for i, v in enumerate(r)) for r in la[: 1 << 14]]
    ly = [sum(int(v) << (64 * i) for i, v in enumerate(r)) for r in lb[: 1 << 14]]
    row(
        f"poseidon_hash_batch, {million} pairs from uint64 arrays, per pair (vs a poseidon-py loop)",
        lambda: sb.poseidon_hash_batch(la, lb),
        lambda: [pp.poseidon_hash(x, y) for x, y in zip(lx, ly)],
        1 << 14,
        "us",
        our_calls=million,
    )
    pn = 1 << (12 if QUICK else 14)
    row(
        f"pedersen_hash_batch, {pn} pairs, per pair (vs a cpp_hash loop)",
        lambda: sb.pedersen_hash_batch(bx[:pn], by[:pn]),
        lambda: [cb.cpp_hash(x, y) for x, y in zip(bx[:pn], by[:pn])],
        pn,
        "us",
    )


if __name__ == "__main__":
    main()
