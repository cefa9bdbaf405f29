//! Where results go: standard output, or a file replaced atomically.
//!
//! A file output is written to a temporary file in the same directory (`.starkbatch-*`) and
//! renamed over the target only by [`Output::finish`]. If the command fails before that
//! (bad input on line 10 million), the temporary file is removed when the `Output` is dropped,
//! so the target is never left partial: it keeps its old content, or does not appear.

use crate::error::{CliError, CliResult};
use std::fmt::Display;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// An output sink.
pub enum Output {
    /// Standard output, buffered.
    Stdout(BufWriter<io::Stdout>),
    /// A temporary file that becomes `target` on success.
    File {
        writer: BufWriter<NamedTempFile>,
        target: PathBuf,
    },
}

impl Output {
    /// Standard output when `path` is `None` or `-`, otherwise a temporary file beside `path`.
    pub fn create(path: Option<&Path>) -> CliResult<Output> {
        match path {
            Some(p) if p.as_os_str() != "-" => {
                let dir = match p.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                let tmp = tempfile::Builder::new()
                    .prefix(".starkbatch-")
                    .suffix(".tmp")
                    .tempfile_in(dir)
                    .map_err(|e| {
                        CliError::failure(format!("cannot create a file in {}: {e}", dir.display()))
                    })?;
                Ok(Output::File {
                    writer: BufWriter::with_capacity(1 << 16, tmp),
                    target: p.to_path_buf(),
                })
            }
            _ => Ok(Output::Stdout(BufWriter::with_capacity(
                1 << 16,
                io::stdout(),
            ))),
        }
    }

    fn name(&self) -> String {
        match self {
            Output::Stdout(_) => "<stdout>".into(),
            Output::File { target, .. } => target.display().to_string(),
        }
    }

    /// Writes `value` and a newline.
    pub fn line(&mut self, value: impl Display) -> CliResult {
        let r = match self {
            Output::Stdout(w) => writeln!(w, "{value}"),
            Output::File { writer, .. } => writeln!(writer, "{value}"),
        };
        r.map_err(|e| CliError::write(&self.name(), e))
    }

    /// Flushes, and for a file renames the temporary file over the target.
    pub fn finish(self) -> CliResult {
        let name = self.name();
        match self {
            Output::Stdout(mut w) => w.flush().map_err(|e| CliError::write(&name, e)),
            Output::File { writer, target } => {
                let tmp = writer
                    .into_inner()
                    .map_err(|e| CliError::write(&name, e.into_error()))?;
                tmp.as_file()
                    .sync_all()
                    .map_err(|e| CliError::write(&name, e))?;
                set_permissions(&tmp, &target).map_err(|e| CliError::write(&name, e))?;
                tmp.persist(&target)
                    .map_err(|e| CliError::write(&name, e.error))?;
                Ok(())
            }
        }
    }
}

/// The temporary file is created private (0600); give the result the target's old permissions,
/// or 0644 for a new file, as a plain `create` would under the usual umask.
#[cfg(unix)]
fn set_permissions(tmp: &NamedTempFile, target: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let perms = match std::fs::metadata(target) {
        Ok(m) => m.permissions(),
        Err(_) => std::fs::Permissions::from_mode(0o644),
    };
    tmp.as_file().set_permissions(perms)
}

#[cfg(not(unix))]
fn set_permissions(_tmp: &NamedTempFile, _target: &Path) -> io::Result<()> {
    Ok(())
}
