//! `--outf=3`: standard output that takes everything and writes nothing (clingo's "no output":
//! the exit code alone says the result).

use std::io::{self, Write};

/// A writer that passes everything on, or (muted) takes it and writes nothing.
pub struct Muted<W> {
    inner: W,
    muted: bool,
}

impl<W: Write> Muted<W> {
    pub fn new(inner: W, muted: bool) -> Self {
        Muted { inner, muted }
    }
}

impl<W: Write> Write for Muted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.muted {
            true => Ok(buf.len()),
            false => self.inner.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self.muted {
            true => Ok(()),
            false => self.inner.flush(),
        }
    }
}
