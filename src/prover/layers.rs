//! Inner layers, the whole commitment, decommitments and their verification.

use super::error::ProverError;
use super::leaves::{MAX_LOG, hash_row, leaf_layer, lifted, ordered};
use crate::field::Felt;
use crate::poseidon::poseidon_hash;
use alloc::vec;
use alloc::vec::Vec;

/// The layer above `prev`: `out[i] = poseidon_hash(prev[2i], prev[2i + 1])`, the pairs hashed
/// as two columns on the detected backend.
///
/// ```
/// use starkbatch::prover::next_layer;
/// use starkbatch::{poseidon_hash, Felt};
/// let layer: Vec<Felt> = (0..8u64).map(Felt::from).collect();
/// let up = next_layer(&layer);
/// assert_eq!(up.len(), 4);
/// assert_eq!(up[3], poseidon_hash(Felt::from(6u64), Felt::from(7u64)));
/// ```
///
/// # Panics
/// If `prev` has odd length (a layer of a commitment never has).
pub fn next_layer(prev: &[Felt]) -> Vec<Felt> {
    let (xs, ys) = split_pairs(prev);
    let mut out = vec![Felt::ZERO; xs.len()];
    crate::batch::poseidon_hash_columns(&xs, &ys, &mut out);
    out
}

fn split_pairs(prev: &[Felt]) -> (Vec<Felt>, Vec<Felt>) {
    assert!(
        prev.len().is_multiple_of(2),
        "next_layer: a layer of odd length"
    );
    prev.chunks_exact(2).map(|p| (p[0], p[1])).unzip()
}

/// A lifted Poseidon252 Merkle commitment: every layer, the leaves first, the root last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commitment {
    layers: Vec<Vec<Felt>>,
}

impl Commitment {
    /// The root.
    pub fn root(&self) -> Felt {
        self.layers.last().map_or(Felt::ZERO, |l| l[0])
    }

    /// The layers, leaves first (`layers()[0].len() == 2^lifting_log_size`), the root last.
    pub fn layers(&self) -> &[Vec<Felt>] {
        &self.layers
    }

    /// The lifting log size (the leaf layer has `2^lifting_log_size` rows).
    pub fn lifting_log_size(&self) -> u32 {
        self.layers[0].len().trailing_zeros()
    }

    /// The decommitment of `queries` (row positions, any order, repeats allowed) as stwo's
    /// lifted prover gives it: the queried values (`values[column][q]`, the columns in the
    /// caller's order, one value per query, read at the lifted position) and the hash witness
    /// (per layer from the leaves up, positions ascending, the sibling of each node whose
    /// sibling is not itself known).
    ///
    /// `columns` must be the committed columns.
    ///
    /// # Errors
    /// [`ProverError::Position`] for a query outside the domain; the column errors of
    /// [`leaf_layer`].
    pub fn decommit(
        &self,
        columns: &[&[u32]],
        queries: &[usize],
    ) -> Result<(Vec<Vec<u32>>, Vec<Felt>), ProverError> {
        let log = self.lifting_log_size();
        ordered(columns, log)?;
        let rows = 1usize << log;
        if let Some(&position) = queries.iter().find(|&&q| q >= rows) {
            return Err(ProverError::Position { position, rows });
        }
        let values = columns
            .iter()
            .map(|c| {
                let s = log - c.len().trailing_zeros();
                queries.iter().map(|&q| c[lifted(q, s)]).collect()
            })
            .collect();
        let mut positions: Vec<usize> = queries.to_vec();
        positions.sort_unstable();
        positions.dedup();
        let mut witness = Vec::new();
        for layer in &self.layers[..self.layers.len() - 1] {
            let mut next = Vec::with_capacity(positions.len());
            let mut i = 0;
            while i < positions.len() {
                let p = positions[i];
                if positions.get(i + 1) == Some(&(p ^ 1)) {
                    i += 2;
                } else {
                    witness.push(layer[p ^ 1]);
                    i += 1;
                }
                next.push(p >> 1);
            }
            positions = next;
        }
        Ok((values, witness))
    }
}

/// The commitment to `columns` lifted to `2^lifting_log_size` rows: [`leaf_layer`], then
/// [`next_layer`] up to the root.
///
/// ```
/// use starkbatch::prover::{commit, leaf_layer, next_layer};
/// let col: Vec<u32> = (0..16).collect();
/// let c = commit(&[&col], 4).unwrap();
/// let mut layer = leaf_layer(&[&col], 4).unwrap();
/// while layer.len() > 1 {
///     layer = next_layer(&layer);
/// }
/// assert_eq!(c.root(), layer[0]);
/// ```
///
/// # Errors
/// As [`leaf_layer`].
pub fn commit(columns: &[&[u32]], lifting_log_size: u32) -> Result<Commitment, ProverError> {
    let mut layers = vec![leaf_layer(columns, lifting_log_size)?];
    while layers[layers.len() - 1].len() > 1 {
        let up = next_layer(&layers[layers.len() - 1]);
        layers.push(up);
    }
    Ok(Commitment { layers })
}

/// [`commit`] with the leaves and the larger layers spread over rayon's threads.
///
/// # Errors
/// As [`leaf_layer`].
#[cfg(feature = "std")]
pub fn commit_par(columns: &[&[u32]], lifting_log_size: u32) -> Result<Commitment, ProverError> {
    let mut layers = vec![super::leaves::leaf_layer_par(columns, lifting_log_size)?];
    while layers[layers.len() - 1].len() > 1 {
        let (xs, ys) = split_pairs(&layers[layers.len() - 1]);
        let mut up = vec![Felt::ZERO; xs.len()];
        crate::batch::poseidon_hash_columns_par(&xs, &ys, &mut up);
        layers.push(up);
    }
    Ok(Commitment { layers })
}

/// Whether `witness` and `values` (as [`Commitment::decommit`] gives them) open `root` at
/// `queries`, for columns of `column_log_sizes` (the caller's order) lifted to
/// `2^lifting_log_size` rows: the leaves recomputed from the values, the path to the root from
/// the witness. `false` for a witness too short or too long, repeated queries with different
/// values, or a different root.
///
/// ```
/// use starkbatch::prover::{commit, verify_decommitment};
/// let (a, b): (Vec<u32>, Vec<u32>) = ((0..32).collect(), (100..108).collect());
/// let c = commit(&[&a, &b], 5).unwrap();
/// let queries = [3, 17, 18, 3];
/// let (values, witness) = c.decommit(&[&a, &b], &queries).unwrap();
/// let values: Vec<&[u32]> = values.iter().map(|v| v.as_slice()).collect();
/// assert!(verify_decommitment(c.root(), 5, &[5, 3], &queries, &values, &witness).unwrap());
/// assert!(!verify_decommitment(c.root(), 5, &[5, 3], &queries, &values, &witness[1..]).unwrap());
/// ```
///
/// # Errors
/// [`ProverError::QueriedValues`] when `values` does not hold one slice per column of one
/// value per query; [`ProverError::Position`], [`ProverError::ColumnTooLong`],
/// [`ProverError::LiftingLogSize`] and [`ProverError::NotM31`] for inputs out of range.
pub fn verify_decommitment(
    root: Felt,
    lifting_log_size: u32,
    column_log_sizes: &[u32],
    queries: &[usize],
    values: &[&[u32]],
    witness: &[Felt],
) -> Result<bool, ProverError> {
    if !(1..=MAX_LOG).contains(&lifting_log_size) {
        return Err(ProverError::LiftingLogSize(lifting_log_size));
    }
    if values.len() != column_log_sizes.len() {
        return Err(ProverError::QueriedValues {
            expected: column_log_sizes.len(),
            got: values.len(),
        });
    }
    for (column, (v, &log_size)) in values.iter().zip(column_log_sizes).enumerate() {
        if v.len() != queries.len() {
            return Err(ProverError::QueriedValues {
                expected: queries.len(),
                got: v.len(),
            });
        }
        if log_size > lifting_log_size {
            return Err(ProverError::ColumnTooLong {
                column,
                log_size,
                lifting_log_size,
            });
        }
        if let Some(row) = v.iter().position(|&x| x >= super::m31::M31_MODULUS) {
            return Err(ProverError::NotM31 {
                column,
                row,
                value: v[row],
            });
        }
    }
    let rows = 1usize << lifting_log_size;
    if let Some(&position) = queries.iter().find(|&&q| q >= rows) {
        return Err(ProverError::Position { position, rows });
    }
    // Commitment order: the columns stably sorted by log size.
    let mut order: Vec<usize> = (0..column_log_sizes.len()).collect();
    order.sort_by_key(|&c| column_log_sizes[c]);
    let mut by_query: Vec<usize> = (0..queries.len()).collect();
    by_query.sort_by_key(|&q| queries[q]);
    let mut nodes: Vec<(usize, Felt)> = Vec::new();
    let mut last: Option<(usize, usize)> = None; // (position, the query it was read from)
    for &q in &by_query {
        let p = queries[q];
        if let Some((lp, lq)) = last
            && lp == p
        {
            if values.iter().any(|v| v[q] != v[lq]) {
                return Ok(false);
            }
            continue;
        }
        let row: Vec<u32> = order.iter().map(|&c| values[c][q]).collect();
        nodes.push((p, hash_row(&row)));
        last = Some((p, q));
    }
    let mut w = witness.iter();
    for _ in 0..lifting_log_size {
        let mut next = Vec::with_capacity(nodes.len());
        let mut i = 0;
        while i < nodes.len() {
            let (p, h) = nodes[i];
            let parent = match nodes.get(i + 1) {
                Some(&(p2, h2)) if p2 == p ^ 1 => {
                    i += 2;
                    poseidon_hash(h, h2)
                }
                _ => {
                    i += 1;
                    let Some(&s) = w.next() else { return Ok(false) };
                    if p & 1 == 0 {
                        poseidon_hash(h, s)
                    } else {
                        poseidon_hash(s, h)
                    }
                }
            };
            next.push((p >> 1, parent));
        }
        nodes = next;
    }
    Ok(w.next().is_none() && nodes.len() == 1 && nodes[0].1 == root)
}
