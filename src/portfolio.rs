//! Portfolios: several searches of one program at once, the first answer wins.
//!
//! - `race`: the whole machine — the GPU engine's searches (one member) and the host engine on
//!   `-t k` threads (k members) — racing for the first answer; the winner goes on alone.
//! - `rows`: the host threads' diverse configurations, as rows of options over the command
//!   line's.
//! - the members share short learned nogoods through `engine::exchange` (beneath the
//!   engines, which take part in it).
//! - `optimize`: the host threads optimising together, bounded by the best cost any found.
//! - `gpu_join`: how the GPU members join either race, made off the caller's thread.
//!
//! Invariant: all members search one program with one variable numbering (one completion for
//! the host threads), so what one member proves holds for all.

pub mod gpu_join;
pub mod optimize;
pub mod race;
pub mod rows;
