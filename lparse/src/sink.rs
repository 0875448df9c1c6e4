//! Statement lines for both writers: one reusable line buffer written out whole, and the first
//! io error kept.
//!
//! Invariant: once an error is recorded, nothing more is written; [`LineSink::finish`] flushes
//! (if no error happened) and reports the first error, so a writer reports it exactly once.

use std::io::{self, Write};

pub(crate) struct LineSink<W: Write> {
    out: W,
    /// The statement being built; [`LineSink::emit`] writes it with its newline and clears it.
    pub(crate) line: Vec<u8>,
    error: Option<io::Error>,
}

impl<W: Write> LineSink<W> {
    pub(crate) fn new(out: W) -> Self {
        LineSink {
            out,
            line: Vec::with_capacity(256),
            error: None,
        }
    }

    /// Record `e` unless an earlier error is already recorded.
    pub(crate) fn fail(&mut self, e: io::Error) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// Write the statement in `line` with its newline (unless an error already happened).
    pub(crate) fn emit(&mut self) {
        self.line.push(b'\n');
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(&self.line) {
                self.error = Some(e);
            }
        }
        self.line.clear();
    }

    /// Flush and report the first error met, if any.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        if self.error.is_none() {
            if let Err(e) = self.out.flush() {
                self.error = Some(e);
            }
        }
        self.error.map_or(Ok(()), Err)
    }
}
