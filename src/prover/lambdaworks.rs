//! lambdaworks Merkle tree backends (feature `lambdaworks`) whose leaf layers are hashed by the
//! batch engine: a lambdaworks user swaps one type and keeps the same roots and proofs.
//!
//! - [`PoseidonTree`] is lambdaworks-crypto's `TreePoseidon<PoseidonCairoStark252>`: a leaf is
//!   `poseidon_hash_single(x)`, a parent `poseidon_hash(left, right)`.
//! - [`PoseidonVectorTree`] is its `BatchPoseidonTree<PoseidonCairoStark252>`: a leaf is
//!   `poseidon_hash_many(row)` of a vector of felts.
//!
//! lambdaworks-crypto 0.13's `IsMerkleTreeBackend` hands a backend the whole leaf set
//! (`hash_leaves`) but builds the inner levels one `hash_new_parent` at a time, so the leaves run
//! through [`poseidon_hash_single_batch_par`](crate::batch::poseidon_hash_single_batch_par) /
//! [`poseidon_hash_many_batch_par`](crate::batch::poseidon_hash_many_batch_par) (lanes and
//! threads) and each parent through the scalar [`poseidon_hash`]. The felts cross the boundary
//! by copying their Montgomery limbs ([`crate::interop::lambdaworks`]).
//!
//! ```
//! use lambdaworks_crypto::merkle_tree::merkle::MerkleTree;
//! use starkbatch::interop::lambdaworks::LambdaworksFelt;
//! use starkbatch::prover::lambdaworks::PoseidonTree;
//!
//! let leaves: Vec<LambdaworksFelt> = (0..8u64).map(LambdaworksFelt::from).collect();
//! let tree = MerkleTree::<PoseidonTree>::build(&leaves).unwrap();
//! let proof = tree.get_proof_by_pos(3).unwrap();
//! assert!(proof.verify::<PoseidonTree>(&tree.root, 3, &leaves[3]));
//! ```

use crate::Felt;
use crate::interop::lambdaworks::LambdaworksFelt;
use crate::interop::{from_foreign, from_foreign_vec, to_foreign, to_foreign_vec};
use crate::poseidon::{poseidon_hash, poseidon_hash_many, poseidon_hash_single};
use alloc::vec;
use alloc::vec::Vec;
use lambdaworks_crypto::merkle_tree::traits::IsMerkleTreeBackend;

/// `TreePoseidon<PoseidonCairoStark252>` with batched leaves.
#[derive(Clone, Copy, Debug, Default)]
pub struct PoseidonTree;

/// `BatchPoseidonTree<PoseidonCairoStark252>` with batched leaves.
#[derive(Clone, Copy, Debug, Default)]
pub struct PoseidonVectorTree;

fn parent(left: &LambdaworksFelt, right: &LambdaworksFelt) -> LambdaworksFelt {
    to_foreign(&poseidon_hash(from_foreign(left), from_foreign(right)))
}

impl IsMerkleTreeBackend for PoseidonTree {
    type Node = LambdaworksFelt;
    type Data = LambdaworksFelt;

    fn hash_data(leaf: &LambdaworksFelt) -> LambdaworksFelt {
        to_foreign(&poseidon_hash_single(from_foreign(leaf)))
    }

    fn hash_leaves(leaves: &[LambdaworksFelt]) -> Vec<LambdaworksFelt> {
        let input = from_foreign_vec(leaves);
        let mut out = vec![Felt::ZERO; input.len()];
        crate::batch::poseidon_hash_single_batch_par(&input, &mut out);
        to_foreign_vec(&out)
    }

    fn hash_new_parent(left: &LambdaworksFelt, right: &LambdaworksFelt) -> LambdaworksFelt {
        parent(left, right)
    }
}

impl IsMerkleTreeBackend for PoseidonVectorTree {
    type Node = LambdaworksFelt;
    type Data = Vec<LambdaworksFelt>;

    fn hash_data(leaf: &Vec<LambdaworksFelt>) -> LambdaworksFelt {
        to_foreign(&poseidon_hash_many(&from_foreign_vec(leaf)))
    }

    fn hash_leaves(leaves: &[Vec<LambdaworksFelt>]) -> Vec<LambdaworksFelt> {
        // Every row converted into one buffer, then sliced back into messages.
        let flat: Vec<Felt> = leaves.iter().flatten().map(from_foreign).collect();
        let mut messages: Vec<&[Felt]> = Vec::with_capacity(leaves.len());
        let mut rest = flat.as_slice();
        for leaf in leaves {
            let (message, tail) = rest.split_at(leaf.len());
            messages.push(message);
            rest = tail;
        }
        let mut out = vec![Felt::ZERO; messages.len()];
        crate::batch::poseidon_hash_many_batch_par(&messages, &mut out);
        to_foreign_vec(&out)
    }

    fn hash_new_parent(left: &LambdaworksFelt, right: &LambdaworksFelt) -> LambdaworksFelt {
        parent(left, right)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lambdaworks_crypto::hash::poseidon::starknet::PoseidonCairoStark252;
    use lambdaworks_crypto::merkle_tree::backends::field_element::TreePoseidon;
    use lambdaworks_crypto::merkle_tree::backends::field_element_vector::BatchPoseidonTree;
    use lambdaworks_crypto::merkle_tree::merkle::MerkleTree;

    fn felts(n: usize, seed: u64) -> Vec<LambdaworksFelt> {
        let mut values: Vec<LambdaworksFelt> = (0..n as u64)
            .map(|i| to_foreign(&Felt::from(i ^ seed).pow(5)))
            .collect();
        // Edge values in the first positions.
        for (v, e) in values.iter_mut().zip([Felt::ZERO, Felt::MAX, Felt::ONE]) {
            *v = to_foreign(&e);
        }
        values
    }

    #[test]
    fn single_leaf_trees_equal_lambdaworks() {
        // Every leaf count 1..=67 (lambdaworks pads to a power of two by repeating the last leaf).
        for n in 1..=67 {
            let leaves = felts(n, 0xabc);
            let ours = MerkleTree::<PoseidonTree>::build(&leaves).unwrap();
            let theirs = MerkleTree::<TreePoseidon<PoseidonCairoStark252>>::build(&leaves).unwrap();
            assert_eq!(ours.root, theirs.root, "{n} leaves");
            for pos in [0, n / 2, n - 1] {
                let proof = ours.get_proof_by_pos(pos).unwrap();
                assert_eq!(
                    proof.merkle_path,
                    theirs.get_proof_by_pos(pos).unwrap().merkle_path
                );
                assert!(proof.verify::<TreePoseidon<PoseidonCairoStark252>>(
                    &theirs.root,
                    pos,
                    &leaves[pos]
                ));
            }
        }
    }

    #[test]
    fn vector_leaf_trees_equal_lambdaworks() {
        for n in 1..=33 {
            // Ragged rows of 0 to 9 felts.
            let leaves: Vec<Vec<LambdaworksFelt>> =
                (0..n).map(|i| felts(i % 10, i as u64)).collect();
            let ours = MerkleTree::<PoseidonVectorTree>::build(&leaves).unwrap();
            let theirs =
                MerkleTree::<BatchPoseidonTree<PoseidonCairoStark252>>::build(&leaves).unwrap();
            assert_eq!(ours.root, theirs.root, "{n} leaves");
            assert_eq!(
                PoseidonVectorTree::hash_data(&leaves[n - 1]),
                BatchPoseidonTree::<PoseidonCairoStark252>::hash_data(&leaves[n - 1])
            );
        }
    }
}
