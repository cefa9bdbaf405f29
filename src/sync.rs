//! A write-once cell for the lazily built tables, and `join` (crate-internal): the two things
//! the core needs from `std` (or rayon) with a fallback without it.
//!
//! With `std` this is [`std::sync::OnceLock`]: the first caller builds the value, concurrent
//! callers wait for it. Without `std` it is `once_cell::race::OnceBox` (`alloc` only): the
//! value is boxed, and threads racing on the first call may each build one; one is kept and
//! the others are dropped. Every table in the crate is a pure function of constants, so both
//! give the same value; only the one-time cost differs.

#[cfg(not(feature = "std"))]
use alloc::boxed::Box;

/// A value built on first use by [`OnceTable::get_or_init`] and kept for the program's life
/// (used as a `static`).
pub(crate) struct OnceTable<T> {
    #[cfg(feature = "std")]
    cell: std::sync::OnceLock<T>,
    #[cfg(not(feature = "std"))]
    cell: once_cell::race::OnceBox<T>,
}

impl<T> OnceTable<T> {
    /// An empty cell.
    pub(crate) const fn new() -> Self {
        OnceTable {
            #[cfg(feature = "std")]
            cell: std::sync::OnceLock::new(),
            #[cfg(not(feature = "std"))]
            cell: once_cell::race::OnceBox::new(),
        }
    }

    /// The value, built by `init` if this is the first call (see the module docs for what
    /// happens when threads race on it).
    #[inline]
    pub(crate) fn get_or_init(&self, init: impl FnOnce() -> T) -> &T {
        #[cfg(feature = "std")]
        {
            self.cell.get_or_init(init)
        }
        #[cfg(not(feature = "std"))]
        {
            self.cell.get_or_init(|| Box::new(init()))
        }
    }
}

/// Runs `a` and `b`, with `std` potentially in parallel (`rayon::join`), without it one after
/// the other on the calling thread.
pub(crate) fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    #[cfg(feature = "std")]
    {
        rayon::join(a, b)
    }
    #[cfg(not(feature = "std"))]
    {
        (a(), b())
    }
}

#[cfg(test)]
mod tests {
    use super::OnceTable;

    #[test]
    fn builds_once_and_keeps_the_first_value() {
        static CELL: OnceTable<u64> = OnceTable::new();
        let mut calls = 0;
        assert_eq!(
            *CELL.get_or_init(|| {
                calls += 1;
                7
            }),
            7
        );
        assert_eq!(
            *CELL.get_or_init(|| {
                calls += 1;
                8
            }),
            7
        );
        assert_eq!(calls, 1);
    }
}
