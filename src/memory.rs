//! Giving freed memory back to the system between the stages of a large program's preparation.
//!
//! The analysed program and its completion are millions of small allocations; once dropped,
//! the allocator keeps their pages for later small allocations, while the engine's large
//! arrays (nogood arena, watch pools) are mapped afresh: the process's resident memory then
//! counts both. [`give_back`] returns the free pages (glibc's `malloc_trim`), so that the peak
//! is what is live.
//!
//! Invariant: it frees nothing that is in use (only the allocator's free pages) and changes no
//! result; it is a no-op where the allocator is not glibc's, and for small programs (the trim
//! walks the whole heap and holds the allocator's locks meanwhile: not worth it below
//! [`LARGE`] rules, and a small race's threads should start at once).

/// Programs of at least this many rules (or bodies) give their freed pages back.
pub const LARGE: usize = 100_000;

/// Return the allocator's free pages to the system when the program of `size` rules (or
/// bodies) is [`LARGE`] (a few milliseconds per GB of heap).
pub fn give_back(size: usize) {
    if size < LARGE {
        return;
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory no allocation holds.
    unsafe {
        libc::malloc_trim(0);
    }
}
