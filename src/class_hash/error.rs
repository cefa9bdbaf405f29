//! [`ClassHashError`]: why a contract class JSON could not be hashed.

use crate::FeltError;
use std::fmt;
use std::string::String;

/// A place in the input text (1-based line and column, as serde_json counts them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (0 when serde_json could not tell).
    pub column: usize,
}

/// Why a contract class could not be hashed. Every variant names the offending field by its
/// path in the document, e.g. `entry_points_by_type.EXTERNAL[3].selector` or
/// `sierra_program[12]`, and, when the error was found while reading the text, where.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClassHashError {
    /// The text is not JSON (a syntax error, an early end, trailing characters, or nesting deeper
    /// than serde_json's limit of 128).
    InvalidJson {
        /// serde_json's description, without its position suffix.
        message: String,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
    },
    /// A required field is absent.
    MissingField {
        /// Path of the absent field.
        field: String,
        /// Where the enclosing object ended, when known.
        position: Option<Position>,
    },
    /// A field holds a JSON value of the wrong kind (e.g. a number where a hex string belongs).
    WrongType {
        /// Path of the field.
        field: String,
        /// What was expected there.
        expected: &'static str,
        /// What was found.
        found: &'static str,
        /// Where, when known.
        position: Option<Position>,
    },
    /// A field appears twice in one object.
    DuplicateField {
        /// Path of the repeated field.
        field: String,
        /// Where, when known.
        position: Option<Position>,
    },
    /// A field element (hex string) is malformed or not below p.
    InvalidFelt {
        /// Path of the value, with its index in the array.
        field: String,
        /// What was wrong with it.
        source: FeltError,
        /// Where, when known.
        position: Option<Position>,
    },
    /// A value has the right JSON type but is not acceptable (e.g. a negative offset, a builtin
    /// name that is not a Cairo short string, an unsupported class version).
    InvalidValue {
        /// Path of the value.
        field: String,
        /// What is wrong with it.
        reason: String,
        /// Where, when known.
        position: Option<Position>,
    },
    /// The document is not a Sierra class (`sierra_program`), a compiled CASM class
    /// (`bytecode`) or a Cairo 0 class (`program`), or looks like both of the first two.
    UnknownClassKind {
        /// What was found.
        reason: &'static str,
    },
    /// `bytecode_segment_lengths` does not describe the bytecode (lengths not summing to the
    /// bytecode length, an empty segment inside a list).
    InvalidSegmentLengths {
        /// What is wrong.
        reason: String,
    },
}

impl ClassHashError {
    /// Sets the position of an error found while reading, unless it already has one.
    pub(crate) fn with_position(mut self, pos: Position) -> Self {
        match &mut self {
            ClassHashError::MissingField { position, .. }
            | ClassHashError::WrongType { position, .. }
            | ClassHashError::DuplicateField { position, .. }
            | ClassHashError::InvalidFelt { position, .. }
            | ClassHashError::InvalidValue { position, .. } => {
                if position.is_none() {
                    *position = Some(pos);
                }
            }
            ClassHashError::InvalidJson { .. }
            | ClassHashError::UnknownClassKind { .. }
            | ClassHashError::InvalidSegmentLengths { .. } => {}
        }
        self
    }
}

struct At(Option<Position>);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(p) => write!(f, " at line {} column {}", p.line, p.column),
            None => Ok(()),
        }
    }
}

/// Formats a field path for messages: the root has an empty path.
struct Field<'a>(&'a str);

impl fmt::Display for Field<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("the top-level value")
        } else {
            write!(f, "`{}`", self.0)
        }
    }
}

impl fmt::Display for ClassHashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassHashError::InvalidJson {
                message,
                line,
                column,
            } => write!(f, "invalid JSON: {message} at line {line} column {column}"),
            ClassHashError::MissingField { field, position } => {
                write!(f, "missing field {}{}", Field(field), At(*position))
            }
            ClassHashError::WrongType {
                field,
                expected,
                found,
                position,
            } => write!(
                f,
                "wrong type for {}: expected {expected}, found {found}{}",
                Field(field),
                At(*position)
            ),
            ClassHashError::DuplicateField { field, position } => {
                write!(f, "duplicate field {}{}", Field(field), At(*position))
            }
            ClassHashError::InvalidFelt {
                field,
                source,
                position,
            } => write!(f, "bad felt in {}{}: {source}", Field(field), At(*position)),
            ClassHashError::InvalidValue {
                field,
                reason,
                position,
            } => write!(
                f,
                "invalid value for {}{}: {reason}",
                Field(field),
                At(*position)
            ),
            ClassHashError::UnknownClassKind { reason } => {
                write!(
                    f,
                    "not a Sierra or compiled (CASM) contract class: {reason}"
                )
            }
            ClassHashError::InvalidSegmentLengths { reason } => {
                write!(f, "invalid `bytecode_segment_lengths`: {reason}")
            }
        }
    }
}

impl std::error::Error for ClassHashError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClassHashError::InvalidFelt { source, .. } => Some(source),
            _ => None,
        }
    }
}
