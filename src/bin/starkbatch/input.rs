//! Line-oriented input of field elements, from a file or standard input.
//!
//! Syntax, for every command that reads felts:
//! - one item per line; felts are separated by spaces or tabs;
//! - a felt is `0x`-prefixed hexadecimal (at most 64 digits) or decimal, below p;
//! - `#` starts a comment that runs to the end of the line;
//! - blank and comment-only lines are skipped (they produce no output line);
//! - a line holding only `-` is an item with no felts (the empty message of `poseidon-many`);
//! - `\r\n` line ends are accepted; bytes that are not UTF-8 are an error.
//!
//! Every error names the input and the 1-based line: `input.txt:7: <what is wrong>`.

use crate::error::{CliError, CliResult};
use starkbatch::Felt;
use starkbatch::input::{LineItem, parse_line};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// A source of lines with a name for messages (`<stdin>` or the path as given).
pub struct Input {
    name: String,
    reader: Box<dyn BufRead>,
    line: usize,
    buf: Vec<u8>,
    bytes_read: u64,
    size: Option<u64>,
}

impl Input {
    /// Opens `path`, or standard input when it is `None` or `-`.
    pub fn open(path: Option<&Path>) -> CliResult<Input> {
        match path {
            Some(p) if p.as_os_str() != "-" => {
                let name = p.display().to_string();
                let file = File::open(p)
                    .map_err(|e| CliError::input(format!("cannot read {name}: {e}")))?;
                let size = file.metadata().ok().map(|m| m.len());
                Ok(Input::new(
                    name,
                    Box::new(BufReader::with_capacity(1 << 16, file)),
                    size,
                ))
            }
            _ => Ok(Input::new(
                "<stdin>".into(),
                Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
                None,
            )),
        }
    }

    fn new(name: String, reader: Box<dyn BufRead>, size: Option<u64>) -> Input {
        Input {
            name,
            reader,
            line: 0,
            buf: Vec::new(),
            bytes_read: 0,
            size,
        }
    }

    /// The name used in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Bytes consumed so far (for progress bars).
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The input's size in bytes, when it is a regular file.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// An error at the line read last.
    pub fn error(&self, message: impl std::fmt::Display) -> CliError {
        CliError::at(&self.name, self.line, message)
    }

    /// Reads the whole input as text (for JSON documents).
    pub fn read_to_string(mut self) -> CliResult<(String, String)> {
        let mut s = String::new();
        self.reader
            .read_to_string(&mut s)
            .map_err(|e| CliError::input(format!("cannot read {}: {e}", self.name)))?;
        Ok((self.name, s))
    }

    /// Reads the next item: appends its felts to `out` and returns `true`, or returns `false`
    /// at the end of the input. Blank and comment lines are skipped.
    pub fn next_item(&mut self, out: &mut Vec<Felt>) -> CliResult<bool> {
        loop {
            self.buf.clear();
            let n = self
                .reader
                .read_until(b'\n', &mut self.buf)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", self.name)))?;
            if n == 0 {
                return Ok(false);
            }
            self.line += 1;
            self.bytes_read += n as u64;
            match parse_line(&self.buf, out) {
                Ok(LineItem::Skip) => continue,
                Ok(LineItem::Item) => return Ok(true),
                Err(e) => return Err(self.error(e)),
            }
        }
    }

    /// Reads the next item that must hold exactly `count` felts.
    pub fn next_exact(&mut self, out: &mut Vec<Felt>, count: usize) -> CliResult<bool> {
        let before = out.len();
        if !self.next_item(out)? {
            return Ok(false);
        }
        let got = out.len() - before;
        if got != count {
            let want = if count == 1 {
                "1 field element".to_string()
            } else {
                format!("{count} field elements")
            };
            return Err(self.error(format!("expected {want} on the line, found {got}")));
        }
        Ok(true)
    }
}
