//! Readers and writers for the ground programs gringo prints: aspif (gringo 5's default) and the
//! smodels/lparse numeric format (`gringo --output=smodels`).
//!
//! Invariant: a read either returns a complete [`Program`] or a [`ParseError`] naming the file,
//! line and column where the input stopped making sense — never a half-read program, never a
//! panic, whatever the bytes.

mod aspif;
mod lexer;
mod program;
mod sink;
mod smodels;
mod write_aspif;
mod write_smodels;

pub use write_aspif::{write_aspif, AspifWriter};
pub use write_smodels::{write_smodels, SmodelsWriter};

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

/// Tell the format from the first bytes: `asp` (the aspif header) means aspif, anything else
/// is read as smodels (whose first line is a rule, a number).
pub fn detect(input: &[u8]) -> Format {
    let start = input
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t'))
        .unwrap_or(input.len());
    if input[start..].starts_with(b"asp") {
        Format::Aspif
    } else {
        Format::Smodels
    }
}

/// Read a whole ground program (aspif or smodels, detected) from `input`; `file` names the
/// input in error messages.
pub fn read(input: &[u8], file: &str) -> Result<Program, ParseError> {
    let mut program = Program::default();
    read_with(input, file, &mut program)?;
    Ok(program)
}

/// Read `input` statement by statement into `builder`; returns the format that was read.
/// On error the builder has seen the statements before the bad one (use [`read`] to get a
/// whole program or nothing).
pub fn read_with(
    input: &[u8],
    file: &str,
    builder: &mut dyn ProgramBuilder,
) -> Result<Format, ParseError> {
    let mut lx = lexer::Lexer::new(input, file);
    if input.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(
            lx.error("empty input: expected an aspif header `asp 1 0 0` or a smodels program")
        );
    }
    let format = detect(input);
    match format {
        Format::Aspif => aspif::read(&mut lx, builder)?,
        Format::Smodels => smodels::read(&mut lx, builder)?,
    }
    Ok(format)
}
