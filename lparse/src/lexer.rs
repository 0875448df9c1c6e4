//! A byte-level tokenizer for the two line-oriented numeric formats.
//!
//! Invariant: `pos` never passes the end of `buf`, `line`/`line_start` always describe the line
//! that holds `pos` (1-based line; the column of `pos` is `pos - line_start + 1`), and every
//! method either consumes exactly the token it promises or returns an error positioned at the
//! first byte it could not accept. Tokens are separated by blanks (space, tab); a statement ends
//! at a newline (`\n` or `\r\n`), which only [`Lexer::end_line`] consumes — so a statement whose
//! counts are too small or too large is caught on its own line, never by reading into the next.
//! Nothing here allocates except when building an error.

use crate::ParseError;

pub(crate) struct Lexer<'a> {
    buf: &'a [u8],
    pos: usize,
    line: usize,
    line_start: usize,
    file: &'a str,
}

/// What an unparsable number token looked like, for messages (shortened, lossy UTF-8).
fn show_token(tok: &[u8]) -> String {
    let shown = &tok[..tok.len().min(24)];
    let mut s = String::from_utf8_lossy(shown).escape_debug().to_string();
    if tok.len() > shown.len() {
        s.push('…');
    }
    s
}

#[inline(always)]
fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(buf: &'a [u8], file: &'a str) -> Self {
        Lexer {
            buf,
            pos: 0,
            line: 1,
            line_start: 0,
            file,
        }
    }

    /// An error at byte offset `pos` (which must lie on the current line).
    pub(crate) fn error_at(&self, pos: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line: self.line,
            col: pos.saturating_sub(self.line_start) + 1,
            message: message.into(),
        }
    }

    /// An error at the current position.
    pub(crate) fn error(&self, message: impl Into<String>) -> ParseError {
        self.error_at(self.pos, message)
    }

    /// Bytes left to read (bounds `Vec` reservations so a huge count cannot exhaust memory).
    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn skip_blanks(&mut self) {
        while self.pos < self.buf.len() && is_blank(self.buf[self.pos]) {
            self.pos += 1;
        }
    }

    /// Describe what stands at `pos` when it is not what we wanted.
    fn found(&self) -> String {
        match self.buf.get(self.pos) {
            None => "end of input".to_string(),
            Some(b'\n') | Some(b'\r') => "end of line".to_string(),
            Some(_) => {
                let end = self.token_end(self.pos);
                format!("`{}`", show_token(&self.buf[self.pos..end]))
            }
        }
    }

    fn token_end(&self, from: usize) -> usize {
        let mut end = from;
        while end < self.buf.len() && !matches!(self.buf[end], b' ' | b'\t' | b'\n' | b'\r') {
            end += 1;
        }
        end
    }

    /// A (possibly negative) decimal integer that fits in `i64`, followed by a blank, a line
    /// end or the end of input. `what` names what was expected, for the message.
    #[inline]
    pub(crate) fn int(&mut self, what: &str) -> Result<i64, ParseError> {
        self.skip_blanks();
        let start = self.pos;
        let neg = self.buf.get(self.pos) == Some(&b'-');
        if neg {
            self.pos += 1;
        }
        let digits = self.pos;
        // Hot loop: no overflow checks inside (wrapping), the digit count decides afterwards
        // (19 digits always fit in u64; more are out of any range we accept).
        let buf = self.buf;
        let mut p = digits;
        let mut v: u64 = 0;
        while p < buf.len() {
            let d = buf[p].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v.wrapping_mul(10).wrapping_add(d as u64);
            p += 1;
        }
        self.pos = p;
        if p - digits > 19 {
            return Err(self.number_error(start, what, true));
        }
        let ok_end = match self.buf.get(self.pos) {
            None => true,
            Some(&b) => matches!(b, b' ' | b'\t' | b'\n' | b'\r'),
        };
        if self.pos == digits || !ok_end {
            return Err(self.number_error(start, what, false));
        }
        if v > i64::MAX as u64 {
            return Err(self.number_error(start, what, true));
        }
        Ok(if neg { -(v as i64) } else { v as i64 })
    }

    fn number_error(&mut self, start: usize, what: &str, out_of_range: bool) -> ParseError {
        self.pos = start;
        if out_of_range {
            let end = self.token_end(start);
            let tok = show_token(&self.buf[start..end]);
            self.error_at(
                start,
                format!("expected {what}, found `{tok}` (out of range)"),
            )
        } else {
            self.error_at(start, format!("expected {what}, found {}", self.found()))
        }
    }

    /// An integer in `lo..=hi`; `what` should say the range in words.
    #[inline]
    pub(crate) fn int_in(&mut self, lo: i64, hi: i64, what: &str) -> Result<i64, ParseError> {
        let start = self.pos;
        let v = self.int(what)?;
        if v < lo || v > hi {
            self.skip_blanks_from(start);
            let at = self.pos;
            let end = self.token_end(at);
            let tok = show_token(&self.buf[at..end]);
            return Err(self.error_at(at, format!("expected {what}, found `{tok}` (out of range)")));
        }
        Ok(v)
    }

    fn skip_blanks_from(&mut self, start: usize) {
        self.pos = start;
        self.skip_blanks();
    }

    /// A count of following items (0..=u32::MAX).
    #[inline]
    pub(crate) fn count(&mut self, what: &str) -> Result<usize, ParseError> {
        Ok(self.int_in(0, u32::MAX as i64, what)? as usize)
    }

    /// An atom: 1..=i32::MAX (so that its negation is a valid literal).
    #[inline]
    pub(crate) fn atom(&mut self) -> Result<u32, ParseError> {
        Ok(self.int_in(
            1,
            i32::MAX as i64,
            "an atom (an integer from 1 to 2147483647)",
        )? as u32)
    }

    /// An atom, or 0 ending a list.
    #[inline]
    pub(crate) fn atom_or_zero(&mut self) -> Result<u32, ParseError> {
        Ok(self.int_in(0, i32::MAX as i64, "an atom or 0 ending the list")? as u32)
    }

    /// A non-zero literal whose atom is a valid atom.
    #[inline]
    pub(crate) fn lit(&mut self) -> Result<i32, ParseError> {
        let start = self.pos;
        let what = "a literal (a non-zero integer from -2147483647 to 2147483647)";
        let v = self.int_in(-(i32::MAX as i64), i32::MAX as i64, what)?;
        if v == 0 {
            self.skip_blanks_from(start);
            return Err(self.error(format!("expected {what}, found `0`")));
        }
        Ok(v as i32)
    }

    /// A weight or bound: any 32-bit signed integer (aspif's range).
    #[inline]
    pub(crate) fn weight(&mut self, what: &str) -> Result<i64, ParseError> {
        self.int_in(i32::MIN as i64, i32::MAX as i64, what)
    }

    /// Consume the end of the current line (or accept the end of input).
    #[inline]
    pub(crate) fn end_line(&mut self) -> Result<(), ParseError> {
        self.skip_blanks();
        match self.buf.get(self.pos) {
            None => Ok(()),
            Some(b'\n') => {
                self.newline_at(self.pos);
                Ok(())
            }
            Some(b'\r') if self.buf.get(self.pos + 1) == Some(&b'\n') => {
                self.newline_at(self.pos + 1);
                Ok(())
            }
            _ => Err(self.error(format!("expected end of line, found {}", self.found()))),
        }
    }

    #[inline(always)]
    fn newline_at(&mut self, nl: usize) {
        self.pos = nl + 1;
        self.line += 1;
        self.line_start = self.pos;
    }

    /// True at the end of input.
    pub(crate) fn at_eof(&self) -> bool {
        self.pos >= self.buf.len()
    }

    /// Skip blanks and empty lines; true if only those were left.
    pub(crate) fn only_whitespace_left(&mut self) -> bool {
        loop {
            self.skip_blanks();
            match self.buf.get(self.pos) {
                None => return true,
                Some(b'\n') => self.newline_at(self.pos),
                Some(b'\r') if self.buf.get(self.pos + 1) == Some(&b'\n') => {
                    self.newline_at(self.pos + 1)
                }
                Some(_) => return false,
            }
        }
    }

    /// The bytes from here to the end of the line (without `\r\n`/`\n`); stops before the line
    /// end, which [`Lexer::end_line`] then consumes (so errors about the bytes keep their line).
    pub(crate) fn rest_of_line(&mut self) -> &'a [u8] {
        let start = self.pos;
        let end = match self.buf[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start + i,
            None => self.buf.len(),
        };
        let text_end = if end > start && self.buf[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        self.pos = text_end;
        &self.buf[start..text_end]
    }

    /// Exactly one space (the separator before a name or string).
    pub(crate) fn single_space(&mut self, what: &str) -> Result<(), ParseError> {
        if self.buf.get(self.pos) == Some(&b' ') {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(format!(
                "expected a space before {what}, found {}",
                self.found()
            )))
        }
    }

    /// Exactly `n` raw bytes (an aspif string); newlines inside are counted.
    pub(crate) fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8], ParseError> {
        if n > self.remaining() {
            return Err(self.error(format!(
                "expected {what} of {n} bytes, but only {} bytes are left in the input",
                self.remaining()
            )));
        }
        let start = self.pos;
        let s = &self.buf[start..start + n];
        for (i, &b) in s.iter().enumerate() {
            if b == b'\n' {
                self.line += 1;
                self.line_start = start + i + 1;
            }
        }
        self.pos = start + n;
        Ok(s)
    }

    /// The word `w` (after blanks) as a whole token.
    pub(crate) fn word(&mut self, w: &[u8], what: &str) -> Result<(), ParseError> {
        self.skip_blanks();
        let end = self.token_end(self.pos);
        if &self.buf[self.pos..end] == w {
            self.pos = end;
            Ok(())
        } else {
            Err(self.error(format!("expected {what}, found {}", self.found())))
        }
    }

    /// The next token (after blanks) without consuming it; empty at a line end.
    pub(crate) fn peek_token(&mut self) -> &'a [u8] {
        self.skip_blanks();
        let end = self.token_end(self.pos);
        &self.buf[self.pos..end]
    }

    /// Consume `n` bytes of a token returned by [`Lexer::peek_token`].
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos += n;
    }
}
