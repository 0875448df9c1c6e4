//! Completion nogoods (the paper's section 2) and their CSR store.

pub mod db;

pub use db::{NogoodDb, NogoodDbBuilder, Origin};
