//! yasmin-rs: a conflict-driven answer-set solver whose search runs on a CUDA GPU.
//!
//! The pipeline, in the order data moves: `lparse` (read) → [`analyse`] →
//! [`nogoods`] (complete) → [`engine`] (search, `cpu` or `gpu`), wrapped by [`wrap`] and raced
//! by [`portfolio`] → [`check`] → [`output`]; [`run`] puts them together.

pub mod analyse;
pub mod check;
pub mod config;
pub mod csr;
pub mod engine;
pub mod grounder;
pub mod lit;
pub mod memory;
pub mod nogoods;
pub mod output;
pub mod portfolio;
pub mod run;
pub mod wrap;
