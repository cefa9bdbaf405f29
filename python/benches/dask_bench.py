"""The sharded state root on Dask beside the native state_commitment (docs/python.md).

    python python/benches/dask_bench.py [ENTRIES]

A state of ENTRIES storage entries (default 10^6) over 2,000 contracts and 50 classes; times
(best of three) `starkbatch.state_commitment` in this process, and `starkbatch.dask.state_root`
with 64 shards on a LocalCluster of one and of two single-threaded worker processes. The
DataFrames are built and persisted in the workers' memory before timing (as a state read from
Parquet by the workers would be); the conversion to limbs, the shuffle and the tops are timed.
"""

import sys
import time

import dask.dataframe as dd
import distributed

import starkbatch as sb
import starkbatch.dask as sd

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/tests")
from test_dask import make_state  # noqa: E402


def best(f, runs=3):
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        out.append(time.perf_counter() - t)
    return min(out)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10**6
    storage, contracts, classes, want = make_state(n, 2000, 2)
    by = {}
    for a in storage["contract"].unique():
        by[a] = {"address": a, "storage": {}}
    for a, k, v in zip(storage["contract"], storage["key"], storage["value"]):
        by[a]["storage"][k] = v
    for a, c, nn in zip(contracts["address"], contracts["class_hash"], contracts["nonce"]):
        by.setdefault(int(a, 16), {"address": int(a, 16), "storage": {}}).update(class_hash=c, nonce=int(nn))
    state = list(by.values())
    native = best(lambda: sb.state_commitment(state, classes))
    print(f"CPU cores in use: 2; backend {sb.backend()}; {n} entries")
    print(f"native state_commitment (one process, all cores): {native:.2f} s")
    for workers in (1, 2):
        with distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster, distributed.Client(cluster) as client:
            # The state in the workers' memory before timing, as after reading Parquet there.
            s = client.persist(dd.from_pandas(storage, npartitions=16))
            c = client.persist(dd.from_pandas(contracts, npartitions=2))
            distributed.wait([s, c])
            t = best(lambda: sd.state_root(s, c, classes, split_bits=6))
            assert sd.state_root(s, c, classes, split_bits=6) == want
            print(f"dask, {workers} worker(s), 64 shards: {t:.2f} s")


if __name__ == "__main__":
    main()
