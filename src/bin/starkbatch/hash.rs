//! `starkbatch hash KIND [FILE] [-o OUT]`: one hash per input line, streamed in chunks.
//!
//! The input is read [`CHUNK`] items at a time (and at most [`CHUNK_FELTS`] felts for the
//! variable-length kinds); each chunk goes through one batch call and its results are written
//! before the next chunk is read, so memory stays bounded whatever the input size.

use crate::args::{HashArgs, HashKind};
use crate::engine::{self, Messages};
use crate::error::CliResult;
use crate::input::Input;
use crate::output::Output;
use indicatif::{ProgressBar, ProgressStyle};
use starkbatch::Felt;
use std::io::IsTerminal;

/// Items per batch call.
pub const CHUNK: usize = 4096;
/// Felts per batch call for `poseidon-many` / `pedersen-array` (bounds memory on long lines).
pub const CHUNK_FELTS: usize = 1 << 20;

/// Files at least this large get a progress bar (when stderr is a terminal).
const PROGRESS_BYTES: u64 = 8 << 20;

pub fn run(a: &HashArgs) -> CliResult {
    let backend = crate::backend::choose()?.chosen;
    let mut input = Input::open(a.file.as_deref())?;
    let mut out = Output::create(a.output.as_deref())?;
    let bar = progress(&input);
    let mut results = vec![Felt::ZERO; CHUNK];
    let mut felts: Vec<Felt> = Vec::with_capacity(2 * CHUNK);
    let mut msgs = Messages::default();
    loop {
        let n = match a.kind {
            HashKind::Poseidon | HashKind::Pedersen => {
                felts.clear();
                while felts.len() < 2 * CHUNK && input.next_exact(&mut felts, 2)? {}
                let pairs: &[[Felt; 2]] = bytemuck::cast_slice(&felts);
                let n = pairs.len();
                if a.kind == HashKind::Poseidon {
                    engine::poseidon_pairs(backend, pairs, &mut results[..n]);
                } else {
                    engine::pedersen_pairs(backend, pairs, &mut results[..n]);
                }
                n
            }
            HashKind::PoseidonSingle => {
                felts.clear();
                while felts.len() < CHUNK && input.next_exact(&mut felts, 1)? {}
                let n = felts.len();
                engine::poseidon_singles(backend, &felts, &mut results[..n]);
                n
            }
            HashKind::PoseidonMany | HashKind::PedersenArray => {
                msgs.clear();
                while msgs.len() < CHUNK
                    && msgs.felts.len() < CHUNK_FELTS
                    && input.next_item(&mut msgs.felts)?
                {
                    msgs.end_message();
                }
                let n = msgs.len();
                if a.kind == HashKind::PoseidonMany {
                    engine::poseidon_many(backend, &msgs, &mut results[..n]);
                } else {
                    engine::pedersen_arrays(backend, &msgs, &mut results[..n]);
                }
                n
            }
        };
        for r in &results[..n] {
            out.line(r)?;
        }
        if let Some(b) = &bar {
            b.set_position(input.bytes_read());
        }
        if n < CHUNK && chunk_ended_by_eof(a.kind, n, &msgs) {
            break;
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    out.finish()
}

/// Whether a chunk of `n` items stopped because the input ended (rather than because the
/// variable-length chunk reached its felt budget).
fn chunk_ended_by_eof(kind: HashKind, n: usize, msgs: &Messages) -> bool {
    match kind {
        HashKind::PoseidonMany | HashKind::PedersenArray => msgs.felts.len() < CHUNK_FELTS,
        _ => n < CHUNK,
    }
}

/// A byte-count progress bar for large input files, drawn only on a terminal.
fn progress(input: &Input) -> Option<ProgressBar> {
    let size = input.size()?;
    if size < PROGRESS_BYTES || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(size);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:40}] {binary_bytes}/{binary_total_bytes} ({eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_message(input.name().to_string());
    Some(bar)
}
