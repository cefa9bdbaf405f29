"""starkbatch: Starknet hashing in Rust, batched across SIMD lanes (docs/python.md).

Field elements are Python ints in [0, P); anything else raises ValueError naming the
argument. The scalar functions keep poseidon-py's and crypto-cpp-py's names and argument
order (``cpp_*`` are crypto-cpp-py's ``cpp_bindings`` functions), so either package can be
replaced by an import of this one; the ``*_batch`` functions hash whole lists at once without
the GIL.
"""

from ._native import (
    P,
    backend,
    blake2s_hash_many,
    blake2s_hash_many_batch,
    class_hash,
    compiled_class_hash,
    compute_hash_on_elements,
    compute_hash_on_elements_batch,
    cpp_generate_k_rfc6979,
    cpp_get_public_key,
    cpp_hash,
    cpp_sign,
    cpp_verify,
    get_public_key,
    hades_permutation,
    pedersen_hash,
    pedersen_hash_batch,
    poseidon_hash,
    poseidon_hash_batch,
    poseidon_hash_many,
    poseidon_hash_many_batch,
    poseidon_hash_single,
    poseidon_perm,
    sign,
    verify,
)

__all__ = [
    "P",
    "backend",
    "blake2s_hash_many",
    "blake2s_hash_many_batch",
    "class_hash",
    "compiled_class_hash",
    "compute_hash_on_elements",
    "compute_hash_on_elements_batch",
    "cpp_generate_k_rfc6979",
    "cpp_get_public_key",
    "cpp_hash",
    "cpp_sign",
    "cpp_verify",
    "get_public_key",
    "hades_permutation",
    "pedersen_hash",
    "pedersen_hash_batch",
    "poseidon_hash",
    "poseidon_hash_batch",
    "poseidon_hash_many",
    "poseidon_hash_many_batch",
    "poseidon_hash_single",
    "poseidon_perm",
    "sign",
    "verify",
]
