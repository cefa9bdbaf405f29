"""The state root of a state too large for one process, sharded on Dask (docs/python.md).

A state is two Dask DataFrames: storage rows ``(contract, key, value)`` and contract rows
``(address, class_hash, nonce)``; felts as Python ints, strings (``"0x..."`` hex or decimal) or
big-endian ``bytes``, converted per partition to limb columns (``felt_limbs``). The contract
trie is cut by the top ``split_bits`` bits of the address into ``2**split_bits`` ranges
(docs/scaling.md): each range is one task that builds every storage trie of its contracts,
their leaves and the top of its part of the contract trie with the native engine; the client
composes the tops (``compose_tops``) and the class trie's root into the state root. A task
lost with its worker is recomputed by Dask, and the root does not change.

Needs the extra ``starkbatch[dask]`` (``dask[dataframe,distributed]``).
"""

from typing import Mapping, Optional

import dask.dataframe as dd
import numpy as np
import pandas as pd

from ._native import (
    compose_tops,
    contracts_tops,
    felt_limbs,
    global_state_root,
    state_commitment,
)

__all__ = ["range_tops", "state_root"]

_HEIGHT = 251


# Felts cross the shuffle as four uint64 limb columns each (little-endian limbs, the form the
# native functions take without conversion): numeric columns that Dask moves as raw buffers.
_FELTS = ("a", "b", "c")
_LIMBS = [f"{f}{j}" for f in _FELTS for j in range(4)]
# A felt is below 2**251: its top `split_bits` bits are bits 59 - split_bits .. 59 of limb 3.
_TOP_LIMB_BITS = _HEIGHT - 192


def _rows(df, kind, columns, split_bits):
    """`df`'s rows in the shuffled schema: shard (the top bits of the first column), kind
    (0 storage, 1 contract) and the three felt columns as limbs."""
    limbs = [felt_limbs(df[c].to_numpy(dtype=object)) for c in columns]
    data = {
        "shard": (limbs[0][:, 3] >> np.uint64(_TOP_LIMB_BITS - split_bits)).astype(np.int32),
        "kind": np.full(len(df), kind, dtype=np.int8),
    }
    for f, arr in zip(_FELTS, limbs):
        for j in range(4):
            data[f"{f}{j}"] = arr[:, j]
    return pd.DataFrame(data, index=df.index)


def _storage_rows(df, split_bits):
    return _rows(df, 0, ("contract", "key", "value"), split_bits)


def _contract_rows(df, split_bits):
    return _rows(df, 1, ("address", "class_hash", "nonce"), split_bits)


_ROWS = pd.DataFrame(
    {
        "shard": pd.Series([], dtype="int32"),
        "kind": pd.Series([], dtype="int8"),
        **{c: pd.Series([], dtype="uint64") for c in _LIMBS},
    }
)
_TOPS = pd.DataFrame(
    {
        "shard": pd.Series([], dtype="int64"),
        "node": pd.Series([], dtype=object),
        "path": pd.Series([], dtype=object),
        "length": pd.Series([], dtype="int64"),
    }
)


def _felt_column(frame, f):
    return np.ascontiguousarray(frame[[f"{f}{j}" for j in range(4)]].to_numpy(dtype=np.uint64))


def _partition_tops(rows, split_bits, threads):
    """The tops of the address ranges in one shuffled partition (every row of a range is in
    the same partition), one native call: a row per non-empty range."""
    kind = rows["kind"].to_numpy()
    s, c = rows[kind == 0], rows[kind == 1]
    cols = [_felt_column(frame, f) for frame in (s, c) for f in _FELTS]
    tops = contracts_tops(*cols, split_bits, threads)
    # Hex strings: a top's node and path are felts, wider than any integer column.
    return pd.DataFrame(
        {
            "shard": np.array([r for r, _ in tops], dtype=np.int64),
            "node": [f"{t[0]:064x}" for _, t in tops],
            "path": [f"{t[1]:064x}" for _, t in tops],
            "length": np.array([t[2] for _, t in tops], dtype=np.int64),
        }
    )


def range_tops(
    storage: dd.DataFrame,
    contracts: dd.DataFrame,
    split_bits: int = 6,
    threads_per_task: Optional[int] = 1,
):
    """The tops of the contract trie's ``2**split_bits`` address ranges (storage tries
    included) as a lazy Dask frame: rows shuffled by range, one native call per partition;
    ``.compute()`` gives a pandas frame ``(shard, node, path, length)`` of the non-empty
    ranges."""
    if not 0 <= split_bits <= 16:
        raise ValueError(f"split_bits: expected 0 to 16, got {split_bits}")
    if threads_per_task is not None and threads_per_task < 1:
        raise ValueError(f"threads_per_task: expected None or at least 1, got {threads_per_task}")
    st = storage.map_partitions(_storage_rows, split_bits, meta=_ROWS)
    ct = contracts.map_partitions(_contract_rows, split_bits, meta=_ROWS)
    rows = dd.concat([st, ct])
    parts = min(2**split_bits, rows.npartitions)
    rows = rows.shuffle(on="shard", npartitions=parts)
    return rows.map_partitions(_partition_tops, split_bits, threads_per_task, meta=_TOPS)


def state_root(
    storage: dd.DataFrame,
    contracts: dd.DataFrame,
    classes: Optional[Mapping[int, int]] = None,
    *,
    split_bits: int = 6,
    rule: str = "from-0.14",
    threads_per_task: Optional[int] = 1,
) -> dict:
    """The state commitment of the state: ``{"state_root", "contract_root", "class_root"}``.

    ``storage``: columns ``contract``, ``key``, ``value``; ``contracts``: ``address``,
    ``class_hash``, ``nonce`` (a contract with storage rows but no contract row has class hash
    and nonce 0); ``classes``: class hash -> compiled class hash (the class trie is built on the
    client: it is small). Runs on the current Dask scheduler (a ``distributed.Client`` if one is
    active). Equal to ``starkbatch.state_commitment`` of the same state. ``threads_per_task``:
    native threads per task (1: Dask's workers and their threads are the parallelism; None:
    every core of the worker's machine for each task).
    """
    tops = range_tops(storage, contracts, split_bits, threads_per_task).compute()
    by_shard = [None] * (2**split_bits)
    for shard, node, path, length in zip(tops["shard"], tops["node"], tops["path"], tops["length"]):
        by_shard[int(shard)] = (int(node, 16), int(path, 16), int(length))
    contract = compose_tops(by_shard, split_bits, _HEIGHT - split_bits)
    class_root = state_commitment([], dict(classes or {}), rule)["class_root"]
    return {
        "state_root": global_state_root(contract, class_root, rule),
        "contract_root": contract,
        "class_root": class_root,
    }
