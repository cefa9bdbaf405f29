//! The library's batch entry points used by the subcommands, gathered in one place so that
//! `hash` and `bench` call exactly the same functions. No hashing is implemented here: every
//! function forwards to `starkbatch`.
//!
//! - Poseidon: the SIMD batch API on an explicit [`Backend`] (`*_batch_par`: lanes on each
//!   thread, chunks across rayon's pool).
//! - Pedersen: pairs through `Backend::pedersen_hash_batch_par` (batch-affine steps in the
//!   backend's lanes, pieces across threads), arrays through
//!   `Backend::pedersen_hash_array_batch_par` (messages in lock-step, each step such a batch).

use starkbatch::{Backend, Felt};

/// Messages of any length stored back to back: message `i` is
/// `felts[ends[i - 1]..ends[i]]` (with `ends[-1] = 0`).
#[derive(Default)]
pub struct Messages {
    pub felts: Vec<Felt>,
    pub ends: Vec<usize>,
}

impl Messages {
    pub fn clear(&mut self) {
        self.felts.clear();
        self.ends.clear();
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Closes the message made of the felts pushed since the previous one.
    pub fn end_message(&mut self) {
        self.ends.push(self.felts.len());
    }

    pub fn get(&self, i: usize) -> &[Felt] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.felts[start..self.ends[i]]
    }

    /// Every message as a slice (what the batch API takes).
    pub fn slices(&self) -> Vec<&[Felt]> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }
}

/// `out[i] = poseidon_hash(pairs[i][0], pairs[i][1])`.
pub fn poseidon_pairs(b: Backend, pairs: &[[Felt; 2]], out: &mut [Felt]) {
    b.poseidon_hash_batch_par(pairs, out);
}

/// `out[i] = poseidon_hash_single(xs[i])`.
pub fn poseidon_singles(b: Backend, xs: &[Felt], out: &mut [Felt]) {
    b.poseidon_hash_single_batch_par(xs, out);
}

/// `out[i] = poseidon_hash_many(message i)`.
pub fn poseidon_many(b: Backend, msgs: &Messages, out: &mut [Felt]) {
    b.poseidon_hash_many_batch_par(&msgs.slices(), out);
}

/// `out[i] = pedersen_hash(pairs[i][0], pairs[i][1])`.
pub fn pedersen_pairs(b: Backend, pairs: &[[Felt; 2]], out: &mut [Felt]) {
    b.pedersen_hash_batch_par(pairs, out);
}

/// `out[i] = pedersen_hash_array(message i)`: the messages in lock-step batches.
pub fn pedersen_arrays(b: Backend, msgs: &Messages, out: &mut [Felt]) {
    b.pedersen_hash_array_batch_par(&msgs.slices(), out);
}
