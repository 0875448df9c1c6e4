//! The GPU engine: many complete CDNL searches at once, one per warp, each with its own state
//! in device memory and its row of a portfolio, sharing the read-only program; the host
//! launches the search kernel (`kernels/search/`, compiled at start-up by NVRTC) once per time
//! slice and reads back only a few words between slices, and the models.
//!
//! Where things are:
//! - `engine.rs`: the engine ([`engine::ManyEngine`]): slices, models, enumeration, the end of
//!   the search; behind the `Memory` trait (`memory.rs`) of its two backends, `cuda.rs` (the GPU) and
//!   `emu.rs` (the same kernel compiled for the host by `build.rs`, one lane per search:
//!   `--engine=emu` and the tests, no GPU needed);
//! - `layout.rs`, `params.rs`, `sum_arrays.rs`: the program arrays, the per-search
//!   geometry and the kernel structs' twins (their constants are checked against
//!   `kernels/search/common.cuh`); native sums;
//! - `search_rows.rs` (each search's configuration row), `split.rs` (cubes for UNSAT),
//!   `host_share.rs` (learned nogoods exchanged with a portfolio's host threads through the
//!   searches' sharing ring), `folded_objective.rs` and `branch_bound.rs` (branch and bound);
//! - `device.rs`: finding a usable GPU, opening a context, the kernel's source; `cache.rs`:
//!   the compiled image cached on disk.
//!
//! Invariant: nothing here touches the CUDA libraries before [`available`] has confirmed that
//! they load (the emulation backend never does).

pub mod branch_bound;
pub mod cache;
pub mod cuda;
pub mod device;
pub mod emu;
pub mod engine;
pub mod folded_objective;
pub mod host_share;
pub mod layout;
pub mod memory;
pub mod params;
pub mod search_rows;
pub mod split;
pub mod sum_arrays;
pub mod visible;

pub use device::{available, count};
