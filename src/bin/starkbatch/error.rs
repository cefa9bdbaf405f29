//! The error every subcommand returns: a message for stderr and an exit code.

use std::fmt::Display;
use std::io;

/// Exit code for bad usage and bad input (clap uses 2 for usage errors too).
pub const BAD_INPUT: i32 = 2;
/// Exit code for other failures (I/O on the output side, internal checks).
pub const FAILURE: i32 = 1;

/// A failed command: what to print (without the `starkbatch: ` prefix) and the exit code.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub code: i32,
}

impl CliError {
    /// Bad input or usage: exit code 2.
    pub fn input(message: impl Display) -> Self {
        CliError {
            message: message.to_string(),
            code: BAD_INPUT,
        }
    }

    /// Bad input at a place in a file: `FILE:LINE: message`, exit code 2.
    pub fn at(name: &str, line: usize, message: impl Display) -> Self {
        CliError::input(format!("{name}:{line}: {message}"))
    }

    /// A failure that is not the input's fault: exit code 1.
    pub fn failure(message: impl Display) -> Self {
        CliError {
            message: message.to_string(),
            code: FAILURE,
        }
    }

    /// Writing to `name` failed. A closed pipe on stdout (`starkbatch … | head`) is not an
    /// error: the reader wanted no more, so the command ends quietly with success.
    pub fn write(name: &str, e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError {
                message: String::new(),
                code: 0,
            }
        } else {
            CliError::failure(format!("cannot write {name}: {e}"))
        }
    }
}

/// The result type of the subcommands.
pub type CliResult<T = ()> = Result<T, CliError>;
