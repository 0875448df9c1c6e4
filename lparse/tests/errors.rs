//! Every kind of malformed input gets a `file:line:col: what was expected` error pointing at the
//! token that broke the format (1-based line and byte column).

fn err(input: &[u8]) -> lparse::ParseError {
    match lparse::read(input, "f.lp") {
        Ok(p) => panic!(
            "expected an error for {:?}, read {p:?}",
            String::from_utf8_lossy(input)
        ),
        Err(e) => e,
    }
}

/// Assert the error position and that its message contains `what`.
fn check(input: &str, line: usize, col: usize, what: &str) {
    check_bytes(input.as_bytes(), line, col, what)
}

fn check_bytes(input: &[u8], line: usize, col: usize, what: &str) {
    let e = err(input);
    assert_eq!(
        (e.line, e.col),
        (line, col),
        "position of {e} for {:?}",
        String::from_utf8_lossy(input)
    );
    assert!(
        e.message.contains(what),
        "message {:?} should mention {what:?}",
        e.message
    );
    assert!(
        e.to_string().starts_with(&format!("f.lp:{line}:{col}: ")),
        "display: {e}"
    );
}

const SM_TAIL: &str = "0\n0\nB+\n0\nB-\n0\n1\n";

#[test]
fn empty_input() {
    check("", 1, 1, "empty input");
    check("  \n\n", 1, 1, "empty input");
}

#[test]
fn bad_or_missing_header() {
    check("asq 1 0 0\n0\n", 1, 1, "expected a smodels rule type");
    check("asp 2 0 0\n0\n", 1, 5, "aspif major version 1");
    check("asp 1 1 0\n0\n", 1, 7, "minor version 0");
    check("asp 1 0\n0\n", 1, 8, "aspif revision 0, found end of line");
    check(
        "asp 1 0 0 foo\n0\n",
        1,
        11,
        "unknown aspif header tag `foo`",
    );
    check("aspif 1 0 0\n0\n", 1, 1, "expected the aspif header");
}

#[test]
fn truncated() {
    check("asp 1 0 0\n1 0 1 2 0 2 3", 2, 14, "found end of input");
    check("asp 1 0 0\n1 0 1 2 0 0\n", 3, 1, "found end of input");
    check("asp 1 0 0\n4 10 ab 0\n0\n", 2, 6, "only 7 bytes are left");
    check("1 2 0 0\n", 2, 1, "unexpected end of input");
    check("1 2 0 0\n0\n2 a\n", 4, 1, "symbol table entry");
    check("1 2 0 0\n0\n0\nB+\n0\nB-\n0\n", 8, 1, "number of models");
    check("1 2 0 0\n0\n0\nB+\n2\n", 6, 1, "expected an atom or 0");
}

#[test]
fn wrong_counts() {
    // Too few items on the line: the count runs into the line end, not into the next line.
    check("asp 1 0 0\n1 0 1 2 0 2 3\n0\n", 2, 14, "found end of line");
    // Too many: the extra token is reported.
    check(
        "asp 1 0 0\n1 0 1 2 0 1 3 4\n0\n",
        2,
        15,
        "expected end of line, found `4`",
    );
    check(&format!("1 2 2 0 3\n{SM_TAIL}"), 1, 10, "found end of line");
    check(
        &format!("1 2 1 0 3 4\n{SM_TAIL}"),
        1,
        11,
        "expected end of line",
    );
    // More negative than total literals.
    check(
        &format!("1 2 1 2 3\n{SM_TAIL}"),
        1,
        7,
        "exceeds the number of literals",
    );
    check(&format!("5 2 1 2 3 3 4 1 1\n{SM_TAIL}"), 1, 9, "exceeds");
    check(
        &format!("5 2 1 2 1 3 4 1 1 1\n{SM_TAIL}"),
        1,
        19,
        "expected end of line",
    );
}

#[test]
fn zero_or_negative_atoms() {
    check("asp 1 0 0\n1 0 1 0 0 0\n0\n", 2, 7, "expected an atom");
    check("asp 1 0 0\n1 0 1 2 0 1 0\n0\n", 2, 13, "expected a literal");
    check("asp 1 0 0\n5 0 1\n0\n", 2, 3, "expected an atom");
    check(&format!("1 -2 0 0\n{SM_TAIL}"), 1, 3, "expected an atom");
    check(&format!("1 2 1 0 -3\n{SM_TAIL}"), 1, 9, "expected an atom");
    check(&format!("3 0 0 0\n{SM_TAIL}"), 1, 3, "at least 1");
    check(
        "1 2 0 0\n0\n-2 a\n0\nB+\n0\nB-\n0\n1\n",
        3,
        1,
        "expected an atom or 0",
    );
}

#[test]
fn unknown_statements() {
    check("asp 1 0 0\n11 1\n0\n", 2, 1, "statement type (0 to 10)");
    check("asp 1 0 0\n9 3 0\n0\n", 2, 3, "theory statement type");
    check(
        &format!("4 1 0 0\n{SM_TAIL}"),
        1,
        1,
        "unknown smodels rule type 4",
    );
    check(&format!("93 1\n{SM_TAIL}"), 1, 1, "smodels rule type");
    check("1 2 0 0\n0\n0\nB*\n0\nB-\n0\n1\n", 4, 1, "expected `B+`");
    check("1 2 0 0\n0\n0\nB+\n0\nB+\n0\n1\n", 6, 1, "expected `B-`");
}

#[test]
fn non_numeric_tokens() {
    check("asp 1 0 0\n1 0 1 x 0 0\n0\n", 2, 7, "found `x`");
    check(&format!("1 2a 0 0\n{SM_TAIL}"), 1, 3, "found `2a`");
    check("asp 1 0 0\n2 1 1 3 -\n0\n", 2, 9, "found `-`");
    check("asp 1 0 0\n1 0 1 2 0 1 3.5\n0\n", 2, 13, "found `3.5`");
}

#[test]
fn numbers_out_of_range() {
    check(
        "asp 1 0 0\n1 0 1 2 0 1 3000000000\n0\n",
        2,
        13,
        "out of range",
    );
    check("asp 1 0 0\n1 0 1 2147483648 0 0\n0\n", 2, 7, "out of range");
    check(
        "asp 1 0 0\n2 0 1 3 1099511627776\n0\n",
        2,
        9,
        "out of range",
    );
    check(
        "asp 1 0 0\n1 0 1 2 0 1 99999999999999999999999\n0\n",
        2,
        13,
        "out of range",
    );
    check("asp 1 0 0\n5 1 4\n0\n", 2, 5, "external value");
    check("asp 1 0 0\n7 6 1 0 0 0\n0\n", 2, 3, "heuristic modifier");
    check("asp 1 0 0\n1 2 1 2 0 0\n0\n", 2, 3, "head type");
    check("asp 1 0 0\n1 0 1 2 2 0\n0\n", 2, 9, "body type");
    check(
        "asp 1 0 0\n1 0 1 2 1 0 1 3 -1\n0\n",
        2,
        17,
        "non-negative weight",
    );
    check(&format!("91 2 3\n{SM_TAIL}"), 1, 6, "external value");
    check(&format!("6 1 1 0 2 1\n{SM_TAIL}"), 1, 3, "unused head");
    check(
        &format!("90 1\n{SM_TAIL}"),
        1,
        4,
        "0 after the incremental mark",
    );
    check(
        &format!("5 2 1 1 0 3 -1\n{SM_TAIL}"),
        1,
        13,
        "non-negative weight",
    );
}

#[test]
fn garbage_bytes() {
    check_bytes(b"\xff\xfe\x00garbage", 1, 1, "expected a smodels rule type");
    check_bytes(b"asp 1 0 0\n1 0 1 2 \x00 0\n0\n", 2, 9, "body type");
    check_bytes(b"asp 1 0 0\n4 2 \xff\xfe 0\n0\n", 2, 5, "not valid UTF-8");
    check_bytes(
        b"1 2 0 0\n0\n2 \xff\n0\nB+\n0\nB-\n0\n1\n",
        3,
        3,
        "not valid UTF-8",
    );
    check(
        "1 2 0 0\n0\n2 \n0\nB+\n0\nB-\n0\n1\n",
        3,
        3,
        "expected the atom's name",
    );
    check(
        "1 2 0 0\n0\n2\tx\n0\nB+\n0\nB-\n0\n1\n",
        3,
        2,
        "expected a space",
    );
}

#[test]
fn content_after_the_end() {
    check("asp 1 0 0\n0\n1 0 0 0 0\n", 3, 1, "after the end statement");
    check(
        "asp 1 0 0 incremental\n1 0 1 1 0 0\n0\n1 0 1 2 0 0\n0\n",
        4,
        1,
        "several incremental steps are not supported",
    );
    check(
        &format!("1 2 0 0\n{SM_TAIL}1 3 0 0\n"),
        9,
        1,
        "after the number of models",
    );
    check(
        &format!("90 0\n1 2 0 0\n{SM_TAIL}90 0\n1 3 0 0\n{SM_TAIL}"),
        10,
        1,
        "several incremental steps are not supported",
    );
}

#[test]
fn accepted_variants() {
    // CRLF line ends, trailing blank lines, a final line without newline, one incremental step.
    let a = lparse::read(b"asp 1 0 0\r\n1 0 1 2 0 0\r\n0\r\n\r\n", "f").unwrap();
    assert_eq!(a.rules.len(), 1);
    let b = lparse::read(b"asp 1 0 0 incremental\n1 0 1 2 0 0\n0", "f").unwrap();
    assert_eq!(b.rules.len(), 1);
    let s = lparse::read(b"90 0\n1 2 0 0\n0\n2 a b\n0\nB+\n0\nB-\n0\nE\n3\n0\n1", "f").unwrap();
    assert_eq!(s.outputs[0].name, "a b");
    assert_eq!(s.externals.len(), 1);
}

#[test]
fn error_positions_on_later_lines_count_all_lines() {
    let mut text = String::from("asp 1 0 0\n");
    for i in 1..=1000 {
        text += &format!("1 0 1 {i} 0 0\n");
    }
    text += "1 0 1 x 0 0\n0\n";
    check(&text, 1002, 7, "found `x`");
    // Newlines inside an output name count too.
    check("asp 1 0 0\n4 3 a\nb 0\n1 0 1 y 0 0\n0\n", 4, 7, "found `y`");
}
