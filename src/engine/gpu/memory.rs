//! What the GPU engine (`engine.rs`) sees of its searches' memory, whichever backend holds it:
//! the GPU (`cuda.rs`) or the kernel compiled for the host (`emu.rs`). Both backends and the
//! host's side of the sharing ring (`host_share.rs`) answer through this trait, so none of
//! them imports the engine.
//!
//! Invariant: between two calls of [`Memory::run_slice`] no search runs, so every read and
//! write here sees and leaves the searches' memory at rest.

use super::layout::g;
use crate::engine::EngineError;

/// The global words the host reads after each slice (`YSM_G_*` up to the cube variables).
pub const GLOBAL_READ: usize = g::CUBE_VAR;

/// What the host sees of the searches' memory (device or emulated).
pub trait Memory {
    fn searches(&self) -> usize;
    /// Run every search that can run for about `slice_ns`, and wait for it.
    fn run_slice(&mut self, slice_ns: u64) -> Result<(), EngineError>;
    /// The first global words: models waiting, searches ended, stop flag, …, cubes refuted.
    fn global(&mut self) -> Result<[u32; GLOBAL_READ], EngineError>;
    fn clear_global(&mut self) -> Result<(), EngineError>;
    fn statuses(&mut self) -> Result<Vec<u32>, EngineError>;
    fn header_word(&mut self, sid: usize, w: usize) -> Result<u32, EngineError>;
    fn set_status(&mut self, sid: usize, st: u32) -> Result<(), EngineError>;
    /// The first `n` words of search `sid`'s model bits (`scratch`; see `search.cu`).
    fn model_bits(&mut self, sid: usize, n: usize) -> Result<Vec<u32>, EngineError>;
    /// Every search's counters, `C_WORDS` each.
    fn counters(&mut self) -> Result<Vec<u64>, EngineError>;
    /// The sharing ring's slots `first ..` (`n` of them, taken modulo `SHARE_SLOTS`),
    /// `SHARE_WORDS` words each.
    fn share_read(&mut self, first: u32, n: u32) -> Result<Vec<u32>, EngineError>;
    /// Write whole slots from slot `first` on (modulo `SHARE_SLOTS`), then the ring's head.
    fn share_write(&mut self, first: u32, words: &[u32], head: u32) -> Result<(), EngineError>;
    /// Write global words from `at` on (between slices).
    fn write_global(&mut self, at: usize, words: &[u32]) -> Result<(), EngineError>;
    /// Start every search afresh (its memory as at the start, status INIT; the counters are
    /// kept) with the global words `global` (between slices).
    fn reset(&mut self, global: &[u32]) -> Result<(), EngineError>;
    /// Bytes (to, from) the device since the search started.
    fn traffic(&self) -> (u64, u64);
    fn memory_bytes(&self) -> u64;
}
