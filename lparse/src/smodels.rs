//! The smodels/lparse numeric reader (`gringo --output=smodels`), with clasp's extensions
//! 90 (incremental mark), 91 (assign external) and 92 (release external).
//!
//! Invariant: the sections are read in the only order the format allows — rules up to `0`,
//! symbol table up to `0`, `B+` list, `B-` list, optional `E` list, model count — and translated
//! into the aspif vocabulary of [`crate::Program`] as they are read: `B+ a` becomes `:- not a`,
//! `B- a` becomes `:- a`, type-2 bodies become sums with weight 1, the i-th type-6 statement
//! gets priority i, and a symbol-table line `a name` becomes an output with condition `[a]`.
//! Atom 1, gringo's "false" atom, gets no special treatment: it is listed under `B-`.

use crate::lexer::Lexer;
use crate::{
    Body, External, ExternalValue, Head, HeadKind, Minimize, Output, ParseError, ProgramBuilder,
    Rule, WLit,
};

pub(crate) fn read(lx: &mut Lexer, b: &mut dyn ProgramBuilder) -> Result<(), ParseError> {
    let incremental = rules(lx, b)?;
    symbols(lx, b)?;
    compute(lx, b, b"B+", "`B+` (the compute statement)", -1)?;
    compute(lx, b, b"B-", "`B-`", 1)?;
    if lx.peek_token() == b"E" {
        lx.advance(1);
        lx.end_line()?;
        loop {
            let atom = lx.atom_or_zero()?;
            lx.end_line()?;
            if atom == 0 {
                break;
            }
            b.external(External {
                atom,
                value: ExternalValue::Free,
            });
        }
    }
    lx.count("the number of models (a non-negative integer)")?;
    lx.end_line()?;
    if !lx.only_whitespace_left() {
        return Err(if incremental {
            lx.error("several incremental steps are not supported (only one step is read)")
        } else {
            lx.error("unexpected content after the number of models (end of the program)")
        });
    }
    Ok(())
}

fn cap(lx: &Lexer, n: usize) -> usize {
    n.min(lx.remaining() / 2 + 1)
}

/// `n m l1 … ln` where the first `m` literals are negative: the body of types 1, 3 and 8.
fn normal_body(lx: &mut Lexer) -> Result<Vec<i32>, ParseError> {
    let n = lx.count("the number of body literals")?;
    let neg = neg_count(lx, n)?;
    let mut v = Vec::with_capacity(cap(lx, n));
    for i in 0..n {
        let a = lx.atom()? as i32;
        v.push(if i < neg { -a } else { a });
    }
    Ok(v)
}

/// The count of negative literals, which cannot exceed `n`.
fn neg_count(lx: &mut Lexer, n: usize) -> Result<usize, ParseError> {
    lx.peek_token();
    let at = lx.pos();
    let m = lx.count("the number of negative body literals")?;
    if m > n {
        return Err(lx.error_at(
            at,
            format!("the number of negative literals ({m}) exceeds the number of literals ({n})"),
        ));
    }
    Ok(m)
}

/// `n m l1 … ln` then (if `weights`) `w1 … wn`; weight 1 otherwise.
fn sum_lits(lx: &mut Lexer, n: usize, neg: usize, weights: bool) -> Result<Vec<WLit>, ParseError> {
    let mut v = Vec::with_capacity(cap(lx, n));
    for i in 0..n {
        let a = lx.atom()? as i32;
        v.push(WLit {
            lit: if i < neg { -a } else { a },
            weight: 1,
        });
    }
    if weights {
        for w in v.iter_mut() {
            w.weight = lx.int_in(0, i32::MAX as i64, "a non-negative weight")?;
        }
    }
    Ok(v)
}

fn bound(lx: &mut Lexer) -> Result<i64, ParseError> {
    lx.int_in(0, i32::MAX as i64, "a non-negative bound")
}

fn head_atoms(lx: &mut Lexer) -> Result<Vec<u32>, ParseError> {
    let n = lx.int_in(1, u32::MAX as i64, "the number of head atoms (at least 1)")? as usize;
    let mut v = Vec::with_capacity(cap(lx, n));
    for _ in 0..n {
        v.push(lx.atom()?);
    }
    Ok(v)
}

fn disjunctive(atoms: Vec<u32>) -> Head {
    Head {
        kind: HeadKind::Disjunctive,
        atoms,
    }
}

/// The rule section up to its `0`; returns whether a `90 0` incremental mark was seen.
fn rules(lx: &mut Lexer, b: &mut dyn ProgramBuilder) -> Result<bool, ParseError> {
    let mut incremental = false;
    let mut minimize_index = 0i32;
    loop {
        if lx.at_eof() {
            return Err(lx.error(if lx.pos() == 0 {
                "empty input: expected an aspif header `asp 1 0 0` or a smodels rule"
            } else {
                "unexpected end of input: expected a smodels rule type or 0 ending the rules"
            }));
        }
        lx.peek_token();
        let at = lx.pos();
        let kind = lx.int_in(
            0,
            92,
            "a smodels rule type (1, 2, 3, 5, 6, 8, 90, 91, 92) or 0",
        )?;
        match kind {
            0 => {
                lx.end_line()?;
                return Ok(incremental);
            }
            1 => {
                let head = disjunctive(vec![lx.atom()?]);
                let body = Body::Normal(normal_body(lx)?);
                b.rule(Rule { head, body });
            }
            2 => {
                let head = disjunctive(vec![lx.atom()?]);
                let n = lx.count("the number of body literals")?;
                let neg = neg_count(lx, n)?;
                let lower = bound(lx)?;
                let lits = sum_lits(lx, n, neg, false)?;
                b.rule(Rule {
                    head,
                    body: Body::Sum { lower, lits },
                });
            }
            3 | 8 => {
                let atoms = head_atoms(lx)?;
                let kind = if kind == 3 {
                    HeadKind::Choice
                } else {
                    HeadKind::Disjunctive
                };
                let body = Body::Normal(normal_body(lx)?);
                b.rule(Rule {
                    head: Head { kind, atoms },
                    body,
                });
            }
            5 => {
                let head = disjunctive(vec![lx.atom()?]);
                let lower = bound(lx)?;
                let n = lx.count("the number of body literals")?;
                let neg = neg_count(lx, n)?;
                let lits = sum_lits(lx, n, neg, true)?;
                b.rule(Rule {
                    head,
                    body: Body::Sum { lower, lits },
                });
            }
            6 => {
                lx.int_in(0, 0, "0 (the unused head of a minimize statement)")?;
                let n = lx.count("the number of literals")?;
                let neg = neg_count(lx, n)?;
                let lits = sum_lits(lx, n, neg, true)?;
                b.minimize(Minimize {
                    priority: minimize_index,
                    lits,
                });
                minimize_index = minimize_index.checked_add(1).ok_or_else(|| {
                    lx.error_at(at, "too many minimize statements (more than 2^31)")
                })?;
            }
            90 => {
                lx.int_in(0, 0, "0 after the incremental mark 90")?;
                incremental = true;
            }
            91 => {
                let atom = lx.atom()?;
                let value = match lx.int_in(0, 2, "an external value (0 false, 1 true, 2 free)")? {
                    0 => ExternalValue::False,
                    1 => ExternalValue::True,
                    _ => ExternalValue::Free,
                };
                b.external(External { atom, value });
            }
            92 => {
                let atom = lx.atom()?;
                b.external(External {
                    atom,
                    value: ExternalValue::Release,
                });
            }
            k => {
                return Err(lx.error_at(
                    at,
                    format!(
                        "unknown smodels rule type {k} (expected 1, 2, 3, 5, 6, 8, 90, 91, 92 or 0)"
                    ),
                ))
            }
        }
        lx.end_line()?;
    }
}

/// `atom name` lines up to `0`: each becomes an output with condition `[atom]`.
fn symbols(lx: &mut Lexer, b: &mut dyn ProgramBuilder) -> Result<(), ParseError> {
    loop {
        if lx.at_eof() {
            return Err(
                lx.error("unexpected end of input: expected a symbol table entry `atom name` or 0")
            );
        }
        let atom = lx.atom_or_zero()?;
        if atom == 0 {
            lx.end_line()?;
            return Ok(());
        }
        lx.single_space("the atom's name")?;
        let at = lx.pos();
        let raw = lx.rest_of_line();
        if raw.is_empty() {
            return Err(lx.error_at(at, "expected the atom's name, found end of line"));
        }
        let name = std::str::from_utf8(raw)
            .map_err(|_| lx.error_at(at, "the atom's name is not valid UTF-8"))?
            .to_string();
        lx.end_line()?;
        b.output(Output {
            name,
            condition: vec![atom as i32],
        });
    }
}

/// `B+` or `B-`, then atoms one per line up to `0`; each becomes the constraint
/// `:- sign·a` (`sign` = -1 for `B+`: the atom must be true).
fn compute(
    lx: &mut Lexer,
    b: &mut dyn ProgramBuilder,
    word: &[u8],
    what: &str,
    sign: i32,
) -> Result<(), ParseError> {
    lx.word(word, what)?;
    lx.end_line()?;
    loop {
        if lx.at_eof() {
            return Err(lx.error("unexpected end of input: expected an atom or 0 ending the list"));
        }
        let atom = lx.atom_or_zero()?;
        lx.end_line()?;
        if atom == 0 {
            return Ok(());
        }
        let head = disjunctive(Vec::new());
        b.rule(Rule {
            head,
            body: Body::Normal(vec![sign * atom as i32]),
        });
    }
}
