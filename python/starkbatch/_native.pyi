"""Type stubs of starkbatch's native module (the functions starkbatch re-exports)."""

from typing import Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

#: A batch of felts: ints, bytes (32 big-endian bytes each), an (n, 32) uint8 array of
#: big-endian rows or an (n, 4) uint64 array of little-endian limbs.
Felts = Union[Sequence[int], bytes, npt.NDArray[np.uint8], npt.NDArray[np.uint64]]
Offsets = Union[Sequence[int], npt.NDArray[np.integer]]

#: The field modulus, 2**251 + 17 * 2**192 + 1.
P: int

def poseidon_hash(x: int, y: int) -> int:
    """Poseidon of two elements: hades_permutation([x, y, 2])[0]."""

def poseidon_hash_single(x: int) -> int:
    """Poseidon of one element: hades_permutation([x, 0, 1])[0]."""

def poseidon_hash_many(array: Iterable[int]) -> int:
    """The Poseidon sponge (rate 2, padded with 1 then 0s) over the elements."""

def hades_permutation(values: Sequence[int]) -> List[int]:
    """The Hades permutation of three elements."""

def poseidon_perm(x: int, y: int, z: int) -> List[int]:
    """The Hades permutation of [x, y, z]."""

def pedersen_hash(left: int, right: int) -> int:
    """The Starknet Pedersen hash of two elements."""

def cpp_hash(left: int, right: int) -> int:
    """crypto-cpp-py's cpp_hash: the Pedersen hash."""

def compute_hash_on_elements(data: Iterable[int]) -> int:
    """Pedersen over the elements from 0, then over their count (cairo-lang)."""

def get_public_key(private_key: int) -> int:
    """The x coordinate of private_key * G."""

def cpp_get_public_key(private_key: int) -> int:
    """crypto-cpp-py's cpp_get_public_key."""

def cpp_generate_k_rfc6979(msg_hash: int, priv_key: int, seed: Optional[int] = None) -> int:
    """The RFC 6979 nonce as cairo-lang generates it."""

def sign(msg_hash: int, priv_key: int, seed: Optional[int] = 32) -> Tuple[int, int]:
    """An ECDSA signature (r, s) with the RFC 6979 nonce (crypto-cpp-py's cpp_sign)."""

def cpp_sign(msg_hash: int, priv_key: int, seed: Optional[int] = 32) -> Tuple[int, int]:
    """crypto-cpp-py's cpp_sign."""

def verify(msg_hash: int, r: int, s: int, public_key: int) -> bool:
    """Whether (r, s) signs msg_hash under public_key."""

def cpp_verify(msg_hash: int, r: int, w: int, stark_key: int) -> bool:
    """crypto-cpp-py's cpp_verify, where w is the inverse of s modulo the curve order."""

def blake2s_hash_many(values: Iterable[int]) -> int:
    """Blake2s-256 over the felts' u32 encoding, reduced mod P (CASM v2)."""

def class_hash(json: str, version: str = "v2") -> int:
    """The class hash of a Sierra or Cairo 0 class; of a CASM file its compiled class hash."""

def compiled_class_hash(json: str, version: str = "v2") -> int:
    """The compiled class hash of a CASM file: "v2" (Blake2s) or "v1" (Poseidon)."""

def poseidon_hash_batch(xs: Felts, ys: Felts) -> Felts:
    """[poseidon_hash(x, y) for x, y in zip(xs, ys)], batched without the GIL, in xs' form."""

def pedersen_hash_batch(xs: Felts, ys: Felts) -> Felts:
    """[pedersen_hash(x, y) for x, y in zip(xs, ys)], batched without the GIL, in xs' form."""

def poseidon_hash_many_batch(
    messages: Union[Iterable[Iterable[int]], Felts], offsets: Optional[Offsets] = None
) -> Felts:
    """[poseidon_hash_many(m) for m in messages]; with offsets, messages holds the flat values."""

def blake2s_hash_many_batch(
    messages: Union[Iterable[Iterable[int]], Felts], offsets: Optional[Offsets] = None
) -> Felts:
    """[blake2s_hash_many(m) for m in messages]; with offsets, messages holds the flat values."""

def compute_hash_on_elements_batch(
    messages: Union[Iterable[Iterable[int]], Felts], offsets: Optional[Offsets] = None
) -> Felts:
    """[compute_hash_on_elements(m) for m in messages]; offsets as above."""

def backend() -> str:
    """The SIMD backend in use: avx512ifma, avx2, neon or portable."""

def felt_limbs(values: Iterable[Union[int, str, bytes]]) -> npt.NDArray[np.uint64]:
    """A column of felts (ints, "0x" hex or decimal strings, big-endian bytes) as an (n, 4)
    uint64 array of little-endian limbs; ValueError names the index of a bad item."""

Top = Tuple[int, int, int]

def trie_root(keys: Felts, values: Felts, height: int = 251, hash: str = "pedersen") -> int:
    """The Patricia-Merkle root of values at keys ("pedersen" or "poseidon"); 0 deletes."""

def trie_top(keys: Felts, values: Felts, height: int = 251, hash: str = "pedersen") -> Optional[Top]:
    """The trie's top with its root edge open: (node, path, length), or None when empty."""

def compose_tops(tops: Sequence[Optional[Top]], split_bits: int, sub_height: int, hash: str = "pedersen") -> int:
    """The root of a trie from the tops of its 2**split_bits subtries (docs/scaling.md)."""

def contract_state_hash(class_hash: int, storage_root: int, nonce: int) -> int:
    """A contract's leaf: H(H(H(class_hash, storage_root), nonce), 0), Pedersen."""

def global_state_root(contract_root: int, class_root: int, rule: str = "from-0.14") -> int:
    """The state root from the two trie roots ("from-0.14" or "before-0.14")."""

def state_commitment(contracts: Iterable[dict], classes: Optional[dict] = None, rule: str = "from-0.14") -> dict:
    """{"state_root", "contract_root", "class_root"} of contracts (dicts with address,
    class_hash, nonce, storage) and classes (class hash -> compiled class hash)."""
