"""starkbatch beside poseidon-py and crypto-cpp-py, one run, side by side (docs/python.md).

    python python/benches/bench.py [--quick]

Each row times the same work with both packages in the same process, alternating, and prints
the best of several repeats for each and their ratio. The CPU and starkbatch's backend are
printed first.
"""

import platform
import random
import sys
import time

import poseidon_py.poseidon_hash as pp
from crypto_cpp_py import cpp_bindings as cb

import starkbatch as sb

QUICK = "--quick" in sys.argv
REPEATS = 3 if QUICK else 7
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


def best(f, calls):
    """The best time per call of `calls` calls of `f`, over REPEATS runs."""
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) / calls)
    return min(times)


def row(name, ours, theirs, calls, unit):
    a, b = [], []
    for _ in range(REPEATS):
        b.append(best(theirs, calls))
        a.append(best(ours, calls))
    a, b = min(a), min(b)
    print(f"{name:<66} {b * 1e6:12.2f} {unit}  {a * 1e6:12.2f} {unit}  {b / a:7.1f}x")


def main():
    rng = random.Random(1)
    felts = [rng.randrange(P) for _ in range(1 << 16)]
    print(f"CPU: {cpu()}; starkbatch backend: {sb.backend()}; Python {platform.python_version()}")
    print(f"{'row':<66} {'reference':>15}  {'starkbatch':>15}  {'ratio':>8}")

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
