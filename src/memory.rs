//! Giving freed memory back to the system between the stages of a large program's preparation.
//!
//! The analysed program and its completion are millions of small allocations; once dropped,
//! the allocator keeps their pages for later small allocations, while the engine's large
//! arrays (nogood arena, watch pools) are mapped afresh: the process's resident memory then
//! counts both. [`give_back`] returns the free pages (glibc's `malloc_trim`), so that the peak
//! is what is live.
//!
//! Invariant: it frees nothing that is in use (only the allocator's free pages) and changes no
//! result; it is a no-op where the allocator is not glibc's.

/// Return the allocator's free pages to the system (a few milliseconds per GB of heap).
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory no allocation holds.
    unsafe {
        libc::malloc_trim(0);
    }
}
