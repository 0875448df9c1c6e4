//! Readers and writers for the ground programs gringo prints: aspif (gringo 5's default) and the
//! smodels/lparse numeric format (`gringo --output=smodels`).
//!
//! Invariant: a read either returns a complete [`Program`] or a [`ParseError`] naming the file,
//! line and column where the input stopped making sense — never a half-read program, never a
//! panic, whatever the bytes.

mod program;

pub use program::*;

/// The two ground formats, told apart by the first line (`asp …` is aspif).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Aspif,
    Smodels,
}

/// Where reading stopped and what was expected there. Displays as `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct ParseError {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}
