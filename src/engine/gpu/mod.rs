//! The GPU engine: many complete CDNL searches at once, one per warp, each with its own state
//! in device memory and its row of a portfolio, sharing the read-only program; the host
//! launches the search kernel (`kernels/search/`, compiled at start-up by NVRTC) once per time
//! slice and reads back only a few words between slices, and the models.
//!
//! Where things are:
//! - `many.rs`: the engine ([`many::ManyEngine`]): slices, models, enumeration, the end of the
//!   search; behind the `Memory` trait of its two backends, `many_cuda.rs` (the GPU) and
//!   `emu.rs` (the same kernel compiled for the host by `build.rs`, one lane per search:
//!   `--engine=emu` and the tests, no GPU needed);
//! - `many_layout.rs`, `many_params.rs`, `many_sums.rs`: the program arrays, the per-search
//!   geometry and the kernel structs' twins (their constants are checked against
//!   `kernels/search/common.cuh`); native sums;
//! - `portfolio.rs` (each search's configuration row), `split.rs` (cubes for UNSAT),
//!   `many_share.rs` (learned nogoods exchanged with a portfolio's host threads through the
//!   searches' sharing ring), `many_objective.rs` and `many_opt.rs` (branch and bound);
//! - `device.rs`: finding a usable GPU, opening a context, the kernel's source; `cache.rs`:
//!   the compiled image cached on disk.
//!
//! Invariant: nothing here touches the CUDA libraries before [`available`] has confirmed that
//! they load (the emulation backend never does).

pub mod cache;
pub mod device;
pub mod emu;
pub mod many;
pub mod many_cuda;
pub mod many_layout;
pub mod many_objective;
pub mod many_opt;
pub mod many_params;
pub mod many_share;
pub mod many_sums;
pub mod portfolio;
pub mod split;
pub mod visible;

pub use device::{available, count};
