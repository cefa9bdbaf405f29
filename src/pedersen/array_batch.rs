//! Many independent Pedersen array hashes (cairo-lang's `compute_hash_on_elements`, as
//! [`crate::pedersen_hash_array`]) at once: the messages advance in lock-step, one element per
//! step, and every step is one [`crate::Backend::pedersen_hash_batch`] over the messages that
//! still have elements.
//!
//! # Method
//! Message `i` with elements `a_0..a_{n_i−1}` has the chain `h ← H(h, a_j)` from `h = 0`, then
//! the result `H(h, n_i)`. Step `j` hashes the pairs `(h_i, a_{i,j})` of every message longer than
//! `j`; the messages are ordered by decreasing length once, so the messages of step `j` are a
//! prefix of that order and the step's pairs are built in one pass. A last batch hashes every
//! `(h_i, n_i)`. So `Σ n_i + m` hashes in `max n_i + 1` batches: long enough steps run in
//! the batch-affine lanes, short ones (fewer than 24 messages left) in the scalar path.
//!
//! The parallel variant runs every step with [`crate::Backend::pedersen_hash_batch_par`].
//!
//! # Memory
//! Four allocations per call: the order, the chain values, the step's pairs and its results
//! (about 140 bytes per message).

use crate::Felt;
use alloc::vec;
use alloc::vec::Vec;

/// `out[i] = pedersen_hash_array(messages[i])`, every step hashed by `hash` (a pair batch of
/// one backend, module docs); `messages.len() == out.len()` (checked by the caller).
pub(crate) fn hash_arrays(
    hash: impl Fn(&[[Felt; 2]], &mut [Felt]),
    messages: &[&[Felt]],
    out: &mut [Felt],
) {
    debug_assert_eq!(messages.len(), out.len());
    let m = messages.len();
    if m == 0 {
        return;
    }
    // Messages by decreasing length (stable, so equal lengths keep their order).
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by_key(|&i| core::cmp::Reverse(messages[i].len()));
    let longest = messages[order[0]].len();
    // h[k]: the chain value of message order[k].
    let mut h = vec![Felt::ZERO; m];
    let mut pairs: Vec<[Felt; 2]> = Vec::with_capacity(m);
    let mut hashed = vec![Felt::ZERO; m];
    // Messages still active at step j: the first `active` of `order`.
    let mut active = m;
    for j in 0..longest {
        while messages[order[active - 1]].len() <= j {
            active -= 1;
        }
        pairs.clear();
        pairs.extend(
            order[..active]
                .iter()
                .zip(&h)
                .map(|(&i, &hk)| [hk, messages[i][j]]),
        );
        hash(&pairs, &mut hashed[..active]);
        h[..active].copy_from_slice(&hashed[..active]);
    }
    pairs.clear();
    pairs.extend(
        order
            .iter()
            .zip(&h)
            .map(|(&i, &hk)| [hk, Felt::from(messages[i].len() as u64)]),
    );
    hash(&pairs, &mut hashed);
    for (&i, r) in order.iter().zip(&hashed) {
        out[i] = *r;
    }
}
