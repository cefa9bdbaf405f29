//! The suite's global allocator: the system allocator, plus counting on the threads that ask
//! for it (`allocations_during`, `peak_during`); other threads, and tests running in parallel,
//! are not counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn note(delta: isize, is_alloc: bool) {
    if !ON.try_with(Cell::get).unwrap_or(false) {
        return;
    }
    if is_alloc {
        let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
    }
    let _ = LIVE.try_with(|l| {
        let v = l.get() + delta;
        l.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
    });
}

// SAFETY: forwards every call unchanged to the system allocator; the counting touches only
// const-initialised thread-locals (no allocation, no re-entrancy).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as isize, true);
        // SAFETY: forwarding the caller's valid layout to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize), false);
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn counted(f: impl FnOnce()) {
    ALLOCS.with(|a| a.set(0));
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    ON.with(|c| c.set(true));
    f();
    ON.with(|c| c.set(false));
}

/// How many allocations `f` made on this thread.
pub fn allocations_during(f: impl FnOnce()) -> usize {
    counted(f);
    ALLOCS.with(Cell::get)
}

/// The most bytes `f` held allocated at once on this thread, beyond what was live before.
pub fn peak_during(f: impl FnOnce()) -> usize {
    counted(f);
    PEAK.with(Cell::get).max(0) as usize
}
