//! Telling clingo source (to be grounded) from ground programs (aspif, smodels) by content.
//!
//! Invariant: a file is ground exactly when its first non-blank line is a ground header — aspif's
//! `asp <int> <int> <int> [tags…]`, or a line of whitespace-separated integers only (every smodels
//! statement is one). Everything else, including an empty file, is clingo source. The extension
//! plays no part, so `prog.lp` holding gringo output is still read as ground. No clingo source
//! line passes the test: a source statement ends with `.` and a number alone is not a statement
//! (`1 {a} 1.` starts with a number but has other tokens).

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// What a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A ground program gringo printed (aspif or smodels): read with `lparse`.
    Ground,
    /// Non-ground clingo source: ground it first.
    Source,
}

/// How many bytes of a file are looked at before giving up on finding a non-blank line (a file
/// that is blank that long is source: blank lines are not a ground format).
const SNIFF_LIMIT: u64 = 1 << 16;

/// Classify the file at `path` by its first non-blank line.
pub fn detect(path: &Path) -> io::Result<InputKind> {
    let file = std::fs::File::open(path)?;
    let mut reader = BufReader::new(file.take(SNIFF_LIMIT));
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(InputKind::Source);
        }
        let text = String::from_utf8_lossy(&line);
        if !text.trim().is_empty() {
            return Ok(classify_line(&text));
        }
    }
}

/// Classify a whole text (used on in-memory inputs and in tests) by its first non-blank line.
pub fn detect_text(text: &str) -> InputKind {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .map_or(InputKind::Source, classify_line)
}

fn classify_line(line: &str) -> InputKind {
    let mut tokens = line.split_whitespace();
    let is_int = |t: &str| t.parse::<i64>().is_ok();
    let ground = match tokens.next() {
        // aspif header: `asp major minor revision` then optional tags (`incremental`).
        Some("asp") => {
            let version: Vec<&str> = tokens.by_ref().take(3).collect();
            version.len() == 3 && version.iter().all(|t| is_int(t))
        }
        Some(first) => is_int(first) && tokens.all(is_int),
        None => false,
    };
    if ground {
        InputKind::Ground
    } else {
        InputKind::Source
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ground_headers() {
        assert_eq!(
            detect_text("asp 1 0 0\n1 0 1 1 0 0\n0\n"),
            InputKind::Ground
        );
        assert_eq!(
            detect_text("\n  \nasp 1 0 0 incremental\n"),
            InputKind::Ground
        );
        assert_eq!(detect_text("1 2 0 0\n0\n"), InputKind::Ground);
        assert_eq!(detect_text("0\nB+\n0\n"), InputKind::Ground);
        assert_eq!(detect_text("90 0\n1 2 0 0\n"), InputKind::Ground);
    }

    #[test]
    fn source() {
        assert_eq!(detect_text("a. b :- a.\n"), InputKind::Source);
        assert_eq!(detect_text("1 {a; b} 1.\n"), InputKind::Source);
        assert_eq!(detect_text("% asp 1 0 0\n"), InputKind::Source);
        assert_eq!(detect_text("#const n = 3.\n"), InputKind::Source);
        assert_eq!(detect_text("asp(1,0,0).\n"), InputKind::Source);
        assert_eq!(detect_text("asp 1 0.\n"), InputKind::Source);
        assert_eq!(detect_text(""), InputKind::Source);
        assert_eq!(detect_text("\n\n"), InputKind::Source);
    }
}
