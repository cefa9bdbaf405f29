"""starkbatch.dask: the sharded state root equals the native state_commitment, on a
LocalCluster of two worker processes, with one worker killed (SIGKILL) during the job."""

import os
import random
import signal
import threading
import time

import pytest

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
import pandas as pd  # noqa: E402

import starkbatch as sb  # noqa: E402
import starkbatch.dask as sd  # noqa: E402

P = sb.P


def make_state(n_entries, n_contracts, seed):
    rng = random.Random(seed)
    addrs = [rng.randrange(1, 2**251) for _ in range(n_contracts)]
    with_rows = addrs[: n_contracts * 3 // 4]  # the rest have storage rows only
    storage = pd.DataFrame(
        {
            "contract": [addrs[rng.randrange(n_contracts)] for _ in range(n_entries)],
            "key": [rng.getrandbits(251) for _ in range(n_entries)],
            "value": [rng.getrandbits(250) for _ in range(n_entries)],
        }
    )
    contracts = pd.DataFrame(
        {
            "address": [hex(a) for a in with_rows],  # hex strings are accepted too
            "class_hash": [rng.getrandbits(250) for _ in with_rows],
            "nonce": [rng.randrange(100) for _ in with_rows],
        }
    )
    classes = {rng.getrandbits(251): rng.getrandbits(250) + 1 for _ in range(50)}
    by = {a: {"address": a, "storage": {}} for a in addrs}
    for a, c, n in zip(with_rows, contracts["class_hash"], contracts["nonce"]):
        by[a].update(class_hash=c, nonce=int(n))
    for a, k, v in zip(storage["contract"], storage["key"], storage["value"]):
        by[a]["storage"][k] = v
    want = sb.state_commitment(list(by.values()), classes)
    return storage, contracts, classes, want


def test_small_states_every_split(tmp_path):
    import dask

    storage, contracts, classes, want = make_state(3000, 40, 1)
    with dask.config.set(scheduler="synchronous"):
        for split_bits in (0, 1, 4, 8):
            got = sd.state_root(
                dd.from_pandas(storage, npartitions=3),
                dd.from_pandas(contracts, npartitions=2),
                classes,
                split_bits=split_bits,
            )
            assert got == want, split_bits
        empty = sd.state_root(
            dd.from_pandas(storage.iloc[:0], npartitions=1),
            dd.from_pandas(contracts.iloc[:0], npartitions=1),
        )
        assert empty == {"state_root": 0, "contract_root": 0, "class_root": 0}


def test_million_entries_64_shards_with_a_worker_killed():
    storage, contracts, classes, want = make_state(10**6, 2000, 2)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        result = {}

        def run():
            result["root"] = sd.state_root(
                dd.from_pandas(storage, npartitions=16),
                dd.from_pandas(contracts, npartitions=2),
                classes,
                split_bits=6,
            )

        job = threading.Thread(target=run)
        job.start()
        time.sleep(3)
        assert job.is_alive(), "the job ended before a worker could be killed"
        nanny = next(iter(cluster.workers.values()))
        os.kill(nanny.process.process.pid, signal.SIGKILL)
        job.join(timeout=600)
        assert not job.is_alive()
    assert result["root"] == want
