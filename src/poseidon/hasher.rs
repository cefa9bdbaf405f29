//! [`PoseidonHasher`]: incremental [`poseidon_hash_many`](super::poseidon_hash_many).

use super::permute_scalar;
use crate::field::Felt;

/// A stateful Poseidon sponge: feeding it elements one by one with [`update`](Self::update)
/// and calling [`finalize`](Self::finalize) gives the same result as
/// [`poseidon_hash_many`](super::poseidon_hash_many) on the whole sequence.
///
/// Elements are absorbed two at a time (rate 2): the first of a pair waits in a buffer.
///
/// ```
/// use starkbatch::{poseidon_hash_many, Felt, PoseidonHasher};
/// let msgs = [Felt::from(1u64), Felt::from(2u64), Felt::from(3u64)];
/// let mut h = PoseidonHasher::new();
/// for m in msgs {
///     h.update(m);
/// }
/// assert_eq!(h.finalize(), poseidon_hash_many(&msgs));
/// ```
#[derive(Debug, Default, Clone)]
pub struct PoseidonHasher {
    state: [Felt; 3],
    buffer: Option<Felt>,
}

impl PoseidonHasher {
    /// A hasher that has absorbed nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Absorbs one element.
    pub fn update(&mut self, msg: Felt) {
        match self.buffer.take() {
            Some(first) => {
                self.state[0] += first;
                self.state[1] += msg;
                permute_scalar(&mut self.state);
            }
            None => self.buffer = Some(msg),
        }
    }

    /// Pads (append 1, then 0 if the count is odd) and returns the hash.
    pub fn finalize(mut self) -> Felt {
        match self.buffer.take() {
            Some(last) => {
                self.state[0] += last;
                self.state[1] += Felt::ONE;
            }
            None => self.state[0] += Felt::ONE,
        }
        permute_scalar(&mut self.state);
        self.state[0]
    }
}
