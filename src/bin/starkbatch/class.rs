//! `starkbatch class-hash [CLASS.json]`: the kind of class is detected from its content by
//! `starkbatch::class_hash::class_hash` (`sierra_program` → Sierra, `bytecode` → CASM).
//! Prints `class_hash 0x...` for a Sierra class, `compiled_class_hash 0x...` for CASM.
//! Errors are `FILE: <the library's message, which names the field and the line/column>`.

use crate::args::ClassHashArgs;
use crate::error::{CliError, CliResult};
use crate::input::Input;
use crate::output::Output;
use starkbatch::class_hash::{class_hash, ClassKind};

pub fn run(a: &ClassHashArgs) -> CliResult {
    let (name, text) = Input::open(a.file.as_deref())?.read_to_string()?;
    let (kind, hash) = class_hash(&text).map_err(|e| CliError::input(format!("{name}: {e}")))?;
    let label = match kind {
        ClassKind::Sierra => "class_hash",
        ClassKind::Compiled => "compiled_class_hash",
    };
    let mut out = Output::create(None)?;
    out.line(format_args!("{label} {hash}"))?;
    out.finish()
}
