//! The leaf layer: one Poseidon sponge per row of the lifted columns, many rows side by side.

use super::error::ProverError;
use super::m31::{M31_MODULUS, pack_with};
use crate::Backend;
use crate::field::Felt;
use crate::poseidon::poseidon_hash_many;
use alloc::vec;
use alloc::vec::Vec;

/// Rows per block of sponges: the three state columns of a block stay in L1.
const BLOCK: usize = 256;

/// The largest lifting domain accepted, `2^40` rows.
pub(super) const MAX_LOG: u32 = 40;

/// The columns in commitment order (stably sorted by length, shortest first) with the shift
/// `s = lifting_log_size - log_size` of each, after checking lengths and values.
pub(super) fn ordered<'a>(
    columns: &[&'a [u32]],
    lifting_log_size: u32,
) -> Result<Vec<(&'a [u32], u32)>, ProverError> {
    if !(1..=MAX_LOG).contains(&lifting_log_size) {
        return Err(ProverError::LiftingLogSize(lifting_log_size));
    }
    let mut out = Vec::with_capacity(columns.len());
    for (column, c) in columns.iter().enumerate() {
        if c.len() < 2 || !c.len().is_power_of_two() {
            return Err(ProverError::ColumnLength {
                column,
                len: c.len(),
            });
        }
        let log_size = c.len().trailing_zeros();
        if log_size > lifting_log_size {
            return Err(ProverError::ColumnTooLong {
                column,
                log_size,
                lifting_log_size,
            });
        }
        if let Some(row) = c.iter().position(|&v| v >= M31_MODULUS) {
            return Err(ProverError::NotM31 {
                column,
                row,
                value: c[row],
            });
        }
        out.push((*c, lifting_log_size - log_size));
    }
    out.sort_by_key(|(c, _)| c.len());
    Ok(out)
}

/// Row `i` of the lifted domain read from a column shifted by `s`.
#[inline(always)]
pub(super) fn lifted(i: usize, s: u32) -> usize {
    ((i >> (s + 1)) << 1) | (i & 1)
}

/// The leaf of row `row`: `poseidon_hash_many` of the row's values packed 8 per felt (one row,
/// scalar; the reference for [`leaf_layer`]).
///
/// ```
/// use starkbatch::prover::{leaf_hash, pack_m31};
/// use starkbatch::poseidon_hash_many;
/// let (a, b) = ([1u32, 2, 3, 4], [5u32, 6]);
/// // Column b (log size 1) comes first, lifted: row 3 reads b[1].
/// let want = poseidon_hash_many(&[pack_m31(&[b[1], a[3]])]);
/// assert_eq!(leaf_hash(&[&a, &b], 2, 3).unwrap(), want);
/// ```
///
/// # Errors
/// As [`leaf_layer`], and [`ProverError::Position`] for a row outside the domain.
pub fn leaf_hash(
    columns: &[&[u32]],
    lifting_log_size: u32,
    row: usize,
) -> Result<Felt, ProverError> {
    let cols = ordered(columns, lifting_log_size)?;
    let rows = 1usize << lifting_log_size;
    if row >= rows {
        return Err(ProverError::Position {
            position: row,
            rows,
        });
    }
    let values: Vec<u32> = cols.iter().map(|(c, s)| c[lifted(row, *s)]).collect();
    Ok(hash_row(&values))
}

/// The leaf of one row's values, already in commitment order.
pub(super) fn hash_row(values: &[u32]) -> Felt {
    let felts: Vec<Felt> = values
        .chunks(8)
        .map(|chunk| {
            let mut it = chunk.iter().copied();
            pack_with(chunk.len(), || it.next().unwrap_or(0))
        })
        .collect();
    poseidon_hash_many(&felts)
}

/// The sponges of rows `first..first + out.len()` (at most [`BLOCK`]) into `out`.
fn leaf_block(backend: Backend, cols: &[(&[u32], u32)], first: usize, out: &mut [Felt]) {
    let n = out.len();
    let (mut s0, mut s1, mut s2) = (
        vec![Felt::ZERO; n],
        vec![Felt::ZERO; n],
        vec![Felt::ZERO; n],
    );
    // The felt of chunk `chunk` (8 columns from `8 * chunk`) of each row, added into `state`.
    let absorb = |state: &mut [Felt], chunk: usize| {
        let part = &cols[8 * chunk..cols.len().min(8 * chunk + 8)];
        for (j, x) in state.iter_mut().enumerate() {
            let i = first + j;
            let mut k = 0;
            *x += pack_with(part.len(), || {
                let (c, s) = part[k];
                k += 1;
                c[lifted(i, s)]
            });
        }
    };
    let felts = cols.len().div_ceil(8);
    let mut chunk = 0;
    loop {
        if chunk == felts {
            s0.iter_mut().for_each(|x| *x += Felt::ONE);
        } else {
            absorb(&mut s0, chunk);
            if chunk + 1 == felts {
                s1.iter_mut().for_each(|x| *x += Felt::ONE);
            } else {
                absorb(&mut s1, chunk + 1);
            }
        }
        backend.poseidon_permute_columns(&mut s0, &mut s1, &mut s2);
        if chunk + 2 > felts {
            break;
        }
        chunk += 2;
    }
    out.copy_from_slice(&s0);
}

/// The leaf layer of a lifted commitment: `out[i]` = [`leaf_hash`] of row `i`, for the
/// `2^lifting_log_size` rows, 256 rows (`BLOCK`) per batch of sponges on the detected backend.
///
/// `columns`: M31 values, one slice per column, each of a power-of-two length from 2 up to
/// `2^lifting_log_size` (shorter columns are lifted); taken in the caller's order and sorted
/// stably by length as stwo's `commit` sorts them.
///
/// ```
/// use starkbatch::prover::{leaf_hash, leaf_layer};
/// let cols: Vec<Vec<u32>> = (0..11u32).map(|c| (0..(4u32 << (c % 3))).map(|i| i * 7 + c).collect()).collect();
/// let refs: Vec<&[u32]> = cols.iter().map(|c| c.as_slice()).collect();
/// let leaves = leaf_layer(&refs, 4).unwrap();
/// for (i, leaf) in leaves.iter().enumerate() {
///     assert_eq!(*leaf, leaf_hash(&refs, 4, i).unwrap());
/// }
/// ```
///
/// # Errors
/// [`ProverError::ColumnLength`], [`ProverError::ColumnTooLong`], [`ProverError::NotM31`]
/// (naming the column in the caller's order and the row), [`ProverError::LiftingLogSize`]
/// unless `1 <= lifting_log_size <= 40`.
pub fn leaf_layer(columns: &[&[u32]], lifting_log_size: u32) -> Result<Vec<Felt>, ProverError> {
    let cols = ordered(columns, lifting_log_size)?;
    let mut out = vec![Felt::ZERO; 1usize << lifting_log_size];
    let backend = Backend::current();
    for (b, block) in out.chunks_mut(BLOCK).enumerate() {
        leaf_block(backend, &cols, b * BLOCK, block);
    }
    Ok(out)
}

/// [`leaf_layer`] with blocks of rows spread over rayon's threads.
///
/// # Errors
/// As [`leaf_layer`].
#[cfg(feature = "std")]
pub fn leaf_layer_par(columns: &[&[u32]], lifting_log_size: u32) -> Result<Vec<Felt>, ProverError> {
    use rayon::prelude::*;
    let cols = ordered(columns, lifting_log_size)?;
    let mut out = vec![Felt::ZERO; 1usize << lifting_log_size];
    let backend = Backend::current();
    out.par_chunks_mut(BLOCK)
        .enumerate()
        .for_each(|(b, block)| leaf_block(backend, &cols, b * BLOCK, block));
    Ok(out)
}
