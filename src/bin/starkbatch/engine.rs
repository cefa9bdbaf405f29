//! The library's batch entry points used by the subcommands, gathered in one place so that
//! each subcommand reads the same whichever backend the library picks. No hashing is
//! implemented here: every function forwards to `starkbatch`.

use crate::error::{CliError, CliResult};
use rayon::prelude::*;
use starkbatch::hash::PairHash;
use starkbatch::{poseidon_hash_many, poseidon_hash_single, Felt, Poseidon};

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
}

/// `out[i] = poseidon_hash(pairs[i][0], pairs[i][1])`, batched (and split across threads).
pub fn poseidon_pairs(pairs: &[[Felt; 2]], out: &mut [Felt]) {
    Poseidon::hash_batch_par(pairs, out);
}

/// `out[i] = poseidon_hash_single(xs[i])`, split across threads.
pub fn poseidon_singles(xs: &[Felt], out: &mut [Felt]) {
    out.par_iter_mut()
        .zip(xs.par_iter())
        .with_min_len(64)
        .for_each(|(o, x)| *o = poseidon_hash_single(*x));
}

/// `out[i] = poseidon_hash_many(message i)`, split across threads.
pub fn poseidon_many(msgs: &Messages, out: &mut [Felt]) {
    out.par_iter_mut()
        .enumerate()
        .with_min_len(16)
        .for_each(|(i, o)| *o = poseidon_hash_many(msgs.get(i)));
}

/// Pedersen is not in this build of the library yet.
pub fn pedersen_available() -> CliResult {
    Err(CliError::unavailable("Pedersen hashing"))
}
