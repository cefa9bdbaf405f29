use core::fmt;

/// What was wrong with a prover input. Columns are numbered in the caller's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProverError {
    /// An M31 value of `2^31 - 1` or more.
    NotM31 {
        /// The column.
        column: usize,
        /// The row (or the query's index, for queried values).
        row: usize,
        /// The value.
        value: u32,
    },
    /// A column whose length is not a power of two of at least 2.
    ColumnLength {
        /// The column.
        column: usize,
        /// Its length.
        len: usize,
    },
    /// A column longer than the lifting domain (`2^lifting_log_size` rows).
    ColumnTooLong {
        /// The column.
        column: usize,
        /// Its log size.
        log_size: u32,
        /// The lifting log size asked for.
        lifting_log_size: u32,
    },
    /// A lifting log size outside 1 to 40.
    LiftingLogSize(u32),
    /// A proof-of-work target beyond the 128 bits checked.
    PowBits(u32),
    /// A queried position outside the domain.
    Position {
        /// The position.
        position: usize,
        /// The rows of the domain.
        rows: usize,
    },
    /// Queried values that do not match the columns or queries in number.
    QueriedValues {
        /// How many were expected.
        expected: usize,
        /// How many were given.
        got: usize,
    },
}

impl fmt::Display for ProverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProverError::NotM31 { column, row, value } => write!(
                f,
                "column {column}, row {row}: {value} is not an M31 value (below 2^31 - 1)"
            ),
            ProverError::ColumnLength { column, len } => write!(
                f,
                "column {column}: {len} rows, expected a power of two of at least 2"
            ),
            ProverError::ColumnTooLong {
                column,
                log_size,
                lifting_log_size,
            } => write!(
                f,
                "column {column}: log size {log_size} exceeds the lifting log size {lifting_log_size}"
            ),
            ProverError::LiftingLogSize(l) => write!(f, "lifting log size {l}: expected 1 to 40"),
            ProverError::PowBits(n) => write!(f, "n_bits {n}: at most 128"),
            ProverError::Position { position, rows } => {
                write!(f, "position {position} is outside the {rows} rows")
            }
            ProverError::QueriedValues { expected, got } => {
                write!(f, "{got} queried values, expected {expected}")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ProverError {}
